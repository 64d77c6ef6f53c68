"""Decks drawn from fonts: each design has its own rank font, weight, size and place of the
index, pip shapes (a symbol font's suit glyphs, or drawn), ink colours (black and red, or four
colours), paper, border, and middles (pips, a framed court picture, a big ace pip). About a
third are jumbo indices (a rank 10-16 mm tall, the pip under it as big, reaching 40 mm down).
Besides the 24 pinochle faces it draws negatives: some 2-8s, other letters (French and German
ranks), a joker and a back. Each face comes with a map of its index ink (rank and pip), so that
training can tell which part of an index something laid over it hides.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from table.rules import Rank
from vision.corners import NO_SUIT, OTHER_RANK
from vision.faces import FACE_HEIGHT, FACE_WIDTH

from .face import PIP_INK, RANK_INK, Face

PX = 6                       # pixels per mm while drawing (faces are kept at 4)
W, H = 63 * PX, 88 * PX
INDEX_W, INDEX_H = 19.0 * PX, 42.0 * PX   # an index fits in this much of its corner
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/share/texmf/fonts/opentype"))
# The font packages (Debian 12) that draw the designs: with exactly these installed,
# font_files() gives the files in fonts.txt, those that drew the shipped networks' ranks (id
# f6deed63e2, as corner_reader.json records), and suit_fonts() those in suit_fonts.txt (not
# recorded when the shipped networks were trained; pinned since). Other fonts draw other designs.
FONT_PACKAGES = ("fonts-cantarell", "fonts-crosextra-caladea", "fonts-crosextra-carlito",
                 "fonts-dejavu-core", "fonts-dejavu-extra", "fonts-ebgaramond",
                 "fonts-freefont-ttf", "fonts-lato", "fonts-liberation", "fonts-linuxlibertine",
                 "fonts-noto-core", "fonts-open-sans", "fonts-roboto-unhinted", "fonts-texgyre",
                 "fonts-urw-base35")
PINNED_FONTS = Path(__file__).with_name("fonts.txt")
PINNED_SUIT_FONTS = Path(__file__).with_name("suit_fonts.txt")
_SKIP = ("symbol", "dingbat", "d050000l", "awesome", "math", "emoji", "ancient", "mono",
         "keyboard", "music", "z003", "chancery", "script", "cursive", "blackletter")
RANK_TEXT = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J", Rank.TEN: "10",
             Rank.NINE: "9"}
SUIT_GLYPH = ("\u2660", "\u2665", "\u2663", "\u2666")     # spades, hearts, clubs, diamonds
OTHER_TEXT = ("2", "3", "4", "5", "6", "7", "8", "R", "D", "V", "B", "O", "U", "C", "H")


def _has(font: ImageFont.FreeTypeFont, text: str) -> bool:
    """Whether the font draws every character of `text` (not its missing-glyph box)."""
    def ink(ch: str) -> bytes | None:
        img = Image.new("L", (120, 120), 0)
        ImageDraw.Draw(img).text((10, 10), ch, font=font, fill=255)
        return img.tobytes() if img.getbbox() is not None else None

    missing = ink("\uffff")
    return all(ink(ch) not in (None, missing) for ch in text)


@lru_cache(maxsize=1)
def font_files() -> tuple[Path, ...]:
    """Fonts that draw the ranks as letters and digits, sorted by path."""
    out = []
    for root in FONT_DIRS:
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() not in (".ttf", ".otf") or \
                    any(s in path.name.lower() for s in _SKIP):
                continue
            try:
                font = ImageFont.truetype(str(path), 48)
            except OSError:
                continue
            if _has(font, "AKQJ1098765432"):
                out.append(path)
    return tuple(out)


def fonts_id(fonts: tuple[Path, ...]) -> str:
    """A short hash of the font files' paths, in order (what a design's source records)."""
    return hashlib.sha1("\n".join(str(f) for f in fonts).encode()).hexdigest()[:10]


def unpinned_fonts(ranks: tuple[Path, ...], suits: tuple[Path, ...]) -> str | None:
    """None when the rank and suit fonts are the pinned ones, else what differs and the fix."""
    problems = []
    for what, fonts, pinned in (("rank", ranks, PINNED_FONTS), ("suit", suits, PINNED_SUIT_FONTS)):
        want, have = pinned.read_text().split(), [str(f) for f in fonts]
        if have != want:
            missing, extra = sorted(set(want) - set(have)), sorted(set(have) - set(want))
            problems.append(f"{len(have)} {what} font files, {len(missing)} of {pinned.name} "
                            f"missing{', e.g. ' + missing[0] if missing else ''}, "
                            f"{len(extra)} not in it{', e.g. ' + extra[0] if extra else ''}")
    if not problems:
        return None
    return (f"the fonts installed are not those pinned for training ({'; '.join(problems)}): "
            f"install exactly `apt-get install --no-install-recommends "
            f"{' '.join(FONT_PACKAGES)}` and remove other font packages, or pass --any-fonts "
            f"to draw with these (then the designs differ)")


@lru_cache(maxsize=1)
def suit_fonts() -> tuple[Path, ...]:
    """Fonts that draw the four filled suit symbols."""
    out = []
    for root in FONT_DIRS:
        for path in sorted(root.rglob("*")):
            if path.suffix.lower() not in (".ttf", ".otf"):
                continue
            try:
                font = ImageFont.truetype(str(path), 48)
            except OSError:
                continue
            if _has(font, "".join(SUIT_GLYPH)):
                out.append(path)
    return tuple(out)


def rank_font_number(design: int, fonts: tuple[Path, ...]) -> int:
    return design % len(fonts)


def _drawn_pip(suit: int, rng: np.random.Generator) -> np.ndarray:
    """A filled suit shape drawn from circles and polygons, as a 200x200 mask."""
    img = Image.new("L", (200, 200), 0)
    d = ImageDraw.Draw(img)
    r = float(rng.uniform(46, 58))
    lobe = float(rng.uniform(0.8, 1.0))
    if suit in (0, 1):   # spade and heart: a heart, turned over for the spade
        d.ellipse((100 - 2 * r * lobe, 30, 100, 30 + 2 * r), fill=255)
        d.ellipse((100, 30, 100 + 2 * r * lobe, 30 + 2 * r), fill=255)
        tip = float(rng.uniform(170, 196))
        d.polygon([(100 - 2 * r * lobe + 4, 30 + r * 1.25), (100 + 2 * r * lobe - 4,
                                                          30 + r * 1.25), (100, tip)], fill=255)
        if suit == 0:
            img = img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
            d = ImageDraw.Draw(img)
            stem = float(rng.uniform(8, 22))
            d.polygon([(100, 120), (100 - stem - 12, 198), (100 + stem + 12, 198)], fill=255)
    elif suit == 2:      # club: three balls and a stem
        c = float(rng.uniform(36, 44))
        for cx, cy in ((100, 50), (100 - c * 1.25, 112), (100 + c * 1.25, 112)):
            d.ellipse((cx - c, cy - c, cx + c, cy + c), fill=255)
        d.polygon([(92, 90), (108, 90), (100 + 24, 198), (100 - 24, 198)], fill=255)
    else:                # diamond, with straight or hollow sides
        half = float(rng.uniform(55, 80))
        sag = float(rng.uniform(0, 12))
        pts = []
        for (x0, y0), (x1, y1) in (((100, 2), (100 + half, 100)), ((100 + half, 100), (100, 198)),
                                   ((100, 198), (100 - half, 100)), ((100 - half, 100), (100, 2))):
            for t in np.linspace(0, 1, 8, endpoint=False):
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                bend = sag * 4 * t * (1 - t)
                pts.append((x - bend * np.sign(x - 100), y - bend * np.sign(y - 100)))
        d.polygon(pts, fill=255)
    return np.asarray(img)


def _glyph_pip(suit: int, font_path: Path) -> np.ndarray:
    font = ImageFont.truetype(str(font_path), 180)
    img = Image.new("L", (260, 260), 0)
    ImageDraw.Draw(img).text((130, 130), SUIT_GLYPH[suit], font=font, fill=255, anchor="mm")
    return _tight(np.asarray(img))


def _tight(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 40)
    if len(ys) == 0:
        return mask
    return np.ascontiguousarray(mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _text_mask(text: str, font_path: Path, stroke: int, squeeze: float) -> np.ndarray:
    """The text drawn large, cut tight, squeezed across by `squeeze`."""
    font = ImageFont.truetype(str(font_path), 120)
    img = Image.new("L", (120 * len(text) + 120, 220), 0)
    d = ImageDraw.Draw(img)
    spacing = -8 if len(text) > 1 else 0
    x = 40
    for ch in text:
        d.text((x, 40), ch, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
        x += int(d.textlength(ch, font=font)) + spacing
    mask = _tight(np.asarray(img))
    if squeeze != 1.0:
        mask = cv2.resize(mask, (max(2, int(mask.shape[1] * squeeze)), mask.shape[0]),
                          interpolation=cv2.INTER_AREA)
    return mask


def _stamp(canvas: np.ndarray, mask: np.ndarray, x: float, y: float, height: float,
           colour: tuple[int, int, int], width: float | None = None,
           labels: np.ndarray | None = None, label: int = 0) -> tuple[float, float]:
    """Paint `mask` scaled to `height` px (and `width`, or keeping its shape) at (x, y), and
    `label` where it inks `labels`; returns its size."""
    h = max(2, round(height))
    w = max(2, round(width if width is not None else mask.shape[1] * h / mask.shape[0]))
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    x0, y0 = round(x), round(y)
    x1, y1 = min(canvas.shape[1], x0 + w), min(canvas.shape[0], y0 + h)
    if x1 <= x0 or y1 <= y0 or x0 < 0 or y0 < 0:
        return w, h
    m = m[:y1 - y0, :x1 - x0, None]
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = (region * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)
    if labels is not None:
        labels[y0:y1, x0:x1][m[:, :, 0] > 0.5] = label
    return w, h


class _Style:
    """Everything one design keeps the same on all its faces."""

    def __init__(self, design: int, fonts: tuple[Path, ...], rng: np.random.Generator) -> None:
        self.font = fonts[rank_font_number(design, fonts)]
        self.stroke = int(rng.choice([0, 0, 0, 1, 2, 4]))
        self.squeeze = float(rng.uniform(0.7, 1.2))
        self.ten_squeeze = self.squeeze * float(rng.choice([1.0, 0.8, 0.6]))
        self.jumbo = bool(rng.random() < 0.35)
        if self.jumbo:    # a big rank and a pip as big under it (Bicycle's jumbo index)
            self.rank_h = float(rng.uniform(10.0, 16.0)) * PX
            self.y = float(rng.uniform(2.5, 6.5)) * PX
            self.pip_h = self.rank_h * float(rng.uniform(0.7, 1.15))
            self.gap = float(rng.uniform(0.5, 4.0)) * PX
        else:
            self.rank_h = float(rng.uniform(4.0, 11.0)) * PX
            self.y = float(rng.uniform(1.5, 6.0)) * PX
            self.pip_h = self.rank_h * float(rng.uniform(0.45, 1.05))
            self.gap = float(rng.uniform(0.2, 3.0)) * PX
        self.x = float(rng.uniform(1.0, 4.5)) * PX
        tall = self.y + self.rank_h + self.gap + self.pip_h
        if tall > INDEX_H:   # keep the index in its corner
            shrink = (INDEX_H - self.y) / (tall - self.y)
            self.rank_h, self.gap, self.pip_h = (v * shrink for v in
                                                 (self.rank_h, self.gap, self.pip_h))
        self.pip_left = bool(rng.random() < (0.1 if self.jumbo else 0.3))
        fonts_for_pips = suit_fonts()
        pip_font = fonts_for_pips[int(rng.integers(len(fonts_for_pips)))] \
            if fonts_for_pips and rng.random() < 0.6 else None
        self.pips = [_glyph_pip(s, pip_font) if pip_font else _tight(_drawn_pip(s, rng))
                     for s in range(4)]
        paper = float(rng.uniform(225, 255))
        self.paper = (int(paper - rng.uniform(0, 25)), int(paper - rng.uniform(0, 8)),
                      int(paper))
        black = tuple(int(v) for v in rng.uniform(0, 70, 3)) if rng.random() < 0.3 \
            else (int(rng.uniform(0, 40)),) * 3
        red = (int(rng.uniform(0, 70)), int(rng.uniform(0, 50)), int(rng.uniform(160, 235)))
        self.ink: list[tuple[int, ...]] = [black, red, black, red]
        if rng.random() < 0.15:   # a four-colour deck
            self.ink[2] = (int(rng.uniform(0, 60)), int(rng.uniform(110, 170)),
                           int(rng.uniform(0, 60)))
            self.ink[3] = (int(rng.uniform(150, 220)), int(rng.uniform(60, 120)),
                           int(rng.uniform(0, 40))) if rng.random() < 0.7 \
                else (0, int(rng.uniform(110, 160)), int(rng.uniform(220, 255)))
        self.radius = int(rng.uniform(2.0, 4.5) * PX)
        self.border = rng.random() < 0.3
        self.border_inset = float(rng.uniform(1.0, 3.5)) * PX
        self.four_corners = rng.random() < 0.2
        self.frame = float(rng.uniform(8.5, 14.0)) * PX
        # Across, a court picture keeps clear of the index (a jumbo one's is narrow).
        self.frame_x = min(24.0 * PX, max(self.frame, self.x + 0.7 * self.rank_h + PX
                                          * float(rng.uniform(0.5, 2.0))))
        self._texts: dict[str, np.ndarray] = {}

    def text(self, text: str) -> np.ndarray:
        """The mask of a rank in this design's font (drawn once)."""
        if text not in self._texts:
            squeeze = self.ten_squeeze if text == "10" else self.squeeze
            self._texts[text] = _text_mask(text, self.font, self.stroke, squeeze)
        return self._texts[text]


def _index(canvas: np.ndarray, style: _Style, text: str, suit: int | None,
           colour: tuple[int, ...], labels: np.ndarray | None = None) -> None:
    """The rank over the pip in the top-left corner (top-right when no `labels` are kept: the
    canvas is then given mirrored), marking their ink in `labels`."""
    mask = style.text(text)
    width = mask.shape[1] * style.rank_h / mask.shape[0]
    room = INDEX_W - style.x
    rw, rh = _stamp(canvas, mask, style.x, style.y, style.rank_h, colour,  # type: ignore[arg-type]
                    width=min(width, room), labels=labels, label=RANK_INK)
    if suit is not None:
        pip = style.pips[suit]
        pw = min(pip.shape[1] * style.pip_h / pip.shape[0], room)
        px = style.x if style.pip_left else style.x + rw / 2 - pw / 2
        _stamp(canvas, pip, max(px, 2.0), style.y + rh + style.gap, style.pip_h,
               colour, width=pw, labels=labels, label=PIP_INK)  # type: ignore[arg-type]


def _middle(canvas: np.ndarray, style: _Style, kind: str, suit: int | None, count: int,
            rng: np.random.Generator) -> None:
    colour = style.ink[suit] if suit is not None else style.ink[0]
    if kind == "court":
        f, fx = int(style.frame), int(style.frame_x)
        x1, y1 = W - fx, H - f
        cv2.rectangle(canvas, (fx, f), (x1, y1), colour, max(1, int(rng.uniform(2, 6))))
        for _ in range(int(rng.integers(6, 18))):   # a picture: coloured patches and strokes
            c = tuple(int(v) for v in rng.integers(0, 255, 3))
            p0 = (int(rng.uniform(fx, x1)), int(rng.uniform(f, y1)))
            p1 = (int(rng.uniform(fx, x1)), int(rng.uniform(f, y1)))
            if rng.random() < 0.5:
                cv2.rectangle(canvas, p0, p1, c, -1)
            else:
                cv2.line(canvas, p0, p1, c, int(rng.integers(3, 20)))
    elif suit is not None and count > 0:
        pip = style.pips[suit]
        size = float(rng.uniform(*((5.5, 9) if style.jumbo else (7, 12)))) * PX if count > 1 \
            else float(rng.uniform(14, 30)) * PX
        side = 0.38 if style.jumbo else 0.32
        cols = [W / 2] if count <= 3 else [W * side, W * (1 - side)] if count < 9 \
            else [W * side, W / 2, W * (1 - side)]
        per_col = max(1, int(np.ceil(count / len(cols))))
        for i in range(count):
            cx = cols[i % len(cols)]
            row = i // len(cols)
            cy = H * (0.2 + 0.6 * (row + 0.5) / per_col) if count > 1 else H / 2
            pw = pip.shape[1] * size / pip.shape[0]
            _stamp(canvas, pip, cx - pw / 2, cy - size / 2, size, colour)  # type: ignore[arg-type]


def _face(style: _Style, rng: np.random.Generator, text: str | None, suit: int | None,
          kind: str, count: int) -> tuple[np.ndarray, np.ndarray]:
    """A face (BGRA, vision.faces size) and its index ink map (face.RANK_INK, PIP_INK)."""
    canvas = np.empty((H, W, 3), np.uint8)
    canvas[:] = style.paper
    labels = np.zeros((H, W), np.uint8)
    if kind == "back":
        c1 = tuple(int(v) for v in rng.integers(0, 255, 3))
        c2 = tuple(int(v) for v in rng.integers(0, 255, 3))
        inset = int(rng.uniform(0, 5) * PX)
        canvas[inset:H - inset, inset:W - inset] = c1
        step = int(rng.uniform(1.5, 6) * PX)
        for k in range(-H, W + H, step):
            cv2.line(canvas, (k, 0), (k + H, H), c2, max(1, step // 4))
            if rng.random() < 0.5:
                cv2.line(canvas, (k, H), (k + H, 0), c2, max(1, step // 4))
    else:
        if style.border:
            b = int(style.border_inset)
            cv2.rectangle(canvas, (b, b), (W - b, H - b), style.ink[0], 2)
        _middle(canvas, style, kind, suit, count, rng)
        if text is not None:
            colour = style.ink[suit] if suit is not None else style.ink[int(rng.integers(2))]
            for _ in range(2):   # each corner in turn
                if style.four_corners:   # the top-right one first: the index ink map is
                    mirrored = np.ascontiguousarray(canvas[:, ::-1])   # of the read corners
                    _index(mirrored, style, text, suit, colour)
                    canvas = np.ascontiguousarray(mirrored[:, ::-1])
                _index(canvas, style, text, suit, colour, labels)
                canvas = np.ascontiguousarray(canvas[::-1, ::-1])
                labels = np.ascontiguousarray(labels[::-1, ::-1])
    alpha = np.zeros((H, W), np.uint8)
    cv2.rectangle(alpha, (style.radius, 0), (W - style.radius, H), 255, -1)
    cv2.rectangle(alpha, (0, style.radius), (W, H - style.radius), 255, -1)
    for cx, cy in ((style.radius, style.radius), (W - style.radius - 1, style.radius),
                   (style.radius, H - style.radius - 1),
                   (W - style.radius - 1, H - style.radius - 1)):
        cv2.circle(alpha, (cx, cy), style.radius, 255, -1, lineType=cv2.LINE_AA)
    face = np.dstack([canvas, alpha])
    return (cv2.resize(face, (FACE_WIDTH, FACE_HEIGHT), interpolation=cv2.INTER_AREA),
            cv2.resize(labels, (FACE_WIDTH, FACE_HEIGHT), interpolation=cv2.INTER_NEAREST))


def deck(design: int, fonts: tuple[Path, ...]) -> list[Face]:
    """The faces of one drawn design: the 24 pinochle cards and some negatives."""
    rng = np.random.default_rng([2026, design])
    style = _Style(design, fonts, rng)
    faces = []
    pips = {Rank.ACE: 1, Rank.TEN: 10, Rank.NINE: 9}
    for suit in range(4):
        for rank in Rank:
            kind = "court" if rank in (Rank.KING, Rank.QUEEN, Rank.JACK) else "pips"
            img, ink = _face(style, rng, RANK_TEXT[rank], suit, kind, pips.get(rank, 0))
            faces.append(Face(img, int(rank), suit, ink))
    for _ in range(8):
        text = OTHER_TEXT[int(rng.integers(len(OTHER_TEXT)))]
        suit = int(rng.integers(4))
        count = int(text) if text.isdigit() else 0
        kind = "pips" if text.isdigit() else "court"
        img, ink = _face(style, rng, text, suit, kind, count)
        faces.append(Face(img, OTHER_RANK, suit, ink))
    extras: tuple[tuple[str | None, str], ...] = (("JOKER"[: int(rng.integers(2, 6))], "court"),
                                                  (None, "back"))
    for word, kind in extras:
        img, ink = _face(style, rng, word, None, kind, 0)
        faces.append(Face(img, OTHER_RANK, NO_SUIT, ink))
    return faces
