"""The workers' jobs: simultaneous phases and deadlines (phases, phase_load under load),
notifications by e-mail and webhook (notify, notify_players, receivers)."""
