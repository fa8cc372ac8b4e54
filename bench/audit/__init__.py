"""Trusting nobody: the offline audit's events per second (verify), and what the public
log of games and the signatures cost (proof)."""
