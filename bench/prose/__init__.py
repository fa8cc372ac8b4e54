"""The prose of docs/performance.md that run_all writes: each section's intro
(section_intros) and "Where the time of an action goes" (where_time_goes)."""
