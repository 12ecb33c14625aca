"""``cpscore serve`` end to end, in a real browser: the system's headless
Chromium (Debian's ``chromium`` and ``chromium-driver``) driven by Selenium.
The server holds the deal being entered, and each phone enters its own hand:
three browsers (three phones, each with its own id) at one table, each
tapping its seat and its cards (one hand typed, with the phone's suit
symbols), a phone reloaded in the middle, a card taken out and another put
in its place, a foul shown before the save, every hand shown once all are
set, one save (and a second phone's tap that cannot save it twice), the
standings and the chart, an older deal edited, the last deal undone.  The
screenshots of the README (``docs/serve-phone.png``,
``docs/serve-laptop.png``) are taken on the way, when two deals are saved
and a third is shown before its save (``CPSCORE_SCREENSHOTS=docs`` writes
them there).  A proxy between a page and the server (:class:`Between`, the
table's Wi-Fi) loses a save's answer, holds the page's view of the deal and
the session still, or keeps what a phone was told.

These tests need the browser: ``.ci/run`` installs it and runs them (they are
marked slow, so that the README's ``python -m pytest`` passes on a machine
without a browser; ``python -m pytest -m slow`` runs them).  Without the
browser they fail (they are never skipped), saying what to install."""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import re
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium import webdriver
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    NoSuchElementException,
    StaleElementReferenceException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from serving import AMY, BOB, BOB_FOULS, CY, DEAL, Served, cpscore, deal_count

pytestmark = pytest.mark.slow

# Where the screenshots go: CPSCORE_SCREENSHOTS=docs makes the README's anew;
# by default a temporary folder (a test run leaves the work tree as it was).
SHOTS = os.environ.get("CPSCORE_SCREENSHOTS")
WAIT = 30  # seconds: generous, for a busy machine; nothing is timed

PHONE = (360, 800)
LAPTOP = (1280, 900)
SHOT_PHONE = 390  # the README's screenshots: a phone of 390 x 844 CSS pixels (the whole page), a laptop
TAP = 44  # CSS pixels: the least width and height of anything a finger taps

SUITS = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
EMOJI = "\ufe0f"  # what a phone's emoji keyboard writes after a suit symbol


def _binary(name: str, *others: str) -> str:
    for candidate in (name, *others):
        found = shutil.which(candidate)
        if found:
            return found
    raise AssertionError(f"{name} is missing: apt-get install -y chromium chromium-driver (.ci/run does)")


def _chrome() -> webdriver.Chrome:
    """A phone: a browser of its own (its own storage, and so its own phone id)."""
    options = webdriver.ChromeOptions()
    options.binary_location = _binary("chromium", "chromium-browser")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.add_argument(f"--window-size={PHONE[0]},{PHONE[1]}")
    service = Service(executable_path=_binary("chromedriver"))
    return webdriver.Chrome(options=options, service=service)


@pytest.fixture(scope="module")
def phones():
    """``phones(N)``: N browsers, started once for the module (each test opens its own server's page)."""
    made: list[webdriver.Chrome] = []

    def phone(count: int) -> list[webdriver.Chrome]:
        while len(made) < count:
            made.append(_chrome())
        return made[:count]

    yield phone
    for driver in made:
        driver.quit()


@pytest.fixture
def browser(phones):
    return phones(1)[0]


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path / "night.txt", "--rules", "ofc", "--stake", "10", "--players", "Amy Bob Cy")
    yield server
    server.stop()


_PASSING = (NoSuchElementException, StaleElementReferenceException, ElementClickInterceptedException)


def _until(driver, what, message: str):
    """WebDriverWait: ``what()`` until it is true (the page redraws: an element found a moment ago may be gone)."""
    return WebDriverWait(driver, WAIT, ignored_exceptions=_PASSING).until(lambda _: what(), message)


def _text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def _value(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).get_attribute("value")


def _click(driver, target: str | tuple[str, str]) -> None:
    """A tap: the element scrolled to the middle first (the bar at the bottom covers what is under it)."""

    def tapped() -> bool:
        element = driver.find_element(*target) if isinstance(target, tuple) else driver.find_element(By.ID, target)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True

    _until(driver, tapped, f"cannot tap {target}")


def _cards(hand: str) -> list[str]:
    return hand.replace("/", " ").split()


def _label(card: str) -> str:
    """A card as the page shows it: K♠, 10♥."""
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


def _emoji(hand: str) -> str:
    """A hand as a phone's emoji keyboard types it: K♠️ 10♥️ ..."""
    return " ".join(part if part == "/" else _label(part) + EMOJI for part in hand.split())


def _tap(driver, hand: str) -> None:
    for card in _cards(hand):
        _click(driver, f"card-{card}")


def _slots(driver) -> list[str]:
    """The 13 places of the hand being set, front first: each card's label, or ''."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#rows .slot'), (slot) => slot.textContent)"
    )


def _placed(hand: str) -> list[str]:
    return [_label(card) for card in _cards(hand)]


def _state(driver, index: int) -> str:
    return driver.find_element(By.CSS_SELECTOR, f"#seat-{index} .state").text


def _viewport(driver, width: int, height: int) -> None:
    """The page's inner size, whatever the window's frame takes."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])


def _screenshot(driver, folder: pathlib.Path, name: str, width: int) -> None:
    """The whole page at ``width`` CSS pixels, as a PNG file."""
    _viewport(driver, width, 800)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    _viewport(driver, width, min(height, 3400))
    driver.execute_script("window.scrollTo(0, 0)")  # from the top, wherever the last tap left the page
    folder = pathlib.Path(SHOTS) if SHOTS else folder
    folder.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(folder / name))
    assert (folder / name).read_bytes().startswith(b"\x89PNG")


def _no_sideways_scroll(driver, width: int) -> None:
    _viewport(driver, width, PHONE[1] if width < 900 else LAPTOP[1])
    assert driver.execute_script("return window.innerWidth") == width
    wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page scrolls sideways at {width} px: {wide[0]} px wide"


def _open(driver, server: Served, number: int = 1, url: str | None = None) -> None:
    _viewport(driver, *PHONE)
    driver.get(url or server.url)
    _until(driver, lambda: _text(driver, "deal-number") == str(number), "the page did not load the deal")
    _until(driver, lambda: driver.find_elements(By.ID, "seat-2"), "the three seats did not appear")


def _take(driver, index: int, name: str) -> None:
    """The seat tapped: taken (or chosen, when this phone holds it already), its hand shown."""
    _click(driver, f"seat-{index}")
    _until(driver, lambda: _text(driver, "hand-title").startswith(f"{name}'s hand"), f"{name}'s hand is not shown")
    _until(driver, lambda: "on this phone" in _text(driver, f"seat-{index}"), f"{name}'s seat was not taken")


def _type(driver, text: str) -> None:
    """A hand typed, and Use tapped: the hand read into the rows."""
    box = driver.find_element(By.ID, "typed")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.clear()
    box.send_keys(text)
    _click(driver, "typed-use")
    _until(driver, lambda: _value(driver, "typed") == "", f"the typed hand was not used: {_text(driver, 'hand-error')}")


def _set(driver, index: int, button: str = "I'm set (13/13)", state: str = "set") -> None:
    """The bar's I'm set (or Surrender, or Sit this deal out) tapped for the seat being set."""
    go = driver.find_element(By.ID, "bar-go")
    _until(driver, lambda: go.text == button and go.is_enabled(), f"the bar does not say {button!r}: {go.text!r}")
    _click(driver, "bar-go")
    _until(driver, lambda: _state(driver, index) == state, f"seat {index} is not {state!r}")


def _enter(driver, hands: dict[str, str]) -> None:
    """One phone enters every seat's hand (a phone for players without one), typed, each set."""
    for index, (name, hand) in enumerate(hands.items()):
        _take(driver, index, name)
        _type(driver, hand)
        _set(driver, index)
    _until(driver, lambda: "If saved" in _text(driver, "preview"), "the deal was not shown once all were set")


def _chart(driver) -> dict:
    """The chart the page shows (the server's SVG): each line's number of points, the x-axis's
    text and the legend's (name, total)."""
    return driver.execute_script(
        """
        const svg = document.querySelector('#chart svg.chart');
        if (!svg) return null;
        const texts = (selector) => Array.from(svg.querySelectorAll(selector), (node) => node.textContent);
        return {
          points: Array.from(svg.querySelectorAll('polyline'), (line) => line.getAttribute('points').split(' ').length),
          axis: texts('text.axis').join(),
          legend: Array.from(svg.querySelectorAll('g.legend'),
            (item) => [item.querySelector('.name').textContent, item.querySelector('.total').textContent]),
        };
        """
    )


def _standings(driver) -> list[list[str]]:
    """The standings' (name, money) rows."""
    return [[row.split()[0], row.split()[-1]] for row in _text(driver, "totals").splitlines()[1:]]


def _digests(path: str) -> list[str]:
    return [deal["digest"] for deal in json.loads(cpscore("session", path, "--format", "json").stdout)["deals"]]


def _save(driver, number: int) -> None:
    go = driver.find_element(By.ID, "bar-go")
    _until(driver, lambda: go.text == f"Save deal {number}" and go.is_enabled(), f"Save deal {number} is not offered")
    _click(driver, "bar-go")
    _until(driver, lambda: _text(driver, "saved").startswith(f"Saved deal {number}"), "the save was not confirmed")


def _shown_cards(driver) -> str:
    """The page as shown (its text and its attributes), but for the 52 cards to tap."""
    return driver.execute_script(
        "const page = document.body.cloneNode(true); page.querySelector('#cards').remove(); return page.outerHTML"
    )


# Issue 18: the table's Wi-Fi between a page and the server ----------------------------------


class Between:
    """A proxy between a page and ``cpscore serve`` (the table's Wi-Fi):
    each request forwarded, its answer passed back, one connection a request.
    ``lose``: how many of the next saves it forwards (they land) and then
    loses the answer of (the connection closed, nothing said); ``hold``: for
    how many of the next saves the page is shown the deal and the session as
    they were (the last ones it was shown), as a page that has not refreshed
    yet sees them: the view lets go once that many saves went through.
    ``deals``: every view of the deal the page was given (GET /api/deal)."""

    def __init__(self, server: Served) -> None:
        self.lose = 0
        self.hold = 0
        self.saves: list[dict] = []  # the bodies of the saves forwarded, in order
        self.deals: list[dict] = []
        self._views: dict[str, tuple[int, list[tuple[str, str]], bytes]] = {}  # the last answer of each view
        between = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                """Quiet."""

            def do_GET(self) -> None:
                self._forward()

            def do_POST(self) -> None:
                self._forward()

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                view = next((path for path in _VIEWS if self.path.split("?")[0] == path), None)
                if view is not None and between.hold > 0 and view in between._views:
                    self._answer(*between._views[view])
                    return
                sent = {key: value for key, value in self.headers.items() if key.lower() in _PASSED}
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                try:
                    connection.request(self.command, self.path, body, sent)
                    response = connection.getresponse()
                    answer = (response.status, response.getheaders(), response.read())
                finally:
                    connection.close()
                if self.path == "/api/deal/save":
                    between.saves.append(json.loads(body or b"{}"))
                    between.hold = max(0, between.hold - 1)
                    if between.lose > 0:  # it landed; its answer is lost on the way back
                        between.lose -= 1
                        self.close_connection = True
                        return
                if view is not None and answer[0] == 200:
                    between._views[view] = answer
                    if view == "/api/deal":
                        between.deals.append(json.loads(answer[2]))
                self._answer(*answer)

            def _answer(self, status: int, headers: list[tuple[str, str]], data: bytes) -> None:
                self.send_response(status)
                for key, value in headers:
                    if key.lower() not in ("server", "date", "connection", "content-length", "transfer-encoding"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=30)


_PASSED = ("content-type", "x-cpscore-token", "x-cpscore-phone", "if-none-match", "cookie")
_VIEWS = ("/api/deal", "/api/state")


@pytest.fixture
def between(served):
    proxy = Between(served)
    yield proxy
    proxy.close()


# One table, three phones ---------------------------------------------------------------------


def test_three_phones_each_enter_their_own_hand_and_one_saves(phones, served, tmp_path):
    amy, bob, cy = phones(3)
    bob_wifi, cy_wifi = Between(served), Between(served)  # Bob's view is held still later; Cy's is kept
    try:
        _three_phones(amy, bob, cy, bob_wifi, cy_wifi, served, tmp_path)
    finally:
        bob_wifi.close()
        cy_wifi.close()


def _three_phones(amy, bob, cy, bob_wifi: Between, cy_wifi: Between, served: Served, tmp_path) -> None:
    _open(amy, served)
    _open(bob, served, url=bob_wifi.url)
    _open(cy, served, url=cy_wifi.url)
    assert amy.execute_script("return window.innerWidth") == PHONE[0]
    ids = [driver.execute_script("return localStorage.getItem('cpscore-phone')") for driver in (amy, bob, cy)]
    assert len(set(ids)) == 3 and all(ids)  # three phones
    _take(amy, 0, "Amy")
    _take(bob, 1, "Bob")
    _take(cy, 2, "Cy")
    _until(amy, lambda: "on another phone" in _text(amy, "seat-1"), "Bob's seat is not shown as another phone's")
    assert _slots(amy) == [""] * 13

    # Amy taps her cards, one of them wrong (8d for 5d), then takes it out and taps the right one:
    # it goes into the place the wrong one left, and no other card moves.
    wrong = AMY.replace("5d", "8d")
    _tap(amy, wrong)
    _until(amy, lambda: _text(amy, "hand-title") == "Amy's hand (13/13)", "Amy's 13 cards are not all placed")
    before = _slots(amy)
    assert before == _placed(wrong)
    _click(amy, "card-8d")  # the placed card, tapped: out of its place only
    _until(amy, lambda: _slots(amy)[5] == "", "8d did not leave its place")
    assert _slots(amy) == before[:5] + [""] + before[6:]
    _click(amy, "card-5d")
    _until(amy, lambda: _slots(amy)[5] == _label("5d"), "5d did not go into the free place")
    assert _slots(amy) == _placed(AMY)
    _set(amy, 0)

    # Bob taps his front and three cards of his middle; his phone reloads: his hand is where he left it.
    first_six = " ".join(_cards(BOB_FOULS)[:6])
    _tap(bob, first_six)
    _until(bob, lambda: _state(bob, 1) == "entering, 6/13", "Bob's six cards did not reach the server")
    partial = _slots(bob)
    assert partial == _placed(first_six) + [""] * 7
    bob.refresh()
    _until(bob, lambda: _text(bob, "hand-title") == "Bob's hand (6/13)", "Bob's hand is not back after the reload")
    assert _slots(bob) == partial

    # Amy is set, Bob is entering: Cy's phone says so, and never shows a card of Amy's.
    _until(cy, lambda: _state(cy, 0) == "set" and _state(cy, 1) == "entering, 6/13", "Cy does not see Amy set")
    assert "Amy" in _text(cy, "seat-0") and "on another phone" in _text(cy, "seat-0")
    shown = _shown_cards(cy)
    assert not [card for card in _cards(AMY) if _label(card) in shown], "Cy's phone shows Amy's cards"
    assert not [
        card
        for card in _cards(AMY)
        if cy.find_element(By.ID, f"card-{card}").get_attribute("class") not in ("suit-s", "suit-h", "suit-d", "suit-c")
    ], "Cy's card buttons know Amy's cards"
    assert _text(cy, "preview") == ""
    assert cy_wifi.deals, "Cy's phone was given no view of the deal"
    for view in cy_wifi.deals:
        seat = next(seat for seat in view["seats"] if seat["name"] == "Amy")
        assert not view["revealed"] and "rows" not in seat, "Cy's phone was sent Amy's cards"

    # Bob takes a front card out by its place and puts it back: it returns there, nothing else moves.
    _click(bob, "slot-0-1")
    _until(bob, lambda: _slots(bob)[1] == "", "the tapped place did not empty")
    assert _slots(bob) == partial[:1] + [""] + partial[2:]
    _click(bob, "card-Qc")
    _until(bob, lambda: _slots(bob) == partial, "Qc did not return to its place")
    _tap(bob, " ".join(_cards(BOB_FOULS)[6:]))
    _until(bob, lambda: "Bob fouls" in _text(bob, "hand-warning"), "no foul warning for Bob before the save")
    assert "front pair of queens" in _text(bob, "hand-warning")
    _set(bob, 1)

    # Cy types his hand as his phone's emoji keyboard writes suits.
    _type(cy, _emoji(CY))
    _until(cy, lambda: _slots(cy) == _placed(CY), "Cy's typed hand is not in his rows")
    _set(cy, 2)

    # All set: every phone shows every hand, and the deal settled.
    for driver in (amy, bob, cy):
        _until(driver, lambda d=driver: "If saved" in _text(d, "preview"), "a phone does not show the deal")
        preview = _text(driver, "preview")
        assert "fouls" in preview and _label("Ks") in preview and _label("Qd") in preview and _label("As") in preview
    assert any(view["revealed"] for view in cy_wifi.deals)

    # Amy saves. Bob's phone has not looked again when he taps Save too: the deal is saved once.
    bob_wifi.hold = 1
    _until(bob, lambda: _text(bob, "bar-go") == "Save deal 1", "Bob's phone does not offer the save")
    shown_key = bob_wifi.deals[-1]["key"]
    _save(amy, 1)
    assert deal_count(served.path) == 1
    (digest,) = _digests(served.path)
    assert _text(amy, "saved") == f"Saved deal 1 {digest}"
    for driver in (amy, cy):
        _until(driver, lambda d=driver: d.find_elements(By.ID, "deal-1"), "the deal is not in the list")
        _until(driver, lambda d=driver: "Amy" in _text(d, "totals"), "no standings after the save")
        _until(driver, lambda d=driver: _text(d, "deal-number") == "2", "the next deal is not begun")
    assert digest in cy.find_element(By.ID, "deal-list").get_attribute("textContent")
    rows = {row.split()[0]: row.split()[1] for row in _text(cy, "totals").splitlines()[1:]}
    assert rows["Bob"].startswith("-")  # a foul loses to both
    assert "pays" in _text(cy, "transfers")
    assert _text(bob, "bar-go") == "Save deal 1"  # still: Bob's phone has not looked again
    _click(bob, "bar-go")
    _until(bob, lambda: "saved already" in _text(bob, "saved"), "the second save did not say it was saved already")
    assert _text(bob, "saved") == f"Deal 1 was saved already (not twice): {digest}"
    assert bob_wifi.saves[-1]["key"] == shown_key and re.fullmatch("[0-9a-f]{32}", shown_key)
    assert deal_count(served.path) == 1
    _until(bob, lambda: bob.find_elements(By.ID, "deal-1") and _text(bob, "deal-number") == "2", "Bob missed it")
    for driver, index in ((amy, 0), (bob, 1), (cy, 2)):  # each phone keeps its seat
        _until(driver, lambda d=driver, i=index: _state(d, i) == "no cards yet", "the new deal did not begin blank")
        assert "on this phone" in _text(driver, f"seat-{index}") and _slots(driver) == [""] * 13

    # Deal 2, typed on each phone, saved by Cy: the chart (the server's drawing) has a line for each
    # player, from the start through deal 2, and its legend says the standings' money.
    _until(cy, lambda: (_chart(cy) or {}).get("points") == [2, 2, 2], "the chart does not show deal 1")
    assert _chart(cy)["axis"] == "deal 1" and _chart(cy)["legend"] == _standings(cy)
    for driver, index, hand in ((amy, 0, BOB), (bob, 1, AMY), (cy, 2, CY)):
        _type(driver, hand)
        _set(driver, index)
    _save(cy, 2)
    for driver in (amy, bob, cy):
        _until(driver, lambda d=driver: d.find_elements(By.ID, "deal-2"), "deal 2 is not in the list")
        _until(
            driver,
            lambda d=driver: (_chart(d) or {}).get("points") == [3, 3, 3] and _chart(d)["axis"] == "deal 2",
            "the chart does not have one line for each player, through deal 2",
        )
        _until(driver, lambda d=driver: _chart(d)["legend"] == _standings(d), "the chart's totals are not the night's")

    # Deal 3 set and shown before its save: the night as the README shows it.
    for driver, index, hand in ((amy, 0, CY), (bob, 1, BOB), (cy, 2, AMY)):
        _type(driver, hand)
        _set(driver, index)
    _until(amy, lambda: "If saved" in _text(amy, "preview"), "deal 3 is not shown")
    _screenshot(amy, tmp_path, "serve-phone.png", SHOT_PHONE)
    _screenshot(amy, tmp_path, "serve-laptop.png", LAPTOP[0])
    _viewport(amy, *PHONE)

    # Deal 1 edited on Bob's phone (Bob played the hand that plays): every list shows its new digest.
    old = _digests(served.path)
    drawn = _chart(bob)["legend"]
    _click(bob, (By.CSS_SELECTOR, "#deal-1 summary"))
    _click(bob, (By.CSS_SELECTOR, "#deal-1 .editor button"))
    inputs = bob.find_elements(By.CSS_SELECTOR, "#deal-1 .edit-hand")
    assert [field.get_attribute("value") for field in inputs] == [AMY, BOB_FOULS, CY]
    inputs[1].clear()
    inputs[1].send_keys(BOB)
    _click(bob, (By.CSS_SELECTOR, "#deal-1 .replace"))
    _until(bob, lambda: "Replaced deal 1" in _text(bob, "undone"), "the replace was not confirmed")
    new = _digests(served.path)
    assert new[0] != old[0] and new[1:] == old[1:] and len(new) == 2
    assert new[0] in _text(bob, "undone")
    for driver in (amy, bob, cy):
        _until(
            driver,
            lambda d=driver: new[0] in d.find_element(By.CSS_SELECTOR, "#deal-1 .digest").text,
            "the list does not show deal 1's new digest",
        )
        assert old[0] not in driver.find_element(By.ID, "deal-list").get_attribute("textContent")
        _until(
            driver,
            lambda d=driver: _chart(d)["legend"] != drawn and _chart(d)["legend"] == _standings(d),
            "the chart does not follow the edit",
        )

    # The last deal undone on Cy's phone: two taps.
    _click(cy, (By.CSS_SELECTOR, "#deal-2 summary"))
    _click(cy, "undo")
    _until(cy, lambda: _text(cy, "undo") == "Tap again to remove deal 2", "the undo did not ask for a second tap")
    assert deal_count(served.path) == 2
    _click(cy, "undo")
    _until(cy, lambda: _text(cy, "undone") == f"Removed deal 2 {new[1]}", "the undo was not confirmed")
    assert _digests(served.path) == new[:1]
    for driver in (amy, bob, cy):
        _until(driver, lambda d=driver: not d.find_elements(By.ID, "deal-2"), "deal 2 is still in the list")
        _until(driver, lambda d=driver: _text(d, "bar-go") == "Save deal 2", "deal 3 is not the next deal 2")
        # The chart follows the edit and the undo: through deal 1 again, at the night's totals.
        _until(
            driver,
            lambda d=driver: _chart(d)["points"] == [2, 2, 2] and _chart(d)["legend"] == _standings(d),
            "the chart does not follow the undo",
        )


# The old page's tests, on the new one ---------------------------------------------------------


def test_a_card_dealt_twice_across_two_phones_and_the_laptop_layout(phones, served):
    first, second = phones(2)
    assert served.request("POST", "api/save", {"hands": {"Amy": AMY, "Bob": BOB_FOULS, "Cy": CY}})[0] == 200
    _open(first, served, 2)
    _open(second, served, 2)
    assert "Fantasyland" in _text(first, "seat-0")  # Amy's kings up front: she plays this deal in it
    assert "Fantasyland" not in _text(first, "seat-1")
    _take(first, 0, "Amy")
    _type(first, AMY)
    _set(first, 0)
    _take(first, 2, "Cy")  # Cy has no phone: Amy's enters his hand too
    _type(first, CY)
    _set(first, 2)
    _take(second, 1, "Bob")
    _type(second, "Ks " + BOB_FOULS.split(" ", 1)[1])  # Amy's king of spades again, on another phone
    _set(second, 1)
    for driver in (first, second):
        _until(driver, lambda d=driver: "dealt twice" in _text(d, "deal-error"), "no error for the card dealt twice")
        assert "Ks is dealt twice" in _text(driver, "deal-error")
        assert not driver.find_element(By.ID, "bar-go").is_enabled()
        assert "If saved" not in _text(driver, "preview")
    assert deal_count(served.path) == 1
    _no_sideways_scroll(first, LAPTOP[0])
    _no_sideways_scroll(first, PHONE[0])


def test_surrender_is_a_tick_and_a_newcomer_a_name_in_the_seats(browser, served):
    driver = browser
    _open(driver, served)
    for index, (name, hand) in enumerate((("Amy", AMY), ("Bob", BOB))):
        _take(driver, index, name)
        _type(driver, hand)
        _set(driver, index)
    _take(driver, 2, "Cy")
    _click(driver, "mark-surrender")  # Cy surrenders
    _set(driver, 2, "Surrender", "set (surrenders)")
    _until(driver, lambda: "surrenders" in _text(driver, "preview"), "no surrender in the settlement")
    _save(driver, 1)
    assert "Cy: surrender" in pathlib.Path(served.path).read_text()

    _click(driver, "edit-seats")  # Dan joins, and sits the next deal out
    seats = driver.find_element(By.ID, "players")
    _until(driver, seats.is_displayed, "the seats cannot be changed")
    seats.send_keys(" Dan")
    _click(driver, "seats-ok")
    _until(driver, lambda: driver.find_elements(By.ID, "seat-3"), "no seat for Dan")
    assert _text(driver, "seat-names") == "Amy Bob Cy Dan"
    _take(driver, 3, "Dan")
    _click(driver, "mark-out")
    _set(driver, 3, "Sit this deal out", "sits out")
    _enter(driver, DEAL)
    _save(driver, 2)
    assert "@players Amy Bob Cy Dan" in pathlib.Path(served.path).read_text()
    assert deal_count(served.path) == 2
    _until(driver, lambda: driver.find_elements(By.ID, "seat-3"), "Dan's seat is gone after the save")


def test_a_typo_is_shown_and_a_seat_that_sits_out_holds_no_cards(browser, served):
    driver = browser
    _open(driver, served)
    _take(driver, 0, "Amy")
    box = driver.find_element(By.ID, "typed")
    box.send_keys(AMY[:-2] + "9x")  # 12 cards and a word that is none
    _click(driver, "typed-use")
    _until(driver, lambda: "'9x'" in _text(driver, "hand-error"), "the typo was not shown")
    assert _value(driver, "typed") == AMY[:-2] + "9x"  # kept, to be corrected
    assert _slots(driver) == [""] * 13
    _take(driver, 2, "Cy")
    _type(driver, "Kh Kd Kc")
    _take(driver, 1, "Bob")  # Bob's taps: Cy's cards are his no more
    _until(
        driver,
        lambda: driver.find_element(By.ID, "card-Kh").get_attribute("aria-disabled") == "true",
        "Cy's Kh is not shown as his",
    )
    _click(driver, "card-Kh")
    _until(driver, lambda: "Cy's hand" in _text(driver, "hand-hint"), "no word that Kh is Cy's")
    assert _slots(driver) == [""] * 13
    _take(driver, 2, "Cy")
    _click(driver, "mark-out")  # Cy sits out: his cards are free
    _until(driver, lambda: _state(driver, 2) == "sits out", "Cy does not sit out")
    _take(driver, 1, "Bob")
    _until(
        driver,
        lambda: driver.find_element(By.ID, "card-Kh").get_attribute("aria-disabled") == "false",
        "Cy's cards are still shown as his",
    )
    _click(driver, "card-Kh")
    _until(driver, lambda: _slots(driver)[0] == _label("Kh"), "Kh did not go to Bob's front")


def test_a_save_whose_answer_is_lost_is_saved_once_when_tapped_again(browser, served, between):
    driver = browser
    _open(driver, served, url=between.url)
    _enter(driver, DEAL)
    between.lose = 1  # the answer of the save is lost, and the page has not looked again when it is tapped again
    between.hold = 2
    _click(driver, "bar-go")
    _until(driver, lambda: "answer was lost" in _text(driver, "deal-error"), "the lost answer was not said")
    assert "Tap Save again" in _text(driver, "deal-error")
    assert deal_count(served.path) == 1  # it landed all the same
    _until(driver, lambda: driver.find_element(By.ID, "bar-go").is_enabled(), "Save cannot be tapped again")
    assert _text(driver, "bar-go") == "Save deal 1"
    _click(driver, "bar-go")  # the user taps Save again
    _until(driver, lambda: "saved already" in _text(driver, "saved"), "the retry did not say 'already'")
    (digest,) = _digests(served.path)
    assert _text(driver, "saved") == f"Deal 1 was saved already (not twice): {digest}"
    assert deal_count(served.path) == 1  # exactly one new deal
    first, retry = between.saves
    assert re.fullmatch("[0-9a-f]{32}", first["key"]) and retry["key"] == first["key"]
    _until(driver, lambda: _text(driver, "deal-number") == "2", "the next deal did not begin")
    assert _text(driver, "deal-error") == ""

    # Lost again; this time the page looks again before any tap: it finds the deal saved, once.
    between.lose = 1
    for index, (name, hand) in enumerate({"Amy": BOB, "Bob": AMY, "Cy": CY}.items()):
        _take(driver, index, name)
        _type(driver, hand)
        _set(driver, index)
    _save_lost(driver)
    _until(driver, lambda: _text(driver, "deal-number") == "3", "the page did not find the deal saved")
    _until(driver, lambda: driver.find_elements(By.ID, "deal-2"), "the saved deal is not in the list")
    assert deal_count(served.path) == 2
    # The next deal is not said to have lost its save: that was the deal before.
    _enter(driver, {"Amy": CY, "Bob": BOB, "Cy": AMY})
    assert _text(driver, "deal-error") == "", "a new deal is said to have lost its save"
    _save(driver, 3)
    driver.refresh()  # and a reload finds the night as it is
    _until(driver, lambda: _text(driver, "deal-number") == "4", "the reload did not find the deals saved")
    assert deal_count(served.path) == 3
    assert len(between.saves) == 4


def _save_lost(driver) -> None:
    go = driver.find_element(By.ID, "bar-go")
    _until(driver, lambda: go.text.startswith("Save deal") and go.is_enabled(), "Save is not offered")
    _click(driver, "bar-go")


def test_a_deal_whose_terms_changed_before_the_tap_is_shown_anew_and_saved_by_another_tap(browser, served, between):
    driver = browser
    _open(driver, served, url=between.url)
    _enter(driver, DEAL)
    preview = _text(driver, "preview").replace("\n", " ")
    assert "Amy +29 (+290)" in preview  # at stake 10
    assert _text(driver, "bar-go") == "Save deal 1"
    between.hold = 1  # the page has not looked again when another writer adds a deal at stake 100
    cpscore("add", served.path, "--stake", "100", BOB, AMY, CY)
    _click(driver, "bar-go")
    _until(driver, lambda: "changed since this deal was shown" in _text(driver, "deal-error"), "no word of it")
    assert "it would now be deal 2" in _text(driver, "deal-error")
    _until(driver, lambda: _text(driver, "bar-go") == "Save deal 2", "the deal is not shown as deal 2")
    _until(driver, lambda: "Amy +29 (+2900)" in _text(driver, "preview").replace("\n", " "), "not at stake 100")
    assert deal_count(served.path) == 1  # nothing saved at terms never shown
    _save(driver, 2)
    deals = json.loads(cpscore("session", served.path, "--format", "json").stdout)["deals"]
    assert len(deals) == 2 and deals[1]["stake"] == 100
    assert between.saves[1]["terms"] != between.saves[0]["terms"]


def test_a_deal_dealt_twice_is_saved_only_by_the_tap_that_says_so(browser, served):
    driver = browser
    status, first = served.request("POST", "api/save", {"hands": DEAL})
    assert status == 200
    _open(driver, served, 2)
    for index, (name, hand) in enumerate(DEAL.items()):
        _take(driver, index, name)
        _type(driver, hand)
        _set(driver, index)
    again = driver.find_element(By.ID, "bar-again")
    _until(driver, again.is_displayed, "no way to say it was dealt twice")
    assert _text(driver, "deal-error") == (
        f"Deal 1 ({first['digest']}) has the same hands: this deal is in the file already."
    )
    assert "dealt twice" in again.text.lower() and "save" in again.text.lower()
    assert not driver.find_element(By.ID, "bar-go").is_displayed()
    assert "If saved again" in _text(driver, "preview")
    assert deal_count(served.path) == 1
    _click(driver, "bar-again")
    _until(driver, lambda: _text(driver, "saved").startswith("Saved deal 2"), "the repeat was not saved")
    assert deal_count(served.path) == 2
    _until(driver, lambda: not again.is_displayed(), "the dealt-twice button stayed")


def test_seats_named_like_javascripts_own_names_play_a_deal(browser, tmp_path):
    """Names are keys in the page's maps: __proto__, constructor and toString are names like any other."""
    server = Served(tmp_path / "night.txt", "--rules", "ofc", "--players", "__proto__ constructor toString")
    try:
        driver = browser
        _open(driver, server)
        _enter(driver, {"__proto__": AMY, "constructor": BOB, "toString": CY})
        _save(driver, 1)
        text = pathlib.Path(server.path).read_text()
        assert f"__proto__: {AMY}" in text and f"constructor: {BOB}" in text and f"toString: {CY}" in text
        _until(driver, lambda: "__proto__" in _text(driver, "totals"), "the standings do not name __proto__")
    finally:
        server.stop()


def test_shared_the_token_leaves_the_address_bar_and_a_reload_still_works(browser, tmp_path):
    server = Served(tmp_path / "night.txt", "--rules", "ofc", "--players", "Amy Bob Cy", "--host", "0.0.0.0")
    try:
        driver = browser
        url = f"http://127.0.0.1:{server.port}/?token={server.token}"
        _open(driver, server, url=url)
        _until(driver, lambda: "token" not in driver.current_url, "the token stayed in the address bar")
        driver.refresh()  # the cookie carries the token now
        _until(driver, lambda: driver.find_elements(By.ID, "seat-2"), "the page did not load again without the token")
        assert "token" not in driver.current_url
        _take(driver, 0, "Amy")  # and a change goes through
        _type(driver, AMY)
        _until(driver, lambda: _state(driver, 0) == "entering, 13/13", "the hand did not reach the server")
    finally:
        server.stop()


def test_every_target_on_the_phone_is_big_enough_and_nothing_scrolls_sideways(browser, served):
    driver = browser
    assert served.request("POST", "api/save", {"hands": {"Amy": AMY, "Bob": BOB_FOULS, "Cy": CY}})[0] == 200
    _open(driver, served, 2)
    _enter(driver, {"Amy": BOB, "Bob": AMY, "Cy": CY})  # the hand, the marks, the preview and the bar shown
    _click(driver, "edit-seats")
    _click(driver, (By.CSS_SELECTOR, "#deal-1 summary"))
    _click(driver, (By.CSS_SELECTOR, "#deal-1 .editor button"))
    _until(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#deal-1 .replace"), "the deal cannot be edited")
    _click(driver, (By.CSS_SELECTOR, "#rules summary"))
    _viewport(driver, *PHONE)
    small = driver.execute_script(
        """
        const small = [];
        const targets = document.querySelectorAll('button, select, input, summary, a, textarea');
        for (const node of targets) {
          // A checkbox is tapped through its label.
          const target = node.type === 'checkbox' ? node.closest('label') || node : node;
          const box = target.getBoundingClientRect();
          if (!target.getClientRects().length || (box.width === 0 && box.height === 0)) continue;  // not shown
          if (box.width < arguments[0] - 0.01 || box.height < arguments[0] - 0.01) {
            small.push(`${node.tagName.toLowerCase()}#${node.id || ''}.${node.className || ''} '${
              (node.textContent || node.value || '').trim().slice(0, 20)}' ${box.width.toFixed(1)}x${box.height.toFixed(1)}`);
          }
        }
        return [small, targets.length];
        """,
        TAP,
    )
    assert small[1] > 80  # the 52 cards, 13 places, the seats, the deal's tools...
    assert small[0] == [], f"targets under {TAP}x{TAP} CSS px: {small[0]}"
    _no_sideways_scroll(driver, PHONE[0])
