"""Player routes under /v1/players: public profiles, the caller's games and tokens."""

from __future__ import annotations

from flask import Blueprint, Response

from api import auth, present
from api.context import boot
from api.parse import body, lobby_query, path_id
from api.schemas import PlayerUpdate
from service import inbox, lobby, players, profiles, roles, tables, tokens

bp = Blueprint("players", __name__, url_prefix="/v1")


@bp.post("/players/me/tokens")
def create_token():
    player = auth.caller(boot())
    return tokens.create(boot(), player), 201


@bp.get("/players/me/tokens")
def list_tokens():
    player = auth.caller(boot())
    return {"tokens": tokens.listed(boot(), player["id"], player.get("token_id"))}


@bp.delete("/players/me/tokens/<token_id>")
def revoke_token(token_id: str):
    player = auth.caller(boot())
    tokens.revoke(boot(), player["id"], path_id(token_id, "token_not_found", "token"))
    return Response(status=204)


@bp.get("/players/me")
def whoami():
    return players.me(boot(), auth.caller(boot()))


def _operator(doing: str) -> dict[str, str]:
    caller = auth.caller(boot())
    roles.require(boot(), caller["id"], roles.OPERATOR, doing)
    return caller


@bp.get("/roles")
def list_roles():
    _operator("listing roles")
    return {"roles": roles.holders(boot())}


@bp.put("/players/<player_id>/roles/<role>")
def grant_role(player_id: str, role: str):
    caller = _operator("granting a role")
    player = players.named(boot(), path_id(player_id, "player_not_found", "player"))
    held = roles.grant(boot(), player["id"], roles.check_role(role), caller["id"])
    return {"player": player["id"], "name": player["name"], "roles": held}


@bp.delete("/players/<player_id>/roles/<role>")
def revoke_role(player_id: str, role: str):
    caller = _operator("revoking a role")
    player = players.named(boot(), path_id(player_id, "player_not_found", "player"))
    held = roles.revoke(boot(), player["id"], roles.check_role(role), caller["id"])
    return {"player": player["id"], "name": player["name"], "roles": held}


@bp.patch("/players/me")
def update_me():
    player = auth.caller(boot())
    data = PlayerUpdate().load(body())
    return players.set_handle(boot(), player, data["handle"])


@bp.get("/players/me/invitations")
def my_invitations():
    player = auth.caller(boot())
    return {"invitations": tables.invitations(boot(), player["id"])}


@bp.get("/players/me/games")
def my_games():
    player = auth.caller(boot())
    query = lobby_query(with_player=False)
    page = lobby.page(boot(), {**query, "player": player["id"], "unlisted": True})
    owing = {t["game"] for t in inbox.turns(boot(), player["id"])}
    return present.my_games(page, player["id"], owing)


@bp.get("/players/<player_id>")
def profile(player_id: str):
    auth.caller(boot(), required=False)  # a token sent must be valid
    return profiles.profile(boot(), path_id(player_id, "player_not_found", "player"))
