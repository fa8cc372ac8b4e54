"""`marketfold admin`: roles kept in the store, changed on the configured Redis
(REDIS_URL) without a restart; the way to make the first operator.

    marketfold admin grant PLAYER_OR_HANDLE operator|organizer
    marketfold admin revoke PLAYER_OR_HANDLE operator|organizer
    marketfold admin roles                 every role held, and where it comes from

Afterwards that player's token works for the role at once (every request reads the
roles from the store). An operator then grants and revokes roles through the API
(`PUT`/`DELETE /v1/players/{id}/roles/{role}`).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

import redis


@dataclass
class Store:
    """What the role commands read: the configuration, the players and the roles
    (stores.players, stores.roles)."""

    config: dict[str, Any]
    players: Any
    roles: Any


def add_parser(sub: Any) -> None:
    admin = sub.add_parser("admin", help="grant or revoke a player's role (operator, organizer)")
    admin.add_argument("action", choices=["grant", "revoke", "roles"])
    admin.add_argument("player", nargs="?", help="the player's id or handle")
    admin.add_argument("role", nargs="?", choices=["operator", "organizer"])


def run(args: argparse.Namespace) -> int:
    from service import config, players, roles
    from service.bootstrap import client
    from service.errors import DomainError
    from stores.players import RedisPlayers
    from stores.roles import RedisRoles

    cfg = config.load()
    on = client(cfg["REDIS_URL"], blocking=False)
    store = Store(cfg, RedisPlayers(client=on), RedisRoles(client=on))
    try:
        if args.action == "roles":
            for row in roles.holders(store):  # type: ignore[arg-type]
                print(f"{row['player']}  {row['name'] or '?'}  {row['role']}  ({row['source']})")
            return 0
        if not (args.player and args.role):
            print(f"marketfold admin {args.action}: name a player and a role", file=sys.stderr)
            return 2
        player = players.named(store, args.player)  # type: ignore[arg-type]
        change = roles.grant if args.action == "grant" else roles.revoke
        held = change(store, player["id"], args.role, "admin-cli")  # type: ignore[arg-type]
    except DomainError as e:
        print(f"marketfold admin {args.action}: {e.detail}", file=sys.stderr)
        return 1
    except redis.RedisError as e:
        print(f"marketfold admin: the store at REDIS_URL did not answer ({e})", file=sys.stderr)
        return 1
    print(f"{player['id']} ({player['name']}): {', '.join(held) or 'no role'}")
    return 0
