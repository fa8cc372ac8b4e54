"""Benchmarks: scripts that print figures (run them with `python bench/<name>.py`)."""
