"""`marketfold verify` on a league's export: its chain, its signature, and its standings
recounted with the organizer's rulings, as the API shows them; an edited ruling or
claimed standings fail, and without a trusted key the league is not verified."""

from __future__ import annotations

import json

from tests.api.helpers import bearer
from tests.leagues.helpers import played_league


def test_marketfold_verify_recounts_a_league_export_with_its_rulings(client, app, tmp_path, capsys):
    from cli import main as cli_main

    deps, op, players, lid, gid = played_league(client, app)
    (tmp_path / "keys.json").write_text(client.get("/v1/keys").get_data(as_text=True))
    keys = ["--keys", str(tmp_path / "keys.json")]
    standing = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    first = standing[0]["player"]
    res = client.post(
        f"/v1/leagues/{lid}/rulings",
        json={"game": gid, "kind": "forfeit", "players": [first], "reason": "played for b"},
        headers=bearer(op),
    )
    assert res.status_code == 201
    export = client.get(f"/v1/leagues/{lid}/export")
    saved = tmp_path / "league.json"
    saved.write_bytes(export.get_data())
    bundle = export.get_json()
    assert bundle["signature"]["kid"] and bundle["standings"] == res.get_json()["standings"]

    assert cli_main.main(["verify", *keys, "--json", str(saved)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["league"] == lid and report["signed_by"]
    assert [r["kind"] for r in report["rulings"]] == ["forfeit"]
    recounted = {r["player"]: r for r in report["standings"]}
    assert recounted[first]["points"] == 0  # the forfeit counted, as the API says
    api = client.get(f"/v1/leagues/{lid}/standings").get_json()["standings"]
    assert report["standings"] == api

    assert cli_main.main(["verify", *keys, str(saved)]) == 0
    text = capsys.readouterr().out
    assert "PASS standings recounted with rulings: 1 ruling(s) applied" in text
    assert "forfeit" in text and "'played for b'" in text and "verified" in text

    # a ruling edited after the export breaks the chain; other standings fail the recount
    forged = json.loads(saved.read_bytes())
    forged["events"][-1]["data"]["reason"] = "no reason at all"
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    assert cli_main.main(["verify", *keys, str(tmp_path / "forged.json")]) == 1
    assert "FAIL hash chain" in capsys.readouterr().out
    claimed = json.loads(saved.read_bytes())
    claimed["standings"][0]["points"] += 1
    (tmp_path / "claimed.json").write_text(json.dumps(claimed))
    assert cli_main.main(["verify", *keys, str(tmp_path / "claimed.json")]) == 1
    assert "FAIL standings recounted with rulings" in capsys.readouterr().out
    # without a key the league is not verified
    assert cli_main.main(["verify", str(saved)]) == 1
    assert "no trusted key" in capsys.readouterr().out
