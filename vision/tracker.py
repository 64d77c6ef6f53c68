"""From frames to table events. A card counts once it lies where it lay a frame before, with
no hand over it, and is read surely (one very sure reading, or two in a row that agree); the
zone it lies in names the seat; each card on the mat is reported once; the
play spots emptying (with no hand over them) means the trick was gathered; a meld area or the
kitty that has settled is reported as a whole. Unsure readings, a moved camera and a lamp past
correcting are not game events: they come out as `CardUnsure`, `CameraMoved` and
`LightChanged` notices in the same stream."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from table.rules import Card, CardPlayed, Event, KittyShown, MeldShown, TrickGathered

from .calibration import Calibration, CalibrationError, calibrate, marker_offset
from .detect import (
    WORK_WIDTH,
    card_mask,
    cloth_colour,
    outlines_in_mask,
    shrink,
    straighten,
    work_scale,
)
from .hands import MIN_HAND_MM2, hand_mask, mat_region
from .mat import Zone
from .profile import DeckProfile
from .reading import Reading, identify
from .white import LightFault, balanced, light_fault, margin_white, quiet_zones, white_gains

SOURCE = "camera"
# A reading this sure counts at once. On the bench's simulated frames 99 % of correct readings
# reach it, and no wrong reading ever reached even ABSTAIN (0.5); the second reading that
# less sure ones wait for costs a frame.
SURE = 0.95


@dataclass(frozen=True, kw_only=True)
class CardUnsure:
    """A card lies still but cannot be read surely: ask the table which of `candidates`."""

    seat: int | None
    area: str
    candidates: tuple[Card, ...]
    confidence: float
    source: str = SOURCE
    at: float = 0.0


@dataclass(frozen=True, kw_only=True)
class CameraMoved:
    """The mat's markers are `offset_mm` from where calibration put them. When `recalibrated`
    the tracker has re-fitted itself and goes on; otherwise it reports nothing until it can."""

    offset_mm: float
    recalibrated: bool
    source: str = SOURCE
    at: float = 0.0


@dataclass(frozen=True, kw_only=True)
class LightChanged:
    """The lamp over the mat is past what balancing each frame on the mat's white margins
    corrects (`fault`: "dark" or "tinted", vision.white), so cards may go unseen; or, with
    `fault` None, it is right again."""

    fault: LightFault | None
    source: str = SOURCE
    at: float = 0.0


Notice = CardUnsure | CameraMoved | LightChanged


@dataclass(eq=False)
class Track:
    """One physical card on the mat, followed from frame to frame."""

    centre: np.ndarray          # mm
    corners: np.ndarray         # pixels, latest
    zone: Zone | None
    steady: bool = False        # no hand over it in this frame or the last, and not moved
    bare: bool = False          # no hand over it in the latest frame it was seen
    missing: int = 0            # frames in a row it was not seen
    card: Card | None = None    # what it was read as, once sure
    tries: int = 0              # unsure or disagreeing readings so far
    last: Card | None = None    # the latest reading
    unsure_sent: bool = False
    seen: bool = True


@dataclass
class Tracker:
    """Feed it frames with `update(frame)`; it returns the events and notices each one caused."""

    calibration: Calibration
    deck: DeckProfile | None = None
    clock: Callable[[], float] = time.time
    gone_frames: int = 3        # frames a glimpsed card, or the whole trick, must be gone
    settle_frames: int = 10     # frames a meld area or the kitty must stay unchanged
    unsure_after: int = 4       # unsure readings before the table is asked
    check_every: int = 5        # frames between checks of the markers
    moved_mm: float = 4.0       # marker offset that counts as a moved camera or mat
    match_mm: float = 15.0      # a card found this close to a known one is that card
    moving_mm: float = 2.5      # a card that shifted more than this is still being placed
    forget_frames: int = 10     # frames an unread card (asked about) may be gone before
    #                             it is forgotten: the next card there is then a new one
    tracks: list[Track] = field(default_factory=list)
    frame_number: int = 0
    reads: int = 0              # cards read so far (each costs the reader's time)
    paused: bool = False
    light: LightFault | None = None   # the lamp's fault reported last (LightChanged), None if right
    light_checks: int = 2       # checks in a row a fault, or its end, must last to be reported
    _empty_play: int = 0
    _light_streak: int = 0
    _zone_sets: dict[str, tuple[tuple[int, ...], int]] = field(default_factory=dict)
    _reported_sets: dict[str, tuple[Card, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._prepare()

    def _prepare(self) -> None:
        cal = self.calibration
        self._scale = 0.5 if cal.frame_size[0] > WORK_WIDTH else 1.0
        self._region = mat_region(cal, self._scale)
        self._white = quiet_zones(cal, self._scale)
        self._min_hand_px = MIN_HAND_MM2 * (cal.px_per_mm * self._scale) ** 2
        self._play_mask = np.zeros_like(self._region)
        self._zone_px: dict[str, np.ndarray] = {}   # each zone's corners at work scale
        for zone in cal.layout.zones:
            mm = np.array([[zone.x0, zone.y0], [zone.x1, zone.y0], [zone.x1, zone.y1],
                           [zone.x0, zone.y1]], np.float32)
            pts = (cal.frame_points(mm) + 0.5) * self._scale - 0.5
            self._zone_px[zone.label] = pts
            if zone.area == "play":
                cv2.fillConvexPoly(self._play_mask, pts.astype(np.int32), 255)
        self._card_px = (cal.layout.card[0] * cal.px_per_mm, cal.layout.card[1] * cal.px_per_mm)
        # the cloth's colour is judged over a square about three cards long
        self._cloth_window = 3 * self._card_px[1] * self._scale
        grow = max(3, int(12 * cal.px_per_mm * self._scale))
        self._grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow | 1, grow | 1))

    # -- one frame -----------------------------------------------------------------------

    def update(self, frame: np.ndarray) -> list[Event | Notice]:
        self.frame_number += 1
        now = self.clock()
        out: list[Event | Notice] = []
        if self.paused or self.frame_number % self.check_every == 1:
            out += self._check_camera(frame, now)
            if self.paused:
                return out
        small = shrink(frame)
        if work_scale(frame) != self._scale:
            raise ValueError("frame size differs from the calibrated one; calibrate again")
        white = margin_white(small, self._white)   # the lamp's colour, off the mat's white
        if white is not None:
            gains = white_gains(white)
            if gains is not None:
                small = balanced(small, gains)
            if self.frame_number % self.check_every == 1:
                out += self._check_light(light_fault(white), now)
        hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
        cloth = cloth_colour(small, self._cloth_window)
        cards = card_mask(small, hsv, cloth)
        hands = hand_mask(small, hsv, cloth, cards, self._region, self._min_hand_px)
        hands = cv2.dilate(hands, self._grow) if hands.any() else hands
        self._follow(outlines_in_mask(cards, self._scale, card_px=self._card_px), hands)
        out += self._read_still_cards(frame, now)
        out += self._settled_groups(hands, now)
        out += self._gathered(hands, now)
        return out

    def confirm(self, card: Card, seat: int | None, area: str = "play") -> bool:
        """The table settled a card this tracker asked about (`CardUnsure`): the unread card
        in that seat's `area` is `card` from now on (no event: the table has it already).
        False when no such card is waiting."""
        waiting = [t for t in self.tracks if t.card is None and t.unsure_sent
                   and t.zone is not None and t.zone.area == area and t.zone.seat == seat]
        if not waiting:
            return False
        waiting[0].card = card
        return True

    def _check_camera(self, frame: np.ndarray, now: float) -> list[Event | Notice]:
        found = marker_offset(frame, self.calibration)
        if found is None or found[0] <= self.moved_mm:
            if self.paused and found is not None:
                self.paused = False
            return []
        offset, count = found
        try:
            if count < 3:
                raise CalibrationError("too few markers to re-fit")
            self.calibration = calibrate(frame, self.calibration.layout)
        except CalibrationError:
            if self.paused:
                return []
            self.paused = True
            return [CameraMoved(offset_mm=round(offset, 1), recalibrated=False, at=now)]
        self._prepare()
        self.paused = False
        for track in self.tracks:
            track.steady = False
        return [CameraMoved(offset_mm=round(offset, 1), recalibrated=True, at=now)]

    def _check_light(self, fault: LightFault | None, now: float) -> list[Event | Notice]:
        """A lamp past correcting, or right again, once it has lasted `light_checks`."""
        self._light_streak = self._light_streak + 1 if fault != self.light else 0
        if self._light_streak < self.light_checks:
            return []
        self.light, self._light_streak = fault, 0
        return [LightChanged(fault=fault, at=now)]

    def _follow(self, outlines: list[np.ndarray], hands: np.ndarray) -> None:
        """Match this frame's outlines to the known cards, by where they lie on the mat."""
        layout = self.calibration.layout
        for track in self.tracks:
            track.seen = False
        known = list(self.tracks)
        free = np.ones(len(known), bool)
        if not outlines:
            centres = np.empty((0, 2), np.float32)
        else:
            centres = self.calibration.mat_points(np.array([c.mean(axis=0) for c in outlines]))
        # every outline's distance to every known card, in one go (a few numpy calls a frame)
        apart = np.linalg.norm(centres[:, None, :] - np.array(
            [t.centre for t in known], np.float32).reshape(1, -1, 2), axis=2)
        for corners, centre, distances in zip(outlines, centres, apart, strict=True):
            if not (0 <= centre[0] <= layout.width and 0 <= centre[1] <= layout.height):
                continue
            covered = _overlaps(hands, corners * self._scale)
            nearest = int(np.argmin(np.where(free, distances, np.inf))) if free.any() else -1
            if nearest >= 0 and distances[nearest] < self.match_mm:
                free[nearest] = False
                best = known[nearest]
                moved = distances[nearest] > self.moving_mm
                best.steady = not covered and not moved and best.bare
                best.bare = not covered
                best.centre, best.corners, best.missing, best.seen = centre, corners, 0, True
                if moved and best.card is None:   # laid again, or another card: read anew
                    best.tries, best.last, best.unsure_sent = 0, None, False
            else:
                zone = layout.zone_at(float(centre[0]), float(centre[1]))
                self.tracks.append(Track(centre, corners, zone, bare=not covered))
        for track, gone in zip(known, free, strict=True):
            if gone:
                track.missing += 1
        # A card glimpsed while it was still moving, and gone since, was never really there.
        self.tracks = [t for t in self.tracks if t.missing < self.gone_frames
                       or t.card is not None
                       or (t.unsure_sent and t.missing < self.forget_frames)]

    def _read_still_cards(self, frame: np.ndarray, now: float) -> list[Event | Notice]:
        """Read each card that lies steady; it counts on one very sure reading (SURE), or once
        two readings in a row agree (the frames differ in noise, so one unlucky frame cannot
        name a wrong card)."""
        out: list[Event | Notice] = []
        for track in self.tracks:
            if not track.seen or not track.steady or track.card is not None \
                    or track.unsure_sent or track.zone is None:
                continue
            reading = identify(straighten(frame, track.corners), self.deck)
            self.reads += 1
            zone = track.zone
            previous, track.last = track.last, reading.card
            if reading.card is not None and (reading.card == previous
                                             or reading.confidence >= SURE):
                track.card = reading.card
                if zone.area == "play" and zone.seat is not None:
                    out.append(CardPlayed(seat=zone.seat, card=reading.card, source=SOURCE,
                                          at=now))
                continue
            if reading.card is None or previous is not None:
                track.tries += 1
            if track.tries >= self.unsure_after:
                track.unsure_sent = True
                out.append(_unsure(zone, reading, now))
        return out

    def _settled_groups(self, hands: np.ndarray, now: float) -> list[Event | Notice]:
        """A meld area or the kitty unchanged for `settle_frames`, every card in it read."""
        out: list[Event | Notice] = []
        layout = self.calibration.layout
        for zone in layout.zones:
            if zone.area == "play":
                continue
            members = [t for t in self.tracks if t.zone == zone and t.missing < 3]
            key = tuple(sorted(id(t) for t in members))
            previous, frames = self._zone_sets.get(zone.label, ((), 0))
            handled = _overlaps(hands, self._zone_px[zone.label])
            frames = frames + 1 if key == previous and not handled else 0
            self._zone_sets[zone.label] = (key, frames)
            if not members and frames >= self.settle_frames:
                # Cleared (picked up at the end of the hand): the same meld next hand is news.
                self._reported_sets.pop(zone.label, None)
            if not members or frames < self.settle_frames \
                    or any(t.card is None for t in members):
                continue
            cards = tuple(sorted(t.card for t in members if t.card is not None))
            if self._reported_sets.get(zone.label) == cards:
                continue
            self._reported_sets[zone.label] = cards
            if zone.area == "kitty":
                out.append(KittyShown(cards=cards, source=SOURCE, at=now))
            elif zone.seat is not None:
                out.append(MeldShown(seat=zone.seat, cards=cards, source=SOURCE, at=now))
        # Cards gone for a while (meld picked up) are forgotten, except on the play spots,
        # which only the trick's gathering clears.
        self.tracks = [t for t in self.tracks if t.missing < 30
                       or (t.zone is not None and t.zone.area == "play")]
        return out

    def _gathered(self, hands: np.ndarray, now: float) -> list[Event | Notice]:
        play = [t for t in self.tracks if t.zone is not None and t.zone.area == "play"]
        if not any(t.card is not None or t.unsure_sent for t in play):
            self._empty_play = 0
            return []
        hand_on_play = bool(np.any(cv2.bitwise_and(hands, self._play_mask)))
        if any(t.seen for t in play) or hand_on_play:
            self._empty_play = 0
            return []
        self._empty_play += 1
        if self._empty_play < self.gone_frames:
            return []
        self._empty_play = 0
        self.tracks = [t for t in self.tracks if t not in play]
        return [TrickGathered(source=SOURCE, at=now)]


def _overlaps(hands: np.ndarray, corners: np.ndarray) -> bool:
    if not hands.any():
        return False
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    h, w = hands.shape
    return bool(hands[max(0, y0):min(h, y1), max(0, x0):min(w, x1)].any())


def _unsure(zone: Zone, reading: Reading, now: float) -> CardUnsure:
    return CardUnsure(seat=zone.seat, area=zone.area,
                      candidates=tuple(c for c, _ in reading.candidates),
                      confidence=reading.confidence, at=now)
