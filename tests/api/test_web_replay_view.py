"""The replay viewer as a person opens it (issue 44), in headless Chromium: it opens where
the game stands (its last event), with a plain way back to the start; players by name, never
their ids; nothing scrolls sideways at 390 px; axe-core finds nothing at 390 or 1280 px; every
word in English or Spanish (a link's ?lang=, the stored choice, the browser's language)."""

from __future__ import annotations

import re

from tests.api.browser import Page
from tests.api.replay_helpers import finished_game
from tests.api.web_page import WIDTHS, Select, WebPage


def test_the_replay_opens_at_the_last_event_with_names_and_fits_a_phone(
    shared_browser, shared_server, client, app, tmp_path
):
    gid, _ = finished_game(client, app)
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    page = Page(shared_browser, shared_server, tmp_path)
    web = WebPage(shared_browser, shared_server)
    shared_browser.get(f"{shared_server}/games/{gid}/replay")
    page.wait_for_seq(version)
    shown = shared_browser.execute_script("return document.body.innerText")
    found = re.search(r"\bp_[A-Za-z0-9_-]{6,}", shown)
    assert not found, shown[max(0, found.start() - 300) : found.end() + 100]
    # the events are told as sentences that name the players, the event's name under each
    told = [e.text for e in page.all("#events .ev-t")]
    seated = [s["name"] for s in client.get(f"/v1/games/{gid}").get_json()["seats"]]
    assert any(n.startswith("The game started: ") for n in told), told[:8]
    assert any(n.startswith("The game ended") for n in told), told[-3:]
    assert any(re.match(rf"{re.escape(seated[1])} (passed|bid)", n) for n in told), told[:30]
    # its type, for auditors, in the folded envelope
    assert '"game.Ended"' in shared_browser.execute_script(
        "return document.querySelector('#current-event pre').textContent"
    )
    assert page.find("#current-event .ev-told").text.startswith("The game ended")
    for name, width in WIDTHS.items():
        shared_browser.set_window_size(width, 900)
        page.wait_for_seq(version)
        wide = shared_browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        culprits = shared_browser.execute_script(
            "const w = document.documentElement.clientWidth;"
            "return [...document.querySelectorAll('body *')].filter((e) =>"
            " e.getBoundingClientRect().right > w + 1).slice(0, 8)"
            ".map((e) => e.tagName + '.' + e.className + '#' + e.id + ' ' +"
            " Math.round(e.getBoundingClientRect().right))"
        )
        assert wide <= 0, f"the replay scrolls sideways by {wide}px at {width}px: {culprits}"
        web.shot(f"replay-{name}", width)
        shared_browser.set_window_size(width, 900)
        found = web.axe(every=True)
        assert not found, [(v["id"], v["nodes"]) for v in found]
    page.click("#first")  # the start, one click away
    page.wait_for_seq(1)


def test_the_replay_speaks_spanish_by_link_by_choice_and_by_the_browsers_language(
    shared_browser, shared_server, client, app, tmp_path
):
    """?lang=es opens it in Spanish (axe clean at both widths); the selector switches it back
    to English and the choice is kept on the next visit, as the web client keeps it."""
    gid, _ = finished_game(client, app)
    version = client.get(f"/v1/games/{gid}/events").get_json()["version"]
    page = Page(shared_browser, shared_server, tmp_path)
    web = WebPage(shared_browser, shared_server)
    shared_browser.get(f"{shared_server}/games/{gid}/replay?lang=es")
    page.wait_for_seq(version)

    def said(css: str) -> str:
        return shared_browser.execute_script(f"return document.querySelector('{css}').textContent")

    assert shared_browser.execute_script("return document.documentElement.lang") == "es"
    assert said("#play") == "▶ Reproducir"
    assert said("#status") == "ya terminada"
    assert said("#token-box summary") == "Ver como jugador…"
    assert said("aside.log h2") == "Eventos"
    web.wait(lambda: said("#verified").startswith("✓ verificado: "))
    assert said("#step-said").startswith(f"Evento {version} de {version}: ")
    assert "Resultado" in page.find("#result").text
    # each event told as a sentence naming its player, as the table's log tells it
    told = [e.text for e in page.all("#events .ev-t")]
    seated = [s["name"] for s in client.get(f"/v1/games/{gid}").get_json()["seats"]]
    assert any(n.startswith(f"{seated[0]} se sentó") for n in told), told[:5]
    assert any(n.startswith("Empezó la partida: juegan ") for n in told), told[:8]
    assert not [n for n in told if "." in n.split(" ")[0] or n.startswith("game")], told
    assert said("#step-said") == f"Evento {version} de {version}: {told[-1]}"
    body = shared_browser.execute_script("return document.body.innerText")
    english_words = (
        "Play",
        "Events",
        "Table chat",
        "View as a player",
        "spectator view",
        "At event",
    )
    for english in english_words:
        assert english not in body, english
    for name, width in WIDTHS.items():
        web.shot(f"replay-es-{name}", width)
        shared_browser.set_window_size(width, 900)
        found = web.axe(every=True)
        assert not found, [(v["id"], v["nodes"]) for v in found]
    # the selector: English again, kept for the next visit (the link's ?lang= is dropped)
    Select(page.find("#lang")).select_by_value("en")
    web.wait(lambda: said("#play") == "▶ Play")
    assert "lang=" not in shared_browser.current_url
    shared_browser.get(f"{shared_server}/games/{gid}/replay")
    page.wait_for_seq(version)
    assert said("#status") == "now finished"
    Select(page.find("#lang")).select_by_value("es")  # and Spanish by the selector
    web.wait(lambda: said("#status") == "ya terminada")
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")


def _open_in_spanish(shared_browser, shared_server, client, app, tmp_path, state: str):
    """Open a finished game's bundle file in its Spanish replay ("bad": with its 6th event
    changed, so that its hash no longer matches) and wait for the verdict."""
    import json

    gid, _ = finished_game(client, app)
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    if state == "bad":
        bundle["events"][5]["data"]["tampered"] = 1
    path = tmp_path / f"{state}.json"
    path.write_text(json.dumps(bundle))
    page = Page(shared_browser, shared_server, tmp_path)
    web = WebPage(shared_browser, shared_server)
    shared_browser.get(f"{shared_server}/games/{gid}/replay?lang=es#at=2")
    page.wait_for_seq(2)
    # the browser's own "Choose File / No file chosen" (its language, not the page's) is not
    # shown: the Spanish link is, and the field is still reached by the keyboard
    picker = page.find("#bundle-file")
    assert picker.value_of_css_property("opacity") == "0"
    assert page.find("label.file").text == "abrir un archivo de paquete…"
    shared_browser.execute_script("arguments[0].focus()", picker)
    assert shared_browser.switch_to.active_element == picker
    picker.send_keys(str(path))
    web.wait(lambda: page.find("#file-verified").get_attribute("data-state") == state)
    return page, web


def test_the_verifiers_checks_are_named_in_spanish(
    shared_browser, shared_server, client, app, tmp_path
):
    """A bundle file opened in the Spanish replay: every check the verifier made is listed by
    its Spanish name, and what a passed check found is said in Spanish too."""
    page, web = _open_in_spanish(shared_browser, shared_server, client, app, tmp_path, "ok")
    checks = web.texts("#file-checks li")
    spanish = (
        "cadena de hashes",
        "semilla y sorteos",
        "cada orden decidida de nuevo",
        "resultado final recontado",
        "cabecera ligada al registro",
        "horas y plazos",
        "firmado por el servicio",
        "en el registro público de partidas",
        "igual al registro de este servidor",
    )
    assert [c.split(":")[0] for c in checks] == [f"BIEN {name}" for name in spanish], checks
    english = ("linked", "decided again", "recounted", "backwards", "statement", "logged")
    assert not [c for c in checks if any(e in c for e in english)], checks
    assert "eventos enlazados" in checks[0]
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")


def test_why_a_check_failed_is_said_in_spanish(
    shared_browser, shared_server, client, app, tmp_path
):
    """A tampered bundle file opened in the Spanish replay: the failed check's reason (by its
    code) is a Spanish sentence in the badge and in the list, never the verifier's English."""
    page, web = _open_in_spanish(shared_browser, shared_server, client, app, tmp_path, "bad")
    badge = page.find("#file-verified").text
    checks = web.texts("#file-checks li")
    failed = [c for c in checks if c.startswith("FALLA")]
    english = ("hash does not match", "not checked", "the chain or the seed", "differs from")
    assert "este evento se cambió después de registrarse" in badge and "(evento 6)" in badge, badge
    assert failed[0].startswith("FALLA cadena de hashes (evento 6): este evento se cambió"), checks
    assert "sin comprobar: falló la cadena o la semilla" in " ".join(failed), checks
    assert not [c for c in [badge, *checks] if any(e in c for e in english)], [badge, *checks]
    shared_browser.execute_script("localStorage.removeItem('marketfold.lang')")
