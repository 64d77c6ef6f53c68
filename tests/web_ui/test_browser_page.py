"""Issue 18 in headless Chromium (as test_browser.py: a real server, session and journal): the
bid as it stands, the road to the target, past games and records, hands agreed by the other
side, sound and the light theme, and what used to get in the way, at phone and tablet sizes.

Screenshots go to artifacts/web_ui/ (or $WEB_UI_ARTIFACTS), named page-*.png.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from table.journal import Journal
from table.rules import (
    CardPlayed,
    HandAgreed,
    Rules,
    play_game,
    preset,
    with_options,
)
from table.rules.game import Game, Phase
from table.session import Session
from web_ui.app import create_app
from web_ui.server import TableServer

from .conftest import NAMES, PIN
from .test_browser import ARTIFACTS, CHROMIUM, PHONE, TABLET, browser, open_page, shot, shows

__all__ = ["browser"]  # the module's browser fixture, shared

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
    pytest.mark.timeout(240),
]


class Table:
    """A served session of `rules`, played from a simulated game by `until`."""

    def __init__(self, root: Path, rules: Rules, names: list[str], seed: int = 7) -> None:
        self.journal = Journal(root / "table.sqlite3")
        self.names = names
        self.session = Session.create(self.journal, rules, names).start()
        self.script = iter(play_game(rules, random.Random(seed), names=names, max_hands=8))
        self.app = create_app({"SESSION": self.session, "PIN": PIN, "HEARTBEAT_S": 1.0,
                               "JOURNAL": self.journal})
        self.server = TableServer(self.app).start()

    def until(self, stop: Callable[[Game], bool]) -> Game:
        while not stop(self.session.game):
            event, _ = next(self.script)
            outcome = self.session.submit(event)
            assert outcome.accepted, outcome.reason
        return self.session.game

    def close(self) -> None:
        self.server.stop()
        self.session.stop(5)
        self.journal.close()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Callable[..., Table]]:
    made: list[Table] = []

    def make(variant: str = "bison", options: dict[str, str] | None = None,
             names: list[str] | None = None, seed: int = 7) -> Table:
        rules = with_options(preset(variant), options or {})
        root = tmp_path / str(len(made))
        root.mkdir()
        t = Table(root, rules, names or NAMES[:], seed)
        made.append(t)
        return t
    yield make
    for t in made:
        t.close()


def screen(page: Any, name: str) -> None:
    """What the phone's screen shows (the action bar included), besides the whole page."""
    page.screenshot(path=str(ARTIFACTS / f"{name}-screen.png"))


def playing(trick: int) -> Callable[[Game], bool]:
    return lambda g: g.phase is Phase.PLAY and len(g.tricks) == trick and len(g.trick) == 1


def hand_over(hands: int) -> Callable[[Game], bool]:
    return lambda g: g.phase in (Phase.HAND_OVER, Phase.GAME_OVER) and g.hand_number == hands


# -- the bid as it stands, the road to the target -----------------------------------------------

@pytest.mark.parametrize(("variant", "words"), [
    ("bison", "more to make"), ("partnership4", " & "), ("brooklyn", "each pays")])
def test_the_bid_as_it_stands_during_play(browser: Any, tables: Callable[..., Table],
                                          variant: str, words: str) -> None:
    names = ["Ann", "Bob", "Cy", "Dee"][:preset(variant).table_seats]
    t = tables(variant, names=names, seed=3)
    game = t.until(lambda g: g.phase is Phase.PLAY and len(g.trick) == 1
                   and bool(g.view()["standing"]) and g.view()["standing"]["needs"] > 30)
    phone = open_page(browser, t.server.url, PHONE)
    tablet = open_page(browser, t.server.url, TABLET)
    state = t.app.extensions["pinochle"].live.state()
    for page in (phone, tablet):
        shows(page, t.session.last_number)
        assert page.inner_text("#bid-declarer") == state["bid"]["declarer"]
        assert page.inner_text("#bid-others") == state["bid"]["others"]
    assert words in state["bid"]["declarer"] + state["bid"]["others"]
    standing = game.view()["standing"]
    assert f"{standing['needs']} more to make {standing['bid']}" in phone.inner_text("#standing")
    shot(phone, f"page-phone-bid-{variant}")
    shot(tablet, f"page-tablet-bid-{variant}")
    # it follows the play: one more card and the page says what the game says
    t.until(lambda g: len(g.plays) > len(game.plays) + 1)
    shows(phone, t.session.last_number)
    assert phone.inner_text("#bid-declarer") == \
        t.app.extensions["pinochle"].live.state()["bid"]["declarer"]
    assert phone.errors == [] and tablet.errors == []


@pytest.mark.parametrize("variant", ["bison", "brooklyn"])
def test_the_road_to_the_target(browser: Any, tables: Callable[..., Table],
                                variant: str) -> None:
    t = tables(variant, seed=1)
    game = t.until(lambda g: hand_over(3)(g) if variant == "bison" else
                   g.phase is Phase.HAND_OVER and g.hand_number >= 2 and any(g.ledger))
    phone = open_page(browser, t.server.url, PHONE)
    tablet = open_page(browser, t.server.url, TABLET)
    road = t.app.extensions["pinochle"].live.state()["road"]
    assert phone.query_selector_all("#road svg polyline") and \
        len(phone.query_selector_all("#road svg polyline")) == len(road["sides"])
    legend = phone.inner_text("#road-legend")
    if variant == "bison":
        assert phone.query_selector("#road svg line.target") is not None
        for seat, name in enumerate(NAMES):
            need = max(0, game.target - game.scores[seat])
            assert f"{name} {game.scores[seat]}" in legend
            assert (f"needs {need}" if need else "there") in legend
    else:
        assert "stakes ledger" in phone.inner_text("#road").lower()
        assert phone.query_selector("#road svg line.target") is None
        for seat, name in enumerate(NAMES):
            assert f"{name} {game.ledger[seat]}" in legend
    shot(phone, f"page-phone-road-{variant}")
    phone.locator("#road").screenshot(path=str(ARTIFACTS / f"page-phone-road-{variant}-chart.png"))
    shot(tablet, f"page-tablet-road-{variant}")
    assert phone.errors == [] and tablet.errors == []


# -- past games and player records ----------

def test_past_games_and_player_records(browser: Any, tables: Callable[..., Table]) -> None:
    t = tables(seed=1)
    t.until(hand_over(2))
    # an earlier game in the same journal, with one player in common
    other = Session.create(t.journal, preset("bison"), ["Cy", "Dot", "Eve"]).start()
    for event, _ in play_game(preset("bison"), random.Random(5), names=["Cy", "Dot", "Eve"],
                              max_hands=1):
        assert other.submit(event).accepted
    other.stop(5)
    for size, label in ((PHONE, "phone"), (TABLET, "tablet")):
        page = open_page(browser, t.server.url, size, pin=PIN)
        page.click("#menu-button")
        assert page.query_selector("#menu >> text=Journal (JSON)") is None
        page.click("#past-button")
        page.wait_for_selector("#game-hands .hand-row")  # this game first: its hands
        assert len(page.query_selector_all("#game-hands .hand-row")) == 2
        page.click("#game-hands .hand-row[data-hand='2']")
        page.wait_for_selector("#hand-moves li")
        assert "dealt" in page.inner_text("#hand-moves li")
        shot(page, f"page-{label}-this-game-hand-2")
        screen(page, f"page-{label}-this-game-hand-2")
        page.click("#past [data-tab=games]")
        page.wait_for_selector("#game-list .game-row")
        rows = page.query_selector_all("#game-list .game-row")
        assert len(rows) == 2 and "Dot" in page.inner_text("#game-list")
        shot(page, f"page-{label}-past-games")
        page.click(f"#game-list .game-row[data-game='{other.game_id}']")
        page.wait_for_selector("#game-hands .hand-row")
        assert "Eve" in page.inner_text("#past-body")
        link = page.get_attribute("#past-body a.button", "href")
        assert link == f"api/games/{other.game_id}/sheet.csv"
        page.click("#past [data-tab=players]")
        page.wait_for_selector("#records tbody tr")
        text = page.inner_text("#past-body")
        assert "same name" in text
        cy = page.inner_text("#records tbody tr:has-text('Cy') td:nth-child(2)")
        assert cy == "2"  # Cy sat in both games: one person
        assert page.get_attribute("#past-body a.button", "href") == "api/records.csv"
        shot(page, f"page-{label}-players")
        screen(page, f"page-{label}-players")
        download = page.request.get(t.server.url + "api/records.csv")
        assert download.ok and download.text().startswith("player,games,won")
        assert page.errors == []


# -- hands agreed by the other side ----------

def test_a_hand_is_final_when_the_other_side_agrees(browser: Any,
                                                    tables: Callable[..., Table]) -> None:
    t = tables(options={"agree_hands": "1"}, seed=1)
    game = t.until(lambda g: g.phase is Phase.HAND_OVER and g.result is not None
                   and g.result.declarer is not None)
    assert game.result is not None and game.result.declarer is not None
    others = [s for s in game.active if s != game.result.declarer]
    phone = open_page(browser, t.server.url, PHONE, pin=PIN)
    tablet = open_page(browser, t.server.url, TABLET)
    for page in (phone, tablet):
        assert "pending" in page.inner_text("#status")
        assert " or ".join(NAMES[s] for s in others) in page.inner_text("#status")
    buttons = phone.eval_on_selector_all("#actions [data-agree]", "els => els.map(e => "
                                         "[Number(e.dataset.agree), e.textContent])")
    assert buttons == [[s, f"{NAMES[s]}: agreed"] for s in others]
    assert "dealt" not in phone.inner_text("#actions")  # the next deal waits
    shot(phone, "page-phone-agree-pending")
    screen(phone, "page-phone-agree-pending")
    shot(tablet, "page-tablet-agree-pending")
    number = t.session.last_number
    phone.click(f"#actions [data-agree='{others[0]}']")
    shows(phone, number + 1)
    last = t.session.history()[-1].event
    assert isinstance(last, HandAgreed) and last.seat == others[0] and last.source == "web"
    phone.wait_for_selector("#actions button.primary:has-text('dealt')")
    shows(tablet, number + 1)
    assert "pending" not in tablet.inner_text("#status")
    shot(phone, "page-phone-agreed")
    screen(phone, "page-phone-agreed")
    assert phone.errors == [] and tablet.errors == []


# -- sound and light ----------

def test_a_sound_for_my_turn_remembered_on_the_phone(browser: Any,
                                                     tables: Callable[..., Table]) -> None:
    t = tables()
    t.until(lambda g: g.phase is Phase.AUCTION)
    page = open_page(browser, t.server.url, PHONE)
    page.click("#menu-button")
    assert not page.is_checked("#sound-toggle")  # off by default
    page.check("#sound-toggle")
    page.wait_for_function("document.body.dataset.beeped == '1'")  # a sample when switched on
    me = (t.session.game.turn + 1) % 3
    page.select_option("#me-select", str(me))
    shot(page, "page-phone-menu-sound")
    screen(page, "page-phone-menu-sound")
    page.click("#menu button[data-close]")
    page.reload()
    page.wait_for_selector(".link[data-state=live]")
    assert page.evaluate("localStorage.getItem('pinochle-table-sound')") == "on"
    assert page.evaluate("document.body.dataset.beeped") is None
    t.until(lambda g: g.turn == me)
    page.wait_for_function("document.body.dataset.beeped == '1'")  # my turn
    page.click("#menu-button")
    assert page.is_checked("#sound-toggle") and page.input_value("#me-select") == str(me)
    assert page.errors == []


def test_a_light_theme_when_the_phone_asks_for_one(browser: Any,
                                                   tables: Callable[..., Table]) -> None:
    t = tables()
    t.until(playing(3))
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, device_scale_factor=2, has_touch=True,
                                      color_scheme=scheme)
        page = context.new_page()
        page.goto(t.server.url)
        page.wait_for_selector(".link[data-state=live]")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        red = int(background.split("(")[1].split(",")[0])
        assert (red > 200) == (scheme == "light"), background
        shot(page, f"page-phone-theme-{scheme}")
        manifest = page.get_attribute("link[rel=manifest]", "href")
        assert page.request.get(t.server.url + manifest.lstrip("/")).json()["display"] == \
            "standalone"
        context.close()


# -- what got in the way ----------

def test_the_first_screen_says_the_pin_unlocks_the_controls(
        browser: Any, tables: Callable[..., Table]) -> None:
    t = tables()
    phone = open_page(browser, t.server.url, PHONE)
    assert "PIN" in phone.inner_text("#hint")
    shot(phone, "page-phone-first-screen")
    phone.click("#hint-pin")
    phone.wait_for_selector("#menu[open] #pin-input")
    phone.fill("#pin-input", PIN)
    phone.click("#pin-form button[type=submit]")
    phone.wait_for_selector("#hint", state="hidden")
    assert phone.is_visible("#actions")


def test_concede_toasts_picker_and_score_row_on_a_phone(
        browser: Any, tables: Callable[..., Table]) -> None:
    t = tables(seed=3)
    game = t.until(playing(6))
    page = open_page(browser, t.server.url, PHONE, pin=PIN)
    # the play has begun: no Concede (the game allows none now; test_browser_concede.py has it)
    assert page.query_selector("#concede") is None
    assert "Undo" in page.inner_text("#actions")
    # the picker dims faces whose two copies are gone
    gone = t.app.extensions["pinochle"].live.state()["entry"]["gone"]
    dimmed = page.eval_on_selector_all("#play-picker .card.gone", "els => els.map(e => "
                                       "e.dataset.card)")
    assert sorted(dimmed) == sorted(gone)
    shot(page, "page-phone-play-concede-and-picker")
    screen(page, "page-phone-play-concede-and-picker")
    # a toast never covers the card picker
    seat, card = game.turn, None
    script = t.script
    event, _ = next(script)
    assert isinstance(event, CardPlayed) and event.seat == seat
    card = event.card
    number = t.session.last_number
    page.click(f"#play-picker button[data-card='{card}']")
    shows(page, number + 1)
    page.wait_for_selector("#toast:not([hidden])")
    toast = page.eval_on_selector("#toast", "e => e.getBoundingClientRect().toJSON()")
    picker = page.eval_on_selector("#play-picker", "e => e.getBoundingClientRect().toJSON()")
    overlap = toast["bottom"] > picker["top"] and toast["top"] < picker["bottom"]
    assert not overlap, (toast, picker)
    shot(page, "page-phone-toast-above-the-picker")
    screen(page, "page-phone-toast-above-the-picker")
    # after the hand is scored: no "Trick gathered", and the bury's points labelled
    after = t.until(lambda g: g.phase is Phase.HAND_OVER)
    shows(page, t.session.last_number)
    assert page.query_selector("#entry-gather") is None
    assert after.result is not None and after.result.declarer is not None
    bury = after.view()["buried_points"]
    row = page.inner_text(f"#scores tr[data-seat='{after.result.declarer}']")
    if bury:
        assert f"+{bury} buried" in row
    shot(page, "page-phone-hand-over-bury-labelled")
    screen(page, "page-phone-hand-over-bury-labelled")
    assert page.errors == []


def test_new_game_options_are_fields_with_the_presets_defaults(
        browser: Any, tables: Callable[..., Table]) -> None:
    t = tables()
    for size, label in ((PHONE, "phone"), (TABLET, "tablet")):
        page = open_page(browser, t.server.url, size, pin=PIN)
        page.click("#menu-button")
        page.click("#new-game-button")
        page.select_option("#ng-preset", "racehorse")
        racehorse = preset("racehorse")
        assert page.input_value("#ng-min_bid") == str(racehorse.min_bid)
        assert page.input_value("#ng-target") == str(racehorse.target)
        assert page.input_value("#ng-agree_hands") == "0"
        for box, name in zip(page.query_selector_all("#ng-names input"),
                             ["Nan", "Eve", "Sam", "Wes"], strict=True):
            box.fill(name)
        page.fill("#ng-bid_step", "0")  # outside its domain: the form says so, nothing sent
        page.click("#new-game-form button[type=submit]")
        page.wait_for_function("document.getElementById('ng-error').textContent != ''")
        assert "Bids go up by" in page.inner_text("#ng-error")
        shot(page, f"page-{label}-new-game-fields")
        screen(page, f"page-{label}-new-game-fields")
        if label == "tablet":
            break
        page.fill("#ng-bid_step", "10")
        page.fill("#ng-min_bid", "300")
        page.fill("#ng-agree_hands", "1")
        page.click("#new-game-form button[type=submit]")
        page.wait_for_function("document.getElementById('variant').textContent == 'racehorse'")
        session = t.app.extensions["pinochle"].live.session
        assert session.names == ("Nan", "Eve", "Sam", "Wes")
        assert session.game.rules.min_bid == 300 and session.game.rules.agree_hands == 1
        assert "min_bid=300" in page.inner_text("#scores")
        session.stop(5)
