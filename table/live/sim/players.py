"""Simulated players at a real table: the game loop.

The seeded `SimTable` (table.rules) decides each move and keeps the true cards; each move is
done the way people would do it: bids, passes, trump and concessions on the seat buttons
(`fingers`), cards laid on the rendered mat, meld in the meld areas and the kitty in the middle,
tricks swept off, and the camera (the real vision tracker) reads it all into the session. The
deal is only marked (the camera sees the mat clear); the bury and passed cards go face down.

What only a person can settle goes through the page's API with the PIN, as a phone would: which
of two cards the camera hesitated over, a misread card, a meld too long for its area.

`true_events` is what really happened, with the hands: replayed with the hands known it gives
the score the table must reach (a hand with the deliberate renege is replayed hidden, as the
rules would refuse the renege outright if they knew the hands).
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from table.alerts import Alert
from table.rules import (
    BidMade,
    Buried,
    Card,
    CardPlayed,
    CardsPassed,
    Conceded,
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
)
from table.session import Outcome, Session
from vision.simulator import Laid, MatScene

from ..camera import CameraFeed
from ..phone import Phone
from .answers import PlayersStuck, Stopped, TableAnswers, move_key
from .camera import Pacing, SimulatedCamera
from .fingers import Fingers
from .mistakes import DeliberateMistakes, Mistake

log = logging.getLogger(__name__)

CARD_FRAMES = 40     # frames a laid card may take to be read (or asked about) before giving up
GROUP_FRAMES = 60    # the same for a meld or the kitty (they must lie still for a while)
DEAL_FRAMES = 40     # frames for the mat to be seen clear and the deal marked


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
    scene: MatScene
    fingers: Fingers
    phone: Phone
    seed: int = 1
    hands: int | None = None
    pacing: Pacing = field(default_factory=lambda: Pacing(True))
    mistakes_on: bool = True
    true_events: list[Event] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    phone_fixes: list[str] = field(default_factory=list)
    complete: bool = True            # true_events cover the whole game

    def __post_init__(self) -> None:
        self.camera = SimulatedCamera(self.scene, self.feed, self.pacing)
        self.answers = TableAnswers(self.session, self._on_alert)
        self._deliberate = DeliberateMistakes(self.mistakes_on, self.mistakes, self.session,
                                              self.scene, self.camera, self.answers,
                                              self.fingers)
        self._sim: SimTable | None = None
        self._shadow: Game = self.session.game
        self._laid: dict[tuple[str, int | None], list[Card]] = {}
        self._hand_start = 0
        self._before: dict[int, list[Card]] = {}

    @property
    def frames(self) -> int:
        """Camera frames taken so far."""
        return self.camera.frames

    # -- the game loop ----------------------------------------------------------------------

    def stop(self) -> None:
        self.answers.stopping.set()

    def run(self) -> None:
        try:
            self._resume()
            while not self.answers.stopping.is_set() and not self._finished():
                self._play_one()
        except Stopped:
            pass
        finally:
            self.answers.close()
            self.camera.close()

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
        if isinstance(event, CardPlayed):
            event = self._maybe_renege(g, event)
        truth = self._truth(event)
        self._perform(event, g)
        sim.observe(event, g)
        truth = self._after_observe(truth, event)
        try:
            self._shadow = g.apply(event)
        except IllegalAction as exc:
            raise PlayersStuck(f"the players' own game refused {event.describe()}: "
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
        raise PlayersStuck(f"the players never chose their {kind.__name__} cards again")

    # -- what really happened -----------------------------------------------------------------

    def _maybe_renege(self, g: Game, event: CardPlayed) -> CardPlayed:
        sim = self._sim
        assert sim is not None
        played = self._deliberate.renege(g, event, sim.hands[event.seat])
        if played is not event:
            hidden = self.true_events[self._hand_start]
            if isinstance(hidden, HandDealt):  # the rules would refuse a renege they could see
                self.true_events[self._hand_start] = HandDealt(dealer=hidden.dealer,
                                                               source="sim")
        return played

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
            except PlayersStuck:  # the camera never saw the mat clear: the page's Deal button
                self.phone.post("/api/deal", {})
                self.phone_fixes.append("the deal marked with the page's Deal button")
                self._await(event, "the deal marked on the phone", None)
        elif isinstance(event, BidMade | Passed | PushedToDealer | TrumpNamed | Conceded):
            if g.phase is Phase.AUCTION and self._deliberate.due("out-of-turn"):
                self._deliberate.out_of_turn(g)
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
            self._deliberate.bump(g)
        else:
            raise PlayersStuck(f"the players cannot do {event.describe()} at a real table")

    def _clear_mat(self) -> None:
        self.scene.gather()
        for seat in range(self.session.rules.table_seats):
            self.scene.clear("meld", seat)
        self.scene.clear("kitty")
        self._laid.clear()

    def _lay(self, cards: tuple[Card, ...], seat: int | None, area: str) -> list[Laid]:
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

    def _play(self, event: CardPlayed, g: Game) -> None:
        if g.phase is Phase.MELD:
            for seat in range(self.session.rules.table_seats):
                self.scene.clear("meld", seat)  # meld is picked up before the first lead
        smudged = self._deliberate.smudge(g, event.card)
        self.pacing.think()
        item = self.scene.place(event.card, event.seat, "play")
        self._laid[("play", event.seat)] = [event.card]
        self.camera.watch(item, event.seat)

        def nudge() -> None:  # the player straightens the card
            if item in self.scene.laid:
                self.scene.laid.remove(item)
            self.scene.place(event.card, event.seat, "play")
        outcome = self._seen(event, f"{event.card} to be read", CARD_FRAMES // 2, nudge)
        if smudged:
            self._deliberate.unsmudge()
        self._correct(outcome, event)
        self._deliberate.check_renege()

    # -- waiting for the table ----------------------------------------------------------------

    def _await(self, event: Event, what: str, frames: int | None,
               loose: bool = False) -> Outcome:
        return self.answers.wait_for(event, what, frames, self.camera.frame, loose=loose)

    def _seen(self, event: Event, what: str, frames: int, nudge: Callable[[], object] | None
              = None, loose: bool = False) -> Outcome:
        """Wait for the camera to report `event`; if it does not, nudge the card once (lay it
        again) and wait again; if it still does not, the player enters it on the phone."""
        for attempt in range(2 if nudge is not None else 1):
            try:
                return self._await(event, what, frames, loose=loose)
            except PlayersStuck:
                if attempt == 0 and nudge is not None:
                    nudge()
        self.phone.event(event)
        self.phone_fixes.append(f"not seen by the camera: {event.describe()} entered on the "
                                "phone")
        return self._await(event, f"{what} (entered on the phone)", None, loose=loose)

    def _correct(self, outcome: Outcome, truth: Event) -> None:
        """The camera took it, but not as it was: put it right on the phone."""
        if move_key(outcome.event) == move_key(truth):
            return
        assert outcome.number is not None
        self.phone.post("/api/correct", {"target": outcome.number,
                                         "replacement": _public(truth)})
        self.phone_fixes.append(f"{outcome.event.describe()} corrected to {truth.describe()}")
        self.answers.wait_corrected(outcome.number)

    # -- the page's questions -----------------------------------------------------------------

    def _on_alert(self, alert: Alert) -> None:
        self._deliberate.seen(alert)
        if alert.kind == "camera-unsure":
            self._settle_unsure(alert, str(alert.details.get("area", "play")))

    def _settle_unsure(self, alert: Alert, area: str) -> None:
        """Answer the page's question about a card, as the player who laid it would."""
        item = self._find_page_alert(alert)
        if item is None:
            raise PlayersStuck(f"the page never showed the alert {alert.text!r}")
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
