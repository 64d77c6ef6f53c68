"""Cards found by their printed index: `read_indices(frame, read, card_px) -> [IndexCard]`
(find_cards takes them in: vision.detect).

A card under others in a fan, a pile or a meld row often shows nothing but one index corner,
and no outline of it is found. But an index is plain to see: a rank over a suit pip, dark or
red ink on the card's paper (a pip too broad for the black-hat, as on a jumbo index, is a hole
in that paper; a glyph touching the faint line along the edge of the card over it is picked out
of that line by its stronger ink, and where the two make one mark of a glyph's size, by its
darker shade, and then names a card only very surely, SURE_INSIDE). So ink marks on paper are
paired, a rank glyph (or the two of "10") over a pip of about its size; the rank's long axis,
turned towards the pip, is the
card's "down", and the index sits in the card's top-left corner (in the card's own upright
frame), so the card lies to the right of and below it. Each pair's corner window (the 20 x 44
mm the corner reader reads, vision.corners) is read as one corner (the other covered) at two
kinds of size: round the size of the cards read in the frame, and round the size the index's
own height says (a card farther from the camera or nearer than the others, or a jumbo index,
reads well only at its own; ink that is no index reads otherwise at the two). Each kind's
likeliest size is read first and, where that names a card, SIZES round it. The rank's axis
gives "down" a few degrees off, now and then 20 (a "J" with a long hook), more than the reader
forgives (on the rendered busy scenes it names 97 % of indices upright, 88 % turned 10 degrees,
63 % at 15, 19 % at 20): a pair whose readings hint at an index but name no card is read again
turned (TURNS, and towards its pip where the rank's axis is well off the way to it: a jack's
hook tilts its axis, while its pip lies under it), and a turn then names a card only very
surely (SURE_TURNED). An index names a card when two sizes are sure of it (the reader's
calibrated threshold), one of each kind, or when every size of its own kind is; and no size
names another card. No size at which the card
would have fewer than MIN_PX_MM px per mm names one (a speck of a picture or of the ground,
read as a tiny card's index). Where the two kinds are
more than FAR apart (a card far nearer the camera than the others, or farther: a photo's cards
pasted at any size), the frame's cards' size may show the index as a smudge that leans to any
card: if the index names no card so, it is judged again at its own size alone, where two sizes
suffice. The same ink read the other way up names nothing; two glyphs side by side, one a thin "1",
are read both as a "10" and as the one glyph, and a "10" that names no ten gives way to the
glyph's reading (a king's index beside the next card's nine in a fan names the king as a "10");
one glyph names a ten only if shaped as a "1" or a "10" run together, with no other glyph beside
it (in a tight fan the reader's window shows a nine and the next card's queen as a "10"); and
the card laid from it must lie on paper, however dim (DIM_PAPER). It is laid from the index:
its corner, its turn, and its size (that of the cards read in the frame when it read surely at
that size, else what the index's size says), then turned about the index where its two sides
meeting at the index's corner stand out clearly more as a card's edges (FIT_TURNS: a jack's
hook tilts its rank's axis, and the card laid along it, by up to 15 degrees), then at the
size, from that one to the index's own and half as much again beyond either, whose far sides
stand out most as a card's edges, if clearly more (FIT_GAIN): a card nearer the camera than
the others, laid at their size, was too small to hold its other index, and decks print ranks
from about 9 mm tall (letele's) to 16 (a jumbo index), so that the size RANK_MM gives may be a
third off.
Two indices naming the same card half a turn apart, a card's diagonal from
each other, are that card's two corners: one card, of its own size, which the other cards laid
from one index then take. Two indices so placed that name no card alone but hint at one are
read together, as an outline's two corners are, at the size of the card they span
(`_read_as_two`). The reader was trained to say "no index here" on the middles of
faces, on blank paper and on cloth, so pips in a card's middle, a court's picture and the
ground name no card.

Ink inside the cards read already is read last, and names a card only very surely
(SURE_INSIDE), and only where read at the frame's cards' size too (a card over another is as
near the camera: ink named at its own size alone is a mark of the face under it, a jack's
ornament read as an ace twice a card's size): in a fan or a pile the card read by its outline
may be the one under the others, whose outline then holds their indices; and an outline over
two cards holds the other's.
So does an index naming another card where a card laid from a surer index has its other
index (half a turn round, a diagonal away): an Egyptian jack found by its top index alone had
its bottom one read as the king of hearts.

A card lit dimmer than the frame's whitest (each card of a photo under a lamp of its own) has
its pairs looked for again on paper less light and less colourless (DIM_PAPER), read after all
the others and naming a card only surely (SURE_DIM).

The cost is bounded by MAX_PAIRS, MAX_INSIDE and MAX_DIM: at most that many pairs are read (the
biggest ranks first; past the first CROWD, most of them a busy ground's, a pair names a card
only at SURE_INSIDE), each at one size of each kind (and, hinting at an index, turned at each
of TURNS and towards its pip) and, if it names a card there, at up to 2 * len(SIZES) - 2 more;
and by MAX_COUPLES, two indices read together at len(SIZES) sizes each (the network's time is
most of it, under a millisecond a window on this machine).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from table.rules import Card, Rank

from .corners import (
    NO_SUIT,
    OTHER_RANK,
    WINDOW_H,
    WINDOW_W,
    CornerReader,
    CornerReading,
    combine,
    corner_reader,
    heads_log_p,
)
from .looks import sides_shown
from .quads import CARD_ASPECT, holds, side_lengths
from .reading import Reading

CARD_MM = (63.0, 88.0)
WINDOW_MM = 2.0            # px per mm in the reader's window (READ_SIZE)
# Where an index lies on its card (measured on the corner reader's training designs,
# vision.busy.TRAINING_DECKS, at READ_SIZE): the rank's left edge about 2.5 mm in from the
# card's long side, its top 3 mm down from the short one.
RANK_LEFT_MM, RANK_TOP_MM = 2.5, 3.0
# The rank's ink is taken as RANK_MM tall (on the rendered busy scenes, blurred, it measures
# 12 to 14 mm on those designs). Each index is read at that size, and at the frame's cards'
# when any were read, times SIZES (the likeliest first): sizes this near read alike, so a reading
# at one is checked by the others.
RANK_MM = 12.5
SIZES = (1.0, 1.13, 0.89)
MIN_PX_MM = 1.1            # one index names no card at a size giving it fewer px per mm (the
#                            fewest the corner reader was taught on, vision.training.camera): so
#                            small, ink of a picture or a ground is read as an index of its size
# Pairs read per frame, at most (the cost bound): a busy ground's specks (sprinkles, a
# zigzag, a coarse noise) pair up too, bigger than a card's index: 40 left a card's sure index
# unread, and 120 the indices of a hand's cards on a coarse ground (vision.busy's "hand"
# layout, tuning seed: a thousand pairs, the indices 150th to 160th by size).
MAX_PAIRS = 400
CROWD = 120                # ... those past this many name a card only at SURE_INSIDE (there,
#                            most are the ground's: more pairs read are more chances of ink
#                            of the ground named as a card)
# A card lit dimmer than the frame's whitest (a photo of cards each photographed under a lamp
# of its own; a card in a hand's shade) has no paper by PAPER. Its pairs are looked for again
# on paper this light and this colourful, at most, and read after all the others, so that
# the busy ground such paper also takes (most of an asphalt's or a carpet's, on the rendered
# scenes) crowds none of theirs out; at most MAX_DIM of them, each naming a card only this
# surely (on the tuning seed's jumbo cards overlapping under lamps of their own, this read
# 82.6 % of the cards rather than 64.6 %; the same paper taken for every pair, 85.0 %, lost
# real photos' cards to the crowd).
DIM_PAPER = 0.40
DIM_SATURATION = 120
MAX_DIM = 200
SURE_DIM = 0.9
SAME_PAIR = 2.0            # px: pairs whose ranks' middles are this near (the same way up) are one
MAX_INSIDE = 48            # ... and, after them, pairs inside the cards read already
SURE_INSIDE = 0.97         # such a pair names a card only this surely, at least (the picture
#                            of a court read already, or another card's index half under it,
#                            otherwise named cards on the rendered busy scenes)
INK = 28                   # grey levels of ink below the paper round it (black-hat), at least
STRONG = 0.5               # a mark that is no glyph is looked at again in its ink this share of
#                            its darkest (95th percentile) or more: a glyph touching the faint
#                            line along the edge of a card over it (a fan) was one mark with it;
#                            so is a glyph, in how dark it is (its shade below the paper round it)
PICKED = 0.75              # ... and what that picks out of a glyph are glyphs of their own
#                            where each is this share of its size or less (a rank and the short
#                            stretch of that line it touched, in a fan's wedge; a "10" run
#                            together, two glyphs of 0.83 its size, is left whole)
PAPER = 0.55               # paper round the ink at least this share of the frame's whitest
MAX_SATURATION = 80        # ... and this colourless (HSV saturation of the local white)
MIN_GLYPH, MAX_GLYPH = 5, 90   # a glyph's longest side, px
BAR = 14                   # ... at most this many times its shortest (the "1" of a "10" is thin)
SIZE_RATIO = 2.2           # a rank and its pip differ in size at most this many times
STACK = (0.7, 2.2)         # their centres this many times the rank's height apart
SIDE_BY_SIDE = 0.35        # glyphs of "10": this near in height along "down" (share of height)
ONE = 2.3                  # ... and one of them (the "1") this much longer than wide, at least
#                            (2.8 to 5.8 on the training designs, a 9 or a Q 1.3 to 2.0)
LONE_TEN = 1.5             # one glyph alone names a ten only if no longer than this times its
#                            width (a "10" run together), or a thin "1" (ONE: its "0" joined to the
#                            pip of a jumbo index); a 9 measures 1.6 to 2.0 on the training designs
ON_PAPER = 0.35            # a card laid from an index lies on paper: this share of it, at least
#                            (on the rendered busy scenes every card laid right has 0.4 or more),
#                            judged on the dim paper (DIM_PAPER): the cards over a hand's bottom
#                            card may be lit dimmer than its index (each under a lamp of its own)
FAR = 1.6                  # an index whose own size says its card is this many times the
#                            frame's cards, or as many times less, is judged at its own alone
#                            when the two kinds of size together name no card
FIT = 1.5                  # a card laid from one index is tried at sizes from the size laid at
#                            to its index's own, and this much beyond either (1.1 left cards
#                            of an unseen deck with small indices, letele, laid too small),
FIT_STEP = 1.025           # ... this far apart,
FIT_NEAR = 1.08            # ... other than within this of the size laid at
FIT_GAIN = 0.25            # ... and laid at one whose far sides stand out this much more
FIT_TURNS = (-0.26, -0.17, -0.09, 0.09, 0.17, 0.26)   # rad: the card is tried turned so about
#                            its index too (see _squared)
MAX_COUPLES = 24           # two indices read together as one card's corners, at most
AGREE = 2                  # sizes (of SIZES) naming the card, at least
PIPS = 2                   # pips tried under each glyph, the nearest (a tall glyph: the
#                            nearest along its axis each way; the two nearest both fell on the
#                            ground's specks or the card's edge above a king in a fan's wedge,
#                            so its own pip below was never tried, on the tuning seed's hands)
ELONGATED = 1.25           # a glyph this much longer than wide gives "down" by its long axis
ALONG = 0.6                # ... and its pip lies this near that axis (cosine; a glyph beside it,
#                            the other digit of a "10" or the next card's rank in a fan, is none)
SAME_INDEX = 0.5           # indices of one card this near (share of the rank's height) are one
DIAGONAL_TURN = 0.25       # rad: indices this near half a turn and a diagonal apart: one card
TURNS = (0.17, -0.17, 0.35, -0.35)   # rad (10 and 20 degrees): a pair hinting at an index,
HINT = 0.25                # a rank and a suit this likely but no card named, is read turned
SURE_TURNED = 0.97         # ... and names a card turned only this surely, at least (each turn
#                            is one more chance of a wrong card: a jack read as a king at 0.77
#                            turned 10 degrees, on the rendered busy scenes)
PIP_TURN = 0.09            # rad (5 degrees): see _turns


@dataclass(frozen=True)
class _Glyph:
    centre: np.ndarray
    points: np.ndarray      # its ink pixels, x y
    size: float             # longest side of its box
    part_of: int = -1       # the glyph (its place in the list) it was picked out of, if any


@dataclass(frozen=True)
class IndexCard:
    """A card read from one index: the card, its confidence, its corners (clockwise from
    the index's corner: top-left, top-right, bottom-right, bottom-left in its own frame),
    the index's middle (frame px), its rank's height, and whether that rank was two glyphs
    taken as a "10"."""

    card: Card
    confidence: float
    corners: np.ndarray
    index: np.ndarray
    rank_px: float
    ten: bool


@dataclass(frozen=True)
class _Light:
    """What a frame's paper is judged by: each pixel's darkest channel, the light round it
    (closed), the ink below that light (black-hat), the frame's whitest, and the saturation
    (HSV) of the light round each pixel."""

    least: np.ndarray
    light: np.ndarray
    ink: np.ndarray
    whitest: float
    saturation: np.ndarray


def _lit(frame: np.ndarray) -> _Light:
    b, g, r = cv2.split(frame)
    least = cv2.min(cv2.min(b, g), r)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (15, 15))
    light = cv2.morphologyEx(least, cv2.MORPH_CLOSE, kernel)
    hsv_light = cv2.cvtColor(cv2.morphologyEx(frame, cv2.MORPH_CLOSE, kernel), cv2.COLOR_BGR2HSV)
    return _Light(least, light, cv2.subtract(light, least), float(np.percentile(least, 99.5)),
                  hsv_light[:, :, 1])


def _glyphs(lit: _Light, light_share: float = PAPER, saturation: int = MAX_SATURATION
            ) -> tuple[list[_Glyph], np.ndarray]:
    """Ink marks on card paper in a frame (its `_lit`): dark or red blobs (each pixel's
    darkest channel) well below the light round them (black-hat), where that light is bright
    (`light_share` of the frame's whitest) and colourless (`saturation`); and that paper (a
    mask, 1 on paper, its ink included)."""
    paper = (lit.light >= light_share * lit.whitest) & (lit.saturation <= saturation)
    mask = ((lit.ink >= INK) & paper).astype(np.uint8)
    paper_mask = paper.astype(np.uint8)
    mask |= _holes(paper_mask)
    return _marks(lit.ink, mask, dark=(lit.least, lit.light)), paper_mask


def _marks(ink: np.ndarray, mask: np.ndarray, at: tuple[int, int] = (0, 0),
           dark: tuple[np.ndarray, np.ndarray] | None = None) -> list[_Glyph]:
    """The glyphs among a mask's marks (`at`: the mask's place in the frame; `ink`, of the
    mask's size, how dark each pixel is). Given `dark` (the frame's darkest channel and the
    light round it), a mark too big or too thin for a glyph is looked at again in its strongest
    ink alone (STRONG); so is a glyph, in its darkest shade, and what that picks out of it,
    if clearly smaller (PICKED), is kept beside it, as its parts (`_Glyph.part_of`): a rank
    touching the faint line along the edge of the card over it is one mark with it, too tall
    for its pip."""
    split = dark is not None
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        size = max(w, h)
        if size < MIN_GLYPH or area < 10:
            continue
        # a mark that is no glyph (a thin frame round a picture, a line) may hold one
        glyph = size <= MAX_GLYPH and area >= 0.12 * w * h and size <= BAR * min(w, h)
        if not (glyph or split):
            continue
        blob = labels[y:y + h, x:x + w] == i
        if not glyph:
            part = ink[y:y + h, x:x + w]
            level = STRONG * float(np.percentile(part[blob], 95))
            if level > INK:
                out += _marks(part, (blob & (part >= level)).astype(np.uint8),
                              (at[0] + x, at[1] + y))
            continue
        ys, xs = np.nonzero(blob)
        out.append(_Glyph((centres[i] + at).astype(np.float32),
                          np.stack([xs + x + at[0], ys + y + at[1]], axis=1).astype(np.float32),
                          float(size)))
        if dark is not None:
            least, light = (a[y:y + h, x:x + w] for a in dark)
            # its shade below the paper round it (not the black-hat `ink`: that fades inside
            # a pip broader than its kernel, which would come apart into its rim)
            shade = cv2.subtract(np.full_like(least, int(light.max())), least)
            darkest = blob & (shade >= STRONG * float(np.percentile(shade[blob], 95)))
            parts = [replace(g, part_of=len(out) - 1) for g in
                     _marks(shade, darkest.astype(np.uint8), (at[0] + x, at[1] + y))]
            if parts and max(g.size for g in parts) <= PICKED * size:
                out += parts
    return out


def _holes(paper: np.ndarray) -> np.ndarray:
    """Marks too broad for the black-hat (a big pip of a jumbo index, or any pip of a card
    near the camera): the places off paper, no bigger than a glyph, with paper all round."""
    off = (1 - paper).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(off, connectivity=8)
    h, w = paper.shape
    x, y, bw, bh = (stats[:, k] for k in range(4))
    small = (np.maximum(bw, bh) <= MAX_GLYPH) & (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    small[0] = False
    return small.astype(np.uint8)[labels]


@dataclass(frozen=True)
class _Index:
    """A rank (one glyph, or two side by side: `ten`) over a pip: the rank's ink and the
    card's unit "down" and "right" in the frame. `no_ten`: a rank of one glyph that may name
    no ten, being shaped as neither a "1" nor a "10" run together, or having a glyph beside it
    that makes no "10" with it (the reader's window shows both and may take them for one: a
    nine beside the next card's queen in a tight fan, or a "1" beside the sliver of its "0"
    left showing and the next card's queen). `picked`: a glyph of it was picked out of a mark
    (`_marks`); it names a card only at SURE_INSIDE (on the rendered busy scenes of the tuning
    seed, with a looser rule for what is picked out, 2 more cards were named wrongly without
    that floor, 3 more read)."""

    rank: np.ndarray
    down: np.ndarray
    right: np.ndarray
    ten: bool
    no_ten: bool = False
    picked: bool = False
    to_pip: float = 0.0     # rad: the turn from "down" to the way from the rank to its pip


def _axis(points: np.ndarray) -> tuple[np.ndarray, float]:
    """A glyph's long axis (unit) and how much longer than wide it is (root of the ratio of
    its second moments)."""
    centred = points - points.mean(axis=0)
    cov = centred.T @ centred / max(len(points), 1)
    values, vectors = np.linalg.eigh(cov)
    return vectors[:, 1].astype(np.float32), float(math.sqrt(values[1] / max(values[0], 1e-6)))


def _pairs(glyphs: list[_Glyph]) -> list[_Index]:
    """Every rank-over-pip stacking of the glyphs, both ways up (the reader tells which is
    the rank), the biggest rank first (the specks of a busy ground are small; on the rendered
    busy scenes this puts more of the true indices among the MAX_PAIRS read than any count
    of neighbours did). Each glyph is taken as a rank over its PIPS nearest glyphs of like
    size a glyph or so away (for a tall glyph, the nearest along its long axis each way: the
    next card's index beside it in a fan took both places before); "down" is the rank's long
    axis (ranks are taller than wide), turned towards the pip, or the way to the pip for a
    round glyph."""
    if len(glyphs) < 2:
        return []
    centres = np.stack([g.centre for g in glyphs])
    sizes = np.array([g.size for g in glyphs], np.float32)
    shapes = [_axis(g.points) for g in glyphs]
    part_of = np.array([g.part_of for g in glyphs])
    out: list[_Index] = []
    for i, top in enumerate(glyphs):
        gap = np.linalg.norm(centres - top.centre, axis=1)
        ratio = sizes / top.size
        # a glyph and a part picked out of it are one mark, taken either way, never two
        kin = (part_of == i) | (np.arange(len(glyphs)) == top.part_of)
        near = np.nonzero((gap >= STACK[0] * top.size) & (gap <= STACK[1] * top.size)
                          & (ratio <= SIZE_RATIO) & (ratio >= 1 / SIZE_RATIO) & ~kin)[0]
        axis, long_ = shapes[i]
        near = near[np.argsort(gap[near])]
        if long_ >= ELONGATED:   # a glyph beside a tall one is no pip of it (see ALONG)
            along = (centres[near] - top.centre) @ axis / gap[near]
            near = np.concatenate([near[along >= ALONG][:PIPS // 2],
                                   near[along <= -ALONG][:PIPS // 2]])
        else:
            near = near[:PIPS]
        beside = np.nonzero((gap < 1.3 * top.size) & ~kin)[0]
        ways: list[np.ndarray] = []
        for j in near:
            way = (centres[j] - top.centre) / gap[j]
            down = way
            if long_ >= ELONGATED:
                down = axis if float(axis @ way) > 0 else -axis
            if any(float(down @ w) > 0.999 for w in ways):
                continue   # two pips along a tall rank's axis give it one "down"
            ways.append(down)
            right = np.array([down[1], -down[0]], np.float32)
            to_pip = math.atan2(float(down[0] * way[1] - down[1] * way[0]), float(down @ way))
            # a "10": another glyph beside this one, at its height, one of them a thin "1" (a
            # "0" alone is a "Q"). A glyph names no ten alone if shaped as neither a "10" run
            # together nor a "1", or with a glyph beside it besides its "10"'s other (_Index).
            rel = centres[beside] - top.centre
            side = [(k, abs(float(r @ right))) for k, r in zip(beside, rel, strict=True)
                    if k not in (i, j) and abs(float(r @ down)) < SIDE_BY_SIDE * top.size
                    and abs(float(r @ right)) < 1.2 * top.size
                    and 0.6 < sizes[k] / top.size < 1.6]
            other = next((k for k, off in side if off > 0.3 * top.size
                          and max(long_, shapes[k][1]) >= ONE), None)
            no_ten = not (long_ <= LONE_TEN or long_ >= ONE) or len(side) > (other is not None)
            picked = bool(part_of[i] >= 0 or part_of[j] >= 0)
            if other is not None:
                out.append(_Index(np.concatenate([top.points, glyphs[other].points]),
                                  down.astype(np.float32), right, True,
                                  picked=picked or bool(part_of[other] >= 0)))
            # and the glyph alone (a king beside the next card's nine in a fan)
            out.append(_Index(top.points, down.astype(np.float32), right, False, no_ten, picked,
                              to_pip))
    out.sort(key=lambda p: -_rank_height(p))
    return out


def _corner(index: _Index, px_per_mm: float) -> np.ndarray:
    """Where the card's corner lies, for a card of `px_per_mm`."""
    along = index.rank @ index.right
    across = index.rank @ index.down
    left = float(along.min())
    top = float(across.min())
    return (left - RANK_LEFT_MM * px_per_mm) * index.right \
        + (top - RANK_TOP_MM * px_per_mm) * index.down


def _own_scale(rank_px: float) -> float:
    """The px per mm of a card whose index's rank is `rank_px` tall (RANK_MM)."""
    return rank_px / RANK_MM


def _rank_height(index: _Index) -> float:
    """The rank's height along "down", px."""
    across = index.rank @ index.down
    return float(across.max() - across.min()) + 1.0


def _window(frame: np.ndarray, corner: np.ndarray, index: _Index, px_per_mm: float
            ) -> np.ndarray:
    """The reader's corner window (WINDOW_W x WINDOW_H, upright) of a card whose corner is
    at `corner` and whose down is the index's, at `px_per_mm`."""
    step = px_per_mm / WINDOW_MM   # frame px per window px
    m = np.array([[index.right[0] * step, index.down[0] * step, corner[0]],
                  [index.right[1] * step, index.down[1] * step, corner[1]]], np.float32)
    return cv2.warpAffine(frame, m, (WINDOW_W, WINDOW_H),
                          flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP
                          if step > 1 else cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def _scales(index: _Index, card_px: tuple[float, float] | None) -> list[list[float]]:
    """px per mm to try, each times SIZES: about the frame's card size when known, and the
    rank's height read as RANK_MM (a card nearer the camera or farther than the others, or
    ink that is no index, reads otherwise at its own size than at theirs)."""
    own = _own_scale(_rank_height(index))
    bases = [own] if card_px is None else [card_px[1] / CARD_MM[1], own]
    return [[base * size for size in SIZES] for base in bases]


def _far_from_frame(scales: list[float]) -> bool:
    """Whether a pair's two kinds of size (see `_scales`) are more than FAR apart."""
    if len(scales) <= len(SIZES):
        return False
    return not 1 / FAR <= scales[0] / scales[len(SIZES)] <= FAR


def read_indices(frame: np.ndarray, read: list[np.ndarray],
                 card_px: tuple[float, float] | None) -> list[IndexCard]:
    """The sure index corners on card paper, those inside `read` (the cards read already)
    last, each laid as a card (see the module's docstring)."""
    lit = _lit(frame)
    glyphs, _ = _glyphs(lit)
    every = _pairs(glyphs)
    inside = [_within(pair, read) for pair in every]
    pairs = [p for p, i in zip(every, inside, strict=True) if not i][:MAX_PAIRS]
    outside = len(pairs)
    pairs += [p for p, i in zip(every, inside, strict=True) if i][:MAX_INSIDE]
    bright = len(pairs)
    dim_glyphs, dim_paper = _glyphs(lit, DIM_PAPER, DIM_SATURATION)
    pairs += _new_pairs(_pairs(dim_glyphs), every, read)
    if not pairs:
        return []
    reader = corner_reader()
    scales = [[s for kind in _scales(pair, card_px) for s in kind] for pair in pairs]
    # Each kind's likeliest size first, for every pair; the other sizes only for those that
    # name a card there (most pairs are pips of a middle, or ink of the ground: "no index").
    heads = range(0, len(scales[0]), len(SIZES))
    first = iter(_read(reader, frame, [(pair, s[k]) for pair, s in zip(pairs, scales, strict=True)
                                       for k in heads]))
    firsts = [{k: next(first) for k in heads} for _ in pairs]
    turned = _turn_where_tilted(reader, frame, pairs, scales, firsts, list(heads))
    # (not those too small at every size to name one: MIN_PX_MM)
    again = [i for i, r in enumerate(firsts) if any(x.names_card for x in r.values())
             and max(scales[i]) >= MIN_PX_MM]
    rest = iter(_read(reader, frame, [(pairs[i], s) for i in again
                                      for k, s in enumerate(scales[i]) if k not in heads]))
    floors = [max(reader.abstain_below,
                  SURE_INSIDE if min(outside, CROWD) <= i < bright else 0.0,
                  SURE_DIM if i >= bright else 0.0,
                  SURE_TURNED if i in turned else 0.0,
                  SURE_INSIDE if pairs[i].picked else 0.0) for i in range(len(pairs))]
    found: list[IndexCard] = []
    named_alone: set[int] = set()
    for i in again:
        readings = [firsts[i][k] if k in heads else next(rest) for k in range(len(scales[i]))]
        big = [s >= MIN_PX_MM for s in scales[i]]
        named = [r.ranked_cards(1)[0][0] if r.names_card and b else None
                 for r, b in zip(readings, big, strict=True)]
        floor = floors[i]
        # inside a card read, named at the frame's cards' size too: a card over another is
        # as near the camera, so what its own size alone names is a mark of that card's face
        in_read = outside <= i < bright
        # judged at every size, and where the kinds are far apart, at its own alone too
        for own_only in (False, True) if _far_from_frame(scales[i]) and not in_read \
                else (False,):
            best = max(range(len(SIZES) if own_only else 0, len(readings)),
                       key=lambda k: readings[k].confidence if big[k] else -1.0)
            card = named[best]
            if card is not None and readings[best].confidence >= floor and _names(
                    card, readings, named, reader.abstain_below, own_only, in_read):
                break
        else:
            continue
        named_alone.add(i)
        if pairs[i].no_ten and Card.from_index(card).rank == Rank.TEN:
            continue
        # laid at the frame's card size where that size read it surely
        sure = _sure(card, readings, named, reader.abstain_below)
        at_theirs = len(readings) > len(SIZES) and any(sure[:len(SIZES)])
        scale = scales[i][best]
        laid = _laid(pairs[i], Card.from_index(card), readings[best].confidence,
                     _corner(pairs[i], scale), scale, card_px if at_theirs else None)
        if _on_paper(dim_paper, laid.corners) >= ON_PAPER:
            # else laid off the card: over the ground, not other cards
            found.append(_fitted(frame, laid))
    # two indices naming no card alone, read together
    unsure = {i: floors[i] for i, r in enumerate(firsts) if i not in named_alone and i < bright
              and any(x.names_card or _hints(x) for x in r.values())}
    found += [f for f in _read_as_two(reader, frame, pairs, unsure)
              if _on_paper(dim_paper, f.corners) >= ON_PAPER]
    return _one_per_index(found, card_px)


def _read_as_two(reader: CornerReader, frame: np.ndarray, pairs: list[_Index],
                 floors: dict[int, float]) -> list[IndexCard]:
    """Cards named by two indices read together as one card's two corners (as an outline's
    two corners are read: `corners.combine`), where each alone was too unsure: two of
    `pairs` (those in `floors`, whose first readings named a card or hinted at one) half a
    turn apart, a card's diagonal from each other (`_opposite`), read at the size that card
    has, times SIZES. They name a card as one index does (`_names`), judged at the higher
    of their `floors` (the reader's threshold, or SURE_INSIDE, SURE_TURNED). Each card
    comes as both its indices, laid as the card they span (the same corners, clockwise from
    each), so that `_one_per_index` joins them back. An index that names a card alone is
    left out: pooled with another card's unsure index lying in the place of its other, the
    surer index outweighs it, and the card it names would take that index from its card."""
    unsure = list(floors)
    height = {i: _rank_height(pairs[i]) for i in unsure}
    own = {i: _own_scale(height[i]) for i in unsure}
    laid = {i: _card_corners(_corner(pairs[i], own[i]), pairs[i].right, pairs[i].down,
                             CARD_MM[0] * own[i], CARD_MM[1] * own[i]) for i in unsure}
    couples = []
    for a, i in enumerate(unsure):
        for j in unsure[a + 1:]:
            if _opposite(laid[i], laid[j], max(height[i], height[j])):
                corners = _spanned(laid[i], laid[j])
                if corners is not None:
                    couples.append((i, j, corners))
    # (not those too small at every size to name one: MIN_PX_MM)
    scales = [float(np.linalg.norm(c[3] - c[0])) / CARD_MM[1] for _, _, c in couples]
    kept = [k for k, s in enumerate(scales) if s * max(SIZES) >= MIN_PX_MM][:MAX_COUPLES]
    couples, scales = [couples[k] for k in kept], [scales[k] for k in kept]
    if not couples:
        return []
    log_p = _log_p(reader, frame, [(pairs[k], scale * size) for (i, j, _), scale
                                   in zip(couples, scales, strict=True) for k in (i, j)
                                   for size in SIZES]).reshape(len(couples), 2, len(SIZES), -1)
    out = []
    for (i, j, corners), both, scale in zip(couples, log_p, scales, strict=True):
        readings = [combine(both[:, k], reader.independence, reader.hidden)
                    for k in range(len(SIZES))]
        big = [scale * size >= MIN_PX_MM for size in SIZES]
        named = [r.ranked_cards(1)[0][0] if r.names_card and b else None
                 for r, b in zip(readings, big, strict=True)]
        best = max(range(len(SIZES)), key=lambda k: readings[k].confidence if big[k] else -1.0)
        card, confidence = named[best], readings[best].confidence
        floor = max(floors[i], floors[j])
        if card is None or confidence < floor or not _names(
                card, readings, named, reader.abstain_below, own_only=False):
            continue
        if (pairs[i].no_ten or pairs[j].no_ten) and Card.from_index(card).rank == Rank.TEN:
            continue
        for k, turn in ((i, 0), (j, 2)):
            out.append(IndexCard(Card.from_index(card), confidence, np.roll(corners, -turn, 0),
                                 pairs[k].rank.mean(axis=0), height[k], pairs[k].ten))
    return out


def far_sides(frame: np.ndarray, corners: np.ndarray) -> float:
    """How far the two sides of a card laid from an index that do not meet at the index's
    corner (`corners` from that corner, as IndexCard's) stand out as a card's edges, 0-1
    (`looks.sides_shown`)."""
    return sum(sides_shown(frame, corners)[1:3]) / 2


def _fitted(frame: np.ndarray, card: IndexCard) -> IndexCard:
    """The card laid from one index (`_squared` first) at the size whose two far sides (those
    not meeting at the index's corner) stand out most as a card's edges (`looks.sides_shown`),
    when clearly more than at the size laid at (FIT_GAIN). The sizes tried run from the size
    laid at to its index's own, and FIT beyond either: a card nearer the camera than the
    others, laid at their size, was too small to hold its other index, and its index's own
    size is off for a deck that prints its ranks smaller or bigger than RANK_MM."""
    card = _squared(frame, card)
    width, length = side_lengths(card.corners)[:2]
    own = _own_scale(card.rank_px) * CARD_MM[1]
    low, high = min(length, own) / FIT, max(length, own) * FIT
    ladder = (low * FIT_STEP ** k for k in range(math.floor(math.log(high / low, FIT_STEP)) + 1))
    lengths = [length] + [s for s in ladder if not 1 / FIT_NEAR < s / length < FIT_NEAR]
    shown = [far_sides(frame, _resized(card, width * s / length, s).corners) for s in lengths]
    best = max(range(len(lengths)), key=lambda k: shown[k])
    if shown[best] < shown[0] + FIT_GAIN:
        return card
    return _resized(card, width * lengths[best] / length, lengths[best])


def _squared(frame: np.ndarray, card: IndexCard) -> IndexCard:
    """The card laid from one index, turned about the index by the one of FIT_TURNS (then half
    a step either side) at which its two sides meeting at the index's corner stand out most as
    a card's edges (`looks.sides_shown`), when FIT_GAIN more than as laid."""
    angles = [0.0, *FIT_TURNS]
    shown = [_sides_turned(frame, card, angle) for angle in angles]
    best = max(range(len(angles)), key=lambda k: shown[k])
    if shown[best] < shown[0] + FIT_GAIN:
        return card
    # and half a step either side of the best
    step = (FIT_TURNS[1] - FIT_TURNS[0]) / 2
    near = [angles[best], angles[best] - step, angles[best] + step]
    shown = [shown[best]] + [_sides_turned(frame, card, angle) for angle in near[1:]]
    angle = near[max(range(3), key=lambda k: shown[k])]
    return replace(card, corners=_turned_about(card.corners, card.index, angle))


def _sides_turned(frame: np.ndarray, card: IndexCard, angle: float) -> float:
    """How far the two sides meeting at the index's corner of a card laid from an index,
    turned about the index by `angle`, stand out as a card's edges, 0-1 (those sides lie
    along the card's edges whatever its size)."""
    shown = sides_shown(frame, _turned_about(card.corners, card.index, angle))
    return (shown[0] + shown[3]) / 2


def _turned_about(corners: np.ndarray, centre: np.ndarray, angle: float) -> np.ndarray:
    """`corners` turned about `centre` by `angle` (rad)."""
    return ((corners - centre) @ _rotation(angle).T + centre).astype(np.float32)


def _sure(card: int, readings: list[CornerReading], named: list[int | None],
          threshold: float) -> list[bool]:
    """For each size, whether its reading names `card` at `threshold` or more."""
    return [n == card and r.confidence >= threshold
            for r, n in zip(readings, named, strict=True)]


def _names(card: int, readings: list[CornerReading], named: list[int | None],
           threshold: float, own_only: bool, both_kinds: bool = False) -> bool:
    """Whether an index's readings at its sizes (SIZES of each kind, see `_scales`), each
    naming `named`, name `card`: one size is not enough, another must be as sure of it
    (`threshold`), and none may name another card; and the index read at its own size and at
    the frame's cards' size must name it surely (or every size of its own kind, unless
    `both_kinds`). With `own_only`, the frame's cards' size is left out."""
    sure = _sure(card, readings, named, threshold)
    kinds = [range(k, k + len(SIZES)) for k in range(0, len(named), len(SIZES))]
    judged = kinds[-1:] if own_only else kinds
    voters = [k for kind in judged for k in kind]
    return all(named[k] in (None, card) for k in voters) and (
        (sum(sure[k] for k in voters) >= AGREE and all(any(sure[k] for k in kind)
                                                      for kind in judged))
        or (not both_kinds and all(sure[k] for k in kinds[-1])))


def _turn_where_tilted(reader: CornerReader, frame: np.ndarray, pairs: list[_Index],
                       scales: list[list[float]], firsts: list[dict[int, CornerReading]],
                       heads: list[int]) -> set[int]:
    """Pairs whose first readings hint at an index but name no card, read again turned by
    each of `_turns` (their "down" may be off: see the module's docstring). The surest turn
    that names a card replaces the pair and its first readings, in place; returns the
    pairs turned."""
    unsure = [i for i, r in enumerate(firsts)
              if not any(x.names_card for x in r.values()) and any(map(_hints, r.values()))]
    tries = [(i, _tilted(pairs[i], angle)) for i in unsure for angle in _turns(pairs[i])]
    readings = iter(_read(reader, frame, [(pair, scales[i][k]) for i, pair in tries
                                          for k in heads]))
    surest = dict.fromkeys(unsure, 0.0)
    for i, pair in tries:
        turned = {k: next(readings) for k in heads}
        sure = max((x.confidence for x in turned.values() if x.names_card), default=0.0)
        if sure > surest[i]:
            surest[i], pairs[i], firsts[i] = sure, pair, turned
    return {i for i, sure in surest.items() if sure > 0}


def _turns(pair: _Index) -> tuple[float, ...]:
    """TURNS, and the turn towards the pip where the rank's axis is PIP_TURN or more off the
    way to it (a jack's hook tilts its axis, while its pip lies under it)."""
    if abs(pair.to_pip) < PIP_TURN or any(abs(pair.to_pip - t) < PIP_TURN for t in TURNS):
        return TURNS
    return (*TURNS, pair.to_pip)


def _hints(reading: CornerReading) -> bool:
    """Whether a reading that names no card still finds a rank and a suit HINT likely."""
    return float(reading.rank[OTHER_RANK]) <= 1 - HINT and float(reading.suit[NO_SUIT]) <= 1 - HINT


def _rotation(angle: float) -> np.ndarray:
    """The 2x2 matrix turning a vector by `angle` (rad)."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s], [s, c]], np.float32)


def _tilted(pair: _Index, angle: float) -> _Index:
    """The pair with its "down" and "right" turned by `angle` (rad)."""
    turn = _rotation(angle)
    return replace(pair, down=turn @ pair.down, right=turn @ pair.right)


def _new_pairs(dim: list[_Index], every: list[_Index], read: list[np.ndarray]
               ) -> list[_Index]:
    """The first MAX_DIM pairs found on the dim paper that are not among those found on the
    bright (`every`: one rank, within SAME_PAIR px, the same way up) and lie in no card read."""
    middles = np.array([p.rank.mean(axis=0) for p in every], np.float32).reshape(-1, 2)
    downs = np.array([p.down for p in every], np.float32).reshape(-1, 2)
    out: list[_Index] = []
    for pair in dim:
        if len(out) == MAX_DIM:
            break
        near = np.linalg.norm(middles - pair.rank.mean(axis=0), axis=1) < SAME_PAIR
        if not (near & (downs @ pair.down > 0.9)).any() and not _within(pair, read):
            out.append(pair)
    return out


def _within(pair: _Index, quads: list[np.ndarray]) -> bool:
    """Whether a pair's rank lies inside one of `quads` (the cards read already)."""
    middle = pair.rank.mean(axis=0)
    return any(holds(q, middle) for q in quads)


def _on_paper(paper: np.ndarray, corners: np.ndarray) -> float:
    """The share of a card laid at `corners` (the part in the frame) that is card paper:
    its own, or that of the cards over it."""
    inside = np.zeros_like(paper)
    cv2.fillConvexPoly(inside, np.round(corners).astype(np.int32), 1)
    area = cv2.countNonZero(inside)
    return cv2.countNonZero(inside & paper) / area if area else 0.0


def _read(reader: CornerReader, frame: np.ndarray, plans: list[tuple[_Index, float]]
          ) -> list[CornerReading]:
    """Each index's corner window at its px per mm, read as one corner (the other covered),
    at the reader's zooms."""
    return [combine(row[None], reader.independence, reader.hidden)
            for row in _log_p(reader, frame, plans)]


def _log_p(reader: CornerReader, frame: np.ndarray, plans: list[tuple[_Index, float]]
           ) -> np.ndarray:
    """Each index's corner window at its px per mm: the reader's log-probabilities of each
    head, averaged over its zooms (len(plans) x heads)."""
    if not plans:
        return np.zeros((0, 0), np.float32)
    windows = [_window(frame, _corner(pair, scale), pair, scale / zoom)
               for pair, scale in plans for zoom in reader.zooms]
    log_p = heads_log_p(reader.logits(np.stack(windows)))
    return np.asarray(log_p.reshape(len(plans), len(reader.zooms), -1).mean(axis=1))


def _laid(pair: _Index, card: Card, confidence: float, corner: np.ndarray, scale: float,
          card_px: tuple[float, float] | None) -> IndexCard:
    """The card laid from its index's corner: of the frame's card size, else of `scale`."""
    width, length = card_px if card_px is not None \
        else (CARD_MM[0] * scale, CARD_MM[1] * scale)
    return IndexCard(card, confidence, _card_corners(corner, pair.right, pair.down, width, length),
                     pair.rank.mean(axis=0), _rank_height(pair), pair.ten)


def _card_corners(corner: np.ndarray, right: np.ndarray, down: np.ndarray, width: float,
                  length: float) -> np.ndarray:
    """A card's corners, clockwise from `corner`, its sides along unit `right` and `down`."""
    return np.array([corner, corner + width * right, corner + width * right + length * down,
                     corner + length * down], np.float32)


def _one_per_index(found: list[IndexCard], card_px: tuple[float, float] | None
                   ) -> list[IndexCard]:
    """One reading per index (the surest; two pairs may share a rank; one at the other index
    of a card laid from a surer one, naming another card, only at SURE_INSIDE), a card's two
    indices (half a turn apart, a diagonal away) as one card laid from both, and, when the
    frame gave no card size, the cards laid from one index at the size of those laid from
    two."""
    found = sorted(found, key=lambda f: -f.confidence)
    found = [f for f in found if not any(_upside_down(f, g) or _wrongly_joined(f, g)
                                         for g in found)]
    kept: list[IndexCard] = []
    for f in found:
        if not any(np.linalg.norm(f.index - k.index) < SAME_INDEX * k.rank_px for k in kept) \
                and (f.confidence >= SURE_INSIDE or not any(
                    k.card != f.card and _paired(k, f) for k in kept)):
            kept.append(f)
    out: list[tuple[IndexCard, bool]] = []
    used = [False] * len(kept)
    for i, f in enumerate(kept):
        if used[i]:
            continue
        both = False
        for j in range(i + 1, len(kept)):
            if not used[j] and kept[j].card == f.card and _paired(f, kept[j]):
                f, both = _from_two(f, kept[j]), True
                used[j] = True
                break
        out.append((f, both))
    sizes = [side_lengths(f.corners)[:2] for f, both in out if both]
    if card_px is None and sizes:
        width, length = float(np.median([w for w, _ in sizes])), float(np.median(
            [h for _, h in sizes]))
        return [f if both else _resized(f, width, length) for f, both in out]
    return [f for f, _ in out]


def _turned(f: IndexCard, g: IndexCard) -> float:
    """The cosine of the turn between two cards' "down" (-1: half a turn apart)."""
    return _turn(f.corners, g.corners)


def _turn(f: np.ndarray, g: np.ndarray) -> float:
    """The cosine of the turn between the "down" of two cards laid at corners `f` and `g`."""
    down_f, down_g = f[3] - f[0], g[3] - g[0]
    return float(down_f @ down_g) / max(float(np.linalg.norm(down_f) * np.linalg.norm(down_g)),
                                        1e-6)


def _upside_down(f: IndexCard, g: IndexCard) -> bool:
    """Whether f and g are the same ink read both ways up (a rank over its pip, and that pip
    over the rank turned round): then neither reading is sure."""
    return _turned(f, g) < -0.5 and float(np.linalg.norm(f.index - g.index)) < STACK[1] * max(
        f.rank_px, g.rank_px)


def _wrongly_joined(f: IndexCard, g: IndexCard) -> bool:
    """Whether f is wrong beside g, read from the same ink, one rank two glyphs taken as a
    "10" and the other one of them: f is the "10" and names no ten (a king's index beside
    the next card's nine in a fan, named the king and laid from the wrong place, while the
    nine alone names the nine), or f is the one glyph and names the same ten as g."""
    if f.ten == g.ten or float(np.linalg.norm(f.index - g.index)) >= max(f.rank_px, g.rank_px):
        return False
    return f.card.rank != Rank.TEN if f.ten else f.card == g.card and f.card.rank == Rank.TEN


def _resized(f: IndexCard, width: float, length: float) -> IndexCard:
    """The card laid from its index corner at another size."""
    corner = f.corners[0]
    right = (f.corners[1] - corner) / max(float(np.linalg.norm(f.corners[1] - corner)), 1e-6)
    down = (f.corners[3] - corner) / max(float(np.linalg.norm(f.corners[3] - corner)), 1e-6)
    return replace(f, corners=_card_corners(corner, right, down, width, length))


def _paired(f: IndexCard, g: IndexCard) -> bool:
    """Whether g is f's other index (`_opposite`)."""
    return _opposite(f.corners, g.corners, max(f.rank_px, g.rank_px))


def _opposite(f: np.ndarray, g: np.ndarray, rank_px: float) -> bool:
    """Whether cards laid at corners `f` and `g` from indices whose rank is `rank_px` tall
    are one card's two index corners: half a turn apart, g's corner about a card's diagonal
    from f's along f's diagonal (within DIAGONAL_TURN)."""
    if _turn(f, g) > -math.cos(DIAGONAL_TURN):
        return False
    span = g[0] - f[0]
    diagonal = f[2] - f[0]
    length, reach = float(np.linalg.norm(span)), float(np.linalg.norm(diagonal))
    own = _own_scale(rank_px) * math.hypot(*CARD_MM)
    cosine = float(span @ diagonal) / max(length * reach, 1e-6)
    return 0.6 * min(reach, own) < length < 1.5 * max(reach, own) \
        and cosine > math.cos(DIAGONAL_TURN)


def _from_two(f: IndexCard, g: IndexCard) -> IndexCard:
    """One card from its two index corners (`_spanned`), else f as it is."""
    corners = _spanned(f.corners, g.corners)
    if corners is None:
        return f
    return replace(f, confidence=max(f.confidence, g.confidence), corners=corners)


def _spanned(f: np.ndarray, g: np.ndarray) -> np.ndarray | None:
    """The card whose two index corners are those of cards laid at `f` and `g`: f's corner
    and g's as opposite corners, its sides along f's and g's directions (averaged); None
    when that is no card's shape."""
    right = (f[1] - f[0]) - (g[1] - g[0])
    right = right / max(float(np.linalg.norm(right)), 1e-6)
    down = np.array([-right[1], right[0]], np.float32)
    span = g[0] - f[0]
    width, length = float(span @ right), float(span @ down)
    if width <= 0 or length <= 0 or abs(width / length - CARD_ASPECT) > 0.12:
        return None
    return np.array([f[0], f[0] + width * right, g[0], f[0] + length * down], np.float32)


def own_area(card: IndexCard) -> float:
    """The area (px) of the card its index's height says."""
    return _own_scale(card.rank_px) ** 2 * CARD_MM[0] * CARD_MM[1]


def card_size(quads: list[np.ndarray]) -> tuple[float, float] | None:
    """The (short, long) sides of the cards read in the frame (their medians), or None."""
    if not quads:
        return None
    sides = [sorted(side_lengths(q)) for q in quads]
    short = float(np.median([(s[0] + s[1]) / 2 for s in sides]))
    long_ = float(np.median([(s[2] + s[3]) / 2 for s in sides]))
    return (short, long_) if long_ > 0 and abs(short / long_ - CARD_ASPECT) < 0.1 else None


def as_reading(found: IndexCard) -> Reading:
    """The card found by its index as a Reading (its one candidate, with its confidence)."""
    confidence = round(found.confidence, 4)
    return Reading(found.card, confidence, ((found.card, confidence),))
