"""The camera at work: frames through the vision tracker into the session.

`CameraFeed.process(image)` takes one frame: the tracker's events go to the session (cards,
gathered tricks, meld, the kitty), its notices become alerts (an unsure card with its two
candidates, a moved camera). What the game already holds is not sent again (after a restart the
cards of the trick in progress are still on the mat). The feed also marks the deal: when the
game waits for one and the mat has been clear for a moment, the next dealer has dealt.

`run(source)` does it in a thread for a real camera; the simulation calls `process` itself.
`jpeg()` and `status()` are the page's setup view.

Given a `DeckLearner`, the feed teaches it the deck on the table: a card settled on the phone
at once; a card played and read surely once its hand is over, as the game then holds it (a reading
corrected on the page as the card put in its place, one taken back not at all). The tracker
then reads with what was learnt.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from table.alerts import Alert
from table.rules import (
    Card,
    CardPlayed,
    Event,
    Game,
    HandDealt,
    KittyShown,
    MeldShown,
    TrickGathered,
)
from table.rules.history import in_effect
from table.session import Session

if TYPE_CHECKING:
    from table.session import Outcome
    from vision.calibration import Calibration
    from vision.learning import DeckLearner
    from vision.sources import FrameSource
    from vision.tracker import Notice, Track, Tracker
    from vision.white import LightFault

log = logging.getLogger(__name__)

SOURCE = "camera"
CLEAR_FRAMES = 4        # frames of an empty mat before a waiting deal counts as dealt
LIGHT_FAULTS = {        # what the table is told of a lamp the camera cannot correct
    "dark": "The mat is too dark for the camera to see the cards: light it (or calibrate "
            "again under this light); enter the cards here meanwhile",
    "tinted": "The lamp's colour is too strong for the camera: use a whiter lamp (or "
              "calibrate again under this one); enter the cards here meanwhile",
}
CALIBRATE_EVERY_S = 1.0  # how often an uncalibrated camera looks for the markers again
VIEW_WIDTH = 960        # the setup picture's width


class CameraFeed:
    """Frames in, table events and alerts out, for the session `session()` returns."""

    def __init__(self, session: Callable[[], Session | None], seats: int,
                 calibration: Calibration | None = None,
                 may_deal: Callable[[Game], bool] | None = None,
                 clock: Callable[[], float] = time.time,
                 learner: DeckLearner | None = None) -> None:
        from vision.mat import mat_layout

        self.session = session
        self.layout = mat_layout(seats)
        self.may_deal = may_deal or (lambda game: True)
        self.clock = clock
        self.learner = learner
        self.tracker: Tracker | None = None
        self._read_frame: np.ndarray | None = None  # the frame the tracker last read
        # cards read surely this hand: (game, entry, card, picture)
        self._sure: list[tuple[int, int, Card, np.ndarray]] = []
        self.frames = 0
        self.sent: list[tuple[Event, Outcome]] = []    # (event, outcome) of what the camera sent
        self._clear = 0
        self._dealt_after: int | None = None       # the entry after which a deal was marked
        self._paused = False
        self._light_fault: LightFault | None = None       # the lamp's fault the table was told of
        self._last_try = 0.0
        self._frame: np.ndarray | None = None
        self._hand: int | None = None
        self._status = "looking for the mat's markers"
        self._lock = threading.Lock()
        self._reading = threading.Lock()           # the tracker: frames, or the page's answers
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        if calibration is not None:
            self.use_calibration(calibration)

    # -- one frame -----------------------------------------------------------------------

    def process(self, image: np.ndarray) -> list[Event | Notice]:
        """Take one frame; returns the tracker's events and notices for it."""
        with self._lock:
            self._frame = image
        self.frames += 1
        if self.tracker is None and not self._calibrate(image):
            return []
        tracker = self.tracker
        assert tracker is not None   # _calibrate made one
        with self._reading:
            out = tracker.update(image)
            self._read_frame = image
        session = self.session()
        if session is None:
            return out
        for item in out:
            log.debug("frame %d: %s", self.frames, item)
            if isinstance(item, Event):
                number = self._send(session, item)
                if number is not None and isinstance(item, CardPlayed):
                    self._keep_sure(tracker, image, item, (session.game_id, number))
            else:
                self._notice(session, item)
        self._watch_pause(tracker, session)
        self._mark_deal(tracker, session)
        self._new_hand(tracker, session)
        return out

    def confirm(self, card: Card, seat: int | None, area: str) -> bool:
        """The page settled a card the camera was unsure of: the tracker counts it as `card`
        (a meld or the kitty it completes is then reported as a whole). False when the camera
        no longer waits for such a card."""
        with self._reading:
            if self.tracker is None:
                return False
            waiting = [t for t in self.tracker.tracks if t.card is None]
            if not self.tracker.confirm(card, seat, area):
                return False
            settled = next((t for t in waiting if t.card == card), None)
            if settled is not None and not settled.missing and self._read_frame is not None:
                self._learn([(card, self._picture(self._read_frame, settled), True)])
            return True

    # -- learning the deck -----------------------------------------------------------------

    @staticmethod
    def _picture(frame: np.ndarray, track: Track) -> np.ndarray:
        from vision.detect import straighten

        return straighten(frame, track.corners)

    def _keep_sure(self, tracker: Tracker, image: np.ndarray, event: CardPlayed,
                   entry: tuple[int, int]) -> None:
        """A card read surely and accepted: kept to learn from once its hand is over."""
        if self.learner is None:
            return
        track = next((t for t in tracker.tracks if t.card == event.card and not t.missing
                      and t.zone is not None and t.zone.area == "play"
                      and t.zone.seat == event.seat), None)
        if track is not None:
            self._sure.append((*entry, event.card, self._picture(image, track)))

    def _learn_hand(self, session: Session) -> None:
        """The hand is over: learn the cards read surely as the game holds them now (a
        reading corrected on the page as the card the page put in its place, like a card
        settled there; one taken back not at all, nor one of a game no longer played)."""
        kept, self._sure = self._sure, []
        held = dict(in_effect(session.accepted()))
        learn = []
        for game, number, read, picture in kept:
            card = _played(held.get(number)) if game == session.game_id else None
            if card is not None:
                learn.append((card, picture, card != read))
        self._learn(learn)

    def _learn(self, cards: list[tuple[Card, np.ndarray, bool]]) -> None:
        """Teach the learner these (card, picture, settled on the page), save, and read with
        what it learnt."""
        learner = self.learner
        if learner is None or not cards:
            return
        if not any([learner.learn(card, picture, settled) for card, picture, settled in cards]):
            return
        try:
            learner.save()
        except OSError as exc:
            log.warning("cannot save what the camera learnt of the deck: %s", exc)
        if self.tracker is not None:
            self.tracker.deck = learner.profile

    def _calibrate(self, image: np.ndarray) -> bool:
        from vision.calibration import CalibrationError, calibrate

        now = time.monotonic()
        if self.frames > 1 and now - self._last_try < CALIBRATE_EVERY_S:
            return False
        self._last_try = now
        try:
            calibration = calibrate(image, self.layout)
        except CalibrationError as exc:
            self._status = str(exc)
            return False
        self.use_calibration(calibration)
        return True

    def use_calibration(self, calibration: Calibration) -> None:
        """Read frames with this calibration (a fresh tracker)."""
        from vision.tracker import Tracker

        deck = self.learner.profile if self.learner is not None else None
        self.tracker = Tracker(calibration, deck=deck, clock=self.clock)
        self.tracker.light = self._light_fault     # it reports only what changes from this
        self._status = f"calibrated: {len(calibration.markers)} markers, " \
                       f"{calibration.px_per_mm:.2f} px/mm"

    def _send(self, session: Session, event: Event) -> int | None:
        """Submit an event the game does not hold yet; its journal entry if accepted."""
        game = session.game
        if _already_known(event, game):
            return None
        if isinstance(event, TrickGathered) and not game.trick_full:
            return None  # the game gathered it already (the next card was laid first)
        outcome = session.submit(event)
        self.sent.append((event, outcome))
        if not outcome.accepted:
            log.info("the camera's %s was refused: %s", event.describe(), outcome.reason)
            return None
        return outcome.number

    def _notice(self, session: Session, notice: Notice) -> None:
        from vision.tracker import CameraMoved, CardUnsure, LightChanged

        names = session.names
        if isinstance(notice, CardUnsure):
            cards = [str(c) for c in notice.candidates]
            where = "the kitty" if notice.seat is None else \
                f"{names[notice.seat]}'s {'card' if notice.area == 'play' else 'meld'}"
            text = f"The camera cannot read {where}: " + \
                (" or ".join(cards) + "?" if cards else "which card is it?")
            session.alert(Alert(kind="camera-unsure", text=text, source=SOURCE,
                                seat=notice.seat,
                                details={"candidates": cards, "area": notice.area,
                                         "confidence": notice.confidence}))
        elif isinstance(notice, CameraMoved):
            session.alert(Alert(kind="camera-moved", source=SOURCE,
                                text=f"The camera or the mat moved ({notice.offset_mm:.0f} mm)",
                                details={"offset_mm": notice.offset_mm}))
            if notice.recalibrated:
                self._status = "calibrated again after the camera moved"
                session.alert(Alert(kind="camera-calibrated", source=SOURCE,
                                    text="The camera found the mat again and goes on"))
            else:
                self._paused = True
                self._status = "the camera moved: put it back or show it all four markers"
        elif isinstance(notice, LightChanged):
            self._light(session, notice.fault)

    def _light(self, session: Session, fault: LightFault | None) -> None:
        """Tell the table once that the lamp is past what the camera corrects, and once that
        it is right again (each hand's fresh tracker starts from what the table was told)."""
        if fault == self._light_fault:
            return
        if fault is None:
            session.alert(Alert(kind="camera-light-ok", source=SOURCE,
                                text="The light on the mat is good again: the camera reads"))
        else:
            session.alert(Alert(kind="camera-dark", source=SOURCE, text=LIGHT_FAULTS[fault],
                                details={"fault": fault}))
        self._light_fault = fault

    def _watch_pause(self, tracker: Tracker, session: Session) -> None:
        if self._paused and not tracker.paused:
            self._paused = False
            self._status = "the camera sees the mat where it was"
            session.alert(Alert(kind="camera-ok", source=SOURCE,
                                text="The camera sees the mat again"))

    def _new_hand(self, tracker: Tracker, session: Session) -> None:
        """A fresh tracker for each hand (the mat is clear): meld or a kitty like last
        hand's is then reported again; it reads with what was learnt in the last one."""
        game = session.game
        if self._hand is not None and game.hand_number != self._hand:
            with self._reading:
                self._learn_hand(session)
            self.use_calibration(tracker.calibration)
        self._hand = game.hand_number

    def _mark_deal(self, tracker: Tracker, session: Session) -> None:
        """The game waits for a deal and the mat is clear: the next dealer has dealt."""
        seen = any(t.missing == 0 for t in tracker.tracks)
        self._clear = 0 if seen else self._clear + 1
        game = session.game
        dealer = game.next_dealer
        if dealer is None or game.trick_full or self._clear < CLEAR_FRAMES \
                or self._dealt_after == session.last_number or not self.may_deal(game):
            return
        self._dealt_after = session.last_number
        outcome = session.submit(HandDealt(dealer=dealer, source=SOURCE))
        self.sent.append((HandDealt(dealer=dealer), outcome))

    # -- a real camera, in a thread ---------------------------------------------------------

    def run(self, source: FrameSource) -> CameraFeed:
        """Read `source` (a vision frame source) in a thread until `stop()`."""
        def loop() -> None:
            try:
                while not self._stop.is_set():
                    frame = source.read()
                    if frame is None:
                        self._status = "the camera gave no more frames"
                        return
                    try:
                        self.process(frame.image)
                    except Exception:
                        log.exception("a camera frame failed; the next one is tried")
            finally:
                source.close()
        self._thread = threading.Thread(target=loop, name="camera", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
            self._thread = None
        session = self.session()
        if session is not None and self._sure:
            with self._reading:
                self._learn_hand(session)   # the cards of a hand cut short still count

    # -- the page's setup view -----------------------------------------------------------

    def jpeg(self) -> bytes | None:
        """The latest frame with each card's outline and reading drawn on it."""
        with self._lock:
            frame = self._frame
        if frame is None:
            return None
        scale = VIEW_WIDTH / frame.shape[1]
        view = cv2.resize(frame, (VIEW_WIDTH, int(frame.shape[0] * scale)))
        for track in list(self.tracker.tracks) if self.tracker is not None else []:
            if track.missing:
                continue  # picked up a moment ago: the tracker still remembers it
            corners = (np.asarray(track.corners) * scale).astype(np.int32)
            card = track.card
            colour = (60, 220, 60) if card is not None else (0, 200, 255)
            cv2.polylines(view, [corners], True, colour, 2)
            if card is not None:
                x, y = corners.min(axis=0)
                cv2.putText(view, str(card), (int(x), int(y) - 4), cv2.FONT_HERSHEY_SIMPLEX,
                            0.6, colour, 2)
        ok, data = cv2.imencode(".jpg", view, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return bytes(data) if ok else None

    def status(self) -> dict[str, Any]:
        learner = self.learner
        return {"calibrated": self.tracker is not None, "text": self._status,
                "frames": self.frames,
                "paused": bool(self.tracker is not None and self.tracker.paused),
                "deck": None if learner is None else
                {"name": learner.base.name, "learnt": [str(c) for c in learner.cards],
                 "read_with_learnt": learner.complete}}


def _played(event: Event | None) -> Card | None:
    return event.card if isinstance(event, CardPlayed) else None


def _already_known(event: Event, game: Game) -> bool:
    """Whether the game holds this already (the camera saw it again after a restart)."""
    if isinstance(event, CardPlayed):
        return (event.seat, event.card) in game.trick
    if isinstance(event, MeldShown):
        shown = game.meld_cards[event.seat] if event.seat < len(game.meld_cards) else ()
        return bool(shown) and sorted(shown) == sorted(event.cards)
    if isinstance(event, KittyShown):
        return game.kitty_shown
    return False
