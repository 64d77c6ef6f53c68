"""End to end in headless Chromium: a real waitress server on loopback, a real session and
journal, a scripted hand, and what a phone-sized page shows after each event.

Screenshots at phone and tablet sizes go to artifacts/web_ui/ (or $WEB_UI_ARTIFACTS).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from table.alerts import Alert
from table.journal import Journal
from table.rules import (
    BidMade,
    Buried,
    Card,
    CardPlayed,
    Event,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    TrickGathered,
    TrumpNamed,
    legal_plays,
    preset,
)
from table.rules.game import Phase
from table.rules.players import play_game
from table.session import Session
from web_ui.app import create_app
from web_ui.server import TableServer

from .conftest import NAMES, PIN, moves

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 820, "height": 1180}
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("WEB_UI_ARTIFACTS", ROOT / "artifacts" / "web_ui"))

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at "
                       "/usr/bin/chromium (apt-get install chromium); no browser is downloaded"),
    pytest.mark.timeout(180),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Table:
    def __init__(self, root: Path, heartbeat: float = 1.0) -> None:
        self.journal = Journal(root / "table.sqlite3")
        self.session = Session.create(self.journal, preset("bison"), NAMES).start()
        self.app = create_app({"SESSION": self.session, "PIN": PIN, "HEARTBEAT_S": heartbeat})
        self.server = TableServer(self.app).start()

    def close(self) -> None:
        self.server.stop()
        self.session.stop(5)
        self.journal.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


def open_page(browser: Any, url: str, size: dict[str, int], pin: str | None = None) -> Any:
    context = browser.new_context(viewport=size, device_scale_factor=2, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    if pin:
        page.evaluate(f"localStorage.setItem('pinochle-table-pin', '{pin}')")
        page.reload()
    page.wait_for_selector(".link[data-state=live]")
    return page


def shows(page: Any, number: int) -> None:
    page.wait_for_function(f"document.body.dataset.number == '{number}'", timeout=10_000)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def check_page_shows(page: Any, view: dict[str, Any]) -> None:
    """What the phone shows matches the rules core's view of the position."""
    assert page.evaluate("document.body.dataset.phase") == view["phase"]
    status = page.inner_text("#status")
    if view["turn"] is not None and view["phase"] in ("auction", "play", "trump"):
        assert NAMES[view["turn"]] in status
    rows = page.query_selector_all("#scores tbody tr")
    assert [int(r.query_selector(".score").inner_text()) for r in rows] == view["scores"]
    if view["phase"] == "auction":
        assert len(page.query_selector_all("#bids .bid")) == len(view["auction"])
    if view["trick"]:
        shown = page.eval_on_selector_all(
            "#trick .play", "els => els.filter(e => e.querySelector('[data-card]'))"
            ".map(e => [Number(e.dataset.seat), e.querySelector('[data-card]').dataset.card])")
        assert shown == [[c["seat"], c["card"]] for c in view["trick"]["cards"]]
        winner = page.get_attribute("#trick .card.win", "data-card")
        assert winner == next(c["card"] for c in view["trick"]["cards"]
                              if c["seat"] == view["trick"]["winning"])
    for seat, meld in enumerate(view["meld"]):
        if meld is not None:
            assert f"{NAMES[seat]} {meld['total']}" in page.inner_text("#meld")
    if view["contract"] and view["contract"]["trump"]:
        assert page.query_selector(f"#contract .sym-{view['contract']['trump']}")
    if view["result"]:
        assert page.inner_text("#result")


def test_a_scripted_hand_on_a_phone_and_a_tablet(browser: Any, table: Table) -> None:
    phone = open_page(browser, table.server.url, PHONE)
    tablet = open_page(browser, table.server.url, TABLET)
    shot(phone, "phone-0-before-the-deal")
    pictures = {Phase.AUCTION: "1-auction", Phase.MELD: "2-meld", Phase.PLAY: "3-play",
                Phase.HAND_OVER: "4-hand-over"}
    taken: set[Phase] = set()
    for event, game in moves("bison", seed=7, hands=1):
        outcome = table.session.submit(event)
        assert outcome.accepted, outcome.reason
        shows(phone, outcome.number or 0)
        check_page_shows(phone, game.view())
        wanted = pictures.get(game.phase)
        ready = game.phase is not Phase.PLAY or (len(game.trick) == 2 and len(game.tricks) > 2)
        if wanted and game.phase not in taken and ready:
            taken.add(game.phase)
            shows(tablet, outcome.number or 0)
            shot(phone, f"phone-{wanted}")
            shot(tablet, f"tablet-{wanted}")
    assert taken == set(pictures)
    check_page_shows(tablet, table.session.game.view())
    assert "made" in phone.inner_text("#result") or "set" in phone.inner_text("#result")
    assert phone.query_selector_all("#sheet tbody tr")
    assert phone.errors == [] and tablet.errors == []


def test_acting_from_the_phone_with_the_pin(browser: Any, table: Table) -> None:
    session = table.session
    for event, game in moves("bison", seed=7, hands=1):
        if game.phase is Phase.AUCTION:
            session.submit(event)
            break
        session.submit(event)
    page = open_page(browser, table.server.url, PHONE)
    assert page.is_hidden("#actions")  # watching only, until the PIN is entered
    page.click("#menu-button")
    page.fill("#pin-input", "0000")
    page.click("#pin-form button[type=submit]")
    page.wait_for_function("document.getElementById('pin-state').textContent.includes('wrong')")
    page.fill("#pin-input", PIN)
    page.click("#pin-form button[type=submit]")
    page.wait_for_selector("#actions button.primary")
    bidder, amount = session.game.turn, session.game.legal_bid_range[0]
    number = session.last_number
    assert page.inner_text("#actions button.primary") == str(amount)
    shot(page, "phone-5-bidding-from-the-page")
    page.click("#actions button.primary")
    shows(page, number + 1)
    entry = session.history()[-1]
    assert entry.event == BidMade(seat=bidder, amount=amount, source="web", at=entry.event.at)
    assert f"{NAMES[bidder]} {amount}" in page.inner_text("#bids")
    passer = session.game.turn
    page.click("#actions >> text=Pass")
    shows(page, number + 2)
    assert isinstance(session.history()[-1].event, Passed)
    assert session.history()[-1].event.seat == passer
    # a refused move (out of turn, from the camera) is shown with its reason
    wrong = (session.game.turn + 1) % 3
    refused = session.submit(Passed(seat=wrong, source="gpio"))
    assert not refused.accepted and refused.reason
    page.wait_for_selector("#alerts [data-kind=refused]")
    assert refused.reason in page.inner_text("#alerts")
    page.click("#actions >> text=Undo")
    shows(page, number + 4)
    # The Undo's answer may carry a state built before the alert board took the Undo in; the
    # stream's state of the same number follows and clears the refusal.
    page.wait_for_selector("#alerts [data-kind=refused]", state="detached")
    assert session.game.turn == passer
    assert page.errors == []


def test_tapping_the_card_the_camera_was_unsure_of(browser: Any, table: Table) -> None:
    session = table.session
    for event, _ in moves("bison", seed=7, hands=1):
        if session.game.phase is Phase.PLAY and len(session.game.tricks) == 1 \
                and not session.game.trick:
            break
        session.submit(event)
    game = session.game
    seat = game.turn
    assert seat is not None and game.hands is not None
    card = legal_plays(game.hands[seat], [], game.trump, game.rules, False)[0]
    other = next(c for c in game.hands[seat] if c != card)
    page = open_page(browser, table.server.url, PHONE, pin=PIN)
    session.alert(Alert(kind="camera-unsure", text=f"Is {NAMES[seat]}'s card the {other} or "
                        f"the {card}?", source="camera", seat=seat,
                        details={"candidates": [str(other), str(card)]})).result()
    page.wait_for_selector("#alerts [data-kind=camera-unsure] button.card")
    shot(page, "phone-6-camera-unsure")
    number = session.last_number
    page.click(f"#alerts button[data-card='{card}']")
    shows(page, number + 1)
    assert session.game.trick == ((seat, card),)
    page.wait_for_selector("#alerts [data-kind=camera-unsure]", state="detached")
    assert page.get_attribute("#trick .card[data-card]", "data-card") == str(card)
    # tapping a card on the mat corrects it
    page.click(f"#trick button[data-card='{card}']")
    page.wait_for_selector("#fix .picker")
    correct = legal_plays(game.hands[seat], [], game.trump, game.rules, False)[-1]
    shot(page, "phone-7-correcting-a-card")
    page.click(f"#fix .picker button[data-card='{correct}']")
    shows(page, number + 2)
    assert session.game.trick == ((seat, correct),)
    assert page.errors == []


def test_a_phone_that_lost_its_connection_catches_up_by_itself(
        browser: Any, table: Table) -> None:
    session = table.session
    script = [e for e, _ in moves("bison", seed=7, hands=1)]
    session.submit(script[0])
    page = open_page(browser, table.server.url, PHONE)
    shows(page, 1)
    page.evaluate("source.close()")  # the Wi-Fi drops: no more messages, no more heartbeats
    for event in script[1:6]:
        assert session.submit(event).accepted
    time.sleep(0.5)
    assert page.evaluate("document.body.dataset.number") == "1"
    # the page notices the silence (no heartbeat) and reconnects; it is sent the present
    shows(page, 6)
    check_page_shows(page, session.game.view())
    assert page.evaluate("document.getElementById('link').dataset.state") == "live"



def test_starting_a_game_from_the_page(browser: Any, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "empty.sqlite3")
    app = create_app({"JOURNAL": journal, "PIN": PIN, "HEARTBEAT_S": 1.0})
    server = TableServer(app).start()
    try:
        page = open_page(browser, server.url, PHONE, pin=PIN)
        assert "No game yet" in page.inner_text("#status")
        page.click("#menu-button")
        page.click("#new-game-button")
        page.select_option("#ng-preset", "racehorse")
        inputs = page.query_selector_all("#ng-names input")
        assert len(inputs) == 4
        for box, name in zip(inputs, ["Nan", "Eve", "Sam", "Wes"], strict=True):
            box.fill(name)
        page.fill("#ng-options", "min_bid=300")
        shot(page, "phone-8-new-game")
        page.click("#new-game-form button[type=submit]")
        page.wait_for_function("document.body.dataset.phase == 'deal'")
        assert "Nan" in page.inner_text("#scores") and "racehorse" in page.inner_text("#variant")
        assert "min_bid=300" in page.inner_text("#scores")
        session = app.extensions["pinochle"].live.session
        assert session is not None and session.names == ("Nan", "Eve", "Sam", "Wes")
        session.stop(5)
    finally:
        server.stop()
        journal.close()


# -- a table without a camera: the whole hand entered on the phone ------------------------------

class Camera:
    """A camera view for the page that reads the mat (so card entry starts folded away)."""

    def jpeg(self) -> bytes | None:
        return None

    def status(self) -> dict[str, Any]:
        return {"calibrated": True, "paused": False, "text": "calibrated: 4 markers"}


def pick_cards(page: Any, cards: Sequence[Card], picture: str | None,
               done: str = "#pick-done") -> None:
    page.wait_for_selector("#pick[open]")
    for c in cards:
        page.click(f"#pick-grid button[data-card='{c}']")
    if picture:
        shot(page, picture)
    page.click(done)
    page.wait_for_selector("#pick", state="hidden")


def tap(page: Any, event: Event, picture: str | None = None) -> None:
    """Enter `event` on the page, by its buttons and card pickers only (with a screenshot
    just before the last tap when `picture` names one)."""
    match event:
        case HandDealt():
            page.click("#actions button.primary")
        case BidMade(amount=amount):
            page.click(f"#actions button:text-is('{amount}')")
        case Passed():
            page.click("#actions button:text-is('Pass')")
        case KittyShown(cards=cards):
            page.click("#entry-kitty")
            pick_cards(page, cards, picture)
        case TrumpNamed(suit=suit):
            page.click(f"#actions button[aria-label='{suit.word} trump']")
        case Buried():
            page.click("#entry-bury")
        case MeldShown(seat=seat, cards=cards):
            page.click(f"#entry button[data-meld-seat='{seat}']")
            pick_cards(page, cards, picture, "#pick-done" if cards else "#pick-none")
        case CardPlayed(seat=seat, card=card):
            if picture:
                shot(page, picture)
            page.click(f"#play-picker[data-seat='{seat}'] button[data-card='{card}']")
        case TrickGathered():
            page.click("#entry-gather")
        case _:
            raise AssertionError(f"the page has no control for {event.describe()}")


def test_a_whole_hand_of_bison_from_the_page_alone(browser: Any, table: Table) -> None:
    """No camera and no buttons: deal, bids, kitty, trump, bury, meld, every card and every
    gathered trick are tapped on a phone; the hands stay hidden from the game."""
    truth = list(play_game(preset("bison"), random.Random(3), names=NAMES, max_hands=1))
    session = table.session
    page = open_page(browser, table.server.url, PHONE, pin=PIN)
    pictures = {KittyShown: "phone-9-kitty", MeldShown: "phone-10-meld",
                CardPlayed: "phone-11-card"}
    for event, _ in truth:
        number = session.last_number
        game = session.game
        ready = not isinstance(event, CardPlayed) or (len(game.tricks), len(game.trick)) == (2, 1)
        tap(page, event, pictures.pop(type(event), None) if ready else None)
        shows(page, number + 1)
        entry = session.history()[-1]
        assert entry.accepted, (event.describe(), entry.reason)
        assert entry.event.source == "web"
    assert session.game.hands is None  # the game never saw a hand
    final = truth[-1][1]
    assert session.game.scores == final.scores
    assert page.evaluate("document.body.dataset.phase") == "hand-over"
    rows = page.query_selector_all("#scores tbody tr")
    assert [int(r.query_selector(".score").inner_text()) for r in rows] == list(final.scores)
    assert final.result is not None and session.game.result is not None
    assert session.game.result.score_change == final.result.score_change
    shot(page, "phone-12-hand-entered-on-the-page")
    assert page.errors == []


def test_card_entry_is_folded_away_while_a_camera_reads_the_mat(browser: Any,
                                                                tmp_path: Path) -> None:
    journal = Journal(tmp_path / "camera.sqlite3")
    session = Session.create(journal, preset("bison"), NAMES).start()
    app = create_app({"SESSION": session, "PIN": PIN, "HEARTBEAT_S": 1.0, "CAMERA": Camera()})
    server = TableServer(app).start()
    try:
        for event, _ in moves("bison", seed=7, hands=1):
            if session.game.phase is Phase.PLAY:
                break
            assert session.submit(event).accepted
        page = open_page(browser, server.url, PHONE, pin=PIN)
        page.wait_for_selector("#entry-toggle")
        assert page.query_selector("#play-picker") is None
        assert "camera reads the cards" in page.inner_text("#entry")
        page.click("#entry-toggle")
        seat = session.game.turn
        page.wait_for_selector(f"#play-picker[data-seat='{seat}']")
        sizes = page.eval_on_selector_all("#play-picker button.card", "els => els.map(e => "
                                          "[e.getBoundingClientRect().width, "
                                          "e.getBoundingClientRect().height])")
        assert len(sizes) == 24 and min(min(s) for s in sizes) >= 44  # thumb-sized
        assert page.errors == []
    finally:
        server.stop()
        session.stop(5)
        journal.close()
