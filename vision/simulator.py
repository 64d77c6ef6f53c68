"""A virtual mat seen by a virtual camera, for the demo, the tests and the benchmark.

`MatScene` is driven card by card: `place(card, seat, area)` lays a card (a hand slides it in
over a few frames), `gather()` takes the trick, `hand_over(seat)` reaches a hand across,
`bump()` knocks the camera, and `render()` returns the next camera frame. Cards are the real
faces of a kdegames deck; the frame gets perspective, lighting gradients, glare, shadows, blur,
noise and JPEG artefacts. All randomness comes from the generator it is given.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import cv2
import numpy as np

from table.rules import Card

from .faces import FACE_HEIGHT, FACE_WIDTH, load_deck
from .mat import MatLayout, Zone, draw_mat

SCENE_PX_PER_MM = 2.0
SEAT_ANGLE = {3: (0.0, 90.0, 270.0), 4: (0.0, 90.0, 180.0, 270.0)}
SKIN = ((140, 170, 225), (95, 130, 190), (60, 90, 140), (120, 160, 210))  # BGR skin tones


@dataclass(frozen=True)
class Effects:
    """How hard the camera's view is: set all to zero for clean frames."""

    tilt: float = 0.03         # perspective: corner displacement, share of the frame height
    rotation_deg: float = 3.0
    light_low: float = 0.65    # darkest corner of the lighting gradient (1.0 = even light)
    glare: float = 60.0        # peak added brightness of the lamp's reflection
    shadow: float = 0.35       # how dark a card's or hand's shadow is
    blur: float = 1.0          # largest Gaussian sigma in pixels
    noise: float = 4.0         # sensor noise sigma
    jpeg_low: int = 60         # lowest JPEG quality (0 = no JPEG)
    slide_frames: int = 3      # frames a laid card slides under the hand before it is still


CLEAN = Effects(0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0, 0)


@dataclass
class Laid:
    """A card on the mat: centre and angle in mat mm/degrees, where it is going, which zone."""

    card: Card
    seat: int | None
    area: str
    x: float
    y: float
    angle: float
    target: tuple[float, float]
    frames_left: int = 0

    @property
    def still(self) -> bool:
        return self.frames_left <= 0


@dataclass
class _Hand:
    seat: int
    x: float
    y: float
    frames_left: int
    tone: tuple[int, int, int]


def as_generator(rng: np.random.Generator | random.Random | int) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.getrandbits(64))
    return np.random.default_rng(rng)


def _camera_homography(layout: MatLayout, size: tuple[int, int], effects: Effects,
                       rng: np.random.Generator) -> np.ndarray:
    """Mat millimetres -> frame pixels: the mat fitted into the frame, tilted and turned."""
    fw, fh = size
    scale = min(fw * 0.94 / layout.width, fh * 0.94 / layout.height)
    w, h = layout.width * scale, layout.height * scale
    angle = math.radians(rng.uniform(-1, 1) * effects.rotation_deg)
    c, s = math.cos(angle), math.sin(angle)
    dst = []
    for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        jx, jy = rng.uniform(-1, 1, 2) * effects.tilt * fh
        dst.append((fw / 2 + c * x - s * y + jx, fh / 2 + s * x + c * y + jy))
    src = np.array([[0, 0], [layout.width, 0], [layout.width, layout.height],
                    [0, layout.height]], np.float32)
    return cv2.getPerspectiveTransform(src, np.array(dst, np.float32))


@dataclass
class MatScene:
    """A mat with cards and hands on it, and a camera looking down at it."""

    layout: MatLayout
    faces: dict[Card, np.ndarray]
    rng: np.random.Generator
    size: tuple[int, int] = (1920, 1080)
    effects: Effects = field(default_factory=Effects)
    laid: list[Laid] = field(default_factory=list)
    hands: list[_Hand] = field(default_factory=list)
    frame_number: int = 0

    def __post_init__(self) -> None:
        self._mat = draw_mat(self.layout, SCENE_PX_PER_MM)
        self.camera = _camera_homography(self.layout, self.size, self.effects, self.rng)
        self._light = self._lighting()
        self._noise = [self.rng.normal(0, self.effects.noise, (self.size[1], self.size[0], 3))
                       .astype(np.int16) for _ in range(3)] if self.effects.noise else []

    @classmethod
    def create(cls, layout: MatLayout, deck: str | dict[Card, np.ndarray],
               rng: np.random.Generator | random.Random | int,
               size: tuple[int, int] = (1920, 1080), effects: Effects | None = None) -> MatScene:
        """A scene with the faces of a kdegames deck (by name) or given BGRA faces."""
        faces = load_deck(deck) if isinstance(deck, str) else deck
        return cls(layout, faces, as_generator(rng), size, effects or Effects())

    # -- what the players do ---------------------------------------------------------------

    def place(self, card: Card, seat: int | None, area: str = "play") -> Laid:
        """Lay a card in a seat's play spot or meld area, or in the kitty ("kitty", seat None);
        a hand slides it in over the next few frames."""
        zone = next((z for z in self.layout.zones if z.area == area
                     and (area == "kitty" or z.seat == seat)), None)
        if zone is None:
            raise ValueError(f"this mat has no {area} area for seat {seat}")
        facing = SEAT_ANGLE[self.layout.seats][seat] if seat is not None else 0.0
        cx, cy = (zone.x0 + zone.x1) / 2, (zone.y0 + zone.y1) / 2
        if area == "play":
            x, y = cx + self.rng.uniform(-8, 8), cy + self.rng.uniform(-8, 8)
            angle = facing + self.rng.uniform(-15, 15)
        else:
            x, y = self._row_position(zone, [c for c in self.laid if c.area == area
                                             and c.seat == seat])
            angle = facing + self.rng.uniform(-4, 4)
        frames = self.effects.slide_frames
        ex, ey = self._edge_point(seat, x, y)
        start = (x + (ex - x) * 0.25, y + (ey - y) * 0.25) if frames else (x, y)
        item = Laid(card, seat, area, start[0], start[1], angle, (x, y), frames)
        self.laid.append(item)
        if frames:
            self.hands.append(_Hand(seat if seat is not None else 0, x, y, frames + 1,
                                    SKIN[int(self.rng.integers(len(SKIN)))]))
        return item

    def _row_position(self, zone: Zone, already: list[Laid]) -> tuple[float, float]:
        """The next place in a row of cards along a meld area or the kitty."""
        k = len(already)
        along_x = (zone.x1 - zone.x0) >= (zone.y1 - zone.y0)
        pitch = 74.0
        if along_x:
            n = int((zone.x1 - zone.x0 - 10) // pitch)
            x = zone.x0 + 5 + pitch / 2 + (k % n) * pitch
            y = (zone.y0 + zone.y1) / 2
        else:
            n = int((zone.y1 - zone.y0 - 10) // pitch)
            x = (zone.x0 + zone.x1) / 2
            y = zone.y0 + 5 + pitch / 2 + (k % n) * pitch
        return x + self.rng.uniform(-3, 3), y + self.rng.uniform(-3, 3)

    def _edge_point(self, seat: int | None, x: float, y: float) -> tuple[float, float]:
        """Where a seat's arm comes from: the middle of its edge of the mat."""
        w, h = self.layout.width, self.layout.height
        name = self.layout.seat_name(seat) if seat is not None else "South"
        return {"South": (x, h + 150), "North": (x, -150), "West": (-150, y),
                "East": (w + 150, y)}[name]

    def gather(self) -> list[Laid]:
        """Take the trick off the mat at once; add `hand_over(seat)` for the hand that does it."""
        taken = [c for c in self.laid if c.area == "play"]
        self.laid = [c for c in self.laid if c.area != "play"]
        return taken

    def clear(self, area: str, seat: int | None = None) -> None:
        """Pick up a seat's meld, or the kitty."""
        self.laid = [c for c in self.laid if not (c.area == area and c.seat == seat)]

    def hand_over(self, seat: int, frames: int = 6) -> None:
        """A seat's hand reaches across the mat towards the middle for a few frames."""
        w, h = self.layout.width, self.layout.height
        x = w / 2 + self.rng.uniform(-0.25, 0.25) * w
        y = h / 2 + self.rng.uniform(-0.2, 0.2) * h
        self.hands.append(_Hand(seat, x, y, frames, SKIN[int(self.rng.integers(len(SKIN)))]))

    def bump(self, pixels: float = 25.0) -> None:
        """Knock the camera: its view shifts by about `pixels` and turns a little."""
        shift = np.eye(3)
        angle = math.radians(self.rng.uniform(-1, 1))
        cx, cy = self.size[0] / 2, self.size[1] / 2
        rot = cv2.getRotationMatrix2D((cx, cy), math.degrees(angle), 1.0)
        shift[:2] = rot
        direction = self.rng.uniform(0, 2 * math.pi)
        shift[0, 2] += pixels * math.cos(direction)
        shift[1, 2] += pixels * math.sin(direction)
        self.camera = shift @ self.camera

    @property
    def settled(self) -> bool:
        """No card is moving and no hand is over the mat."""
        return not self.hands and all(c.still for c in self.laid)

    def card_corners(self, item: Laid) -> np.ndarray:
        """The four corners of a laid card in frame pixels."""
        pts = _card_outline(item.x, item.y, item.angle, self.layout.card)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.camera).reshape(4, 2)

    # -- drawing ---------------------------------------------------------------------------

    def render(self) -> np.ndarray:
        """The next camera frame (BGR), after which sliding cards and hands move on."""
        canvas = self._mat.copy()
        for item in self.laid:
            self._draw_card(canvas, item)
        for hand in self.hands:
            self._draw_hand(canvas, hand)
        frame = cv2.warpPerspective(canvas, self._scene_to_frame(), self.size,
                                    flags=cv2.INTER_LINEAR, borderValue=(70, 70, 80))
        frame = self._camera_effects(frame)
        self._advance()
        return frame

    def _scene_to_frame(self) -> np.ndarray:
        s = np.diag([1 / SCENE_PX_PER_MM, 1 / SCENE_PX_PER_MM, 1.0])
        return self.camera @ s

    def _advance(self) -> None:
        self.frame_number += 1
        for item in self.laid:
            if item.frames_left > 0:
                item.frames_left -= 1
                t = 1.0 if item.frames_left == 0 else 0.5
                item.x += (item.target[0] - item.x) * t
                item.y += (item.target[1] - item.y) * t
        for hand in self.hands:
            hand.frames_left -= 1
        self.hands = [h for h in self.hands if h.frames_left > 0]

    def _draw_card(self, canvas: np.ndarray, item: Laid) -> None:
        face = self.faces[item.card]
        s = SCENE_PX_PER_MM
        scale = self.layout.card[0] * s / FACE_WIDTH
        m = cv2.getRotationMatrix2D((FACE_WIDTH / 2, FACE_HEIGHT / 2), -item.angle, scale)
        m[0, 2] += item.x * s - FACE_WIDTH / 2
        m[1, 2] += item.y * s - FACE_HEIGHT / 2
        r = int(math.hypot(FACE_WIDTH, FACE_HEIGHT) * scale / 2) + 8
        x0, y0 = max(0, int(item.x * s) - r), max(0, int(item.y * s) - r)
        x1 = min(canvas.shape[1], int(item.x * s) + r)
        y1 = min(canvas.shape[0], int(item.y * s) + r)
        if x1 <= x0 or y1 <= y0:
            return
        m[0, 2] -= x0
        m[1, 2] -= y0
        warped = cv2.warpAffine(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA,
                                borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        roi = canvas[y0:y1, x0:x1]
        if self.effects.shadow:
            off = int(2.5 * s)
            shadow = np.zeros_like(alpha[:, :, 0])
            shadow[off:, off:] = alpha[:-off, :-off, 0]
            shadow = cv2.GaussianBlur(shadow, (0, 0), 2.0 * s)[:, :, None]
            roi[:] = (roi * (1 - self.effects.shadow * shadow)).astype(np.uint8)
        roi[:] = (warped[:, :, :3] * alpha + roi * (1 - alpha)).astype(np.uint8)

    def _draw_hand(self, canvas: np.ndarray, hand: _Hand) -> None:
        s = SCENE_PX_PER_MM
        ex, ey = self._edge_point(hand.seat, hand.x, hand.y)
        tip = (int(hand.x * s), int(hand.y * s))
        if self.effects.shadow:
            q = 8  # the shadow is soft: draw and blur it at an eighth of the size
            shade = np.zeros((canvas.shape[0] // q, canvas.shape[1] // q), np.uint8)
            o = 25 * s
            cv2.line(shade, (int((ex * s + o) / q), int((ey * s + o) / q)),
                     (int((tip[0] + o) / q), int((tip[1] + o) / q)), 255, int(85 * s / q))
            cv2.circle(shade, (int((tip[0] + o) / q), int((tip[1] + o) / q)), int(50 * s / q),
                       255, -1)
            shade = cv2.GaussianBlur(shade, (0, 0), 12 * s / q)
            shade_f = cv2.resize(shade, (canvas.shape[1], canvas.shape[0])).astype(np.float32)
            factor = cv2.merge([1.0 - self.effects.shadow * shade_f / 255.0] * 3)
            canvas[:] = cv2.multiply(canvas.astype(np.float32), factor, dtype=cv2.CV_8U)
        sleeve = tuple(int(v) for v in self.rng.integers(40, 200, 3))
        cv2.line(canvas, (int(ex * s), int(ey * s)), tip, sleeve, int(80 * s), cv2.LINE_AA)
        cv2.ellipse(canvas, tip, (int(48 * s), int(58 * s)), float(self.rng.uniform(0, 180)),
                    0, 360, hand.tone, -1, cv2.LINE_AA)

    def _lighting(self) -> tuple[np.ndarray, np.ndarray] | None:
        """Per-pixel gain (a lamp off to one side, warm) and added glare, fixed per scene."""
        fx = self.effects
        if fx.light_low >= 1.0 and not fx.glare:
            return None
        w, h = self.size
        gx, gy = np.meshgrid(np.linspace(0, 1, w // 8), np.linspace(0, 1, h // 8))
        ax, ay = self.rng.uniform(0, 1, 2)
        dist = np.hypot(gx - ax, gy - ay) / math.sqrt(2)
        lamp = (1.0 - (1.0 - fx.light_low) * dist).astype(np.float32)
        gain = cv2.resize(lamp, (w, h))[:, :, None] * np.array([0.88, 0.96, 1.05], np.float32)
        if fx.light_low >= 1.0:
            gain[:] = 1.0
        sx, sy = self.rng.uniform(0.2, 0.8, 2)
        spot = np.exp(-(((gx - sx) / 0.08) ** 2 + ((gy - sy) * h / w / 0.08) ** 2))
        glare = cv2.resize((fx.glare * self.rng.uniform(0.5, 1.0) * spot).astype(np.float32),
                           (w, h))
        return np.ascontiguousarray(gain), np.repeat(glare[:, :, None], 3, axis=2)

    def _camera_effects(self, frame: np.ndarray) -> np.ndarray:
        fx = self.effects
        if self._light is not None:
            gain, glare = self._light
            frame = cv2.add(cv2.multiply(frame.astype(np.float32), gain), glare,
                            dtype=cv2.CV_8U)
        if fx.blur:
            frame = cv2.GaussianBlur(frame, (0, 0), self.rng.uniform(0.3, fx.blur))
        if self._noise:
            noise = self._noise[int(self.rng.integers(len(self._noise)))]
            frame = cv2.add(frame, noise, dtype=cv2.CV_8U)
        if fx.jpeg_low:
            quality = int(self.rng.integers(fx.jpeg_low, 95))
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
            frame = frame if decoded is None else np.asarray(decoded)
        return frame


def _card_outline(x: float, y: float, angle: float, card: tuple[float, float]) -> np.ndarray:
    """Corners (mm) of a card centred at (x, y) turned `angle` degrees clockwise."""
    w, h = card
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return np.array([(x + c * px - s * py, y + s * px + c * py) for px, py in pts], np.float32)
