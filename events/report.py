"""What an audit reports (events.audit.verify): each check, passed or failed at its first
bad event, and the whole verdict; its own module so that the checks kept apart from the
audit (events.proof_checks) fill in the same report without importing the audit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Check:
    name: str
    ok: bool = True
    detail: str = "ok"
    seq: int | None = None  # the first event that fails it
    code: str | None = None  # why it failed, stable (openapi.yaml VerifyReport): pages word it

    def fail(self, seq: int | None, detail: str, *, code: str) -> None:
        """Record the first failure only: where, the reason in English, and its code."""
        if self.ok:
            self.ok, self.seq, self.detail, self.code = False, seq, detail, code


@dataclass
class Report:
    game_id: str
    events: int
    checks: list[Check] = field(default_factory=list)
    signed_by: str | None = None  # the trusted key that signed it, when keys were given

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        """Return the report as JSON data."""
        return {
            "game": self.game_id,
            "events": self.events,
            "ok": self.ok,
            "signed_by": self.signed_by,
            "checks": [
                {"name": c.name, "ok": c.ok, "seq": c.seq, "code": c.code, "detail": c.detail}
                for c in self.checks
            ],
        }

    def to_text(self) -> str:
        """Return a short human report."""
        lines = [f"game {self.game_id}: {self.events} events"]
        for c in self.checks:
            where = f" (event {c.seq})" if c.seq is not None else ""
            lines.append(f"  {'PASS' if c.ok else 'FAIL'} {c.name}{where}: {c.detail}")
        lines.append("verified" if self.ok else "NOT verified")
        return "\n".join(lines)
