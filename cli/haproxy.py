"""HAProxy in front of several API hosts (Debian's `haproxy` package): the configuration
the lab (cli.lab) runs, and the one docs/architecture.md ("Past one machine") shows.

What matters for marketfold:
- event streams (SSE) pass through: HAProxy forwards a response's bytes as they come (it
  does not buffer them), and `timeout server`/`timeout client` are far longer than the
  streams' heartbeat (`SSE_HEARTBEAT_S`, 15 s) and their life (`SSE_MAX_S`, 600 s), so an
  idle stream is never cut by the balancer; a cut one resumes with `Last-Event-ID` on
  whichever host the balancer picks, since API hosts hold no state;
- requests go to the hosts whose `GET /readyz` says the whole service works (the store,
  the workers' sweeper, registered workers, queues moving); while no host is ready, to
  every host that serves (`GET /openapi.yaml`: that route needs neither Redis nor a rate
  count, so it asks "is this API process serving?"). Readiness is shared by every host
  (the same store, the same workers): a store master failing over, or every worker down,
  makes every host unready at once, and refusing all moves then would be worse than
  taking them (they are appended; deadlines wait for the workers). Each host is checked
  every half second and taken out after two failures. A host taken out of `serving` (it
  stopped answering) has its open connections cut, so streams resume elsewhere at once;
  one taken out of `ready` keeps them (every host goes unready together when the store
  fails over: cutting them would fail requests a host is answering);
- a request that could not be sent to a host (connection refused) is sent to another
  (`retries`, `option redispatch`). Only failures to connect are retried, so the
  balancer never sends a request twice; the client's Idempotency-Key covers the rest;
- no stickiness is needed (docs/architecture.md).
"""

from __future__ import annotations

import shutil
from pathlib import Path


def binary() -> str | None:
    """Return the path of `haproxy`, None if it is not installed."""
    return shutil.which("haproxy")


def config(bind: str, servers: dict[str, str], port: int = 8000) -> str:
    """The configuration: listen on `bind:port`, balance over `servers` (name -> host:port)."""
    backends = "\n".join(f"    server {name} {address} check" for name, address in servers.items())
    return f"""global
    maxconn 8000

defaults
    mode http
    timeout connect 2s
    timeout http-request 10s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    retries 3
    retry-on conn-failure
    option redispatch 1
    option forwardfor

frontend api
    bind {bind}:{port}
    use_backend ready if {{ nbsrv(ready) gt 0 }}
    default_backend serving

backend ready
    balance leastconn
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 500ms fall 2 rise 2
    http-response set-header X-Served-By %s
{backends}

backend serving
    balance leastconn
    option httpchk GET /openapi.yaml
    http-check expect status 200
    default-server inter 500ms fall 2 rise 2 on-marked-down shutdown-sessions
    http-response set-header X-Served-By %s
{backends}
"""


def argv(conf: Path) -> list[str]:
    """The command line: HAProxy in the foreground (`-db`) on `conf`."""
    return [binary() or "haproxy", "-f", str(conf), "-db"]
