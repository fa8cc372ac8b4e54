"""The in-memory twins of the storage ports (stores/): one process, one thread, nothing
shared. They pass the same contract tests as the Redis adapters (tests/stores/)."""
