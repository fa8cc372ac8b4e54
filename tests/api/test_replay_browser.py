"""The replay viewer in headless Chromium: a finished game replayed, a game in play watched,
and every ruleset's replay as an audit tool."""

from __future__ import annotations

import random
import time

import pytest

from events import codec
from tests.api.browser import (
    ActionChains,
    By,
    Page,
    WebDriverWait,
    no_console_errors,
    only_this_host,
)
from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.api.replay_helpers import assert_nothing_hidden, finished_game, game_in_play


def test_a_finished_game_replays_from_start_to_end_in_a_browser(
    shared_browser, shared_server, client, app, tmp_path
):
    gid, _ = finished_game(client, app)
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    state = {}

    def at(seq: int) -> dict:
        if seq not in state:
            state[seq] = client.get(f"/v1/games/{gid}/state?at={seq}").get_json()
        return state[seq]

    page = Page(shared_browser, shared_server, tmp_path)
    shared_browser.get(f"{shared_server}/games/{gid}/replay#at=1")
    page.wait_for_seq(1)
    page.assert_at(1, at(1))
    assert page.find("#total").text == str(version)
    assert len(page.all("#events li")) == version
    assert "0 of 3 seats filled" in page.find("#table").text
    # step forward to the dealt table, then back one
    start = next(n for n in range(1, version) if at(n)["view"] and at(n)["owed"])
    for n in range(2, start + 2):
        page.click("#step")
        page.wait_for_seq(n)
    page.click("#back")
    page.wait_for_seq(start)
    page.assert_at(start, at(start))
    # a screen reader is told the step's event, not the whole board again
    said = shared_browser.execute_script("return document.getElementById('step-said').textContent")
    assert said.startswith(f"Event {start} of {version}: "), said
    assert shared_browser.find_element(By.ID, "step-said").get_attribute("role") == "status"
    assert not page.all(".board[aria-live], .board [aria-live]")
    assert page.all("#table .seat-row .card") or page.all("#table .panel .card")
    page.shot("1-start")

    # the slider: a click in its middle jumps to about half way
    slider = page.find("#slider")
    ActionChains(shared_browser).move_to_element(slider).click().perform()
    middle = int(slider.get_attribute("value"))
    assert abs(middle - (1 + version) / 2) <= version * 0.1
    page.wait_for_seq(middle)
    page.assert_at(middle, at(middle))
    page.shot("2-middle")

    # play runs to the end by itself
    page.find("#speed").send_keys("fast")
    page.click("#last")
    page.wait_for_seq(version)
    for n in [version - 1, version - 2]:
        page.click("#back")
        page.wait_for_seq(n)
    page.click("#play")
    page.wait_for_seq(version)
    assert "Play" in page.find("#play").text  # it stopped at the last event
    page.assert_at(version, at(version))
    final = at(version)["result"]
    standings = page.all("#result .standings li")
    assert [li.get_attribute("data-seat") for li in standings] == [
        str(s["seat"]) for s in final["standings"]
    ]
    names = {s["seat"]: s["name"] for s in at(version)["seats"]}
    assert [li.find_element(By.CSS_SELECTOR, ".seat-chip").text for li in standings] == [
        names[s["seat"]] for s in final["standings"]
    ]
    for winner in final["winners"]:
        assert "winner" in page.find(f'#table .seat-row[data-seat="{winner}"]').text
    assert page.find("#step-status").text == "finished"
    page.shot("3-end")

    # a finished game opens every seat's view
    tabs = page.all("#perspective .tab")
    assert [t.get_attribute("data-perspective") for t in tabs] == ["public", "0", "1", "2", "all"]
    page.click('#perspective .tab[data-perspective="all"]')
    assert len(page.all("#table .view.own")) == 3  # the shared table once, then each seat's own
    page.click('#perspective .tab[data-perspective="public"]')
    only_this_host(shared_browser, shared_server)
    no_console_errors(shared_browser)


def test_during_play_the_page_shows_a_spectator_only_public_facts(
    shared_browser, shared_server, client, app, tmp_path
):
    gid, players = game_in_play(client)
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    page = Page(shared_browser, shared_server, tmp_path)
    shared_browser.get(f"{shared_server}/games/{gid}/replay#at={version}")
    page.wait_for_seq(version)
    assert page.find("#viewer").text == "spectator view"
    assert page.all("#events li .tag.hidden")  # the deck order is shown as hidden
    assert page.find("#perspective").get_attribute("hidden") is not None
    page.shot("4-in-play-spectator")
    page.click("#first")
    page.wait_for_seq(1)
    fetched = shared_browser.execute_script("return window.__fetched")
    assert fetched and not any(f["auth"] for f in fetched)
    assert all(f["status"] == 200 for f in fetched), [(f["url"], f["status"]) for f in fetched]
    raw = app.extensions["marketfold"].store.read(gid)
    # the ruleset's card list names every card of the game, which is no secret: it says
    # nothing of where a card lies
    game_bodies = [f["body"] for f in fetched if "/v1/rulesets/" not in f["url"]]
    assert len(game_bodies) < len(fetched)  # the card list was fetched
    assert_nothing_hidden(raw, game_bodies)

    # a player who pastes a token sees the game as their seat; forgetting it makes a spectator
    seat, player = next(iter(by_seat(client, gid, players).items()))
    page.click("#token-box summary")
    page.find("#token-input").send_keys(player["token"])
    page.click('#token-form button[type="submit"]')
    mine = f"viewing as {player['name']}"  # by name: no seat number
    WebDriverWait(shared_browser, 15).until(lambda d: page.find("#viewer").text == mine)
    assert shared_browser.execute_script("return window.__fetched")[-1]["auth"] is True
    page.click("#token-box summary")
    page.click("#token-forget")
    WebDriverWait(shared_browser, 15).until(lambda d: page.find("#viewer").text == "spectator view")
    assert shared_browser.execute_script("return Object.keys(localStorage)") == []
    no_console_errors(shared_browser)


# --- every ruleset's replay as an audit tool (issues #15 point 18, #19 point 5) ---------------

RULESETS = [
    ("goblin-market", 3, {}),
    ("sorcerous-futures", 3, {}),
    ("black-market", 3, {}),
    ("gobcon", 2, {"time_limit": 3}),
]
LISTED = """return [...document.querySelectorAll('#events li')].map((li) => {
  const who = li.querySelector('.ev-who');
  return [Number(li.dataset.seq), li.dataset.kind, who.dataset.seatRef ?? null,
          li.querySelector('.ev-at').getAttribute('datetime')];
});"""
BM_AREAS = {"Production", "Storage", "Set aside", "VP space"}
# Tables of rows drawn past the right edge of their panel (what a reader would see cut off
# or spilling over the next panel), by their first heading.
OVERFLOWING = """return [...document.querySelectorAll('#table .panel table.rows')].filter((t) => {
  const panel = t.closest('.panel').getBoundingClientRect();
  const box = t.getBoundingClientRect();
  return box.width > 0 && (box.right > panel.right + 1 || box.left < panel.left - 1);
}).map((t) => t.querySelector('th') ? t.querySelector('th').textContent : '?');"""


def _played(client, app, ruleset: str, players: int, options: dict) -> tuple[str, list[dict]]:
    """A game played to its end with a time control, so every decision had a deadline."""
    people = new_players(client, players)
    gid = new_game(client, people, ruleset, options=options, decision_timeout_s=3600)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(7))
    return gid, client.get(f"/v1/games/{gid}/events").get_json()["events"]


@pytest.mark.parametrize(("ruleset", "players", "options"), RULESETS)
def test_every_rulesets_replay_is_verified_and_labels_each_event_kind_seat_time_and_deadline(
    shared_browser, shared_server, client, app, tmp_path, ruleset, players, options
):
    gid, events = _played(client, app, ruleset, players, options)
    middle = len(events) // 2
    action = next(e for e in events[middle:] if isinstance(e["actor"], int) and "command" in e)
    page = Page(shared_browser, shared_server, tmp_path)
    shared_browser.get(f"{shared_server}/games/{gid}/replay#at={action['seq']}")
    page.wait_for_seq(action["seq"])
    WebDriverWait(shared_browser, 30).until(
        lambda d: page.find("#verified").get_attribute("data-state")
    )
    assert page.find("#verified").get_attribute("data-state") == "ok"
    assert page.find("#verified").text.startswith("✓ verified")
    # the action's time, and the deadline it met
    # the time in the reader's words, the exact instant in its <time datetime>
    assert page.find("#ev-time time").get_attribute("datetime") == action["at"]
    WebDriverWait(shared_browser, 15).until(lambda d: page.all("#ev-deadline"))
    assert "met with" in page.find("#ev-deadline").text
    # every event: its time, its kind, and the seat it concerns (not the one that caused it)
    listed = shared_browser.execute_script(LISTED)
    assert [seq for seq, *_ in listed] == [e["seq"] for e in events]
    kinds = set()
    for (_, kind, who, at), ev in zip(listed, events, strict=True):
        kinds.add(kind)
        assert at == ev["at"]
        if isinstance(ev["data"].get("seat"), int):
            assert who == str(ev["data"]["seat"]), ev
        if ev["cause"].startswith("resolve-"):
            assert kind == "resolution", ev
    assert {"lobby", "action"} <= kinds and kinds & {"auto", "resolution"}
    concerned = [(who, ev["actor"]) for (_, _, who, _), ev in zip(listed, events, strict=True)]
    assert any(isinstance(actor, int) and who != str(actor) for who, actor in concerned)
    if ruleset == "black-market":  # each player's areas are labelled
        row = page.find("#table .seat-row")
        assert BM_AREAS <= {t.text for t in row.find_elements(By.CSS_SELECTOR, ".tally-lbl")}
        assert (
            shared_browser.execute_script(OVERFLOWING) == []
        )  # the colours table stays in its panel
    page.shot(f"{ruleset}-event")

    # every seat's view: the shared table once, then each seat's own part, in a few screens
    page.click('#perspective .tab[data-perspective="all"]')
    assert len(page.all("#table .view.own")) == players
    assert shared_browser.execute_script("return document.documentElement.scrollHeight") < 4000
    if ruleset == "gobcon":  # cards are drawn as cards with their names and texts
        drawn = page.all("#table .text-card")
        assert drawn and all(c.find_element(By.CSS_SELECTOR, ".cname").text for c in drawn)
        glossary = client.get(f"/v1/games/{gid}/state?at={action['seq']}").get_json()["cards"]
        texts = {card.get_attribute("data-card"): card.get_attribute("title") for card in drawn}
        for card_id, title in texts.items():
            assert glossary[card_id]["text"] in title
    page.shot(f"{ruleset}-all-seats")
    no_console_errors(shared_browser)


TAMPER = """
const real = window.fetch;
window.fetch = async function (input, init) {
  const res = await real.apply(this, arguments);
  if (!String(input).endsWith('/export')) return res;
  const bundle = await res.json();
  bundle.events[%d].data = {"forged": true};
  const headers = {'Content-Type': 'application/json'};
  return new Response(JSON.stringify(bundle), {status: 200, headers});
};
"""


def test_an_export_that_fails_verification_shows_not_verified_and_jumps_to_the_first_problem(
    shared_browser, shared_server, client, app, tmp_path
):
    gid, _ = finished_game(client, app)
    forged = 9  # the 10th event
    shared_browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": TAMPER % forged}
    )
    page = Page(shared_browser, shared_server, tmp_path)
    shared_browser.get(f"{shared_server}/games/{gid}/replay#at=2")
    page.wait_for_seq(2)
    WebDriverWait(shared_browser, 30).until(
        lambda d: page.find("#verified").get_attribute("data-state") == "bad"
    )
    badge = page.find("#verified")
    assert badge.text.startswith("✗ NOT verified") and f"(event {forged + 1})" in badge.text
    page.shot("5-not-verified")
    badge.click()
    page.wait_for_seq(forged + 1)


def test_a_default_applied_at_a_deadline_is_marked_with_the_deadline_it_followed(
    shared_browser, shared_server, client, app, tmp_path
):
    from service import deadline_commands
    from stores.operations import RedisOperations

    people = new_players(client, 3)
    gid = new_game(client, people, decision_timeout_s=1)
    deps = app.extensions["marketfold"]
    rec = deps.store.load(gid).record
    key = rec.owed()[0].key
    due = codec.parse_time(rec.deadline(key)).timestamp()
    time.sleep(1.2)  # the opener lets its first decision run out
    # the live API beats its heartbeat every 0.25 s: a default waits for a beat after
    # its deadline (docs/workers.md, "The API's heartbeat"), however busy the machine
    up = time.monotonic() + 10
    while (RedisOperations(deps.redis).last_beat(api=True) or 0) < due and time.monotonic() < up:
        time.sleep(0.05)
    assert deadline_commands.expire(deps, gid, key) == "applied"
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    timed_out = next(e for e in events if e["type"] == "game.DecisionTimedOut")
    page = Page(shared_browser, shared_server, tmp_path)
    shared_browser.get(f"{shared_server}/games/{gid}/replay#at={timed_out['seq']}")
    page.wait_for_seq(timed_out["seq"])
    item = page.find(f'#events li[data-seq="{timed_out["seq"]}"]')
    assert item.get_attribute("data-kind") == "default" and "default" in item.text
    seat = str(timed_out["data"]["seat"])
    assert item.find_element(By.CSS_SELECTOR, ".ev-who").get_attribute("data-seat-ref") == seat
    WebDriverWait(shared_browser, 15).until(lambda d: page.all("#ev-deadline"))
    note = page.find("#ev-deadline")
    assert "after the deadline" in note.text and "ok" in note.get_attribute("class")
    page.shot("6-default")


def test_a_bundle_file_the_auditor_holds_is_verified_with_its_signature_and_compared(
    shared_browser, shared_server, client, app, tmp_path
):
    """The replay viewer opens a file (not only the server's copy): it shows the verifier's
    every check and which key signed it, and where the file parts from this server's log."""
    import json

    gid, _ = finished_game(client, app)
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    real = tmp_path / "real.json"
    real.write_text(json.dumps(bundle))
    forged = json.loads(json.dumps(bundle))
    forged["events"][6]["at"] = forged["events"][6]["at"][:-4] + "999Z"
    codec.seal(forged["events"][6:], forged["events"][5]["hash"])
    fake = tmp_path / "forged.json"
    fake.write_text(json.dumps(forged))
    page = Page(shared_browser, shared_server, tmp_path)
    shared_browser.get(f"{shared_server}/games/{gid}/replay#at=2")
    page.wait_for_seq(2)
    page.find("#bundle-file").send_keys(str(real))
    WebDriverWait(shared_browser, 30).until(
        lambda d: page.find("#file-verified").get_attribute("data-state") == "ok"
    )
    badge = page.find("#file-verified").text
    assert badge.startswith("✓ verified") and f"signed by key {bundle['signature']['kid']}" in badge
    assert "are this server's, event for event" in page.find("#file-match").text
    assert len(page.all("#file-checks li")) >= 8
    page.shot("6-bundle-file")
    page.find("#bundle-file").send_keys(str(fake))
    WebDriverWait(shared_browser, 30).until(
        lambda d: page.find("#file-verified").get_attribute("data-state") == "bad"
    )
    assert "FAIL signed by the service" in page.find("#file-checks").text
    assert "parts from this server's copy at event 7" in page.find("#file-match").text
    page.wait_for_seq(7)
