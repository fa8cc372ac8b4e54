"""RQ jobs, the scheduler behind service.ports.Scheduler, and the worker runner; the jobs
call the same use cases as the API."""
