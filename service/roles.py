"""Roles kept in the store, granted and revoked without a restart.

- `operator`: runs the server: grants and revokes roles, aborts any game, and may do
  whatever an organizer may. The first one is made on the server with
  `marketfold admin grant PLAYER operator`; the `OPERATORS` setting stays a bootstrap
  (those players are operators and cannot be revoked through the API).
- `organizer`: creates leagues (and runs the leagues they organize; a league's own
  co-organizers need no role, see service.league_organizers).

Each role is a set of player ids (stores.roles); every grant and revocation is also
appended to the roles' log (player, role, change, by, at), so who did what stays known.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import codec
from service import config
from service.errors import Conflict, Forbidden, Invalid

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

OPERATOR, ORGANIZER = "operator", "organizer"
ROLES = (OPERATOR, ORGANIZER)
HOW = {
    OPERATOR: (
        "an operator makes another with PUT /v1/players/{id}/roles/operator, and the first "
        "one is made on the server with `marketfold admin grant PLAYER operator`"
    ),
    ORGANIZER: (
        "ask one of the server's operators to grant it (PUT /v1/players/{id}/roles/organizer,"
        " or `marketfold admin grant PLAYER organizer` on the server)"
    ),
}


class MissingRole(Forbidden):
    """A 403 that names the role the caller lacks (`role`) and how to get it (`detail`)."""

    def __init__(self, role: str, doing: str, how: str | None = None):
        code = f"not_{role}"
        super().__init__(code, f"{doing} needs the {role} role: {how or HOW[role]}")
        self.role = role

    @property
    def extra(self) -> dict[str, Any]:
        return {**super().extra, "missing_role": self.role}


def check_role(role: str, field: str = "role") -> str:
    """Return `role` if it is one, else refuse it naming `field`."""
    if role not in ROLES:
        why = f"must be one of {list(ROLES)}"
        raise Invalid("invalid_role", f"no role {role!r}", errors={field: [why]})
    return role


def from_config(boot: Bootstrap) -> set[str]:
    """Return the operators named in the `OPERATORS` setting (the bootstrap)."""
    return set(config.operators(boot.config))


def roles_of(boot: Bootstrap, player_id: str) -> list[str]:
    """Return the roles a player holds, in ROLES order (an operator is not listed as an
    organizer unless granted it: `has` lets operators do what organizers do)."""
    held = [r for r in ROLES if boot.roles.holds(r, player_id)]
    if player_id in from_config(boot) and OPERATOR not in held:
        held.insert(0, OPERATOR)
    return held


def has(boot: Bootstrap, player_id: str, role: str) -> bool:
    """Return True if the player holds `role` (an operator holds every role's powers)."""
    if player_id in from_config(boot):
        return True
    wanted = (role, OPERATOR) if role != OPERATOR else (OPERATOR,)
    return any(boot.roles.holds(r, player_id) for r in wanted)


def require(boot: Bootstrap, player_id: str, role: str, doing: str) -> None:
    """Raise MissingRole unless the player holds `role` (or is an operator)."""
    if not has(boot, player_id, role):
        raise MissingRole(role, doing)


def grant(boot: Bootstrap, player_id: str, role: str, by: str) -> list[str]:
    """Give a player a role (nothing changes if they hold it); return their roles."""
    check_role(role)
    if boot.roles.add(role, player_id):
        _log(boot, player_id, role, "granted", by)
    return roles_of(boot, player_id)


def revoke(boot: Bootstrap, player_id: str, role: str, by: str) -> list[str]:
    """Take a role from a player; an operator named in `OPERATORS` stays one."""
    check_role(role)
    if role == OPERATOR and player_id in from_config(boot):
        why = "this player is an operator by the server's OPERATORS setting; remove them there"
        raise Conflict("role_from_config", why)
    if boot.roles.remove(role, player_id):
        _log(boot, player_id, role, "revoked", by)
    return roles_of(boot, player_id)


def holders(boot: Bootstrap) -> list[dict[str, Any]]:
    """Return every role held: {player, name, role, source: store | config}, by role."""
    out = [{"player": p, "role": OPERATOR, "source": "config"} for p in sorted(from_config(boot))]
    for role in ROLES:
        for player in boot.roles.holders(role):
            if not (role == OPERATOR and player in from_config(boot)):
                out.append({"player": player, "role": role, "source": "store"})
    for row in out:
        row["name"] = boot.players.name(row["player"])
    return out


def _log(boot: Bootstrap, player_id: str, role: str, change: str, by: str) -> None:
    entry = {"player": player_id, "role": role, "change": change, "by": by, "at": codec.now_iso()}
    boot.roles.log(entry)
