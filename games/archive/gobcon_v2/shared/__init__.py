"""The shared modules of games/ that gobcon_v2 uses, as they were at its freeze (tools/archive_rules.py)."""
