"""Frozen copies of earlier rules versions (written by tools/archive_rules.py), registered in
`games.ARCHIVE` so that games played under them still replay and verify.

Each copy holds its rules and, in its `shared/` folder, the shared modules of `games/` it used
(`kit`, `catalog`, `decktet`, ...) as they were at its freeze: it imports nothing live but
`games.base` (the interface the service and the audit meet by identity) and `games.rng` (the
frozen draw algorithm), which tests/games/test_archive.py checks. What the live interface
gained after a freeze, none of it rules, is filled in here (`on_live_interface`)."""

from __future__ import annotations

from typing import Any


def absent_card_catalogue(options: dict[str, Any] | None, lang: str) -> list[dict[str, Any]]:
    """Stands for the card catalogue of a version frozen before games had one."""
    raise NotImplementedError("filled in by games.archive.on_live_interface")


# What a version frozen before the live interface grew lacks (the copy's __init__ assembles
# with these under its own names; tools/archive_rules.py writes that line)
LATER_INTERFACE: dict[str, Any] = {"card_catalogue": absent_card_catalogue}


def on_live_interface(archived: Any, live: Any) -> Any:
    """Return `archived` with what the interface gained since its freeze: `private_log`
    (false: every event in the public log, as then) and `keeps_private_log` (the same
    whatever the options), `option_texts` (none) and, if it had none, the live version's
    card catalogue (names and texts for clients; the Decktet's cards did not change)."""
    if not hasattr(archived, "private_log"):
        archived.private_log = False
    if not hasattr(archived, "keeps_private_log"):
        archived.keeps_private_log = lambda options, keeps=archived.private_log: keeps
    if not hasattr(archived, "option_texts"):  # its options described in English only
        archived.option_texts = {}
    if archived.card_catalogue is absent_card_catalogue:
        archived.card_catalogue = live.card_catalogue
    return archived
