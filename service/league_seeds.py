"""A league member's randomness in the games the league seats it at (docs/fairness.md,
"League seats"): the league, not the player, takes the seat, so the member's client
commits ahead of time. It registers the end of a hash chain: it keeps a random `x`, and
sends `sha256` applied to it many times over (`PUT /v1/leagues/{id}/seat-commitment`).
Each table the league opens seats the member with the commitment held now; when the member
reveals a secret `r` whose SHA-256 is that commitment, `r` becomes the next commitment, so
the next table asks for the link before it, which only the holder of `x` can compute. A
member with no commitment registered is seated with none (`none`), and one whose client
does not come back in time is `withheld`: neither ever holds a game's start up.

The commitment held is kept by the leagues' store (stores.leagues), outside any log: an
operator who swapped it would seat the member with a commitment its client cannot open,
and the client would show a `withheld` it did not choose."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.rng import seat_commitment

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def register(boot: Bootstrap, league_id: str, player_id: str, commitment: str) -> None:
    """Hold `commitment` (the end of the member's chain) for the member's next tables."""
    boot.leagues.keep_commitment(league_id, player_id, commitment)


def held(boot: Bootstrap, league_id: str, player_id: str) -> str | None:
    """Return the commitment the league seats the member with now, or None."""
    return boot.leagues.commitment(league_id, player_id)


def advance(boot: Bootstrap, league_id: str, player_id: str, secret: str) -> None:
    """After the member revealed `secret` at a table of the league: if it opens the
    commitment held, it is the commitment of the member's next tables."""
    if held(boot, league_id, player_id) == seat_commitment(bytes.fromhex(secret)):
        register(boot, league_id, player_id, secret)
