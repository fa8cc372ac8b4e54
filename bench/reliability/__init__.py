"""Staying up: the lab deployment and its failover times (lab), a soak over minutes
(soak), /healthz under cheap abuse (abuse)."""
