"""Cards found by their printed index (vision.by_index, in find_cards): a card under others
that shows only an index is found and read, pips and pictures of a face's middle and the cloth
name no card, and a card read by its outline is not found twice. Faces are kdegames' standard
deck (a training design of the corner reader); scenes are rendered (vision.busy)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from table.rules import Card, Rank
from vision import by_index
from vision.busy import (
    OVERLAP,
    TRAINING_DECKS,
    Laid,
    _hand,
    borderless,
    busy_scene,
    index_centres,
    jumbo_index,
    training_decks,
)
from vision.by_index import read_indices
from vision.corners import RANKS, SUITS, CornerReading, corner_reader
from vision.detect import Detection, _agrees, _with_index_cards, find_cards
from vision.faces import load_deck
from vision.middle import middle_check
from vision.quads import depth_inside, holds, side_lengths
from vision.reading import Reading

Faces = dict[Card, np.ndarray]
CLOTH = (40, 110, 40)   # BGR, a green baize


@pytest.fixture(scope="module")
def faces() -> Faces:
    return {card: borderless(face) for card, face in load_deck("svg-standard").items()}


def _card(centre: tuple[float, float], length: float, angle: float) -> np.ndarray:
    """A card's corners (clockwise from its top-left, as a face is pasted) at `angle`."""
    width = length * 63 / 88
    c, s = np.cos(angle), np.sin(angle)
    right, down = np.array([c, s]), np.array([-s, c])
    half = [(-width / 2, -length / 2), (width / 2, -length / 2), (width / 2, length / 2),
            (-width / 2, length / 2)]
    return np.array([np.array(centre) + x * right + y * down for x, y in half], np.float32)


def _render(faces: Faces, laid: list[Laid], size: tuple[int, int] = (720, 720),
            ground: np.ndarray | None = None) -> np.ndarray:
    """The cards (the top one first) on a plain cloth (or `ground`), lightly blurred."""
    frame = np.zeros((size[1], size[0], 3), np.uint8)
    frame[:] = CLOTH if ground is None else ground
    for item in reversed(laid):
        face = faces[item.card]
        h, w = face.shape[:2]
        src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        m = cv2.getPerspectiveTransform(src, item.corners)
        warped = cv2.warpPerspective(face[:, :, :3], m, size, flags=cv2.INTER_AREA)
        alpha = cv2.warpPerspective(face[:, :, 3], m, size).astype(np.float32)[:, :, None] / 255
        frame[:] = (frame * (1 - alpha) + warped * alpha).astype(np.uint8)
    return cv2.GaussianBlur(frame, (0, 0), 0.7)


def _sure(card: Card) -> Reading:
    """A sure reading of `card` (as of an outline read)."""
    return Reading(card, 0.99, ((card, 0.99),))


def _near(quad: np.ndarray, truth: np.ndarray, share: float) -> bool:
    """Every corner of `quad` within `share` of the card's short side of one of `truth`'s."""
    short = float(np.linalg.norm(truth[1] - truth[0]))
    return all(min(float(np.linalg.norm(p - t)) for t in truth) < share * short for p in quad)


def _covered_meld(faces: Faces) -> tuple[np.ndarray, list[Laid]]:
    """A meld row of three spades fanned, each showing only a strip along its left side with
    its index, the nine of diamonds laid across the row's lower half (the top card first)."""
    length, turn = 230.0, 0.2
    right = np.array([np.cos(turn), np.sin(turn)])
    down = np.array([-np.sin(turn), np.cos(turn)])
    first = np.array([260.0, 300.0])
    width = length * 63 / 88
    row = [Laid(Card.parse(name), _card(tuple(first + k * 0.3 * width * right), length, turn))
           for k, name in enumerate(("QS", "KS", "JD"))]
    nine = Laid(Card.parse("9D"), _card(tuple(first + 0.45 * width * right + 0.62 * length * down),
                                        length, turn + 1.45))
    laid = [nine, *row[::-1]]
    return _render(faces, laid), laid


def test_a_card_showing_only_its_index_is_found_and_read(faces: Faces) -> None:
    """The queen at the bottom of a fanned meld shows a strip with its index and no corner
    the outline finder can lay it from: found by its index, at the size of the cards read
    in the frame, and no card is named twice or wrongly."""
    frame, laid = _covered_meld(faces)
    shown = index_centres(laid)
    queen = laid[-1]
    assert len(shown[-1]) == 1, "the scene should show only one index of the queen"
    found = find_cards(frame)
    named = [d for d in found if d.reading.card == queen.card]
    assert len(named) == 1
    assert holds(named[0].corners, shown[-1][0])
    assert _near(named[0].corners, queen.corners, 0.2)
    cards = [d.reading.card for d in found if d.reading.card is not None]
    assert len(cards) == len(set(cards))
    assert set(cards) <= {item.card for item in laid}
    assert laid[0].card in cards


def test_index_cards_on_overlapping_scenes_name_no_wrong_card(faces: Faces) -> None:
    """Busy grounds, two or three cards each over a corner of another: the index pass finds
    cards that show an index, and every card it names is one whose index it holds."""
    rng = np.random.default_rng(11)
    named = right = 0
    for _ in range(8):
        frame, laid = busy_scene(faces, rng, layout=OVERLAP)
        shown = index_centres(laid)
        for card in read_indices(frame, [], None):
            named += 1
            holder = [item for item, c in zip(laid, shown, strict=True)
                      if any(np.linalg.norm(np.array(p) - card.index) < 0.12
                             * np.linalg.norm(item.corners[3] - item.corners[0]) for p in c)]
            assert holder and holder[0].card == card.card, \
                f"named {card.card} at {card.index}, laid {[str(i.card) for i in laid]}"
            right += 1
    assert named >= 6


def test_middles_and_cloth_name_no_card(faces: Faces) -> None:
    """The middles of faces (rows of pips, court pictures) with no index, cut as cards, on a
    cloth and on a busy ground: no index is read, no card named."""
    rng = np.random.default_rng(5)
    frame: np.ndarray = np.zeros((720, 720, 3), np.uint8)
    frame[:] = CLOTH
    cards = [Card.parse(c) for c in ("9S", "10H", "10C", "KD", "QS", "9D", "JH", "AC")]
    for k, card in enumerate(cards):
        face = faces[card]
        h, w = face.shape[:2]
        middle = np.ascontiguousarray(face[int(0.24 * h):int(0.76 * h),
                                           int(0.22 * w):int(0.78 * w)])
        quad = _card((110 + 170 * (k % 4), 190 + 340 * (k // 4)), 220, float(rng.uniform(-1, 1)))
        mh, mw = middle.shape[:2]
        m = cv2.getPerspectiveTransform(
            np.array([[0, 0], [mw - 1, 0], [mw - 1, mh - 1], [0, mh - 1]], np.float32), quad)
        warped = cv2.warpPerspective(middle[:, :, :3], m, (720, 720), flags=cv2.INTER_AREA)
        cover = cv2.warpPerspective(np.full((mh, mw), 255, np.uint8), m, (720, 720)) > 128
        frame[cover] = warped[cover]
    frame = cv2.GaussianBlur(frame, (0, 0), 0.7)
    assert read_indices(frame, [], None) == []
    assert all(d.reading.card is None for d in find_cards(frame))
    empty, _ = busy_scene(faces, rng, cards=False)
    assert read_indices(empty, [], None) == []


def test_a_card_read_by_its_outline_is_not_found_again(faces: Faces) -> None:
    item = Laid(Card.parse("KH"), _card((360, 360), 260, 0.4))
    frame = _render(faces, [item])
    found = find_cards(frame)
    assert [d.reading.card for d in found] == [item.card]
    assert _near(found[0].corners, item.corners, 0.1)


def test_an_unread_outline_takes_the_reading_of_its_index(faces: Faces) -> None:
    """An outline of the card that read nothing takes the index's reading (its corners kept);
    one inside the card (the printed frame round the pips) gives way to the card."""
    item = Laid(Card.parse("10S"), _card((360, 360), 260, -0.3))
    frame = _render(faces, [item])
    unread = Reading(None, 0.0)
    outline = item.corners.copy()
    out = _with_index_cards(frame, [Detection(outline, unread)])
    assert len(out) == 1 and out[0].reading.card == item.card
    assert np.array_equal(out[0].corners, outline)
    middle = item.corners.mean(axis=0)
    inner = (middle + 0.6 * (item.corners - middle)).astype(np.float32)
    out = _with_index_cards(frame, [Detection(inner, unread)])
    assert [d.reading.card for d in out] == [item.card]
    assert _near(out[0].corners, item.corners, 0.2)


def test_an_outline_running_through_the_index_is_not_its_card(faces: Faces) -> None:
    """An unread outline of the card's size at the index's corner is the card laid from the
    index only if it holds the index well inside: shifted so that its edge runs through the
    index (another edge's outline; it took a rightly read card off its index on the
    photographed deck's busy scenes), it is not."""
    item = Laid(Card.parse("KH"), _card((360, 360), 260, 0.5))
    (index,) = read_indices(_render(faces, [item]), [], None)
    short = min(side_lengths(item.corners))
    assert _agrees(item.corners, index)
    corner = item.corners[np.argmin(np.linalg.norm(item.corners - index.index, axis=1))]
    way = (index.index - corner) / np.linalg.norm(index.index - corner)
    shifted = item.corners.copy()
    while depth_inside(shifted, index.index) > 0.02 * short:
        shifted = shifted + way
    assert holds(shifted, index.index) and not _agrees(shifted, index)


def test_a_jack_is_laid_along_its_edges_not_its_hooked_rank(faces: Faces) -> None:
    """A jack's hook tilts its rank's axis, and the card laid along it, by up to 15 degrees;
    the card laid from its index is turned until its sides meeting at the index lie on the
    card's edges."""
    for angle in (0.5, -0.8):
        item = Laid(Card.parse("JH"), _card((360, 360), 260, angle))
        out = _with_index_cards(_render(faces, [item]), [])
        assert [d.reading.card for d in out] == [item.card]
        assert _near(out[0].corners, item.corners, 0.1), (angle, out)


@pytest.mark.parametrize("name", ["AD", "9S"])
def test_an_unread_outline_smaller_than_its_card_gives_way_to_the_card_its_index_lays(
        faces: Faces, name: str) -> None:
    """A card nearer the camera than the one read, its unread outline laid from its index's
    corner at the other card's size (as vision.overlapping lays one from its corners): the
    outline's far sides lie on the face, the card laid from the index (fitted to its edges)
    has them on the card's edges, so that card stands in for the outline. Before, the outline
    took the index's reading, and the card's other index lay outside it."""
    small = Laid(Card.parse("KC"), _card((150, 170), 180, 0.2))
    card = Card.parse(name)
    big = Laid(card, _card((460, 380), 300, 0.4))
    frame = _render(faces, [small, big])
    part = (big.corners[0] + 0.85 * (big.corners - big.corners[0])).astype(np.float32)
    out = _with_index_cards(frame, [Detection(small.corners, _sure(small.card)),
                                    Detection(part, Reading(None, 0.0))])
    named = [d for d in out if d.reading.card == card]
    assert len(named) == 1 and _near(named[0].corners, big.corners, 0.1), out


@pytest.mark.parametrize("middle_under", [True, False])
def test_a_card_whose_middle_lies_under_a_card_read_is_not_vetoed_by_it(
        faces: Faces, monkeypatch: pytest.MonkeyPatch, middle_under: bool) -> None:
    """A ten showing its index beside (or under) an ace read by its outline. The middle
    network is made to see a picture there, as it sees the face of a real deck's card lying
    over a middle: only a middle under the ace is known to be covered and left to the pips."""
    check = middle_check()
    monkeypatch.setattr(check, "kinds", lambda cards: np.array([[0.01, 0.98, 0.01]] * len(cards)))
    turn, length = 0.3, 230.0
    right, down = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    ten = Laid(Card.parse("10D"), _card((280, 330), length, turn))
    # the ace a third of a card's width right and down a third of its length, or well aside
    shift = (0.33 * length * 63 / 88 * right + 0.33 * length * down if middle_under
             else 1.1 * length * right)
    ace = Laid(Card.parse("AH"), _card(tuple(np.array([280, 330]) + shift), length, turn))
    assert holds(ace.corners, ten.corners.mean(axis=0)) == middle_under
    frame = _render(faces, [ace, ten], size=(900, 720))
    out = _with_index_cards(frame, [Detection(ace.corners, _sure(ace.card))])
    names = [d.reading.card for d in out]
    assert ace.card in names
    assert (ten.card in names) == middle_under


@pytest.mark.parametrize("seed", range(6))
def test_the_cards_under_a_hands_top_card_are_read_by_their_indices(faces: Faces, seed: int
                                                                     ) -> None:
    """A hand (vision.busy's layout) whose top card, a ten read by its outline, lies over
    the middles of the king and queen under it: its pips there are no veto on them (before,
    counted as theirs, they ruled the king or the queen out in five of these six hands)."""
    top, middle, bottom = _hand(np.random.default_rng(seed), (720, 720), 300.0)
    laid = [Laid(Card.parse("10S"), top), Laid(Card.parse("KD"), middle),
            Laid(Card.parse("QC"), bottom)]
    out = _with_index_cards(_render(faces, laid), [Detection(top, _sure(laid[0].card))])
    assert sorted(str(d.reading.card) for d in out) == ["10S", "KD", "QC"]


@pytest.mark.parametrize("name", ["JD", "JS"])
def test_an_index_whose_rank_gives_down_askew_is_read_turned(
        faces: Faces, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Every rank's axis taken 18 degrees off, as a "J" with a long hook gives it on a real
    deck: the reader names no index read that turned, but the index read turned back does
    (each of the card's two indices, laid as the card: find_cards keeps one)."""
    _axes_askew(monkeypatch, 18)
    item = Laid(Card.parse(name), _card((360, 360), 240, 0.4))
    frame = _render(faces, [item])
    assert {f.card for f in read_indices(frame, [], None)} == {item.card}
    monkeypatch.setattr(by_index, "TURNS", ())
    monkeypatch.setattr(by_index, "PIP_TURN", 10.0)   # and not towards the pip (below)
    assert read_indices(frame, [], None) == []


@pytest.mark.parametrize("name", ["JH", "JC"])
def test_an_index_whose_rank_gives_down_askew_is_read_turned_towards_its_pip(
        faces: Faces, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Every rank's axis taken 14 degrees off (a jack's hook, on a real deck, tilts it so) and
    no fixed turn tried: the turn towards the pip, which lies under the rank, reads it."""
    _axes_askew(monkeypatch, 14)
    monkeypatch.setattr(by_index, "TURNS", ())
    item = Laid(Card.parse(name), _card((360, 360), 240, -0.5))
    frame = _render(faces, [item])
    found = read_indices(frame, [], None)
    assert {f.card for f in found} == {item.card}
    assert all(_near(f.corners, item.corners, 0.1) for f in found)   # laid upright, not askew
    monkeypatch.setattr(by_index, "PIP_TURN", 10.0)
    assert read_indices(frame, [], None) == []


def _axes_askew(monkeypatch: pytest.MonkeyPatch, degrees: float) -> None:
    """Every rank's axis taken `degrees` off, as a jack's hook tilts it on a real deck."""
    axis = by_index._axis

    def askew(points: np.ndarray) -> tuple[np.ndarray, float]:
        way, long_ = axis(points)
        c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
        return np.array([[c, -s], [s, c]], np.float32) @ way, long_

    monkeypatch.setattr(by_index, "_axis", askew)


@pytest.mark.parametrize("ratio", [0.7, 1.45])
def test_a_card_nearer_or_farther_than_the_others_is_read_at_its_own_size(ratio: float) -> None:
    """The frame's cards are `ratio` times this one's size (farther from the camera, or nearer):
    its index is read at its own size as well, and names it, never what it looks like at
    theirs (the Egyptian ace of spades read at 1.45 times named the ten of spades)."""
    faces = {card: borderless(face) for card, face in load_deck("svg-ancient-egyptians").items()}
    for length in (150, 260):
        ace = Laid(Card.parse("AS"), _card((360, 360), length, 0.3))
        frame = _render(faces, [ace])
        found = read_indices(frame, [], (length * ratio * 63 / 88, length * ratio))
        assert [f.card for f in found] == [ace.card]


@pytest.mark.parametrize(("name", "ratio"),
                         [("QH", 0.75), ("9S", 0.8), ("KD", 1.25), ("10S", 1.25)])
def test_a_card_of_another_size_than_the_others_is_laid_at_its_own(
        monkeypatch: pytest.MonkeyPatch, faces: Faces, name: str, ratio: float) -> None:
    """The frame's cards are `ratio` times this one's size, its other index is under another
    card, and its index reads surely at their size: it is laid at the size whose far sides
    stand out as a card's edges, its own (before, at theirs: too small to hold its other
    index, or too big)."""
    length = 280.0 if ratio < 1 else 200.0
    item = Laid(Card.parse(name), _card((330, 330), length, 0.3))
    corners = item.corners
    cover = Laid(Card.parse("AS"), _card(tuple(corners[2] + 0.35 * (corners[2] - corners[0])),
                                         0.75 * length, 0.8))
    frame = _render(faces, [cover, item])
    theirs = (length * ratio * 63 / 88, length * ratio)

    def laid_length() -> float:
        found = [f for f in read_indices(frame, [], theirs) if f.card == item.card]
        assert len(found) == 1
        return max(side_lengths(found[0].corners)) / length

    assert laid_length() == pytest.approx(1.0, abs=0.06)
    monkeypatch.setattr(by_index, "FIT_GAIN", float("inf"))
    assert laid_length() == pytest.approx(ratio, abs=0.02)


@pytest.mark.parametrize(("name", "times"), [("10D", 0.75), ("9H", 0.7), ("KH", 1.35)])
def test_a_lone_card_whose_index_is_smaller_or_bigger_than_most_is_laid_at_its_size(
        monkeypatch: pytest.MonkeyPatch, faces: Faces, name: str, times: float) -> None:
    """A card alone, its other index under a card lying face down, whose indices are printed
    `times` as big as this deck prints them (a deck with small indices, or a jumbo one): the
    size its index's height says (RANK_MM) is off by as much, and no card read gives another;
    it is laid at the size whose far sides stand out as a card's edges (with FIT 1.1, as
    before, at one too small to hold its other index, or too big)."""
    card = Card.parse(name)
    item = Laid(card, _card((330, 330), 260.0, 0.3))
    corners = item.corners
    back = faces[card].copy()
    back[:, :, :3] = (150, 60, 30)
    cover = Laid(Card.parse("AS"), _card(tuple(corners[2] + 0.12 * (corners[2] - corners[0])),
                                         200.0, 0.8))
    frame = _render({card: jumbo_index(faces[card], times), cover.card: back}, [cover, item])
    assert len(index_centres([cover, item])[1]) == 1, "its other index should be covered"

    def laid_length() -> float:
        found = read_indices(frame, [], None)
        assert [f.card for f in found] == [card]
        return max(side_lengths(found[0].corners)) / 260.0

    assert laid_length() == pytest.approx(1.0, abs=0.05)
    monkeypatch.setattr(by_index, "FIT", 1.1)
    assert laid_length() != pytest.approx(1.0, abs=0.05)


@pytest.mark.parametrize(("deck", "name", "ratio"),
                         [("svg-standard", "JC", 0.45), ("svg-ancient-egyptians", "KC", 0.35),
                          ("svg-jolly-royal", "KC", 0.45)])
def test_a_card_far_bigger_than_the_others_is_judged_at_its_own_size_alone(
        monkeypatch: pytest.MonkeyPatch, deck: str, name: str, ratio: float) -> None:
    """The frame's cards are `ratio` times this one's size (below 1 / FAR: a photo's cards
    pasted at any size): its index, read at theirs, is a smudge that leans to some other card
    and so kept it from being named; judged again at its own size alone, it is named (before,
    none of these was), and laid at that size."""
    faces = {card: borderless(face) for card, face in load_deck(deck).items()}
    item = Laid(Card.parse(name), _card((360, 360), 300, 0.5))
    frame = _render(faces, [item])
    frames_cards = (300 * ratio * 63 / 88, 300 * ratio)
    found = read_indices(frame, [], frames_cards)
    assert [f.card for f in found] == [item.card]
    assert _near(found[0].corners, item.corners, 0.45)   # laid at theirs: 0.7 of a side off
    monkeypatch.setattr(by_index, "FAR", 100.0)
    monkeypatch.setattr(by_index, "MAX_COUPLES", 0)   # both indices read together name it too
    assert read_indices(frame, [], frames_cards) == []


@pytest.mark.parametrize(("name", "times", "length"),
                         [("QD", 1.3, 320.0), ("9C", 1.45, 320.0), ("KH", 1.3, 240.0),
                          ("10S", 1.6, 320.0)])
def test_a_jumbo_index_is_read_at_its_own_size(faces: Faces, name: str, times: float,
                                              length: float) -> None:
    """A card of the frame's size whose indices are printed `times` bigger than usual (a
    jumbo-index deck, as the Bicycle of the real photos): its broad pips are taken as ink, its
    indices are read at the size they say, and it is named (before, each of these named
    nothing)."""
    card = Card.parse(name)
    item = Laid(card, _card((360, 360), length, 0.5))
    frame = _render({card: jumbo_index(faces[card], times)}, [item])
    found = read_indices(frame, [], (length * 63 / 88, length))
    assert [f.card for f in found] == [card]


@pytest.mark.parametrize(("name", "times", "bigger"),
                         [("AH", 1.2, 1.5), ("AH", 1.35, 1.8)])
def test_an_unread_outline_of_a_bigger_jumbo_card_takes_its_index(
        faces: Faces, name: str, times: float, bigger: float) -> None:
    """A jumbo-index card `bigger` than the card read in the frame, its outline unread: the
    frame's card size makes it too small and its index's height too big, but its outline lies
    between the two, so the outline takes the index's reading (its corners kept), and no
    second card is laid beside it (before, each was)."""
    small = Laid(Card.parse("AS"), _card((130, 200), 180, 0.2))
    card = Card.parse(name)
    jumbo = Laid(card, _card((430, 420), 180 * bigger, -0.5))
    frame = _render({small.card: faces[small.card], card: jumbo_index(faces[card], times)},
                    [small, jumbo])
    out = _with_index_cards(frame, [Detection(small.corners, _sure(small.card)),
                                    Detection(jumbo.corners.copy(), Reading(None, 0.0))])
    assert [d.reading.card for d in out] == [small.card, card]
    assert np.array_equal(out[1].corners, jumbo.corners)


@pytest.mark.parametrize(("deck", "names", "spread", "turn"),
                         [("svg-jolly-royal", ("QD", "KC", "AD"), 0.24, 0.0),
                          ("svg-ancient-egyptians", ("QD", "KC", "AD"), 0.24, 0.0),
                          ("svg-standard", ("9D", "QS", "KH"), 0.2, 0.12)])
def test_two_indices_side_by_side_in_a_fan_are_not_one_ten(
        deck: str, names: tuple[str, str, str], spread: float, turn: float) -> None:
    """Three cards fanned so that each index stands beside the next card's: a rank beside
    another is also tried as the two glyphs of a "10", and where that names the same card as
    the rank alone, a card that is no ten, the "10" reading (laid from the wrong place) gives
    way. No card is named twice, and every card named is in the fan (before, the king of
    clubs or the nine of diamonds was named twice)."""
    faces = {card: borderless(face) for card, face in load_deck(deck).items()}
    length = 260.0
    width = length * 63 / 88
    laid = [Laid(Card.parse(name), _card((250 + k * spread * width, 360), length, -0.3 + turn * k))
            for k, name in enumerate(names)]
    found = [f.card for f in read_indices(_render(faces, laid[::-1]), [], None)]
    assert len(found) == len(set(found))
    assert set(found) <= {item.card for item in laid}


@pytest.mark.parametrize(("names", "spread", "turn"),
                         [(("9D", "QH", "KC"), 0.16, -0.3),
                          (("9D", "QH", "KC"), 0.16, 0.0),
                          (("9D", "QH", "KC"), 0.16, 0.4),
                          (("AC", "10D", "QS"), 0.12, 0.0),
                          (("AC", "10D", "QS"), 0.12, 0.4)])
def test_a_tight_fans_glyphs_side_by_side_name_no_other_ten(
        faces: Faces, names: tuple[str, str, str], spread: float, turn: float) -> None:
    """A fan so tight that each rank stands beside the next card's: the reader's window
    shows both glyphs and may take them for a "10". So two glyphs are a "10" only if one is
    a thin "1", and one glyph alone names a ten only if it is about as wide as tall (before,
    the nine of diamonds beside the queen of hearts was named the ten of diamonds, and the
    ten of diamonds beside the queen of spades the ten of spades)."""
    length = 260.0
    width = length * 63 / 88
    way = np.array([np.cos(turn), np.sin(turn)])
    laid = [Laid(Card.parse(name), _card(tuple(np.array([250.0, 360.0]) + k * spread * width
                                               * way), length, turn))
            for k, name in enumerate(names)]
    found = {str(f.card) for f in read_indices(_render(faces, laid[::-1]), [], None)}
    assert found and found <= set(names)


@pytest.mark.parametrize("turn", [-0.3, 0.0, 0.4])
def test_a_cards_other_index_names_no_other_card(turn: float) -> None:
    """A fan on plain cloth whose top card is an Egyptian jack, found by its top index alone
    (no outline is read): its bottom index, read as the king of hearts at under SURE_INSIDE,
    lies where the jack laid from the surer top index has its other index, so it names no card
    (before, every such fan named the king)."""
    faces = {card: borderless(face) for card, face in load_deck("svg-ancient-egyptians").items()}
    names = ("KS", "9S", "JH")
    length = 260.0
    way = np.array([np.cos(turn), np.sin(turn)])
    laid = [Laid(Card.parse(name), _card(tuple(np.array([250.0, 360.0]) + k * 0.2 * length
                                               * 63 / 88 * way), length, turn))
            for k, name in enumerate(names)]
    found = {str(d.reading.card) for d in find_cards(_render(faces, laid[::-1]))
             if d.reading.card is not None}
    assert "JH" in found and found <= set(names)


@pytest.mark.parametrize(("deck", "names", "spread"),
                         [("svg-standard", ("KS", "9S", "JH"), 0.22),
                          ("svg-jolly-royal", ("AC", "10D", "QS"), 0.3),
                          ("svg-ancient-egyptians", ("AC", "10D", "QS"), 0.3),
                          ("svg-ancient-egyptians", ("9D", "KH", "QC"), 0.25)])
def test_a_fan_read_by_its_bottom_cards_outline_shows_the_cards_over_it(
        deck: str, names: tuple[str, str, str], spread: float) -> None:
    """The outline read is that of the card under the others in a fan, so it holds their
    indices: those are read too, and every card of the fan is named once (before, the cards
    over it were lost, their indices inside a card read already; or a king's index beside
    the next card's nine, read as one "10", named the king and hid the nine)."""
    faces = {card: borderless(face) for card, face in load_deck(deck).items()}
    length = 260.0
    width = length * 63 / 88
    laid = [Laid(Card.parse(name), _card((230 + k * spread * width, 360), length, -0.3))
            for k, name in enumerate(names)]
    frame = _render(faces, laid[::-1])
    bottom = laid[0]
    found = _with_index_cards(frame, [Detection(bottom.corners, _sure(bottom.card))])
    out = [d.reading.card for d in found]
    assert len(out) == len(laid) and set(out) == {item.card for item in laid}


@pytest.mark.parametrize(("names", "spread", "turn"),
                         [(("KS", "9S", "JH"), 0.2, 0.0),
                          (("KS", "9S", "JH"), 0.18, 0.0),
                          (("9D", "QH", "KC"), 0.18, 0.4)])
def test_a_fan_on_plain_cloth_is_read_card_by_card(
        faces: Faces, names: tuple[str, str, str], spread: float, turn: float) -> None:
    """A fan of three (a hand or a meld row spread on the mat), each card under the next
    showing a strip a fifth of its width or less: every card is named, and none other.
    Before, a rank touching the faint line along the edge of the card over it was one mark
    with that line, no glyph (the first fan's king); and the next card's rank and pip, beside
    a rank and nearer than its own pip, took both places of the pips tried under it (the
    others' nine of spades and queen of hearts)."""
    length = 260.0
    width = length * 63 / 88
    way = np.array([np.cos(turn), np.sin(turn)])
    laid = [Laid(Card.parse(name), _card(tuple(np.array([250.0, 360.0]) + k * spread * width
                                               * way), length, turn))
            for k, name in enumerate(names)]
    found = [d.reading.card for d in find_cards(_render(faces, laid[::-1]))
             if d.reading.card is not None]
    assert sorted(map(str, found)) == sorted(names)


def test_a_court_read_by_its_outline_names_no_other_card() -> None:
    """Every court of the training decks, read by its outline: the ink inside it (its own
    indices, its picture) names no other card (the Egyptian jacks' pictures were read as
    kings at under SURE_INSIDE)."""
    decks = training_decks()
    assert set(decks) == set(TRAINING_DECKS)
    for name, deck in sorted(decks.items()):
        for card, face in deck.items():
            if card.rank not in (Rank.JACK, Rank.QUEEN, Rank.KING):
                continue
            for length, turn in ((260.0, 0.4), (200.0, -1.0)):
                item = Laid(card, _card((360, 360), length, turn))
                out = _with_index_cards(_render({card: face}, [item]),
                                        [Detection(item.corners, _sure(card))])
                assert [d.reading.card for d in out] == [card], (name, card, length)


def test_a_busy_grounds_specks_do_not_crowd_out_an_index(faces: Faces) -> None:
    """Sprinkles on a white ground pair up as glyphs bigger than a card's index: more such
    pairs than the old cost bound (40) must not leave the card's sure index unread."""
    frame = np.full((720, 720, 3), 236, np.uint8)
    rng = np.random.default_rng(4)
    for k in range(36):   # dark sprinkles two by two, each bigger than the card's rank
        x, y = 40 + (k % 6) * 110, 40 + (k // 6) * 110
        if 250 < x < 600 and 250 < y < 620:
            continue      # room for the card
        for dy in (0, 55):
            cv2.ellipse(frame, (int(x + rng.integers(-4, 5)), y + dy), (12, 22),
                        float(rng.integers(-20, 20)), 0, 360, (40, 60, 150), -1)
    card = Card.parse("9D")
    frame = _render(faces, [Laid(card, _card((430.0, 430.0), 280.0, 0.1))], ground=frame)
    assert card in {c.card for c in read_indices(frame, [], None)}


def _sprinkled(faces: Faces, card: Card) -> np.ndarray:
    """The card on a coarse ground: a grid of sprinkles round it, each bigger than its rank,
    giving more pairs bigger than its index than by_index.CROWD."""
    frame = np.full((720, 720, 3), 236, np.uint8)
    rng = np.random.default_rng(4)
    for y in range(30, 700, 50):
        for x in range(30, 700, 50):
            if not (250 < x < 600 and 250 < y < 620):   # room for the card
                cv2.ellipse(frame, (x + int(rng.integers(-4, 5)), y + int(rng.integers(-4, 5))),
                            (12, 22), float(rng.integers(-20, 20)), 0, 360, (40, 60, 150), -1)
    return _render(faces, [Laid(card, _card((430.0, 430.0), 280.0, 0.1))], ground=frame)


def test_hundreds_of_specks_bigger_than_an_index_do_not_crowd_it_out(faces: Faces) -> None:
    """A coarse ground gives more pairs bigger than the card's rank than the bound before
    (120, which left a hand's indices unread on a coarse rendered ground): the card's index
    is still read."""
    card = Card.parse("9D")
    frame = _sprinkled(faces, card)
    found = [c for c in read_indices(frame, [], None) if c.card == card]
    assert found
    pairs = by_index._pairs(by_index._glyphs(by_index._lit(frame))[0])
    assert sum(by_index._rank_height(p) > found[0].rank_px for p in pairs) > by_index.CROWD


def test_an_index_behind_a_crowd_of_specks_names_a_card_only_very_surely(
        faces: Faces, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the CROWD biggest pairs (most of them the ground's), an index names a card only
    at SURE_INSIDE: with that floor out of reach the card is not named, unless the crowd
    is made as big as the bound."""
    card = Card.parse("9D")
    frame = _sprinkled(faces, card)
    monkeypatch.setattr(by_index, "SURE_INSIDE", 1.0 + 1e-6)
    assert card not in {c.card for c in read_indices(frame, [], None)}
    monkeypatch.setattr(by_index, "CROWD", by_index.MAX_PAIRS)
    assert card in {c.card for c in read_indices(frame, [], None)}


@pytest.mark.parametrize("name", ["9H", "KD", "AH"])
def test_two_indices_too_unsure_alone_name_their_card_together(
        faces: Faces, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A reader far less sure of a deck (its logits scaled by 0.12, as of a design it has never
    seen): neither index of a card names it alone, both read together as the card's two
    corners do, and lay the card they span."""
    reader = corner_reader()
    logits = type(reader).logits
    monkeypatch.setattr(type(reader), "logits", lambda self, windows: logits(self, windows) * 0.12)
    card = Card.parse(name)
    item = Laid(card, _card((360, 360), 240.0, 0.4))
    frame = _render(faces, [item])
    found = read_indices(frame, [], None)
    assert [f.card for f in found] == [card]
    assert _near(found[0].corners, item.corners, 0.1)
    monkeypatch.setattr(by_index, "MAX_COUPLES", 0)
    assert read_indices(frame, [], None) == []


def test_an_index_too_small_for_the_reader_names_no_card(
        faces: Faces, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ace 60 px long (0.7 px per mm, fewer than the corner reader was taught on) names
    no card by its index, though the reader names it: so small, ink of a picture or of the
    ground reads as an index (on a busy ground, a tiny nine of hearts in a jack's picture).
    One 120 px long still does."""
    card = Card.parse("AD")
    assert [f.card for f in read_indices(_render(faces, [Laid(card, _card(
        (360, 360), 120.0, 0.2))]), [], None)] == [card]
    tiny = _render(faces, [Laid(card, _card((360, 360), 60.0, 0.2))])
    assert read_indices(tiny, [], None) == []
    monkeypatch.setattr(by_index, "MIN_PX_MM", 0.0)
    assert [f.card for f in read_indices(tiny, [], None)] == [card]


def test_two_indices_too_small_for_the_reader_name_no_card_together(
        faces: Faces, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two indices read together as one card's corners (`_read_as_two`) name no card at a
    size giving it fewer than MIN_PX_MM px per mm, as one index does not (before, they did:
    a 60 px ace, read together, was named). A 120 px one still is."""
    reader = corner_reader()

    def together(length: float) -> list[Card]:
        frame = _render(faces, [Laid(Card.parse("AD"), _card((360, 360), length, 0.2))])
        pairs = by_index._pairs(by_index._glyphs(by_index._lit(frame))[0])
        floors = dict.fromkeys(range(len(pairs)), reader.abstain_below)
        return [f.card for f in by_index._read_as_two(reader, frame, pairs, floors)]

    assert set(together(120.0)) == {Card.parse("AD")}
    assert together(60.0) == []
    monkeypatch.setattr(by_index, "MIN_PX_MM", 0.0)
    assert set(together(60.0)) == {Card.parse("AD")}


def test_ink_inside_a_card_read_names_a_card_only_at_the_frames_size_too() -> None:
    """An index named surely at every size its own height gives, but by none round the
    frame's cards' size, names its card on the ground (a card nearer the camera than the
    others), not inside a card read by its outline: a card over another is as near the
    camera, so there it is a mark of the face under it (a jack's ornament read as an ace of
    diamonds twice a card's size)."""
    def reading(confidence: float) -> CornerReading:
        rank = np.full(RANKS, (1 - confidence) / (RANKS - 1))
        rank[0] = confidence
        suit = np.zeros(SUITS)
        suit[0] = 1.0
        return CornerReading(rank, suit)

    card, threshold = 0, 0.68   # the card of rank 0 and suit 0 (as `reading` names it)
    readings = [reading(c) for c in (0.12, 0.1, 0.15, 0.87, 0.99, 0.74)]
    named: list[int | None] = [None, None, None, card, card, card]
    assert by_index._names(card, readings, named, threshold, own_only=False)
    assert not by_index._names(card, readings, named, threshold, own_only=False,
                               both_kinds=True)
    readings[0] = reading(0.9)   # one size round the frame's cards' names it too
    named = [card] * 6
    assert by_index._names(card, readings, named, threshold, own_only=False, both_kinds=True)


def test_a_tall_ranks_own_pip_is_tried_when_marks_lie_nearer_on_its_other_side() -> None:
    """A king in a fan's wedge with two marks just above it (the ground's specks, the edge of
    the card) nearer than its own pip below: the pips tried along a tall rank's axis are the
    nearest each way, so it is still paired with its pip, "down" towards it (before, the two
    nearest, both above, took both places and the king was never read)."""
    def glyph(centre: tuple[float, float], half: tuple[float, float]) -> by_index._Glyph:
        ys, xs = np.mgrid[-half[1]:half[1] + 1, -half[0]:half[0] + 1]
        inside = (xs / half[0]) ** 2 + (ys / half[1]) ** 2 <= 1
        points = np.stack([xs[inside] + centre[0], ys[inside] + centre[1]], axis=1)
        return by_index._Glyph(np.array(centre, np.float32), points.astype(np.float32),
                               float(2 * max(half) + 1))

    king = glyph((100.0, 100.0), (7.0, 15.0))
    marks = [glyph((100.0, 74.0), (8.0, 6.0)), glyph((106.0, 71.0), (7.0, 7.0))]
    pip = glyph((101.0, 146.0), (12.0, 13.0))
    downs = [p.down for p in by_index._pairs([king, *marks, pip])
             if len(p.rank) == len(king.points) and np.array_equal(p.rank, king.points)]
    assert any(float(d[1]) > 0.95 for d in downs)
    assert any(float(d[1]) < -0.95 for d in downs)   # and up, to the marks, as before


def test_a_rank_joined_to_the_faint_edge_of_the_card_over_it_is_picked_out_of_it() -> None:
    """A king touching the faint line along the edge of the card over it is one mark of ink
    with that line, too tall to pair with its pip; the king is picked out of the mark by its
    darker ink and paired with its pip, "down" towards it. The mark and the king picked out
    of it are one: never paired together."""
    frame = np.full((220, 220, 3), 235, np.uint8)
    cv2.putText(frame, "K", (80, 100), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (20, 20, 20), 4,
                cv2.LINE_AA)
    cv2.circle(frame, (95, 125), 11, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.line(frame, (104, 45), (104, 112), (180, 180, 180), 2, cv2.LINE_AA)
    glyphs, _ = by_index._glyphs(by_index._lit(cv2.GaussianBlur(frame, (0, 0), 0.7)))
    joined = next(k for k, g in enumerate(glyphs) if g.size > 60)
    king = next(g for g in glyphs if g.part_of == joined)
    # the king alone (OpenCV 4.6 draws it a few px bigger than 5.0), left of the line
    assert 20 <= king.size <= 40 and float(king.points[:, 0].max()) < 104
    pairs = by_index._pairs(glyphs)
    downs = [p.down for p in pairs if np.array_equal(p.rank, king.points)]
    assert any(float(d[1]) > 0.95 for d in downs)
    assert not any(p.ten for p in pairs)
    # a glyph whose ink is as dark throughout (the pip, the king alone) is not taken apart
    assert sum(g.part_of >= 0 for g in glyphs) == 1


@pytest.mark.parametrize("name", ["JS", "JH"])
def test_an_index_touching_the_shadow_of_the_card_over_it_is_read(faces: Faces, name: str
                                                                 ) -> None:
    """A jack fanned under another card so tightly that the shadow along that card's edge
    touches its rank: only its index shows, and it is read (before, the jack and the shadow
    were one mark, paired with no pip)."""
    length = 230.0
    width = length * 63 / 88
    card = Card.parse(name)
    under = Laid(card, _card((360.0, 360.0), length, 0.0))
    over = Laid(Card.parse("9C"), _card((360.0 + 0.15 * width, 360.0), length, 0.0))
    frame = _render(faces, [over, under])
    edge = over.corners[[0, 3]] - np.array([2.0, 0.0])
    cv2.line(frame, tuple(int(v) for v in edge[0]), tuple(int(v) for v in edge[1]),
             (185, 185, 185), 2, cv2.LINE_AA)
    assert len(index_centres([over, under])[1]) == 1
    found = read_indices(frame, [over.corners], (width, length))
    assert [f.card for f in found if f.card != over.card] == [card]


def test_a_card_dimmer_than_the_frames_whitest_is_read_on_its_dim_paper(
        faces: Faces, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card lit at half the light of a white patch elsewhere in the frame (a photo's cards
    each under a lamp of its own) has no paper by PAPER: its index is found again on the dim
    paper (DIM_PAPER), and not without that second look."""
    card = Card.parse("KH")
    corners = _card((430.0, 400.0), 280.0, 0.1)
    frame = _render(faces, [Laid(card, corners)], ground=np.full((720, 720, 3), 70, np.uint8))
    on_card = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(on_card, np.round(corners).astype(np.int32), 1)
    frame[on_card > 0] = (frame[on_card > 0] * 0.5).astype(np.uint8)
    frame[20:140, 20:140] = 250   # the frame's whitest: a white patch of the ground
    least = frame[on_card > 0].min(axis=1)
    assert np.percentile(least, 90) < by_index.PAPER * 250
    assert card in {c.card for c in read_indices(frame, [], None)}
    monkeypatch.setattr(by_index, "MAX_DIM", 0)
    assert card not in {c.card for c in read_indices(frame, [], None)}


@pytest.mark.parametrize("seed", range(4))
def test_a_hands_bottom_card_under_dimmer_cards_lies_on_their_paper(
        faces: Faces, seed: int) -> None:
    """A hand whose bottom card is lit as the frame's whitest and the two cards over it at
    half that light (each under a lamp of its own, as a photo's cards): the bottom card's
    index is found on the bright paper, and the card laid from it lies on the dim paper of
    the cards over it, not off the cards (before, judged on the bright paper alone, it was
    dropped as laid over the ground)."""
    top, middle, bottom = _hand(np.random.default_rng(seed), (720, 720), 300.0)
    laid = [Laid(Card.parse("KD"), top), Laid(Card.parse("9C"), middle),
            Laid(Card.parse("QS"), bottom)]
    frame = _render(faces, laid, ground=np.full((720, 720, 3), 60, np.uint8))
    over = np.zeros(frame.shape[:2], np.uint8)
    for quad in (top, middle):
        cv2.fillConvexPoly(over, np.round(quad).astype(np.int32), 1)
    frame[over > 0] = (frame[over > 0] * 0.5).astype(np.uint8)
    found = read_indices(frame, [], None)
    shown = index_centres(laid)[2]
    assert any(f.card == Card.parse("QS") and all(holds(f.corners, c) for c in shown)
               for f in found)
    assert {f.card for f in found} <= {item.card for item in laid}
