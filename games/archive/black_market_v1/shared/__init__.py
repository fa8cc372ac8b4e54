"""The shared modules of games/ that black_market_v1 uses, as they were at its freeze (tools/archive_rules.py)."""
