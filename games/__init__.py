"""The pure rules of every game marketfold serves, found by ruleset id."""

from __future__ import annotations

from games.archive import on_live_interface
from games.archive.black_market_v1 import GAME as BLACK_MARKET_V1
from games.archive.black_market_v2 import GAME as BLACK_MARKET_V2
from games.archive.gobcon_v1 import GAME as GOBCON_V1
from games.archive.gobcon_v2 import GAME as GOBCON_V2
from games.archive.goblin_market_v1 import GAME as GOBLIN_MARKET_V1
from games.archive.goblin_market_v2 import GAME as GOBLIN_MARKET_V2
from games.base import Game
from games.black_market import GAME as BLACK_MARKET
from games.gobcon import GAME as GOBCON
from games.goblin_market import GAME as GOBLIN_MARKET
from games.sorcerous_futures import GAME as SORCEROUS_FUTURES

REGISTRY: dict[str, Game] = {
    GOBLIN_MARKET.id: GOBLIN_MARKET,
    SORCEROUS_FUTURES.id: SORCEROUS_FUTURES,
    GOBCON.id: GOBCON,
    BLACK_MARKET.id: BLACK_MARKET,
}


# Earlier rules versions kept importable, so that games played under them replay and verify
# under the rules they were played with: (ruleset id, rules_version) -> game. When a game's
# rules change, freeze its package first (`python tools/archive_rules.py <package> <version>`
# writes games/archive/<package>_v<version>/ with the shared modules it uses), register the
# copy here and raise `rules_version` in the live one.
ARCHIVE: dict[tuple[str, int], Game] = {
    (archived.id, archived.rules_version): on_live_interface(archived, REGISTRY[archived.id])
    for archived in (
        BLACK_MARKET_V1,
        BLACK_MARKET_V2,
        GOBCON_V1,
        GOBCON_V2,
        GOBLIN_MARKET_V1,
        GOBLIN_MARKET_V2,
    )
}


def get(ruleset_id: str, version: int | None = None) -> Game | None:
    """Return the game with id `ruleset_id` (at rules `version` if given), or None."""
    game = REGISTRY.get(ruleset_id)
    if version is None or (game is not None and game.rules_version == version):
        return game
    return ARCHIVE.get((ruleset_id, version))
