"""Simulated players at a real table: they act only through the table's own inputs.

The seeded `SimTable` (table.rules) decides what each seat does and keeps the true cards; this
module carries it out the way people would: bids, passes, trump and concessions are pressed on
the seat buttons (mock GPIO pins for some seats, the simulated serial board for the others),
cards are laid on the rendered mat, meld in the meld areas and the kitty in the middle, tricks
are swept off, and the camera (the real vision tracker) reads it all into the session. The
deal is only marked (the camera sees the mat clear); the bury and passed cards go face down.

What only a person can settle goes through the page's API with the PIN, as a phone would: which
of two cards the camera hesitated over, a misread card, a meld too long for its area.

A few deliberate mistakes per run show the table catching them: a PASS pressed out of turn
(refused, the buzzer sounds), a renege (proven later, scored by the rules), a card the camera
cannot read (a smudged face: confirmed on the phone), a bumped camera (found, recalibrated).

`true_events` is what really happened, with the hands: replayed with the hands known it gives
the score the table must reach (a hand with the deliberate renege is replayed hidden, as the
rules would refuse the renege outright if they knew the hands).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from firmware_bridge.language import BID, PASS, taps_to_bid
from table.alerts import Alert
from table.rules import (
    ALL_SUITS,
    BidMade,
    Buried,
    Card,
    CardPlayed,
    CardsPassed,
    Conceded,
    Corrected,
    Event,
    Game,
    HandDealt,
    IllegalAction,
    KittyShown,
    MeldShown,
    Passed,
    Phase,
    PushedToDealer,
    SimTable,
    ThrownIn,
    TrickGathered,
    TrumpNamed,
    legal_plays,
)
from table.session import Outcome, Session

from .camera import CameraFeed
from .phone import Phone, PhoneError

log = logging.getLogger(__name__)

CARD_FRAMES = 40     # frames a laid card may take to be read (or asked about) before giving up
GROUP_FRAMES = 60    # the same for a meld or the kitty (they must lie still for a while)
DEAL_FRAMES = 40     # frames for the mat to be seen clear and the deal marked
BUMP_FRAMES = 40     # frames for the camera to notice it was bumped and find the mat again
WAIT_S = 20.0        # seconds to wait for a button press or a phone request to be answered
THINK_S = 0.7        # a player's pause between moves, at --speed 1
FRAME_S = 0.12       # the simulated camera's frame interval, at --speed 1


class DemoStuck(Exception):
    """The table did not do what the players did (names the move and what was missing)."""


class Stopped(Exception):
    """The table is shutting down."""


@dataclass
class Mistake:
    """A deliberate mistake and whether the table caught it (and how it was put right)."""

    kind: str           # "out-of-turn", "renege", "unreadable", "bumped"
    hand: int
    text: str
    caught: bool = False
    settled: str = ""


class Fingers:
    """Presses a seat's buttons: on mock GPIO pins (`presser`) or the simulated board; even
    seats use the pins and odd seats the board when both are there; with neither, the phone."""

    def __init__(self, presser: Any, board: Any, phone: Phone) -> None:
        self.presser = presser
        self.board = board
        self.phone = phone

    def channel(self, seat: int) -> str:
        if self.presser is not None and (seat % 2 == 0 or self.board is None):
            return "gpio"
        if self.board is not None:
            return "serial"
        return "web"

    def press(self, seat: int, button: str, hold: bool = False) -> None:
        if self.channel(seat) == "gpio":
            self.presser.press(seat, button, hold=hold)
        else:
            self.board.press(seat, button, hold=hold)

    def speak(self, event: Event, game: Game) -> None:
        """Say `event` (a bid, pass, push, trump or concession) the way this seat can."""
        seat: int = vars(event)["seat"]
        if self.channel(seat) == "web":
            self._on_page(event)
            return
        if isinstance(event, BidMade):
            taps = taps_to_bid(game, seat, event.amount)
            if taps is None:
                raise DemoStuck(f"{event.amount} cannot be reached with the BID button")
            for _ in range(taps):
                self.press(seat, BID)
            self.press(seat, BID, hold=True)
        elif isinstance(event, Passed | PushedToDealer):
            self.press(seat, PASS)
        elif isinstance(event, TrumpNamed):
            for _ in range(ALL_SUITS.index(event.suit) + 1):
                self.press(seat, BID)
            self.press(seat, BID, hold=True)
        elif isinstance(event, Conceded):
            self.press(seat, PASS, hold=True)
        else:
            raise DemoStuck(f"no button says {event.describe()}")

    def _on_page(self, event: Event) -> None:
        seat: int = vars(event)["seat"]
        if isinstance(event, BidMade):
            self.phone.post("/api/bid", {"seat": seat, "amount": event.amount})
        elif isinstance(event, Passed):
            self.phone.post("/api/pass", {"seat": seat})
        elif isinstance(event, TrumpNamed):
            self.phone.post("/api/trump", {"seat": seat, "suit": str(event.suit)})
        elif isinstance(event, Conceded):
            self.phone.post("/api/concede", {"seat": seat})
        else:
            self.phone.event(event)


@dataclass
class Pacing:
    """Live pacing (`speed` times as fast as a real table), or none at all (headless); `fps`
    paces the camera alone, like a real one (the benchmark's headless table)."""

    headless: bool
    speed: float = 1.0
    fps: float | None = None

    def think(self) -> None:
        if not self.headless:
            time.sleep(THINK_S / self.speed)

    def frame(self, started: float) -> None:
        if self.fps:
            interval = 1.0 / self.fps
        elif self.headless:
            return
        else:
            interval = FRAME_S / self.speed
        time.sleep(max(0.0, interval - (time.monotonic() - started)))


def _behind_the_table() -> None:
    """Run this thread (the simulated camera's sensor work) after the table's own threads when
    the CPU is short: a real camera's sensor takes none of the table's CPU (Linux: a thread's
    own nice value)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


def _key(event: Event, loose: bool = False) -> tuple[Any, ...]:
    """What identifies a move, whoever reported it (cards of a play are checked apart);
    `loose`: only who showed something, not which cards (the camera may misread them)."""
    name = type(event).__name__
    if loose and isinstance(event, MeldShown):
        return (name, event.seat)
    if loose and isinstance(event, KittyShown):
        return (name,)
    if isinstance(event, HandDealt):
        return (name, event.dealer)
    if isinstance(event, MeldShown):
        return (name, event.seat, tuple(sorted(event.cards)))
    if isinstance(event, KittyShown):
        return (name, tuple(sorted(event.cards)))
    if isinstance(event, CardsPassed):
        return (name, event.seat, event.to_seat)
    if isinstance(event, BidMade):
        return (name, event.seat, event.amount)
    if isinstance(event, TrumpNamed):
        return (name, event.seat, event.suit)
    seat = getattr(event, "seat", None)
    return (name,) if seat is None else (name, seat)


def _public(event: Event) -> dict[str, Any]:
    data = event.to_dict()
    data.pop("source", None)
    data.pop("at", None)
    return data


@dataclass
class SimulatedPlayers:
    """Plays the session's game through the table's inputs until it is over, `hands` hands
    have been played, or `stop` is set."""

    session: Session
    feed: CameraFeed
    scene: Any                       # vision.simulator.MatScene
    fingers: Fingers
    phone: Phone
    seed: int = 1
    hands: int | None = None
    pacing: Pacing = field(default_factory=lambda: Pacing(True))
    mistakes_on: bool = True
    on_still: Callable[[Card, int, float], object] | None = None
    true_events: list[Event] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    phone_fixes: list[str] = field(default_factory=list)
    frames: int = 0
    complete: bool = True            # true_events cover the whole game

    def __post_init__(self) -> None:
        self._notices: queue.Queue[Any] = queue.Queue()
        self._unsubscribe = self.session.subscribe(self._notices)
        self._stop = threading.Event()
        self._sim: SimTable | None = None
        self._shadow: Game = self.session.game
        self._laid: dict[tuple[str, int | None], list[Card]] = {}
        self._smudged: tuple[Card, np.ndarray] | None = None
        self._unsure_seen: list[Alert] = []
        self._moved_seen: list[Alert] = []
        self._renege_hand: int | None = None
        self._hand_start = 0
        self._watch_still: list[tuple[Any, int]] = []
        self._before: dict[int, list[Card]] = {}
        self._backlog: list[Outcome] = []  # outcomes that came before they were awaited
        # The camera's sensor work (blur, noise, JPEG) is done in its own thread while the
        # table reads the frame before: a frame reaches the table one frame after it is taken.
        self._darkroom = ThreadPoolExecutor(1, thread_name_prefix="sim-camera",
                                            initializer=_behind_the_table)
        self._developing: Future[np.ndarray] | None = None

    # -- the game loop ----------------------------------------------------------------------

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        try:
            self._resume()
            while not self._stop.is_set() and not self._finished():
                self._play_one()
        except Stopped:
            pass
        finally:
            self._unsubscribe()
            self._darkroom.shutdown(wait=True, cancel_futures=True)

    def _finished(self) -> bool:
        g = self._shadow
        if g.phase is Phase.GAME_OVER:
            return True
        waiting = g.phase in (Phase.DEAL, Phase.HAND_OVER)
        return waiting and self.hands is not None and g.hand_number >= self.hands

    def _play_one(self) -> None:
        g = self._shadow
        if g.phase in (Phase.DEAL, Phase.HAND_OVER):
            self._sim = self._new_sim(g.hand_number + 1)
        sim = self._sim
        assert sim is not None
        event = sim.next_event(g)
        if self.mistakes_on and isinstance(event, CardPlayed):
            event = self._maybe_renege(g, event)
        truth = self._truth(event)
        self._perform(event, g)
        sim.observe(event, g)
        truth = self._after_observe(truth, event)
        try:
            self._shadow = g.apply(event)
        except IllegalAction as exc:
            raise DemoStuck(f"the players' own game refused {event.describe()}: "
                            f"{exc.reason}") from None
        self.true_events.append(truth)

    def _new_sim(self, hand: int) -> SimTable:
        rng = random.Random(f"{self.seed}-{self.session.game_id}-{hand}")
        return SimTable(self.session.rules, rng, known=False, source="sim")

    def _resume(self) -> None:
        """Pick up a game in progress: deal this hand's cards again (the deal is seeded by the
        hand's number), follow its moves, and lay the cards still on the mat back down."""
        g = self.session.game
        self._shadow = g
        if g.hand_number == 0 and g.phase is Phase.DEAL:
            return
        self.complete = False
        if g.phase in (Phase.DEAL, Phase.HAND_OVER, Phase.GAME_OVER) or g.start is None:
            return
        sim = self._sim = self._new_sim(g.hand_number)
        sim.next_event(g.start)  # deals the true hands again
        p = g.start.apply(g.events[0])
        for event in g.events[1:]:
            face_down = isinstance(event, Buried | CardsPassed) and event.cards is None
            if face_down:
                self._think_ahead(sim, p, type(event))
            sim.observe(event, p)
            p = p.apply(event)
        for seat, card in g.trick:
            self.scene.place(card, seat, "play")
        if g.phase is Phase.MELD:
            for seat, cards in enumerate(g.meld_cards):
                for card in cards:
                    self.scene.place(card, seat, "meld")

    @staticmethod
    def _think_ahead(sim: SimTable, p: Game, kind: type) -> None:
        """Let the players decide a face-down move (which cards), looking past any meld they
        would show first."""
        scratch = p
        for _ in range(6):
            move = sim.next_event(scratch)
            if isinstance(move, kind):
                return
            scratch = scratch.apply(move)
        raise DemoStuck(f"the players never chose their {kind.__name__} cards again")

    # -- what really happened -----------------------------------------------------------------

    def _truth(self, event: Event) -> Event:
        sim = self._sim
        assert sim is not None
        if isinstance(event, HandDealt):
            self._hand_start = len(self.true_events)
            return HandDealt(dealer=event.dealer, hands=tuple(tuple(h) for h in sim.hands),
                             kitty=tuple(sim.kitty), source="sim")
        return event

    def _after_observe(self, truth: Event, event: Event) -> Event:
        """Face-down moves with the cards they really were (the difference in the hands)."""
        sim = self._sim
        assert sim is not None
        if isinstance(event, Buried) and event.cards is None:
            return Buried(seat=event.seat, cards=self._gone(event.seat), source="sim")
        if isinstance(event, CardsPassed) and event.cards is None:
            return CardsPassed(seat=event.seat, to_seat=event.to_seat,
                               cards=self._gone(event.seat), source="sim")
        return truth

    def _gone(self, seat: int) -> tuple[Card, ...]:
        sim = self._sim
        assert sim is not None
        before = Counter(self._before[seat])
        if seat == self._shadow.declarer and sim.kitty and \
                len(self._before[seat]) == self.session.rules.hand_size:
            before.update(sim.kitty)
        return tuple(sorted((before - Counter(sim.hands[seat])).elements()))

    # -- doing it at the table ---------------------------------------------------------------

    def _perform(self, event: Event, g: Game) -> None:
        sim = self._sim
        assert sim is not None
        self._before = {s: list(h) for s, h in enumerate(sim.hands)}
        log.info("the players: %s", event.describe())
        if isinstance(event, HandDealt):
            self._clear_mat()
            try:
                self._await(event, "the deal to be marked", DEAL_FRAMES)
            except DemoStuck:  # the camera never saw the mat clear: the page's Deal button
                self.phone.post("/api/deal", {})
                self.phone_fixes.append("the deal marked with the page's Deal button")
                self._await(event, "the deal marked on the phone", None)
        elif isinstance(event, BidMade | Passed | PushedToDealer | TrumpNamed | Conceded):
            if self.mistakes_on and g.phase is Phase.AUCTION and self._first("out-of-turn"):
                self._out_of_turn(g)
            self.pacing.think()
            self.fingers.speak(event, self.session.game)
            self._await(event, f"the button press for {event.describe()}", None)
        elif isinstance(event, ThrownIn):
            self.phone.event(event)
            self._await(event, "the throw-in entered on the phone", None)
        elif isinstance(event, KittyShown):
            self._lay(event.cards, None, "kitty")
            self._correct(self._seen(event, "the kitty to be read", GROUP_FRAMES, loose=True),
                          event)
            self.scene.clear("kitty")
        elif isinstance(event, MeldShown):
            self._meld(event)
        elif isinstance(event, Buried) and self.session.rules.meld_before_bury:
            pass  # after the meld: the first lead shows it was done
        elif isinstance(event, Buried | CardsPassed):
            self._await(event, "the face-down move to be marked", None)
        elif isinstance(event, CardPlayed):
            self._play(event, g)
        elif isinstance(event, TrickGathered):
            self.pacing.think()
            self.scene.gather()
            self._seen(event, "the trick to be seen gathered", CARD_FRAMES // 2)
            if len(g.tricks) >= 2 and self.mistakes_on and self._first("bumped"):
                self._bump()
        else:
            raise DemoStuck(f"the players cannot do {event.describe()} at a real table")

    def _clear_mat(self) -> None:
        self.scene.gather()
        for seat in range(self.session.rules.table_seats):
            self.scene.clear("meld", seat)
        self.scene.clear("kitty")
        self._laid.clear()

    def _lay(self, cards: tuple[Card, ...], seat: int | None, area: str) -> list[Any]:
        self.pacing.think()
        placed = [self.scene.place(card, seat, area) for card in cards]
        self._laid[(area, seat)] = list(cards)
        return placed

    def _meld(self, event: MeldShown) -> None:
        placed = self._lay(event.cards, event.seat, "meld")
        width = min(self.scene.layout.card) * 0.8
        crowded = any(np.hypot(a.target[0] - b.target[0], a.target[1] - b.target[1]) < width
                      for i, a in enumerate(placed) for b in placed[i + 1:])
        if crowded:
            # Longer than the meld area holds: the camera cannot read cards lying on each
            # other, so the player picks it up again and it is entered on the phone.
            self.scene.clear("meld", event.seat)
            self.phone.event(event)
            self.phone_fixes.append(f"meld of {len(event.cards)} cards entered on the phone")
            self._await(event, "the meld entered on the phone", None)
            return
        self._correct(self._seen(event, "the meld to be read", GROUP_FRAMES, loose=True), event)

    def _seen(self, event: Event, what: str, frames: int, nudge: Callable[[], object] | None
              = None, loose: bool = False) -> Outcome:
        """Wait for the camera to report `event`; if it does not, nudge the card once (lay it
        again) and wait again; if it still does not, the player enters it on the phone."""
        for attempt in range(2 if nudge is not None else 1):
            try:
                return self._await(event, what, frames, loose=loose)
            except DemoStuck:
                if attempt == 0 and nudge is not None:
                    nudge()
        self.phone.event(event)
        self.phone_fixes.append(f"not seen by the camera: {event.describe()} entered on the "
                                "phone")
        return self._await(event, f"{what} (entered on the phone)", None, loose=loose)

    def _correct(self, outcome: Outcome, truth: Event) -> None:
        """The camera took it, but not as it was: put it right on the phone."""
        if _key(outcome.event) == _key(truth):
            return
        assert outcome.number is not None
        self.phone.post("/api/correct", {"target": outcome.number,
                                         "replacement": _public(truth)})
        self.phone_fixes.append(f"{outcome.event.describe()} corrected to {truth.describe()}")
        self._await_corrected(outcome.number)

    def _play(self, event: CardPlayed, g: Game) -> None:
        if g.phase is Phase.MELD:
            for seat in range(self.session.rules.table_seats):
                self.scene.clear("meld", seat)  # meld is picked up before the first lead
        smudge = self.mistakes_on and bool(g.tricks) and self._renege_hand != g.hand_number \
            and not any(c == event.card for _, c in g.trick) and self._first("unreadable")
        if smudge:
            self._smudge(event.card)
        self.pacing.think()
        item = self.scene.place(event.card, event.seat, "play")
        self._laid[("play", event.seat)] = [event.card]
        self._watch_still.append((item, event.seat))

        def nudge() -> None:  # the player straightens the card
            if item in self.scene.laid:
                self.scene.laid.remove(item)
            self.scene.place(event.card, event.seat, "play")
        outcome = self._seen(event, f"{event.card} to be read", CARD_FRAMES // 2, nudge)
        if smudge:
            self._unsmudge()
        self._correct(outcome, event)
        self._check_renege()

    # -- deliberate mistakes -------------------------------------------------------------------

    def _first(self, kind: str) -> bool:
        return not any(m.kind == kind for m in self.mistakes)

    def _out_of_turn(self, g: Game) -> None:
        assert g.turn is not None
        seat = next(s for s in g.active[g.active.index(g.turn) + 1:] + g.active
                    if s != g.turn)
        mistake = Mistake("out-of-turn", g.hand_number,
                          f"{g.names[seat]} pressed PASS while {g.names[g.turn]} was to bid "
                          f"({self.fingers.channel(seat)})")
        self.mistakes.append(mistake)
        try:
            self.fingers.speak(Passed(seat=seat), self.session.game)
        except PhoneError as exc:
            mistake.caught, mistake.settled = True, f"the page refused it: {exc}"
            return
        outcome = self._await(Passed(seat=seat), "the out-of-turn press to be refused", None,
                              refused=True)
        mistake.caught = not outcome.accepted
        mistake.settled = f"refused: {outcome.reason}"

    def _maybe_renege(self, g: Game, event: CardPlayed) -> CardPlayed:
        """From the third trick on, a seat that must follow plays another suit instead."""
        sim = self._sim
        assert sim is not None
        if len(g.tricks) < 2 or not g.trick or not self._first("renege"):
            return event
        hand = sim.hands[event.seat]
        led = [c for _, c in g.trick]
        legal = set(legal_plays(hand, led, g.trump, g.rules, False))
        wrong = sorted(c for c in hand if c not in legal and c.suit is not led[0].suit)
        if not wrong:
            return event
        card = wrong[0]
        self._renege_hand = g.hand_number
        self.mistakes.append(Mistake("renege", g.hand_number,
                                     f"{g.names[event.seat]} played {card} on a "
                                     f"{led[0].suit.word} lead holding {led[0].suit.word}"))
        hidden = self.true_events[self._hand_start]
        if isinstance(hidden, HandDealt):  # the rules would refuse a renege they could see
            self.true_events[self._hand_start] = HandDealt(dealer=hidden.dealer, source="sim")
        return CardPlayed(seat=event.seat, card=card, source=event.source)

    def _check_renege(self) -> None:
        mistake = next((m for m in self.mistakes if m.kind == "renege" and not m.caught), None)
        if mistake is None:
            return
        found = self.session.game.reneges
        if found:
            mistake.caught = True
            mistake.settled = f"proven: {found[0].text}; the rules score it"

    def _smudge(self, card: Card) -> None:
        """A thumb over the index: the face washed out so the camera cannot be sure."""
        face = self.scene.faces[card]
        self._smudged = (card, face)
        washed = face.copy()
        washed[:, :, :3] = cv2.GaussianBlur(face[:, :, :3], (0, 0), 6)
        washed[:, :, :3] = (washed[:, :, :3] * 0.35 + 160).astype(np.uint8)
        self.scene.faces[card] = washed
        self.mistakes.append(Mistake("unreadable", self._shadow.hand_number,
                                     f"the {card.name} was laid with a smudged face"))

    def _unsmudge(self) -> None:
        if self._smudged is not None:
            card, face = self._smudged
            self.scene.faces[card] = face
            self._smudged = None

    def _bump(self) -> None:
        mistake = Mistake("bumped", self._shadow.hand_number, "someone knocked the camera")
        self.mistakes.append(mistake)
        self.scene.bump(25.0)
        seen = len(self._moved_seen)
        for _ in range(BUMP_FRAMES):
            self._frame()
            self._backlog = (self._backlog + self._drain())[-64:]
            kinds = [a.kind for a in self._moved_seen[seen:]]
            if "camera-moved" in kinds and ("camera-calibrated" in kinds
                                            or "camera-ok" in kinds):
                mistake.caught = True
                mistake.settled = "the camera found the mat again (" + ", ".join(kinds) + ")"
                return
        mistake.settled = "the camera did not notice within " + str(BUMP_FRAMES) + " frames"

    # -- waiting for the table ----------------------------------------------------------------

    def _frame(self) -> None:
        started = time.monotonic()
        for item, seat in list(self._watch_still):
            if item.still:
                self._watch_still.remove((item, seat))
                if self.on_still is not None:
                    self.on_still(item.card, seat, time.time())
        developing = self._darkroom.submit(self.scene.develop, self.scene.capture())
        if self._developing is not None:
            self.feed.process(self._developing.result())
        self._developing = developing
        self.frames += 1
        self.pacing.frame(started)

    def _drain(self) -> list[Outcome]:
        outcomes: list[Outcome] = []
        while True:
            try:
                notice = self._notices.get_nowait()
            except queue.Empty:
                return outcomes
            if isinstance(notice, Alert):
                self._on_alert(notice)
            else:
                outcomes.append(notice)

    def _await(self, event: Event, what: str, frames: int | None,
               refused: bool = False, loose: bool = False) -> Outcome:
        """Until the session takes `event` (or refuses it, with `refused`): rendering camera
        frames if `frames` (at most that many), else waiting up to WAIT_S."""
        want = _key(event, loose)
        deadline = time.monotonic() + WAIT_S
        used = 0
        while True:
            self._backlog = (self._backlog + self._drain())[-64:]
            for outcome in self._backlog:
                if _key(outcome.event, loose) == want and outcome.accepted != refused:
                    self._backlog.remove(outcome)
                    return outcome
            if self._stop.is_set():
                raise Stopped
            if frames is not None:
                if used >= frames:
                    raise DemoStuck(f"waited {frames} camera frames for {what}")
                self._frame()
                used += 1
            else:
                if time.monotonic() > deadline:
                    raise DemoStuck(f"waited {WAIT_S:.0f} s for {what}")
                try:
                    notice = self._notices.get(timeout=0.2)
                except queue.Empty:
                    continue
                self._notices.put(notice)

    def _await_corrected(self, number: int) -> None:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            for outcome in self._drain():
                if isinstance(outcome.event, Corrected) and outcome.event.target == number:
                    return
            time.sleep(0.02)
        raise DemoStuck(f"the correction of move #{number} was not taken")

    def _on_alert(self, alert: Alert) -> None:
        if alert.kind.startswith("camera-") and alert.kind != "camera-unsure":
            self._moved_seen.append(alert)
            return
        if alert.kind != "camera-unsure":
            return
        self._unsure_seen.append(alert)
        area = str(alert.details.get("area", "play"))
        if self._smudged is not None and area == "play":
            mistake = next(m for m in self.mistakes if m.kind == "unreadable")
            mistake.caught = True
            mistake.settled = "asked on the page: " + alert.text
        self._settle_unsure(alert, area)

    def _settle_unsure(self, alert: Alert, area: str) -> None:
        """Answer the page's question about a card, as the player who laid it would."""
        item = self._find_page_alert(alert)
        if item is None:
            raise DemoStuck(f"the page never showed the alert {alert.text!r}")
        laid = self._laid.get((area, alert.seat), [])
        game = self.session.game
        candidates = [str(c) for c in item.get("candidates", [])]
        if area == "play" and laid and alert.seat is not None:
            card = laid[0]
            if (alert.seat, card) in game.trick:
                self.phone.post(f"/api/alerts/{item['id']}/dismiss", {})
                return
            self.phone.settle_unsure(item["id"], candidates, card,
                                     CardPlayed(seat=alert.seat, card=card))
            self.phone_fixes.append(f"unsure {' or '.join(candidates)}: {card} chosen")
            return
        among = [c for c in candidates if Card.parse(c) in laid]
        # the player looks at the mat and taps the card: the camera completes the meld
        if area != "play" and len(among) == 1 and self.phone.tap_unsure(item["id"], among[0]):
            self.phone_fixes.append(f"unsure {' or '.join(candidates)} in the {area}: "
                                    f"{among[0]} tapped")
            return
        self.phone.post(f"/api/alerts/{item['id']}/dismiss", {})
        if area == "meld" and alert.seat is not None and laid:
            self.phone.event(MeldShown(seat=alert.seat, cards=tuple(laid)))
            self.phone_fixes.append("unsure card in a meld: the meld entered on the phone")
        elif area == "kitty" and laid and not game.kitty_shown:
            self.phone.event(KittyShown(cards=tuple(laid)))
            self.phone_fixes.append("unsure card in the kitty: the kitty entered on the phone")

    def _find_page_alert(self, alert: Alert) -> dict[str, Any] | None:
        for _ in range(50):
            for item in self.phone.unsure_alerts():
                if item.get("seat") == alert.seat and item.get("text") == alert.text:
                    return item
            time.sleep(0.02)
        return None
