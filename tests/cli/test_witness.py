"""Witnesses against the operator (#45): two `marketfold witness` processes cosign a real
server's checkpoints while its log only grows and keeps its invariants; then the operator
does what it can on its own machine (rewrites a finished game's stream, deletes its log
index entries and logs it again; deletes the log's keys and restarts; cuts the log back).
Each witness refuses by name, and an auditor holding only the published keys and the two
witnesses' keys sees `marketfold verify --witness ... --quorum 2` (and tools/rederive.js)
fail the rewritten game with a named finding (docs/audit.md, "Checkpoints and
witnesses")."""

import json
import shutil
import subprocess
import sys
import time

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import log_checks, note, tlog_keys, transparency, witness_count
from service import transparency as public_log
from tests.conftest import ROOT, api_server
from tests.events.test_tlog_operator import drop_log, finished, rewrite_stream

NODE = shutil.which("node")
WITNESSED = witness_count.CHECK


class Witnesses:
    """Two witnesses, each with its key and state directory, and the keys an auditor holds."""

    def __init__(self, tmp_path, client):
        self.tmp = tmp_path
        self.keyfile = tmp_path / "keys.json"
        self.keyfile.write_bytes(client.get("/v1/keys").data)  # the published keys, once
        self.vkeys = []
        for name in ("w1.example", "w2.example"):
            done = self.cli(name, "--name", name, "--vkey")
            assert done.returncode == 0, done
            self.vkeys.append(done.stdout.strip())
        assert all(note.parse_vkey(v).kind == note.COSIGNATURE for v in self.vkeys)

    def cli(self, name: str, *extra: str) -> subprocess.CompletedProcess:
        key = self.tmp / f"{name}.key"
        argv = [sys.executable, "-m", "cli", "witness", "--key-file", str(key), *extra]
        return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)

    def once(self, name: str, server: str) -> tuple[int, str]:
        state = self.tmp / f"{name}-state"
        done = self.cli(
            name, "--once", "--server", server, "--state", str(state), "--keys", str(self.keyfile)
        )
        assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done
        return done.returncode, done.stdout

    def server(self, redis_url, app):
        return api_server(
            redis_url,
            MARKETFOLD_SIGNING_KEY_DIR=app.config["SIGNING_KEY_DIR"],
            MARKETFOLD_WITNESS_KEYS=",".join(self.vkeys),
        )

    def verify(self, server: str, bundle: dict, *extra: str) -> tuple[int, dict]:
        path = self.tmp / "game.json"
        path.write_text(json.dumps(bundle))
        given = [a for v in self.vkeys for a in ("--witness", v)]
        argv = [sys.executable, "-m", "cli", "verify", "--json", "--keys", str(self.keyfile)]
        argv += ["--server", server, *given, "--quorum", "2", *extra, str(path)]
        done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert "Traceback" not in done.stderr, done
        return done.returncode, {c["name"]: c for c in json.loads(done.stdout)["checks"]}

    def rederive(self, server: str, bundle: dict, query: str = "") -> subprocess.CompletedProcess:
        """tools/rederive.js with a checkpoint the server serves (`query`: ?witness=NAME,
        the newest that witness cosigned) and the consistency proof between it and the
        bundle's tree head (the auditor fetches both)."""
        path, cp_path = self.tmp / "game.json", self.tmp / "checkpoint.txt"
        path.write_text(json.dumps(bundle))
        text = requests.get(f"{server}/v1/transparency/checkpoint{query}", timeout=10).text
        cp_path.write_text(text)
        size, head = note.parse_checkpoint(note.split(text)[0]).size, bundle["transparency"]
        argv = ["node", "tools/rederive.js", "--keys", str(self.keyfile), "--checkpoint"]
        argv += [str(cp_path), "--quorum", "2", *[a for v in self.vkeys for a in ("--witness", v)]]
        first, second = sorted((size, head["tree_head"]["size"]))
        if first != second:
            proof = requests.get(
                f"{server}/v1/transparency/consistency?first={first}&second={second}", timeout=10
            )
            (self.tmp / "cp-proof.json").write_bytes(proof.content)
            argv += ["--checkpoint-consistency", str(self.tmp / "cp-proof.json")]
        return subprocess.run([*argv, str(path)], capture_output=True, text=True, cwd=ROOT)


def relog(boot, gid: str) -> None:
    """The operator's rewrite made to stick: the game's index entries deleted and its
    leaves logged again from the rewritten store (what the sweep once did)."""
    rewrite_stream(boot, gid)
    boot.redis.hdel(tlog_keys.tlog_ids(), *[f"{gid}:{k}" for k in transparency.KINDS])
    for kind, leaf in transparency.from_log(boot.store.read(gid, 0)).items():
        boot.tlog.append(f"{gid}:{kind}", transparency.text(leaf))


def test_witnesses_cosign_a_genuine_log_and_refuse_a_game_logged_again(
    client, app, tmp_path, redis_url
):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 91)
    finished(client, app, 92)
    w = Witnesses(tmp_path, client)
    with w.server(redis_url, app) as (server, _):
        code, out = w.once("w1.example", server)
        assert code == 0 and out.startswith(
            f"cosigned {app.config['TLOG_ORIGIN']} at size 7"
        )  # 2 games, the key's leaf
        # the second witness runs as a loop, as one would from a service manager
        argv = [sys.executable, "-m", "cli", "witness", "--server", server, "--interval", "0.5"]
        argv += ["--key-file", str(tmp_path / "w2.example.key"), "--keys", str(w.keyfile)]
        argv += ["--state", str(tmp_path / "w2.example-state")]
        loop = subprocess.Popen(
            argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            for _ in range(200):
                served = requests.get(f"{server}/v1/transparency/checkpoint", timeout=10).text
                if "\u2014 w2.example " in served:
                    break
                time.sleep(0.1)
        finally:
            loop.terminate()
            loop.wait(15)
        text, lines = note.split(served)
        origin = app.config["TLOG_ORIGIN"]
        assert [line.name for line in lines] == [origin, "w1.example", "w2.example"]
        assert note.parse_checkpoint(text).size == 7
        bundle = client.get(f"/v1/games/{gid}/export").get_json()
        code, checks = w.verify(server, bundle)
        assert code == 0 and checks[WITNESSED]["ok"], checks[WITNESSED]
        both = "cosigned by 2 of the 2 witnesses given (w1.example, w2.example"
        assert both in checks[WITNESSED]["detail"]
        if NODE:
            done = w.rederive(server, bundle)
            assert done.returncode == 0 and "cosigned by 2 of the 2 witnesses" in done.stdout, done

        relog(boot, gid)
        for name in ("w1.example", "w2.example"):
            code, out = w.once(name, server)
            assert code == 1 and "refused to cosign" in out, out
            ref = transparency.game_ref(gid)[:16]
            assert f"DUPLICATE: game {ref}... has a second created leaf (leaf 7" in out
        rewritten = client.get(f"/v1/games/{gid}/export").get_json()
        assert [x["index"] for x in rewritten["transparency"]["leaves"]] == [7, 8, 9]
        code, checks = w.verify(server, rewritten)
        assert code == 1 and not checks[WITNESSED]["ok"]
        assert checks[WITNESSED]["detail"] == (
            "logged again: the witnesses accepted this game's started leaf as leaf 1, with "
            "other contents; the bundle's is leaf 8: the game was logged a second time "
            "(rewritten)"
        ), checks[WITNESSED]
        assert checks[log_checks.CHECK]["ok"]  # without witnesses, the rewrite would pass
        if NODE:
            done = w.rederive(server, rewritten)
            assert done.returncode == 1 and "unwitnessed" in done.stdout + done.stderr, done


@pytest.mark.slow
def test_a_log_rebuilt_or_cut_back_after_witnesses_cosigned_it_is_named(
    client, app, tmp_path, redis_url
):
    boot = app.extensions["marketfold"]
    gid = finished(client, app, 93)
    finished(client, app, 94)
    finished(client, app, 95)
    w = Witnesses(tmp_path, client)
    with w.server(redis_url, app) as (server, _):
        assert [w.once(n, server)[0] for n in ("w1.example", "w2.example")] == [0, 0]

    # the operator rewrites a finished game, deletes the log's keys and restarts: the
    # sweep logs every game anew, the rewritten one from its rewritten stream
    rewrite_stream(boot, gid)
    drop_log(boot)
    assert public_log.sweep(boot) == 9  # and the key's leaf at the next signature
    rewritten = client.get(f"/v1/games/{gid}/export").get_json()
    with w.server(redis_url, app) as (server, _):
        for name in ("w1.example", "w2.example"):
            code, out = w.once(name, server)
            assert (
                code == 1 and "FORK: fork: two checkpoints of size 10 with different roots" in out
            )
        code, checks = w.verify(server, rewritten)
        assert code == 1 and checks[WITNESSED]["detail"].startswith(
            "fork: two heads of size 10 with different roots"
        ), checks[WITNESSED]
        if NODE:
            done = w.rederive(server, rewritten, "?witness=w1.example")
            assert done.returncode == 1, done
            assert "cosigned by the witnesses: fork: two heads of size 10" in done.stdout, done

        # then cuts the log back to 6 leaves
        for key in (tlog_keys.tlog_hashes(), tlog_keys.tlog_texts()):
            boot.redis.ltrim(key, 0, 5)
        boot.redis.delete(tlog_keys.tlog_head())
        boot.tlog.tree.full.clear()
        code, out = w.once("w1.example", server)
        assert (
            code == 1
            and (
                "ROLLBACK: the log was rolled back: the witness cosigned a checkpoint of size 10, "
                "the server's is 6"
            )
            in out
        )
        code, checks = w.verify(server, client.get(f"/v1/games/{gid}/export").get_json())
        assert code == 1 and checks[WITNESSED]["detail"] == (
            "the log was rolled back: witnesses (w1.example, w2.example) cosigned a checkpoint "
            "of size 10, the server's log holds 6"
        ), checks[WITNESSED]

        # and, last, deletes every key of the log, cosignatures included
        for key in boot.redis.scan_iter("mf:{tlog}:*"):
            boot.redis.delete(key)
        boot.tlog.tree.full.clear()
        assert public_log.sweep(boot) == 9
        code, checks = w.verify(server, client.get(f"/v1/games/{gid}/export").get_json())
        assert code == 1 and checks[WITNESSED]["detail"].startswith(
            "unwitnessed: 0 of the 2 witnesses given cosigned a checkpoint"
        ), checks[WITNESSED]
        # an auditor who holds the checkpoint a witness published still sees the fork
        published = str(tmp_path / "w1.example-state" / "checkpoint")
        code, checks = w.verify(server, rewritten, "--checkpoint", published)
        assert code == 1 and checks[WITNESSED]["detail"].startswith(
            "fork: two heads of size 10 with different roots"
        ), checks[WITNESSED]
        assert [w.once(n, server)[0] for n in ("w1.example", "w2.example")] == [1, 1]


def test_the_server_keeps_only_cosignatures_of_configured_witnesses_on_its_own_checkpoints(
    client, app, tmp_path, redis_url
):
    finished(client, app, 96)
    w = Witnesses(tmp_path, client)
    with w.server(redis_url, app) as (server, _):
        served = requests.get(f"{server}/v1/transparency/checkpoint", timeout=10)
        assert served.headers["Content-Type"] == "text/plain; charset=utf-8"
        text, _ = note.split(served.text)
        key = Ed25519PrivateKey.generate()  # not a configured witness's

        def post(body):
            url = f"{server}/v1/transparency/cosignatures"
            return requests.post(url, json=body, timeout=10)

        res = post({"note": note.note(text, [note.cosign(text, "w1.example", key, 1)])})
        assert res.status_code == 422 and res.json()["code"] == "invalid_cosignature"
        other = text.replace("\n4\n", "\n3\n")  # a game and the key's leaf
        res = post({"note": note.note(other, [note.cosign(other, "x", key, 1)])})
        assert res.status_code == 409 and res.json()["code"] == "checkpoint_mismatch"
        res = post({"note": "not a note"})
        assert res.status_code == 422 and res.json()["errors"]["note"]
        res = requests.get(f"{server}/v1/transparency/checkpoint?witness=w1.example", timeout=10)
        assert res.status_code == 404 and res.json()["code"] == "checkpoint_not_found"
