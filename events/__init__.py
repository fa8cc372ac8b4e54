"""The event log: envelopes, Redis keys, the append script, fold and replay."""
