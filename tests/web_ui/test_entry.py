"""Entering by hand what the camera would see: the routes through `app.test_client()` against
a real session on a hidden-hands table (the deal only marked), and the page's offers."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from table.journal import Journal
from table.rules import (
    BidMade,
    Buried,
    Card,
    CardPlayed,
    CardsPassed,
    Claimed,
    Conceded,
    Event,
    HandDealt,
    IllegalAction,
    KittyShown,
    MeldShown,
    Passed,
    PushedToDealer,
    Rank,
    StockDrawn,
    Suit,
    TrickGathered,
    preset,
)
from table.rules.game import Game, Phase
from table.rules.players import play_game
from table.session import Session
from web_ui.app import create_app, web_table
from web_ui.entry import camera_state, card_entry, faces

from .conftest import NAMES, PIN, pin_headers, wait_for

FOUR = ["Nan", "Eve", "Sam", "Wes"]


def unseen(event: Event) -> Event:
    """The event as a real table without a camera knows it: no hands dealt, face-down cards."""
    if isinstance(event, HandDealt):
        return dataclasses.replace(event, hands=None, kitty=None)
    if isinstance(event, Buried | CardsPassed):
        return dataclasses.replace(event, cards=None)
    return event


class Table:
    """A session on a hidden-hands table, its app, and the true game it follows."""

    def __init__(self, root: Path, variant: str, names: list[str], seed: int = 7) -> None:
        self.journal = Journal(root / f"{variant}.sqlite3")
        self.session = Session.create(self.journal, preset(variant), names).start()
        self.app = create_app({"SESSION": self.session, "PIN": PIN, "TESTING": True})
        self.client = self.app.test_client()
        self.script = list(play_game(preset(variant), random.Random(seed), names=names,
                                     max_hands=1))
        self.done = 0

    def until(self, stop: Callable[[Game], bool]) -> Event:
        """Submit the true game's events (as a camera-less table knows them) until `stop`
        holds; returns the true event that comes next."""
        while not stop(self.session.game):
            event, _ = self.script[self.done]
            outcome = self.session.submit(unseen(event))
            assert outcome.accepted, outcome.reason
            self.done += 1
        return self.script[self.done][0]

    def post(self, path: str, body: Any, pin: bool = True) -> tuple[int, dict[str, Any]]:
        reply = self.client.post(f"/api/{path}", json=body,
                                 headers=pin_headers() if pin else {})
        return reply.status_code, reply.get_json()

    def close(self) -> None:
        web_table(self.app).close()
        self.session.stop(5)
        self.journal.close()


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Callable[..., Table]]:
    made: list[Table] = []

    def make(variant: str = "bison", names: list[str] | None = None) -> Table:
        made.append(Table(tmp_path, variant, names or NAMES))
        return made[-1]
    yield make
    for t in made:
        t.close()


def unchanged(t: Table, before: Game, number: int) -> None:
    assert t.session.game == before
    assert t.session.last_number == number or not t.session.history()[-1].accepted


# -- each route: accepted, malformed, refused, without the PIN ----------------------------------

def test_a_card_played_from_the_page(tables: Callable[..., Table]) -> None:
    t = tables()
    truth = t.until(lambda g: g.phase is Phase.PLAY and len(g.trick) == 1)
    assert isinstance(truth, CardPlayed)
    before, number = t.session.game, t.session.last_number
    assert t.post("play", {"seat": truth.seat, "card": str(truth.card)}, pin=False)[0] == 401
    status, body = t.post("play", {"card": str(truth.card)})
    assert status == 400 and "whose card" in body["error"]
    status, body = t.post("play", {"seat": 7, "card": "QS"})
    assert status == 400 and "no seat 7" in body["error"]
    for bad in ("QX", "", 12, None):
        status, body = t.post("play", {"seat": truth.seat, "card": bad})
        assert status == 400 and "'QS'" in body["error"], bad
    unchanged(t, before, number)
    wrong = next(s for s in range(3) if s != truth.seat)
    status, body = t.post("play", {"seat": NAMES[wrong], "card": "9S"})
    assert status == 409 and body["accepted"] is False
    assert body["reason"] and f"{NAMES[wrong]} played 9♠: refused" in body["error"]
    unchanged(t, before, number)
    status, body = t.post("play", {"seat": NAMES[truth.seat], "card": str(truth.card)})
    assert status == 200 and body["accepted"], body
    entry = t.session.history()[-1]
    assert entry.event == CardPlayed(seat=truth.seat, card=truth.card, source="web",
                                     at=entry.event.at)
    assert body["state"]["game"]["trick"]["cards"][-1] == {"seat": truth.seat,
                                                           "card": str(truth.card)}


def test_the_kitty_from_the_page(tables: Callable[..., Table]) -> None:
    t = tables()
    truth = t.until(lambda g: g.phase is Phase.TRUMP)
    assert isinstance(truth, KittyShown)
    before, number = t.session.game, t.session.last_number
    cards = [str(c) for c in truth.cards]
    assert t.post("kitty", {"cards": cards}, pin=False)[0] == 401
    for body in ({}, {"cards": 3}, {"cards": ["AS", "ZZ", "QD"]}, {"cards": [1, 2, 3]}):
        status, answer = t.post("kitty", body)
        assert status == 400 and answer["error"], body
    status, answer = t.post("kitty", {"cards": cards[:2]})
    assert status == 409 and "the kitty has 3 cards, not 2" in answer["reason"]
    unchanged(t, before, number)
    status, answer = t.post("kitty", {"cards": " ".join(cards)})  # text is taken too
    assert status == 200, answer
    assert answer["state"]["game"]["kitty"] == cards
    assert answer["state"]["entry"]["kitty"] is None
    status, answer = t.post("kitty", {"cards": cards})
    assert status == 409 and "shown once" in answer["reason"]


def test_trump_bury_face_down_and_meld_from_the_page(tables: Callable[..., Table]) -> None:
    t = tables()
    t.until(lambda g: g.phase is Phase.BURY)
    declarer = t.session.game.declarer
    assert declarer is not None
    other = (declarer + 1) % 3
    before, number = t.session.game, t.session.last_number
    assert t.post("bury", {}, pin=False)[0] == 401
    assert t.post("meld", {"seat": other, "cards": ["KS", "QS"]}, pin=False)[0] == 401
    status, answer = t.post("bury", {"cards": "AS XX"})
    assert status == 400 and "'XX'" in answer["error"]
    status, answer = t.post("bury", {"seat": other})
    assert status == 409 and "only the declarer" in answer["reason"]
    status, answer = t.post("meld", {"seat": other, "cards": ["KS", "QS"]})
    assert status == 409 and "must bury" in answer["reason"]
    unchanged(t, before, number)
    status, answer = t.post("bury", {})
    assert status == 200, answer
    assert answer["text"] == f"{NAMES[declarer]} buried"
    assert t.session.history()[-1].event == Buried(seat=declarer, cards=None, source="web",
                                                   at=t.session.history()[-1].event.at)
    assert t.session.game.phase is Phase.MELD
    offers = answer["state"]["entry"]
    assert offers["bury"] is None and offers["meld"] == [1, 2, 0]
    assert offers["play"] == {"seat": declarer, "lead": True}
    # meld: malformed, a seat's meld, and "no meld"
    status, answer = t.post("meld", {"cards": ["KS", "QS"]})
    assert status == 400 and "whose meld" in answer["error"]
    status, answer = t.post("meld", {"seat": other})
    assert status == 400 and "no meld" in answer["error"]
    trump = t.session.game.trump
    status, answer = t.post("meld", {"seat": NAMES[other], "cards": [f"K{trump}", f"Q{trump}"]})
    assert status == 200, answer
    assert answer["state"]["game"]["meld"][other]["total"] == 40  # the royal marriage
    status, answer = t.post("meld", {"seat": declarer, "cards": []})
    assert status == 200 and answer["text"] == f"{NAMES[declarer]} melded "
    assert answer["state"]["game"]["meld"][declarer] == {"total": 0, "melds": []}


def test_a_trick_gathered_from_the_page(tables: Callable[..., Table]) -> None:
    t = tables()
    truth = t.until(lambda g: g.phase is Phase.PLAY and g.trick_full)
    assert isinstance(truth, TrickGathered)
    assert t.post("gather", {}, pin=False)[0] == 401
    status, answer = t.post("gather", {})
    assert status == 200 and answer["text"] == "trick gathered"
    assert answer["state"]["game"]["trick"] is None and not answer["state"]["entry"]["gather"]
    status, answer = t.post("gather", {})
    assert status == 409 and "no finished trick" in answer["reason"]


def test_brooklyns_push_from_the_page(tables: Callable[..., Table]) -> None:
    t = tables("brooklyn")
    s = t.session
    assert s.submit(HandDealt(dealer=0)).accepted
    status, answer = t.post("push", {})
    assert status == 409 and "no bid to push" in answer["error"]
    bidder = s.game.turn
    assert bidder is not None
    assert s.submit(BidMade(seat=bidder, amount=300)).accepted
    status, answer = t.post("push", {"seat": bidder})
    assert status == 409 and "only a 300 opening" in answer["reason"]
    for _ in range(2):
        assert s.submit(Passed(seat=s.game.turn or 0)).accepted
    assert s.game.phase is Phase.PUSH
    state = t.client.get("/api/state").get_json()
    assert state["entry"]["push"] == {"seat": bidder, "dealer": 0, "bid": 250}
    assert state["entry"]["kitty"] == {"seat": bidder, "count": 3}
    before, number = s.game, s.last_number
    assert t.post("push", {}, pin=False)[0] == 401
    status, answer = t.post("push", {"seat": "nobody"})
    assert status == 400 and "no seat 'nobody'" in answer["error"]
    status, answer = t.post("push", {"seat": 0})
    assert status == 409 and "turn" in answer["reason"]
    unchanged(t, before, number)
    status, answer = t.post("push", {})
    assert status == 200, answer
    contract = answer["state"]["game"]["contract"]
    assert contract == {"declarer": 0, "bid": 250, "trump": None}
    assert t.session.history()[-1].event.to_dict()["type"] == PushedToDealer.__name__


def test_racehorse_passes_face_down_from_the_page(tables: Callable[..., Table]) -> None:
    t = tables("racehorse", FOUR)
    truth = t.until(lambda g: g.phase is Phase.PASSING)
    assert isinstance(truth, CardsPassed)
    state = t.client.get("/api/state").get_json()
    assert state["entry"]["pass"] == {"seat": truth.seat, "to_seat": truth.to_seat, "count": 3}
    assert t.post("pass-cards", {}, pin=False)[0] == 401
    status, answer = t.post("pass-cards", {"seat": truth.seat, "to_seat": "Bo"})
    assert status == 400 and "no seat 'Bo'" in answer["error"]
    status, answer = t.post("pass-cards", {"seat": truth.to_seat, "to_seat": truth.seat})
    assert status == 409 and "passes 3 cards to" in answer["reason"]
    status, answer = t.post("pass-cards", {})
    assert status == 200, answer
    assert answer["text"] == f"{FOUR[truth.seat]} passed cards to {FOUR[truth.to_seat]}"
    back = answer["state"]["entry"]["pass"]
    assert back == {"seat": truth.to_seat, "to_seat": truth.seat, "count": 3}
    # only the declarer melds until the cards have come back
    assert answer["state"]["entry"]["meld"] == [truth.to_seat]
    assert answer["state"]["entry"]["play"] is None
    status, answer = t.post("pass-cards", {"seat": FOUR[truth.to_seat]})
    assert status == 200, answer
    assert answer["state"]["entry"]["pass"] is None
    assert len(answer["state"]["entry"]["meld"]) == 4
    status, answer = t.post("pass-cards", {})
    assert status == 409 and "no pass of cards is due" in answer["error"]


def test_without_a_game_the_new_routes_say_so(journal: Journal) -> None:
    app = create_app({"JOURNAL": journal, "PIN": PIN})
    try:
        for path in ("play", "kitty", "meld", "bury", "pass-cards", "gather", "push", "draw",
                     "claim"):
            reply = app.test_client().post(f"/api/{path}", json={}, headers=pin_headers())
            assert reply.status_code == 409 and "start one" in reply.get_json()["error"], path
    finally:
        web_table(app).close()


def test_two_handed_draws_from_the_page(tables: Callable[..., Table]) -> None:
    """004: each turn at the stock, the top card kept or rejected (the faces stay private)."""
    t = tables("two-hand", ["Ann", "Bob"])
    t.until(lambda g: g.phase is Phase.DRAW)
    before, number = t.session.game, t.session.last_number
    assert t.post("draw", {"keep": True}, pin=False)[0] == 401
    status, answer = t.post("draw", {"keep": "yes"})
    assert status == 400 and "'keep'" in answer["error"]
    status, answer = t.post("draw", {"seat": 0, "keep": True})
    assert status == 409 and "it is Bob's turn to draw, not Ann's" in answer["reason"]
    unchanged(t, before, number)
    assert card_entry(t.session.game)["draw"] == {"seat": 1, "left": 24}
    status, answer = t.post("draw", {"keep": False})
    assert status == 200 and answer["text"] == "Bob rejected the top card"
    assert answer["state"]["entry"]["draw"] == {"seat": 0, "left": 23}
    assert t.session.history()[-1].event == StockDrawn(
        seat=1, kept_first=False, source="web", at=t.session.history()[-1].event.at)


def test_a_claim_from_the_page(tables: Callable[..., Table]) -> None:
    t = tables()
    t.until(lambda g: g.phase is Phase.PLAY and g.trick_full and len(g.tricks) == 2)
    game = t.session.game
    d = game.declarer
    assert d is not None and game.result is None
    offer = t.post("gather", {})[1]["state"]["entry"]["claim"]
    assert offer == {"seats": list(game.active), "declarer": d, "defeat": False}
    other = next(s for s in game.active if s != d)
    assert t.post("claim", {"seat": d}, pin=False)[0] == 401
    status, answer = t.post("claim", {})
    assert status == 400 and "whose claim" in answer["error"]
    status, answer = t.post("claim", {"seat": other})
    assert status == 409 and "buried cards lie face down" in answer["reason"]
    status, answer = t.post("claim", {"seat": NAMES[d]})
    assert status == 200 and answer["text"] == f"{NAMES[d]} claimed the rest"
    assert answer["state"]["game"]["phase"] in ("hand-over", "game-over")
    assert answer["state"]["game"]["result"]["note"] == "the rest claimed"


def test_a_new_game_after_a_bison_game_is_dealt_by_its_winner() -> None:
    """000: "the winner is the first dealer of the second game"; 004 leaves it to the table."""
    from tests.rules.game_helpers import at
    from web_ui import actions
    tail = ("deal 1:300 2:p 0:p kitty=AS.9H.JC 1:trump=S 1:bury=? 1:meld=KS.QS 1:concede "
            "2:meld=KS.QS.KH.QH.KC.QC.KD.QD")
    body = {"names": ["Ann", "Bob", "Cy"]}
    for variant, first, score in (("bison", 2, 1450), ("classic3", 0, 950)):
        won = at(f"{variant} Ann,Bob,Cy 0,0,{score} d0 #5 : {tail}")
        assert won.winner == 2
        assert actions.new_game({**body, "preset": variant}, won)[2] == first
    won = at(f"bison Ann,Bob,Cy 0,0,1450 d0 #5 : {tail}")
    assert actions.new_game({**body, "preset": "bison", "dealer": 1}, won)[2] == 1
    assert actions.new_game({"preset": "bison", "names": ["Ann", "Bob", "Di"]}, won)[2] == 0


# -- what the page offers -----------------------------------------------------------------------

def offered(entry: dict[str, Any], event: Event) -> bool:
    """Whether the page's offers for a position include the true next event."""
    match event:
        case CardPlayed(seat=seat):
            return bool(entry["play"]) and entry["play"]["seat"] == seat
        case KittyShown(cards=cards):
            return bool(entry["kitty"]) and entry["kitty"]["count"] == len(cards)
        case MeldShown(seat=seat):
            return seat in entry["meld"]
        case Buried(seat=seat) if entry["piles"]:  # two-handed: a discard pile shown
            return seat in entry["piles"]["seats"]
        case Buried(seat=seat):
            return bool(entry["bury"]) and entry["bury"]["seat"] == seat
        case StockDrawn(seat=seat):
            return bool(entry["draw"]) and entry["draw"]["seat"] == seat
        case Claimed(seat=seat):
            return bool(entry["claim"]) and seat in entry["claim"]["seats"]
        case CardsPassed(seat=seat, to_seat=to):
            return bool(entry["pass"]) and (entry["pass"]["seat"], entry["pass"]["to_seat"]) \
                == (seat, to)
        case TrickGathered():
            return bool(entry["gather"])
        case PushedToDealer(seat=seat):
            return bool(entry["push"]) and entry["push"]["seat"] == seat
    return True  # bids, trump, deals: the action bar's


@pytest.mark.parametrize("variant", ["bison", "brooklyn", "racehorse", "family",
                                     "double-deck", "partnership4", "classic3", "two-hand"])
def test_the_page_offers_every_move_the_camera_would_see(variant: str) -> None:
    rules = preset(variant)
    names = [f"P{i}" for i in range(rules.table_seats)]
    checked = 0
    for seed in range(3):
        game: Game | None = None
        for event, after in play_game(rules, random.Random(seed), names=names, max_hands=2):
            if game is not None and not isinstance(event, HandDealt):
                entry = card_entry(game)
                assert offered(entry, event), (event.describe(), game.position(), entry)
                checked += isinstance(event, CardPlayed | MeldShown | TrickGathered)
            game = after
    assert checked > rules.hand_size * len(names)  # at least one hand was played out
    assert len(faces(rules.nines)) == (24 if rules.nines else 20)


def test_after_a_concession_the_others_may_still_lay_down_meld() -> None:
    rules = preset("classic3")
    game = next(g for e, g in play_game(rules, random.Random(2), names=NAMES, max_hands=2)
                if isinstance(e, Conceded))
    assert game.result is not None and game.result.opponents_score_meld
    seats = card_entry(game)["meld"]
    assert seats and game.declarer not in seats
    king, queen = (Card(game.trump or Suit.parse("S"), r) for r in (Rank.KING, Rank.QUEEN))
    later = game.apply(MeldShown(seat=seats[0], cards=(king, queen)))
    assert later.melds[seats[0]] is not None and later.melds[seats[0]].total == 40


def test_offers_are_empty_while_the_auction_runs() -> None:
    from table.rules.game import new_game
    game = new_game(preset("bison"), NAMES).apply(HandDealt(dealer=0))
    entry = card_entry(game)
    assert not any(entry[k] for k in ("play", "kitty", "meld", "bury", "pass", "gather",
                                      "push", "draw", "piles", "claim"))


# -- the camera decides whether card entry is open by default ---------------------------------

class FakeCamera:
    def __init__(self, status: dict[str, Any]) -> None:
        self.state = status

    def jpeg(self) -> bytes | None:
        return None

    def status(self) -> dict[str, Any]:
        return dict(self.state)


def test_the_state_says_whether_a_camera_reads_the_mat(session: Session, app: Flask,
                                                       client: FlaskClient) -> None:
    assert client.get("/api/state").get_json()["camera"] == {
        "present": False, "watching": False, "text": "no camera: enter the cards here"}
    camera = FakeCamera({"calibrated": True, "text": "calibrated: 4 markers", "paused": False})
    with_camera = create_app({"SESSION": session, "PIN": PIN, "CAMERA": camera})
    try:
        view = with_camera.test_client()
        assert view.get("/api/state").get_json()["camera"] == {
            "present": True, "watching": True, "text": "calibrated: 4 markers"}
        camera.state = {"calibrated": False, "text": "looking for the mat's markers"}
        assert view.get("/api/state").get_json()["camera"]["watching"] is False
        camera.state = {"calibrated": True, "text": "", "paused": True}
        assert view.get("/api/state").get_json()["camera"]["watching"] is False
    finally:
        web_table(with_camera).close()


@pytest.mark.parametrize("kind", ["camera-moved", "camera-dark"])
def test_a_camera_that_moved_or_is_in_the_dark_is_not_watching(kind: str) -> None:
    blind = [{"kind": kind, "text": "The camera or the mat moved (40 mm)"}]
    status = {"calibrated": True, "paused": False, "text": "calibrated"}
    assert camera_state(True, status, [])["watching"] is True
    assert camera_state(True, status, blind)["watching"] is False


def test_the_moved_alert_reaches_the_state(session: Session) -> None:
    from table.alerts import Alert
    camera = FakeCamera({"calibrated": True, "text": "calibrated", "paused": False})
    app = create_app({"SESSION": session, "PIN": PIN, "CAMERA": camera})
    try:
        session.alert(Alert(kind="camera-moved", text="The camera or the mat moved",
                            source="camera")).result()
        client = app.test_client()
        wait_for(lambda: not client.get("/api/state").get_json()["camera"]["watching"])
    finally:
        web_table(app).close()


@pytest.mark.parametrize("variant", ["bison", "racehorse", "family", "classic3"])
def test_what_the_page_offers_the_game_takes(variant: str) -> None:
    """The converse of the test above: a seat offered meld may show it (and no other seat may),
    a gather is offered exactly when the game would take one, and an offered lead is taken
    (not before a bury, the partners' passes or a forced concession)."""
    rules = preset(variant)
    offers = 0
    for seed in range(3):
        game: Game | None = None
        for event, after in play_game(rules, random.Random(seed), max_hands=2):
            if game is not None and not isinstance(event, HandDealt):
                entry = card_entry(game)
                for seat in game.active:
                    assert _takes(game, MeldShown(seat=seat, cards=())) == \
                        (seat in entry["meld"]), (seat, game.position())
                # once the hand is scored the page moves on to the deal (the camera may gather)
                assert (_takes(game, TrickGathered()) and game.phase is Phase.PLAY) \
                    == entry["gather"], game.position()
                if entry["play"]:
                    card = game.legal_plays[0]
                    assert _takes(game, CardPlayed(seat=entry["play"]["seat"], card=card)), \
                        game.position()
                    offers += 1
            game = after
    assert offers > rules.hand_size  # a hand was played out through the offers


def _takes(game: Game, event: Event) -> bool:
    try:
        game.apply(event)
    except IllegalAction:
        return False
    return True
