"""Actions over HTTP: actions/s and latency next to a bare Flask endpoint (actions,
bare_app), one call a move (one_call), Redis round trips (round_trips), and where an
action's CPU goes: A/B runs in one process (action_cpu) and over HTTP (ab_http, ab_app),
by process (capacity) and by part under py-spy (profile_move)."""
