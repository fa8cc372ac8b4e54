"""The table's "What just happened" list in words, as the page's own module writes it (run
in headless Chromium): flags read as words a screen reader can say, not as ✓ and ✗."""

from __future__ import annotations

from tests.api.web_page import WebPage

NAMES = "(k, v) => (k === 'seat' ? ['Ana', 'Bo', 'Cy'][v] : String(v))"


def _sentences(page: WebPage, events: list[dict]) -> list[str]:
    page.open("/")
    return page.d.execute_async_script(
        "const [events, done] = arguments;"
        "import('/static/app/log.js').then((m) => {"
        f"  const name = {NAMES};"
        "  done(events.map((ev) => m.sentence(ev, name)));"
        "});",
        events,
    )


def test_flags_and_empty_lists_read_as_words(browser, live_server):
    said = _sentences(
        WebPage(browser, live_server),
        [
            {
                "type": "black-market.ProposalPassed",
                "actor": 1,
                "data": {"seat": 1, "forced": False},
            },
            {
                "type": "black-market.ProposalPassed",
                "actor": 1,
                "data": {"seat": 1, "forced": True},
            },
            {
                "type": "black-market.AnswersRevealed",
                "actor": None,
                "data": {
                    "answers": [{"seat": 0, "accept": False}, {"seat": 2, "accept": True}],
                    "acceptors": [],
                },
            },
        ],
    )
    assert said == [
        "Bo: Proposal passed",
        "Bo: Proposal passed — forced",
        "Answers revealed — acceptors none · answers Ana accept no, Cy accept yes",
    ]


def test_goods_and_small_objects_read_as_words_not_ellipses(browser, live_server):
    said = _sentences(
        WebPage(browser, live_server),
        [
            {
                "type": "black-market.GoodsOffered",
                "actor": None,
                "data": {"offer": {"red": 2, "blue": 0, "green": 1}},
            },
            {
                "type": "gobcon.DieRolled",
                "actor": None,
                "data": {"roll": {"face": "king", "value": 4}},
            },
        ],
    )
    assert said == ["Goods offered — offer 2 red, 1 green", "Die rolled — roll face king, value 4"]
    assert not any("…" in s for s in said)
