"""Open event streams: 1,000 of them beside the games (open_streams), and every seat's
table drawn from its stream (tables)."""
