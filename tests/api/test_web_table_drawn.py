"""Each game drawn as its game, in headless Chromium (docs/clients.md, "The table"): the
decision named in one sentence, the seat's own hand beside its move box, the opponents by
name, no field names of the API, cards read in full by tap or keyboard, a suit legend, a table
that fits a phone; axe-core finds nothing at 390 and 1280 px."""

from __future__ import annotations

import re

import pytest

from tests.api.web_page import WIDTHS, Keys, WebPage, join_idle_table, no_script_errors

# internal names the old state dump showed (issue 44): none may be read at the table
# ("Edition" is read in one card's name, GobCon's "Big Box Edition", when a seat holds it)
FIELD_NAMES = re.compile(
    r"\b(Phase|Starter|Expected|(?<!Big Box )Edition|Next opener|Game in play|Split choice|"
    r"Size card|To act|High bidder|Auction deck size|Goblin deck size|seat \d)\b"
)

SETUPS = [
    ("goblin-market", {"ruleset": "goblin-market", "players": 3}),
    ("sorcerous-futures", {"ruleset": "sorcerous-futures", "players": 3}),
    ("gobcon", {"ruleset": "gobcon", "players": 3}),
    ("black-market", {"ruleset": "black-market", "players": 3}),
]


def shown_text(page: WebPage) -> str:
    return page.d.execute_script("return document.querySelector('#app').innerText")


@pytest.mark.parametrize(("ruleset", "game"), SETUPS)
def test_each_table_is_drawn_as_its_game_and_fits_a_phone(
    shared_browser, shared_server, ruleset, game
):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    join_idle_table(page, ["Ana", "Bo"], **game)
    page.wait_for("#decision")
    page.wait(
        lambda: page.text("#decision") and "Waiting for players" not in page.text("#decision")
    )
    text = shown_text(page)
    assert not FIELD_NAMES.search(text), FIELD_NAMES.search(text)
    # opponents by name, around the table; the seat's own area beside the move box
    names = shared_browser.execute_script(
        "return [...document.querySelectorAll('.zone.others .opp-name .seat-chip')]"
        ".map((e) => e.textContent)"
    )
    assert sorted(names) == ["Ana", "Bo"], names
    assert page.all(".my-area #move") and page.all(".my-area .zone.mine")
    sentence = page.text("#decision")
    assert sentence.endswith((".", "?")) and "_" not in sentence, sentence
    if ruleset == "goblin-market":  # the auction's cards named in the decision
        offered = shared_browser.execute_script(
            "return [...document.querySelectorAll('.zone.middle .hand .cname')]"
            ".map((e) => e.textContent)"
        )
        assert offered and all(name in sentence for name in offered), (sentence, offered)
        assert re.match(r"^(Bid for .+, or pass|.+ is deciding whether to bid for .+)", sentence)
    for name, width in WIDTHS.items():
        shared_browser.set_window_size(width, 900)
        # nothing scrolls sideways; the phone's table is a few screens, not 2,845 px
        wide = shared_browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"{ruleset} scrolls sideways by {wide}px at {width}px"
        height = shared_browser.execute_script("return document.documentElement.scrollHeight")
        print(f"{ruleset} at {width}px: {height}px tall")
        if width < 500:
            # (Black Market draws opponents' cards at full text width, so titles wrap by words)
            assert height < 2400, f"{ruleset} is {height}px tall at {width}px"
        page.shot(f"table-{ruleset}-{name}", width)
        shared_browser.set_window_size(width, 900)
        found = page.axe(every=True)
        assert not found, found
    no_script_errors(shared_browser)


def test_a_card_is_read_in_full_by_tap_and_by_keyboard_and_suits_have_a_legend(
    shared_browser, shared_server
):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    join_idle_table(page, ["Ana", "Bo"], ruleset="gobcon", players=3)
    page.wait_for(".zone.mine .card")
    card = page.find(".zone.mine .card")
    name = card.find_element("css selector", ".cname").text
    assert card.get_attribute("role") == "button" and card.get_attribute("tabindex") == "0"
    assert not card.get_attribute("title")  # not a mouse-only tooltip
    card.click()
    page.wait_for("#card-detail:not([hidden])")
    assert page.text("#card-detail-title") == name
    full = page.text("#card-detail .cd-body")
    assert len(full) > 40, full  # the whole rules text, not five clipped lines
    page.find("#card-detail .cd-close").send_keys(Keys.ENTER)
    page.wait(lambda: page.all("#card-detail[hidden]"))
    # from the keyboard: focus a card, press Enter
    page.d.execute_script("document.querySelector('.zone.mine .card').focus()")
    page.d.switch_to.active_element.send_keys(Keys.ENTER)
    page.wait_for("#card-detail:not([hidden])")
    assert page.text("#card-detail-title") == name
    # on a phone too: the hand's card opened by keyboard shows its whole text on screen
    for width in (390, 1280):
        page.find("#card-detail .cd-close").send_keys(Keys.ENTER)
        page.wait(lambda: page.all("#card-detail[hidden]"))
        shared_browser.set_window_size(width, 900)
        page.d.execute_script("document.querySelector('.zone.mine .card').focus()")
        page.d.switch_to.active_element.send_keys(Keys.ENTER)
        page.wait_for("#card-detail:not([hidden])")
        assert page.text("#card-detail .cd-body") == full
        box = shared_browser.execute_script(
            "const r = document.querySelector('#card-detail').getBoundingClientRect();"
            "return [r.left, r.right, r.top, r.bottom, innerWidth, innerHeight]"
        )
        assert box[0] >= 0 and box[1] <= box[4] and box[2] >= 0 and box[3] <= box[5], box
        page.shot(f"gobcon-hand-card-{width}", width)
        shared_browser.set_window_size(width, 900)
    no_script_errors(shared_browser)


def test_the_decktet_games_show_a_legend_of_their_suits(shared_browser, shared_server):
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    join_idle_table(page, ["Ana", "Bo"], ruleset="goblin-market", players=3)
    page.wait_for(".legend")
    page.click(".legend summary")
    legend = page.texts(".legend-list li")
    assert len(legend) == 6 and any("Moons" in x for x in legend), legend


# the words of every card title on the page that a line break cuts in two
BROKEN_WORDS = """
// a title's words that run onto a second line other than after a soft hyphen (U+00AD: then
// the line ends with a drawn hyphen), measured letter by letter
const broken = [];
for (const name of document.querySelectorAll('.cname')) {
  const node = name.firstChild;
  if (!node || node.nodeType !== 3 || !name.getClientRects().length) continue;
  let at = 0;
  for (const w of node.textContent.split(' ')) {
    let top = null;
    for (let i = at; i < at + w.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      // the letter, not a hyphen drawn before it
      const rect = [...range.getClientRects()].filter((r) => r.width > 0).pop();
      if (!rect) continue;
      const line = Math.round(rect.top);
      if (top !== null && line !== top && node.textContent[i - 1] !== '\\u00AD') {
        broken.push(w.replace(/\\u00AD/g, '') + ' before ' + node.textContent[i]);
        break;
      }
      top = line;
    }
    at += w.length + 1;
  }
}
return broken;
"""


def test_black_markets_colours_and_card_titles_fit_a_phone(shared_browser, shared_server):
    """At 390 px the Colours table fits its box (no sideways scroll inside it), and a card's
    title wraps between words, an opponent's bought information cards included (drawn by
    the page's own card drawing into an opponent's area)."""
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    shared_browser.execute_script("localStorage.setItem('marketfold.lang', 'es')")
    join_idle_table(page, ["Ana", "Bo"], ruleset="black-market", players=3)
    page.wait_for("table.market")
    page.wait_for(".zone.others .opponent")
    shared_browser.set_window_size(390, 844)
    page.d.execute_async_script(
        "const done = arguments[0];"
        "import('/static/shared/cards.js').then(({ createCards }) => {"
        "  const { hand } = createCards(() => ({}));"
        "  const cards = [['pickle_jars', 'Tarros de encurtidos'], ['flooded_market',"
        "    'Mercado inundado'], ['auctioneers_nephew', 'El sobrino del subastador']]"
        "    .map(([id, name]) => ({ id, name, text: 'Al final de cada fase de comercio.' }));"
        "  const place = document.createElement('div');"
        "  place.id = 'test-cards';"
        "  place.appendChild(hand(cards));"
        "  document.querySelector('.zone.others .opponent').appendChild(place);"
        "  done();"
        "});"
    )
    page.wait_for("#test-cards .cname")
    for width in (390, 1280):
        shared_browser.set_window_size(width, 900)
        inside = shared_browser.execute_script(
            "const w = document.querySelector('.market-wrap');return w.scrollWidth - w.clientWidth"
        )
        assert inside <= 0, f"the Colours table scrolls by {inside}px inside its box at {width}px"
        broken = shared_browser.execute_script(BROKEN_WORDS)
        assert not broken, f"card titles broken inside a word at {width}px: {broken}"
    page.shot("black-market-colours-cards-390", 390)
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")
    no_script_errors(shared_browser)


def test_spanish_decktet_card_titles_break_only_between_syllables_on_a_phone(
    shared_browser, shared_server
):
    """At 390 px every Decktet card of a Spanish table ("El Descubrimiento", "El
    Diplomático", ...) wraps its title between words or at a syllable with a hyphen, never
    mid-word: the whole deck drawn by the page's own card drawing into the auction."""
    from games.decktet import cards
    from games.decktet_names import card_json

    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    shared_browser.execute_script("localStorage.setItem('marketfold.lang', 'es')")
    join_idle_table(page, ["Ana", "Bo"], ruleset="goblin-market", players=3)
    page.wait_for(".zone.middle .hand .cname")
    shared_browser.set_window_size(390, 844)
    deck = [card_json(name, "es") for name in cards()]
    assert "El Descubrimiento" in [c["name"] for c in deck]
    page.d.execute_async_script(
        "const [deck, done] = arguments;"
        "Promise.all([import('/static/shared/cards.js'), import('/static/app/i18n.js')])"
        ".then(([{ createCards }, { cardWords }]) => {"
        "  const { hand } = createCards(() => ({}), cardWords());"
        "  const place = document.createElement('div');"
        "  place.id = 'test-cards';"
        "  for (let i = 0; i < deck.length; i += 12)"
        "    place.appendChild(hand(deck.slice(i, i + 12)));"
        "  const pile = document.createElement('div');"  # a longer row keeps its older cards apart
        "  pile.id = 'test-pile';"
        "  pile.appendChild(hand(deck));"
        "  document.querySelector('.zone.middle .hand').after(place, pile);"
        "  done();"
        "});",
        deck,
    )
    page.wait_for("#test-cards .cname")
    assert page.text("#test-pile summary") == f"{len(deck) - 12} anteriores"
    shared_browser.execute_script("document.querySelector('#test-pile').remove()")
    broken = shared_browser.execute_script(BROKEN_WORDS)
    assert not broken, f"card titles broken inside a word at 390px: {broken}"
    # a title reads whole: the soft hyphens are not letters a person or a reader sees
    shown = shared_browser.execute_script(
        "return [...document.querySelectorAll('#test-cards .cname')].map((n) => n.textContent)"
    )
    assert "El Des\u00adcu\u00adbri\u00admien\u00adto" in shown, shown
    assert [t.replace("\u00ad", "") for t in shown] == [c["name"] for c in deck]
    page.shot("decktet-titles-es-390", 390)
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")
    no_script_errors(shared_browser)


def test_suit_marks_and_card_figures_speak_spanish(shared_browser, shared_server):
    """A Spanish table marks the suits with Spanish letters (Lu for Lunas, not Mo for Moons),
    names them in full on hover, and a GobCon card says PG, not GP."""
    page = WebPage(shared_browser, shared_server)
    page.sign_in("eva")
    shared_browser.execute_script("localStorage.setItem('marketfold.lang', 'es')")
    join_idle_table(page, ["Ana", "Bo"], ruleset="goblin-market", players=3)
    page.wait_for(".legend")
    page.click(".legend summary")
    marks = shared_browser.execute_script(
        "return [...document.querySelectorAll('.legend-list .suit')]"
        ".map((m) => [m.textContent, m.title])"
    )
    assert marks == [
        ["Lu", "Lunas"],
        ["So", "Soles"],
        ["Ol", "Olas"],
        ["Ho", "Hojas"],
        ["Dr", "Dragones"],
        ["Nu", "Nudos"],
    ], marks
    join_idle_table(page, ["Cy", "Di"], ruleset="gobcon", players=3)
    page.wait_for(".zone.mine .text-card")
    figures = " ".join(page.texts(".text-card .tc-gp"))  # a hand of Specials has none
    assert "GP" not in figures and (not figures or "PG" in figures), figures
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")
    no_script_errors(shared_browser)


def test_gobcons_game_in_play_is_told_in_words_not_fields(shared_browser, shared_server):
    """The Game being played (a GobCon contest) as the page's own board drawing writes it:
    who opened it, who plays, who rolled, who rolls next, in names; no field names, no seat
    numbers (the old drawing read "Players 1 · Rolled 1 · To roll — · King taken no")."""
    page = WebPage(shared_browser, shared_server)
    page.open("/?lang=es")
    said = page.d.execute_async_script(
        "const done = arguments[0];"
        "Promise.all([import('/static/app/board.js'), import('/static/shared/draw.js')])"
        ".then(([b, dr]) => {"
        "  const names = ['Ana', 'Bo', 'Cy'];"
        "  const d = dr.createDraw({ seatName: (n) => names[n], seatCount: () => 3,"
        "    glossary: () => ({}) });"
        "  const view = { round: 2, turn: 4, active: 0, goal: 20, draw_size: 60, discard: [],"
        "    players: [{ seat: 2, score: 1, counters: 0, hand_size: 3, prohibited: ['Board'] }],"
        "    hand: [],"
        "    game_in_play: { card: { id: 'deck-duel', name: 'Duelo de mazos', text: 'x',"
        "      type: 'game' }, seat: 0, eligible: [1, 2], declared: [1, 2], your_join: true,"
        "      players: [0, 2], rolled: [0], to_roll: 2, king_taken: true },"
        "    pending: { seat: 1, card: { id: 'not-so-fast', name: 'No tan deprisa', text: 'y',"
        "      type: 'special' }, target: 0 } };"
        "  const drawn = b.drawBoard({ ruleset: 'gobcon', view, owed: [] },"
        "    { d, seatName: (n) => names[n], you: 2 });"
        "  const box = document.createElement('div');"
        "  box.append(drawn.middle, drawn.mine);"
        "  document.body.append(box);"
        "  done(box.innerText);"
        "});"
    )
    for words in (
        "La abrió\nAna",
        "Juegan\nAna y tú",
        "Ya tiraron\nAna",
        "Tira ahora\ntú",
        "Tu respuesta\nte apuntas",
        "Ya salió un Rey",
        "La juega\nBo",
        "Contra\nAna",
        "Vetado en\nTablero",
    ):
        assert words in said, (words, said)
    fields = r"(Asiento|Pueden|Declared|Your join|Jugadores|Rolled|To roll|King taken|Objetivo)"
    assert not re.search(fields, said), said
