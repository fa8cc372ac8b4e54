"""Every archived rules version still plays: games played under it replay and verify."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import games
from tests.games.playout import playout


@pytest.mark.parametrize("key", sorted(games.ARCHIVE), ids=lambda k: f"{k[0]}-v{k[1]}")
def test_an_archived_rules_version_still_plays_a_whole_game_with_its_invariants(key):
    ruleset, version = key
    game = games.get(ruleset, version)
    assert game.id == ruleset and game.rules_version == version
    assert games.get(ruleset).rules_version > version, "the live rules moved on"
    run = playout(game, game.min_players + 1, 7, {}, lambda run: game.check_invariants(run.state))
    assert game.is_over(run.state)


LIVE_INTERFACE = {"games.base", "games.rng"}
ARCHIVE_DIR = Path(games.__file__).parent / "archive"


def _live_imports(path: Path) -> set[str]:
    """The modules of live `games` (not of the archive) a file imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            in_games = node.module == "games"
            names = [f"games.{a.name}" for a in node.names] if in_games else [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found |= {n for n in names if n.split(".")[0] == "games"}
    return {n for n in found if not n.startswith("games.archive")}


@pytest.mark.parametrize(
    "folder", sorted(p.name for p in ARCHIVE_DIR.iterdir() if (p / "__init__.py").exists())
)
def test_an_archived_rules_version_imports_no_live_shared_module_but_base_and_rng(folder):
    """A later change to games/kit.py, catalog.py, decktet.py, ... cannot change archived
    rules: each archive has its own copies (tools/archive_rules.py)."""
    live = {
        f"{path.relative_to(ARCHIVE_DIR)}: {name}"
        for path in sorted((ARCHIVE_DIR / folder).rglob("*.py"))
        for name in _live_imports(path) - LIVE_INTERFACE
    }
    assert not live, f"archived rules import live shared code: {sorted(live)}"


def test_every_archive_folder_is_registered():
    folders = {p.name for p in ARCHIVE_DIR.iterdir() if (p / "__init__.py").exists()}
    registered = {f"{ruleset.replace('-', '_')}_v{version}" for ruleset, version in games.ARCHIVE}
    assert folders == registered


@pytest.mark.process  # runs git
def test_archive_rules_freezes_a_package_with_its_shared_modules_and_the_copy_plays(
    tmp_path, monkeypatch
):
    """tools/archive_rules.py writes a copy that imports only its own files, base and rng,
    and that plays a whole game as the live package does."""
    import importlib
    import sys

    import games.archive
    from tools import archive_rules

    monkeypatch.setattr(archive_rules, "ARCHIVE", tmp_path)
    monkeypatch.setattr(games.archive, "__path__", [*games.archive.__path__, str(tmp_path)])
    folder = archive_rules.archive("goblin_market", 99, "HEAD")
    assert {p.stem for p in (folder / "shared").glob("*.py")} >= {"kit", "catalog", "decktet"}
    assert (tmp_path / "data" / "goblin_market_v99" / "decktet.json").exists()
    live = {name for path in folder.rglob("*.py") for name in _live_imports(path)}
    assert live <= LIVE_INTERFACE, live
    try:
        copy = importlib.import_module("games.archive.goblin_market_v99").GAME
        assert copy.rules_version == games.get("goblin-market").rules_version  # as at HEAD
        run = playout(copy, 3, 7, {}, lambda run: copy.check_invariants(run.state))
        assert copy.is_over(run.state)
        assert (
            sys.modules["games.archive.goblin_market_v99.shared.kit"]
            is not sys.modules["games.kit"]
        )
    finally:
        for name in [m for m in sys.modules if m.startswith("games.archive.goblin_market_v99")]:
            del sys.modules[name]
