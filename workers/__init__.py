"""RQ jobs and the scheduling around them; they call the same use cases as the API."""
