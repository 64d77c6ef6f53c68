"""Reading one straightened card: `identify(card_image, deck=None) -> Reading`.

The corner reader (corners.py), a small network trained on many deck designs, reads both index
corners; when it is sure (its calibrated threshold) and the middle of the face does not rule its
rank out (middle.py: rows of pips, a picture or one ace pip), its card is the reading
(`corner_card`). An unsure reading beside pips in rows is firmed up: the court cards and the
ace set aside, the corners' likeliest card is named if that makes it sure (`settled`). When it is
still unsure, a deck profile's stored corners have the second word: those of the built-in
kdegames decks, and those the table learnt of its own deck, may only confirm the card the
network leans to (a card settled on the phone may fill in the rank or suit it cannot tell)
and never overrule a sure reading;
an enrolled deck's corners are asked every time and their sure reading wins.
The profile's reading:
a fast matcher (matcher.py) shortlists the likeliest cards from both index corners; then each
shortlisted card's stored corners are slid over the card's corners (templates.py), and the best
correlation, averaged over the two corners, decides. That confidence combines the lead over the
runner-up with how well the best matches at all; below ABSTAIN the reading names no card.
Between two cards whose corners differ only in a small pip of one colour (a club's and a
spade's), or when still unsure, the middles of the faces have the last word where the profile
holds them.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import cv2
import numpy as np

from table.rules import Card

from .corners import RANKS, CornerReading, combine, corner_reader
from .index import STORE_H, STORE_W, corner_windows, to_portrait
from .middle import NOT_PIPS, middle_check
from .profile import DeckProfile, builtin_profile
from .templates import WINDOW_H, WINDOW_W, Middles, Seen, Templates

ABSTAIN = 0.5          # confidence below which a deck profile's reading names no card
SHORTLIST = 4          # cards the fast matcher passes on to template matching
# The built-in decks' stored corners confirm only the card the corner reader leans to this
# surely at least (more likely than not): the readings they settled in bench_vision's
# in-distribution shots behind two networks leaned 0.70 or more (behind three, none is left).
LEAN = 0.5
INDEX_INK = 24.0       # grey levels between a corner's paper and its darkest ink, at least
# Tuned on simulated frames (bench/bench_vision.py, other seeds than the figures in README).
# The lead is measured along the difference of the two cards' stored corners (Templates.lead):
# a raw correlation lead means little when the corners differ only in a small suit pip (a
# club's against a spade's), much when they differ everywhere. Correct readings lead by 0.017
# or more, most wrong ones by 0.02 or less, and a wrong one that leads more either matches
# poorly (below 0.86: an outline that cuts one corner off) or leads by almost nothing in plain
# correlation (under 0.0015: Tigullio's ace of clubs against its ace of spades, whose tiny
# pips blur alike), while correct readings lead there by 0.004 or more.
LEAD_MID, LEAD_SCALE = 0.035, 0.004  # lead over the runner-up: 0.035 is a coin toss
RAW_MID, RAW_SCALE = 0.003, 0.0007   # plain correlation lead: 0.003 is a coin toss
FIT_MID, FIT_SCALE = 0.87, 0.02      # best correlation: below 0.87 it is hardly a face we know
SECOND_LOOK_FIT = 0.9      # an unsure reading that fits worse than this gets a second look
REACH = 8                  # pixels further round each corner the second look searches
SECOND_LOOK_SHORTLIST = 8  # cards it compares: a misplaced corner misleads the fast matcher
# Still unsure between two cards: the middles of their faces (the big pip of an ace, the pips
# of a ten, a court picture) decide, if one fits clearly and clearly better (tuned as above).
MIDDLE_FIT = 0.8           # the middle must correlate at least this well with a stored one
MIDDLE_LEAD = 0.12         # ... and this much better than the other card's middles
MIDDLE_CORNER_FIT = 0.85   # and its corners must fit at least this well
CHECK_BELOW = 0.95         # a reading of one of two look-alikes this sure or less is checked


@dataclass(frozen=True)
class Reading:
    """What a card image was read as: `card` is None when unsure (abstained).
    `candidates` are the best two cards with their match distances, best first."""

    card: Card | None
    confidence: float
    candidates: tuple[tuple[Card, float], ...] = ()


@dataclass(frozen=True)
class CornerCard:
    """The corner reader's reading of a card, the card it names surely (None: unsure), and a
    sure reading the middle of the face ruled out (`vetoed`, then `card` is None)."""

    seen: CornerReading
    card: Card | None
    vetoed: Card | None = None


def corner_card(card: np.ndarray, middle: bool = True) -> CornerCard:
    """The corner reader's reading of a READ_SIZE portrait card: the card it names if it is
    confident enough (its calibrated threshold) and, with `middle`, of a rank the middle of
    the face does not rule out; an unsure one is firmed up by pips in rows there (`settled`)."""
    reader = corner_reader()
    seen = reader.read(card)
    if not seen.names_card:
        return CornerCard(seen, None)
    named = Card.from_index(seen.ranked_cards(1)[0][0])
    if seen.confidence < reader.abstain_below:
        firm = settled(seen, NOT_PIPS) if middle and middle_check().shows_pips(card) else None
        if firm is None or firm.confidence < reader.abstain_below:
            return CornerCard(seen, None)
        seen = firm
    # a sure reading, firmed up or not, is checked by the whole middle (a nine whose middle
    # counts a ten's pips, a ten or nine whose middle the network finds no pips in)
    if middle and not middle_check().allows(card, int(named.rank)):
        return CornerCard(seen, None, named)
    return CornerCard(seen, named)


def settled(seen: CornerReading, ruled_out: Collection[int]) -> CornerReading | None:
    """The corners' reading given ranks the middle of the face rules out (`ruled_out`, as
    int(Rank)): those set aside, their probability shared out over the rest; None when the
    rank the corners lean to most is among them. The corners' likeliest card stays the
    likeliest: the middle only makes it surer (a Bicycle jumbo-index nine, its rank read half
    as a queen, beside nine pips in rows), it never names a card the corners did not choose."""
    if seen.best[0] in ruled_out:
        return None
    return seen.without(ruled_out)


def read_card(card: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read a READ_SIZE portrait card (see index.to_portrait): the corner reader, then, if it
    is unsure, the stored corners of the deck (or of the built-in decks)."""
    corner = corner_card(card)
    seen, named = corner.seen, corner.card
    candidates = tuple((Card.from_index(i), round(p, 4)) for i, p in seen.ranked_cards(2))
    confidence = round(seen.confidence, 4)
    if deck is not None and not deck.others:
        # An enrolled deck is the very deck on the table: its own corners are asked every
        # time, and a sure reading of theirs wins (an odd or smudged index the network has
        # never seen may look to it like another card's).
        by_deck = read_with_profile(card, deck)
        if by_deck.card is not None:
            return by_deck
    elif named is None:
        profile = deck if deck is not None else builtin_profile()
        # Other decks' stored corners only settle what the network leans to (the built-in
        # ones are its own training decks, so a card it hardly leans to is none of theirs),
        # and never a card the middle of the face ruled out. Corners the table learnt of its
        # deck never overrule a sure reading either (most were learnt from such); a card
        # settled on the phone may fill in what the network cannot tell (the suit of a
        # smudged index), never contradict what it leans to.
        by_deck = read_with_profile(card, profile)
        if by_deck.card is not None and by_deck.card != corner.vetoed and (
                (by_deck.card.index in profile.settled_cards and _fills_in(seen, by_deck.card))
                or (seen.confidence >= LEAN
                    and seen.best == (int(by_deck.card.rank), by_deck.card.suit.index))):
            return by_deck
    return Reading(named, confidence, candidates)


def _fills_in(seen: CornerReading, card: Card) -> bool:
    """Whether `card` agrees with what the corners lean to (LEAN or more) of its rank or its
    suit, leaning to at least one of them: it only fills in the other."""
    rank, suit = int(card.rank), card.suit.index
    leans = [(float(seen.rank.max()) >= LEAN, int(seen.rank.argmax()) == rank),
             (float(seen.suit.max()) >= LEAN, int(seen.suit.argmax()) == suit)]
    return any(lean for lean, _ in leans) and all(agree for lean, agree in leans if lean)


def read_with_profile(card: np.ndarray, profile: DeckProfile) -> Reading:
    """Read a READ_SIZE portrait card by a deck profile's stored corners alone."""
    matcher = profile.refs()
    dist = matcher.distances(corner_windows(card)).mean(axis=0)   # per card, LDA space
    ranked = [int(matcher.cards[i]) for i in np.argsort(dist)]
    templates = profile.templates()
    reading, fit = _judge(templates, templates.look(corner_windows(card, STORE_W, STORE_H)),
                          ranked[:SHORTLIST])
    if reading.card is None and fit < SECOND_LOOK_FIT:
        # A poor fit is mostly an outline found a few pixels off (a card touching another,
        # a shadow along its edge): look again, further round each corner, at more cards.
        wide = cv2.copyMakeBorder(card, REACH, REACH, REACH, REACH, cv2.BORDER_REPLICATE)
        seen = templates.look(corner_windows(wide, WINDOW_W + 2 * REACH,
                                             WINDOW_H + 2 * REACH), REACH)
        second, _ = _judge(templates, seen, ranked[:SECOND_LOOK_SHORTLIST])
        if second.confidence > reading.confidence:
            reading = second
    if profile.middles is not None and len(reading.candidates) == 2 \
            and (reading.card is None or (reading.confidence <= CHECK_BELOW
                                          and _look_alike(*(c for c, _ in reading.candidates)))):
        reading = _by_middles(card, reading, profile.middles)
    if reading.card is not None and not _has_index(card):
        return Reading(None, 0.0, reading.candidates)
    return reading


def _has_index(card: np.ndarray) -> bool:
    """Whether either corner holds ink at all: a blank patch has no index to read, whatever
    the matcher makes of its (normalised) noise."""
    grey = corner_windows(card).mean(axis=3).reshape(2, -1)
    low, high = np.percentile(grey, [5, 95], axis=1)
    return bool((high - low).max() >= INDEX_INK)


def _look_alike(first: Card, second: Card) -> bool:
    """Two cards whose corners differ only in a small pip of the same colour."""
    return first.rank == second.rank and first.suit.is_red == second.suit.is_red


def _by_middles(card: np.ndarray, reading: Reading, middles: Middles) -> Reading:
    """A reading between two cards, settled by the middles of their faces when they differ
    clearly (an unsure one named, a sure one of two look-alikes overruled); otherwise the
    reading as it was."""
    (first, fit), (second, _) = reading.candidates
    scores = middles.scores(card, [first.index, second.index])
    best, other = (first, second) if scores[first.index] >= scores[second.index] \
        else (second, first)
    lead = scores[best.index] - scores[other.index]
    corner_fit = fit if best == first else reading.candidates[1][1]
    if scores[best.index] < MIDDLE_FIT or lead < MIDDLE_LEAD or corner_fit < MIDDLE_CORNER_FIT:
        if reading.card is not None and best != reading.card and lead >= MIDDLE_LEAD / 2:
            # The middles lean against the corners' choice: not sure enough to name either.
            return Reading(None, 0.0, reading.candidates)
        return reading
    confidence = _logistic((lead - MIDDLE_LEAD) / 0.02) * 0.5 + 0.5
    ranked = reading.candidates if best == first else reading.candidates[::-1]
    return Reading(best, round(confidence, 4), ranked)


def _judge(templates: Templates, seen: Seen, shortlist: list[int]) -> tuple[Reading, float]:
    """The reading from template scores of the shortlisted cards, and how well the best fits."""
    # The siblings of the fast matcher's first choice are likely wanted too (see below):
    # scoring them along with the shortlist costs less than scoring them after it.
    likely = [s * 6 + shortlist[0] % 6 for s in range(4)]
    templates.scores(seen, shortlist + [c for c in likely if c not in shortlist])
    scores = templates.scores(seen, shortlist)
    # The fast matcher is weakest between suits of one rank (a spade's pip against a club's):
    # the winner's rank in every suit gets the careful look too.
    rank = max(scores, key=lambda c: scores[c]) % 6
    siblings = [s * 6 + rank for s in range(4) if s * 6 + rank not in scores]
    scores |= templates.scores(seen, siblings)
    order = sorted(scores, key=lambda c: scores[c], reverse=True)
    best = scores[order[0]]
    raw = best - scores[order[1]] if len(order) > 1 else 1.0
    ahead = templates.lead(seen, order[0], order[1]) if len(order) > 1 else 1.0
    if ahead is None:   # a profile that holds the two cards from different decks
        ahead = raw
    # The lead over the runner-up (both ways of measuring it), and how well the best matches.
    lead = (_logistic((ahead - LEAD_MID) / LEAD_SCALE)
            * _logistic((raw - RAW_MID) / RAW_SCALE))
    fit = _logistic((best - FIT_MID) / FIT_SCALE)
    confidence = float(lead * fit)
    candidates = tuple((Card.from_index(c), round(scores[c], 3)) for c in order[:2])
    card = Card.from_index(order[0]) if confidence >= ABSTAIN else None
    return Reading(card, round(confidence, 4), candidates), best


def identify(card_image: np.ndarray, deck: DeckProfile | None = None) -> Reading:
    """Read a BGR image of one card, cropped to its outline and straightened, in any of the
    four right-angle orientations; `deck` is the profile whose stored corners have the second
    word (default: the built-in kdegames decks; an enrolled one overrules the corner reader)."""
    return read_card(to_portrait(card_image), deck)


def named_at_both_corners(card_image: np.ndarray) -> Card | None:
    """The card the corner reader names surely (as `identify`, the middle aside) when each
    index corner, read alone, names it too; else None. An outline holding parts of two
    cards shows one card's index at one corner and another's, or none, at the other, and
    the corners pooled may still name the first surely (a corner showing no index is read
    as a covered one)."""
    reader = corner_reader()
    log_p = reader.corner_log_p([to_portrait(card_image)])[0]
    seen = combine(log_p, reader.independence, reader.hidden)
    if not seen.names_card or seen.confidence < reader.abstain_below \
            or any((int(c[:RANKS].argmax()), int(c[RANKS:].argmax())) != seen.best
                   for c in log_p):
        return None
    return Card.from_index(seen.ranked_cards(1)[0][0])


def _logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflowing for a large negative x."""
    if x >= 0:
        return float(1.0 / (1.0 + np.exp(-x)))
    z = float(np.exp(x))
    return z / (1.0 + z)
