"""Benchmarks: scripts that print figures (run them from the repository with
`python -m bench.<name>`)."""
