"""The table learns the deck it plays with.

The cards it has seen (a card settled on the phone, a sure reading the game kept) leave their
corners in a small learned profile, kept beside the calibration and added on top of the deck's
own profile (the built-in one, or the one `enroll` made): the next time that face is read, its
own corners are among those it is compared with, so the second hand asks less than the first.

The learnt faces are read with once all 24 are learnt, like an enrolment made while playing:
a deck's own king of clubs looks more like its own ace of diamonds or king of diamonds than the
stored ones of other decks do, so a few learnt faces alone would draw the others to them
(silent misreads, seen on the bench). Every face is played in a hand, so after the first hand
the table reads with all of them. They only settle what the corner reader is unsure of, never
overrule a sure reading (most were learnt from such), and name a card the reader does not lean
to only if that card was settled on the phone, and then only where it agrees with the rank or
suit the reader leans to (the suit of a smudged index; vision.reading.read_card).

The learned profile is bounded (a few pictures of each card, the oldest given up first; sure
readings only fill free places, a settled card always takes one) and saved atomically. It
refines one profile: after a new `enroll` it is set aside and learning starts afresh.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np

from table.rules import ALL_CARDS, Card

from .index import STORE_H, STORE_W, corner_windows, to_portrait
from .profile import DeckProfile, ProfileError

log = logging.getLogger(__name__)

KEEP_PER_CARD = 4    # pictures of each card kept (each gives both index corners)


class DeckLearner:
    """A deck profile (`base`) and what the table learnt on top of it; `profile` is the two
    together, for the reader. `path` is where the learned part is saved (None: kept in
    memory only)."""

    def __init__(self, base: DeckProfile, path: Path | None = None,
                 learned: DeckProfile | None = None, keep: int = KEEP_PER_CARD) -> None:
        self.base = base
        self.path = path
        self.keep = keep
        self._basis = base.fingerprint()
        self._patches: list[np.ndarray] = []    # one per picture: 2 x STORE_H x STORE_W x 3
        self._cards: list[int] = []
        self._settled: list[bool] = []          # each picture's card settled on the phone
        if learned is not None and len(learned.cards):
            pairs = learned.patches.reshape(-1, 2, STORE_H, STORE_W, 3)
            cards = [int(c) for c in learned.cards[::2]]
            settled = learned.settled_flags()
            for i, card in enumerate(cards):   # the newest `keep` of each card, in order
                if cards[i + 1:].count(card) < keep:
                    self._patches.append(pairs[i])
                    self._cards.append(card)
                    self._settled.append(settled[i])
        self._profile: DeckProfile | None = None
        self.changed = False

    @classmethod
    def load(cls, base: DeckProfile, path: Path) -> tuple[DeckLearner, str]:
        """The learner for `base` with what was saved at `path`, and a sentence saying what
        was found there."""
        fresh = cls(base, path)
        if not path.exists():
            return fresh, "nothing yet"
        try:
            learned = DeckProfile.load(path)
        except ProfileError as exc:
            return fresh, f"{exc}; learning starts afresh"
        if learned.learned_from != fresh._basis or len(learned.cards) % 2:
            return fresh, f"the cards learnt in {path} were of another deck profile; " \
                          "learning starts afresh"
        learner = cls(base, path, learned)
        return learner, learner.describe()

    @property
    def cards(self) -> list[Card]:
        """The faces learnt so far."""
        return [Card.from_index(i) for i in sorted(set(self._cards))]

    @property
    def complete(self) -> bool:
        """Whether every face is learnt: only then are the learnt corners read with."""
        return len(set(self._cards)) == len(ALL_CARDS)

    @property
    def profile(self) -> DeckProfile:
        """The deck's profile, with the learnt corners once every face is learnt (built
        again after a change)."""
        if self._profile is None:
            self._profile = self.base.plus(self.learned()) if self.complete else self.base
        return self._profile

    def learned(self) -> DeckProfile:
        """What was learnt, as a profile of its own (as it is saved)."""
        patches = np.concatenate(self._patches) if self._patches else \
            np.empty((0, STORE_H, STORE_W, 3), np.uint8)
        return DeckProfile(f"{self.base.name}, learnt at the table", patches,
                           np.repeat(np.array(self._cards, np.int64), 2),
                           learned_from=self._basis, settled=tuple(self._settled))

    def describe(self) -> str:
        """What was learnt, in a few words."""
        count = len(self.cards)
        if count == len(ALL_CARDS):
            return "all 24 faces, read with"
        if not count:
            return "nothing yet"
        return f"{count} of 24 faces (read with once all are learnt)"

    def learn(self, card: Card, image: np.ndarray, settled: bool) -> bool:
        """Keep the corners of `image` (a straightened card, any right-angle turn) as `card`.
        A card settled on the phone always takes a place (the oldest of that card's goes);
        a sure reading only a free one. True when the profile changed."""
        mine = [i for i, c in enumerate(self._cards) if c == card.index]
        if len(mine) >= self.keep and not settled:
            return False
        try:
            corners = corner_windows(to_portrait(image), STORE_W, STORE_H)
        except ValueError as exc:   # a sliver of a card, cut off at the frame's edge
            log.debug("not learnt: %s", exc)
            return False
        if len(mine) >= self.keep:
            del self._patches[mine[0]], self._cards[mine[0]], self._settled[mine[0]]
        self._patches.append(corners)
        self._cards.append(card.index)
        self._settled.append(settled)
        self._profile = None
        self.changed = True
        return True

    def save(self) -> bool:
        """Write what was learnt, if anything changed since the last save; True if written."""
        if not self.changed or self.path is None:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.learned().save(self.path)
        self.changed = False
        return True


def table_deck(enrolled: Path, learned: Path) -> tuple[DeckLearner, list[str]]:
    """What the table reads cards with: the profile `enroll` saved (else the built-in one for
    ordinary indices), with what was learnt (saved at `learned`) on top; and sentences saying
    which, for the startup messages."""
    from .profile import builtin_profile

    base, said = builtin_profile(), []
    if enrolled.exists():
        try:
            base = DeckProfile.load(enrolled)
            said.append(f"deck profile: {base.name!r}, enrolled ({enrolled})")
        except ProfileError as exc:
            said.append(f"note: {exc}; the built-in profile is used instead")
    if not said or said[0].startswith("note"):
        said.append("deck profile: built-in (ordinary corner indices)")
    learner, learnt = DeckLearner.load(base, learned)
    said.append(f"learnt at the table: {learnt}")
    return learner, said
