"""A virtual mat seen by a virtual camera, for the demo, the tests and the benchmark.

`MatScene` is driven card by card: `place(card, seat, area)` lays a card (a hand slides it in
over a few frames), `gather()` takes the trick, `hand_over(seat)` reaches a hand across,
`bump()` knocks the camera, and `render()` returns the next camera frame (or `capture()` now
and `develop()` it in another thread). Cards are the real faces of a kdegames deck; the frame
gets perspective, lighting gradients, glare, shadows, blur, noise and JPEG artefacts. Only what
changed since the last frame is drawn again, with the same pixels as drawing it all afresh
(`render_reference()`). All randomness comes from the generator it is given.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from table.rules import Card

from .faces import FACE_HEIGHT, FACE_WIDTH, load_deck, load_face_folder
from .mat import QUIET_MM, MatLayout, Zone, draw_mat

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


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels, the end excluded
_CardView = tuple[Card, float, float, float, np.ndarray]  # card, x, y, angle, face


@dataclass(frozen=True)
class Exposure:
    """A frame as the lens saw it under the lamp, with the sensor's effects still to apply:
    blur sigma, which noise pattern, JPEG quality (each None when off)."""

    lit: np.ndarray
    blur: float | None
    noise: int | None
    quality: int | None


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
    # A plain cloth of this colour (BGR) under the cards instead of the printed green mat
    # (only the markers are kept), and the distance between meld cards' centres along a row
    # (mm): below a card's width (63) they touch and overlap.
    cloth: tuple[int, int, int] | None = None
    pitch: float = 74.0

    def __post_init__(self) -> None:
        self._mat = draw_mat(self.layout, SCENE_PX_PER_MM)
        if self.cloth is not None:
            self._mat = _on_cloth(self._mat, self.layout, self.cloth, self.rng)
        self.camera = _camera_homography(self.layout, self.size, self.effects, self.rng)
        self._light = self._lighting()
        self._noise = [_split_noise(self.rng.normal(0, self.effects.noise,
                                                    (self.size[1], self.size[0], 3)))
                       for _ in range(3)] if self.effects.noise else []
        self._base = self._mat.copy()   # the mat with the laid cards drawn on it
        self._work = self._mat.copy()   # the same with this frame's hands
        self._drawn: list[tuple[_CardView, Box, np.ndarray]] = []  # with what lay under each
        self._hand_boxes: list[Box] = []
        self._maps: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._lit: np.ndarray | None = None   # the latest frame before the sensor's effects

    @classmethod
    def create(cls, layout: MatLayout, deck: str | Path | dict[Card, np.ndarray],
               rng: np.random.Generator | random.Random | int,
               size: tuple[int, int] = (1920, 1080), effects: Effects | None = None,
               cloth: tuple[int, int, int] | None = None, pitch: float = 74.0) -> MatScene:
        """A scene with the faces of a kdegames deck (by name), of a folder of `<card>.png`
        faces (a Path, see faces.load_face_folder) or given BGRA faces."""
        if isinstance(deck, Path):
            faces = load_face_folder(deck)
        else:
            faces = load_deck(deck) if isinstance(deck, str) else deck
        return cls(layout, faces, as_generator(rng), size, effects or Effects(), cloth=cloth,
                   pitch=pitch)

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
        """The next place along a meld area or the kitty: rows along its length, the first
        nearest the seat's edge of the mat, the next inside it once one is full."""
        along_x = (zone.x1 - zone.x0) >= (zone.y1 - zone.y0)
        a0, a1, b0, b1 = (zone.x0, zone.x1, zone.y0, zone.y1) if along_x \
            else (zone.y0, zone.y1, zone.x0, zone.x1)
        pitch, gap = self.pitch, 6.0
        step = self.layout.card[1] + gap      # the cards lie across the rows on their long side
        n = int((a1 - a0 - 10) // pitch)
        rows = max(1, int((b1 - b0 - gap) // step))
        row, k = divmod(len(already) % (n * rows), n)
        a = a0 + 5 + pitch / 2 + k * pitch
        middle = (self.layout.height if along_x else self.layout.width) / 2
        outwards = 1.0 if (b0 + b1) / 2 > middle else -1.0
        b = (b0 + b1) / 2 + outwards * ((rows - 1) / 2 - row) * step
        x, y = (a, b) if along_x else (b, a)
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
    #
    # A frame is made in two steps, like a camera's: `capture()` is what the lens sees under
    # the lamp (the mat with its cards and hands, put in perspective and lit), `develop()` is
    # the sensor's share (blur, noise, JPEG), which differs every frame and needs nothing of
    # the scene, so it can run in another thread. `capture()` keeps the drawn mat and the lit
    # frame and redraws only what changed since the last frame; `render_reference()` draws
    # everything afresh, and gives the same pixels (tests/live/test_simulator.py).

    def render(self) -> np.ndarray:
        """The next camera frame (BGR), after which sliding cards and hands move on."""
        return self.develop(self.capture())

    def capture(self) -> Exposure:
        """The next frame up to the sensor's effects; sliding cards and hands then move on."""
        if self._maps is None or not np.array_equal(self._maps[0], self.camera):
            self._maps = (self.camera.copy(), *self._warp_maps())
            self._lit = None
        changed = self._draw_cards_changed()
        gone = self._hand_boxes  # last frame's hands
        for x0, y0, x1, y1 in changed + gone:
            self._work[y0:y1, x0:x1] = self._base[y0:y1, x0:x1]
        self._hand_boxes = [self._draw_hand(self._work, hand) for hand in self.hands]
        if self._lit is None:
            self._lit = self._light_up(self._warp(self._work, None), None)
        else:
            rects = [self._frame_rect(box) for box in changed + gone + self._hand_boxes]
            for rect in _merged([r for r in rects if r is not None]):
                x0, y0, x1, y1 = rect
                self._lit[y0:y1, x0:x1] = self._light_up(self._warp(self._work, rect), rect)
        exposure = self._shutter(self._lit.copy())
        self._advance()
        return exposure

    def render_reference(self) -> np.ndarray:
        """The next frame drawn from scratch (what `render` must equal; slow)."""
        if self._maps is None or not np.array_equal(self._maps[0], self.camera):
            self._maps = (self.camera.copy(), *self._warp_maps())
        canvas = self._mat.copy()
        for item in self.laid:
            self._draw_card(canvas, item, self._card_box(item))
        for hand in self.hands:
            self._draw_hand(canvas, hand)
        lit = self._light_up(self._warp(canvas, None), None)
        exposure = self._shutter(lit)
        self._advance()
        return self.develop(exposure, reference=True)

    def develop(self, exposure: Exposure, reference: bool = False) -> np.ndarray:
        """The sensor's share: blur, noise and JPEG artefacts (thread-safe)."""
        frame = exposure.lit
        if exposure.blur is not None:
            frame = cv2.GaussianBlur(frame, (0, 0), exposure.blur)
        if exposure.noise is not None:
            up, down = self._noise[exposure.noise]
            if reference:  # the plain way: signed noise, saturated
                signed = up.astype(np.int16) - down.astype(np.int16)
                frame = cv2.add(frame, signed, dtype=cv2.CV_8U)
            else:  # the same sums in two saturating uint8 steps (each pixel is up or down)
                frame = cv2.subtract(cv2.add(frame, up), down)
        if exposure.quality is not None:
            ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, exposure.quality])
            decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
            frame = frame if decoded is None else np.asarray(decoded)
        return frame

    def _shutter(self, lit: np.ndarray) -> Exposure:
        """This frame's blur, noise pattern and JPEG quality."""
        fx = self.effects
        blur = float(self.rng.uniform(0.3, fx.blur)) if fx.blur else None
        noise = int(self.rng.integers(len(self._noise))) if self._noise else None
        quality = int(self.rng.integers(fx.jpeg_low, 95)) if fx.jpeg_low else None
        return Exposure(lit, blur, noise, quality)

    def _draw_cards_changed(self) -> list[Box]:
        """Bring the drawn mat up to the laid cards: cards are drawn in order, so those after
        the first difference are taken off (their patches put back) and drawn again."""
        drawn = self._drawn
        keep = 0
        for item, (key, _, _) in zip(self.laid, drawn, strict=False):
            if not _same_card_view(_card_view(item, self.faces), key):
                break
            keep += 1
        changed: list[Box] = []
        for _, box, patch in reversed(drawn[keep:]):
            x0, y0, x1, y1 = box
            self._base[y0:y1, x0:x1] = patch
            changed.append(box)
        del drawn[keep:]
        for item in self.laid[keep:]:
            box = self._card_box(item)
            if box is None:
                continue
            x0, y0, x1, y1 = box
            drawn.append((_card_view(item, self.faces), box, self._base[y0:y1, x0:x1].copy()))
            self._draw_card(self._base, item, box)
            changed.append(box)
        return changed

    def _frame_rect(self, box: Box) -> Box | None:
        """The frame pixels a change in this box of the drawn mat can reach."""
        x0, y0, x1, y1 = box
        pts = np.array([[x0 - 2, y0 - 2], [x1 + 2, y0 - 2], [x1 + 2, y1 + 2], [x0 - 2, y1 + 2]],
                       np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, self._scene_to_frame()).reshape(4, 2)
        fx0, fy0 = np.floor(out.min(axis=0)).astype(int) - 2
        fx1, fy1 = np.ceil(out.max(axis=0)).astype(int) + 3
        fx0, fy0 = max(0, int(fx0)), max(0, int(fy0))
        fx1, fy1 = min(self.size[0], int(fx1)), min(self.size[1], int(fy1))
        return (fx0, fy0, fx1, fy1) if fx1 > fx0 and fy1 > fy0 else None

    def _warp_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """For each frame pixel, where on the drawn mat it looks (fixed point, for remap)."""
        inv = np.linalg.inv(self._scene_to_frame()).astype(np.float32)
        w, h = self.size
        xs = np.arange(w, dtype=np.float32)[None, :]
        ys = np.arange(h, dtype=np.float32)[:, None]
        den = inv[2, 0] * xs + inv[2, 1] * ys + inv[2, 2]
        mx = (inv[0, 0] * xs + inv[0, 1] * ys + inv[0, 2]) / den
        my = (inv[1, 0] * xs + inv[1, 1] * ys + inv[1, 2]) / den
        map1, map2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
        return map1, map2

    def _warp(self, canvas: np.ndarray, rect: Box | None) -> np.ndarray:
        """The drawn mat seen by the camera: the whole frame, or one rectangle of it."""
        assert self._maps is not None
        _, map1, map2 = self._maps
        if rect is not None:
            x0, y0, x1, y1 = rect
            map1, map2 = map1[y0:y1, x0:x1], map2[y0:y1, x0:x1]
        return cv2.remap(canvas, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=(70, 70, 80))

    def _light_up(self, frame: np.ndarray, rect: Box | None) -> np.ndarray:
        """The lamp's uneven, warm light and its glare (pixel by pixel)."""
        if self._light is None:
            return frame
        gain, glare = self._light
        if rect is not None:
            x0, y0, x1, y1 = rect
            gain, glare = gain[y0:y1, x0:x1], glare[y0:y1, x0:x1]
        return cv2.add(cv2.multiply(frame.astype(np.float32), gain), glare, dtype=cv2.CV_8U)

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

    def _card_box(self, item: Laid) -> Box | None:
        """The part of the drawn mat a card (with its shadow) covers."""
        s = SCENE_PX_PER_MM
        scale = self.layout.card[0] * s / FACE_WIDTH
        r = int(math.hypot(FACE_WIDTH, FACE_HEIGHT) * scale / 2) + 8
        h, w = self._mat.shape[:2]
        x0, y0 = max(0, int(item.x * s) - r), max(0, int(item.y * s) - r)
        x1, y1 = min(w, int(item.x * s) + r), min(h, int(item.y * s) + r)
        return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None

    def _draw_card(self, canvas: np.ndarray, item: Laid, box: Box | None) -> None:
        if box is None:
            return
        x0, y0, x1, y1 = box
        face = self.faces[item.card]
        s = SCENE_PX_PER_MM
        scale = self.layout.card[0] * s / FACE_WIDTH
        m = cv2.getRotationMatrix2D((FACE_WIDTH / 2, FACE_HEIGHT / 2), -item.angle, scale)
        m[0, 2] += item.x * s - FACE_WIDTH / 2 - x0
        m[1, 2] += item.y * s - FACE_HEIGHT / 2 - y0
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

    def _draw_hand(self, canvas: np.ndarray, hand: _Hand) -> Box:
        """Draw an arm and hand with its soft shadow; returns the part of the canvas drawn on."""
        s = SCENE_PX_PER_MM
        ex, ey = self._edge_point(hand.seat, hand.x, hand.y)
        tip = (int(hand.x * s), int(hand.y * s))
        arm_w, palm = int(80 * s), (int(48 * s), int(58 * s))
        start = (int(ex * s), int(ey * s))
        reach = arm_w // 2 + 3
        boxes = [(min(start[0], tip[0]) - reach, min(start[1], tip[1]) - reach,
                  max(start[0], tip[0]) + reach + 1, max(start[1], tip[1]) + reach + 1),
                 (tip[0] - palm[1] - 3, tip[1] - palm[1] - 3, tip[0] + palm[1] + 4,
                  tip[1] + palm[1] + 4)]
        if self.effects.shadow:
            q = 8  # the shadow is soft: draw and blur it at an eighth of the size
            shade = np.zeros((canvas.shape[0] // q, canvas.shape[1] // q), np.uint8)
            o = 25 * s
            cv2.line(shade, (int((ex * s + o) / q), int((ey * s + o) / q)),
                     (int((tip[0] + o) / q), int((tip[1] + o) / q)), 255, int(85 * s / q))
            cv2.circle(shade, (int((tip[0] + o) / q), int((tip[1] + o) / q)), int(50 * s / q),
                       255, -1)
            shade = cv2.GaussianBlur(shade, (0, 0), 12 * s / q)
            full = cv2.resize(shade, (canvas.shape[1], canvas.shape[0]))
            x, y, w, h = cv2.boundingRect(full)  # elsewhere the shadow's factor is exactly 1
            if w and h:
                shade_f = full[y:y + h, x:x + w].astype(np.float32)
                factor = cv2.merge([1.0 - self.effects.shadow * shade_f / 255.0] * 3)
                roi = canvas[y:y + h, x:x + w]
                roi[:] = cv2.multiply(roi.astype(np.float32), factor, dtype=cv2.CV_8U)
                boxes.append((x, y, x + w, y + h))
        sleeve = tuple(int(v) for v in self.rng.integers(40, 200, 3))
        cv2.line(canvas, start, tip, sleeve, arm_w, cv2.LINE_AA)
        cv2.ellipse(canvas, tip, palm, float(self.rng.uniform(0, 180)), 0, 360, hand.tone, -1,
                    cv2.LINE_AA)
        ch, cw = canvas.shape[:2]
        x0 = max(0, min(b[0] for b in boxes))
        y0 = max(0, min(b[1] for b in boxes))
        return (x0, y0, max(x0, min(cw, max(b[2] for b in boxes))),
                max(y0, min(ch, max(b[3] for b in boxes))))

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


def _on_cloth(mat: np.ndarray, layout: MatLayout, cloth: tuple[int, int, int],
              rng: np.random.Generator) -> np.ndarray:
    """The printed mat's markers (with their white margins) on a plain cloth with a faint
    weave, instead of its green with zone lines."""
    h, w = mat.shape[:2]
    weave = cv2.GaussianBlur(rng.normal(0, 5, (h, w)).astype(np.float32), (0, 0), 0.8)
    out = np.clip(np.array(cloth, np.float32)[None, None, :] * (1 + weave[:, :, None] / 100)
                  + weave[:, :, None] / 2, 0, 255).astype(np.uint8)
    s = SCENE_PX_PER_MM
    for marker in layout.markers:
        x0, y0 = round((marker.x - QUIET_MM) * s), round((marker.y - QUIET_MM) * s)
        x1 = round((marker.x + marker.size + QUIET_MM) * s)
        y1 = round((marker.y + marker.size + QUIET_MM) * s)
        out[y0:y1, x0:x1] = mat[y0:y1, x0:x1]
    return out


def _split_noise(noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sensor noise (whole levels, as the plain int16 sum would take it) as its upward and its
    downward part, each uint8."""
    levels = np.clip(noise.astype(np.int16), -255, 255)
    return np.clip(levels, 0, 255).astype(np.uint8), np.clip(-levels, 0, 255).astype(np.uint8)


def _merged(rects: list[Box]) -> list[Box]:
    """Overlapping rectangles joined (a hand moving on covers much of where it was)."""
    out: list[Box] = []
    for rect in rects:
        while True:
            other = next((o for o in out if o[0] < rect[2] and rect[0] < o[2]
                          and o[1] < rect[3] and rect[1] < o[3]), None)
            if other is None:
                break
            out.remove(other)
            rect = (min(rect[0], other[0]), min(rect[1], other[1]), max(rect[2], other[2]),
                    max(rect[3], other[3]))
        out.append(rect)
    return out


def _card_view(item: Laid, faces: dict[Card, np.ndarray]) -> _CardView:
    return (item.card, item.x, item.y, item.angle, faces[item.card])


def _same_card_view(a: _CardView, b: _CardView) -> bool:
    return a[:4] == b[:4] and a[4] is b[4]


def _card_outline(x: float, y: float, angle: float, card: tuple[float, float]) -> np.ndarray:
    """Corners (mm) of a card centred at (x, y) turned `angle` degrees clockwise."""
    w, h = card
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return np.array([(x + c * px - s * py, y + s * px + c * py) for px, py in pts], np.float32)
