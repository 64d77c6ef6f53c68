"""Proving reneges when hands are hidden.

Nobody shows a hand to the camera, but every card a seat plays later was in its hand at every
earlier trick, and a seat's shown meld stays in hand until played. So a play is proven illegal
as soon as the cards known to have been held then make it illegal: legality only gets stricter
as more of a hand is known (tests/rules check that property of `play_error`). By the end of a
hand every seat's hand at every trick is known, so every play has been checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .cards import Card, Suit, index_of, multiset_union
from .tricks import is_legal_play, play_error
from .values import Value
from .variants import Rules


class Play(Value):
    """One card played: who, which, at which trick (1-based), onto which cards."""

    FIELDS = ("seat", "card", "trick", "before", "first_lead")
    __slots__ = FIELDS

    def __init__(self, seat: int, card: Card, trick: int, before: tuple[Card, ...],
                 first_lead: bool) -> None:
        self.seat: Final = seat
        self.card: Final = card
        self.trick: Final = trick
        self.before: Final = before
        self.first_lead: Final = first_lead


@dataclass(frozen=True)
class Renege:
    """A proven renege: `seat` played `card` at `trick` while holding `witness`."""

    seat: int
    trick: int
    card: Card
    witness: Card
    rule: str
    text: str


def prove_reneges(plays: Sequence[Play], meld_cards: Sequence[Sequence[Card]],
                  trump: Suit | None, rules: Rules, known: Sequence[Renege],
                  names: Sequence[str]) -> tuple[Renege, ...]:
    """Reneges by the seat of the newest play that its cards now prove (and were not known)."""
    if not plays:
        return ()
    seat = plays[-1].seat
    mine = [p for p in plays if p.seat == seat]
    cards = [p.card for p in mine]
    proven = {(r.seat, r.trick) for r in known}
    found: list[Renege] = []
    held = list(meld_cards[seat])  # the meld still in hand after each play (less the plays)
    for i, p in enumerate(mine):
        j = index_of(held, p.card)
        if j >= 0:
            del held[j]
        if (seat, p.trick) in proven:
            continue
        later = cards[i + 1:]
        # legality reads only which faces a hand holds: most plays are cleared by the faces
        # alone, and only a refused one is worked out with its cards as a multiset
        if is_legal_play(p.card, {*later, *held, p.card}, p.before, trump, rules, p.first_lead):
            continue
        known_hand = multiset_union(later, held)
        err = play_error(p.card, [*known_hand, p.card], list(p.before), trump, rules,
                         p.first_lead)
        if err is None or err.witness is None or err.rule == "not in hand":
            continue
        w = err.witness
        when = next((f"played at trick {q.trick}" for q in mine[i + 1:] if q.card is w),
                    "shown in meld")
        lead = _lead_words(p, trump)
        text = (f"{names[seat]} played {p.card} {lead} at trick {p.trick} but held {w}: "
                f"{when} ({err.text})")
        found.append(Renege(seat, p.trick, p.card, w, err.rule, text))
    return tuple(found)


def _lead_words(p: Play, trump: Suit | None) -> str:
    if not p.before:
        return "as the first lead" if p.first_lead else "on the lead"
    led = p.before[0].suit
    word = "trump" if led is trump else led.word[:-1]
    return f"on a {word} lead"
