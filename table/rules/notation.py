"""A compact text notation for a position, as FEN (plus its moves) is for chess.

    bison Ann,Bob,Cy 0,0,0 d0 #0 : deal 1:250 2:p 0:p kitty=AS.9H.QD 1:trump=S 1:bury=? ...

Before the colon, the game as it stood when this hand was dealt: the variant with any options
in braces (`bison{min_bid=300}`), the seat names, the scores, the dealer (`d0`), the number of
hands dealt before (`#0`), and, where they matter, `ledger=`, `pot=`, `checks=`, `sets=`,
`target=`, `deals=`, `only=` (seats allowed to bid in a tie-break hand). After it, the hand's
moves, one token each:

    deal | deal[AS.10S..|..|..|kitty]   the deal, hidden or with the hands known
    0:keep  0:reject=AS.9H              two-handed draw: the first card kept or rejected
                                        (with the cards: kept.discarded, ? = unseen)
    1:250  1:p  1:push  1:throw         a bid, a pass, push to the dealer, a throw-in
    kitty=AS.9H.QD                      the kitty shown
    1:trump=S  1:bury=AS.KS.9C|?        trump named, cards buried (? = face down)
    2:pass0=AS.KS.QS|?                  cards passed from seat 2 to seat 0
    1:meld=AS.10S.KS.QS.JS  1:concede   meld shown, the hand conceded (`=agreed`: by all)
    1:AS  /                             a card played, the trick gathered
    1:claim  1:claim=lost               the rest claimed, or defeat acknowledged
    2:agreed                            the hand's result agreed (agree_hands)

Seats are numbers (0 = the first seat, clockwise). `Game.parse(g.position()) == g`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .cards import Card, Suit
from .events import (
    BidMade,
    Buried,
    CardPlayed,
    CardsPassed,
    Claimed,
    Conceded,
    Corrected,
    Event,
    HandAgreed,
    HandDealt,
    KittyShown,
    MeldShown,
    Passed,
    PushedToDealer,
    StockDrawn,
    ThrownIn,
    TrickGathered,
    TrumpNamed,
)
from .options import options_of, with_options
from .standing import Standing
from .variants import Rules, preset

if TYPE_CHECKING:
    from .game import Game


class NotationError(ValueError):
    """Text that is not a position."""


_ESC = {"%": "%25", " ": "%20", ",": "%2C", ":": "%3A", "{": "%7B", "}": "%7D"}


def _escape(name: str) -> str:
    return "".join(_ESC.get(ch, ch) for ch in name)


def _unescape(text: str) -> str:
    out = text
    for ch, code in sorted(_ESC.items(), key=lambda kv: kv[0] == "%"):
        out = out.replace(code, ch)
    return out


def _cards(cards: tuple[Card, ...] | None) -> str:
    if cards is None:
        return "?"
    return ".".join(str(c) for c in cards) or "-"


def _parse_cards(text: str) -> tuple[Card, ...] | None:
    if text == "?":
        return None
    if text in ("-", ""):
        return ()
    return tuple(Card.parse(t) for t in text.split("."))


def _card_or_unseen(card: Card | None) -> str:
    return "?" if card is None else str(card)


def _parse_card_or_unseen(text: str) -> Card | None:
    return None if text == "?" else Card.parse(text)


def _ints(values: tuple[int, ...]) -> str:
    return ",".join(str(v) for v in values)


def header_text(g: Standing) -> str:
    opts = options_of(g.rules)
    variant = g.rules.name + ("{" + ",".join(f"{k}={v}" for k, v in opts.items()) + "}"
                              if opts else "")
    parts = [variant, ",".join(_escape(n) for n in g.names), _ints(g.scores),
             f"d{g.dealer}", f"#{g.hand_number}"]
    n = g.rules.table_seats
    for key, value, zero in (("ledger", g.ledger, (0,) * n), ("checks", g.checks, (0,) * n),
                             ("sets", g.sets, (0,) * n)):
        if value != zero:
            parts.append(f"{key}={_ints(value)}")
    if g.pot:
        parts.append(f"pot={g.pot}")
    if g.target != g.rules.target:
        parts.append(f"target={g.target}")
    if g.deals_done:
        parts.append(f"deals={g.deals_done}")
    if g.bidders_only is not None:
        parts.append("only=" + _ints(tuple(sorted(g.bidders_only))))
    if g.winner is not None:
        parts.append(f"winner={g.winner}")
    return " ".join(parts)


def event_token(e: Event) -> str:
    """One move of the notation (source and time are not part of a position)."""
    if isinstance(e, HandDealt):
        if e.hands is None:
            return "deal"
        return "deal[" + "|".join([_cards(h) for h in e.hands] + [_cards(e.kitty or ())]) + "]"
    if isinstance(e, StockDrawn):
        word = "keep" if e.kept_first else "reject"
        if e.kept is None and e.discarded is None:
            return f"{e.seat}:{word}"
        return f"{e.seat}:{word}={_card_or_unseen(e.kept)}.{_card_or_unseen(e.discarded)}"
    if isinstance(e, BidMade):
        return f"{e.seat}:{e.amount}"
    if isinstance(e, Passed):
        return f"{e.seat}:p"
    if isinstance(e, PushedToDealer):
        return f"{e.seat}:push"
    if isinstance(e, ThrownIn):
        return f"{e.seat}:throw" + (f"={_escape(e.reason)}" if e.reason else "")
    if isinstance(e, KittyShown):
        return f"kitty={_cards(e.cards)}"
    if isinstance(e, TrumpNamed):
        return f"{e.seat}:trump={e.suit}"
    if isinstance(e, Buried):
        return f"{e.seat}:bury={_cards(e.cards)}"
    if isinstance(e, CardsPassed):
        return f"{e.seat}:pass{e.to_seat}={_cards(e.cards)}"
    if isinstance(e, MeldShown):
        return f"{e.seat}:meld={_cards(e.cards)}"
    if isinstance(e, Conceded):
        return f"{e.seat}:concede" + ("=agreed" if e.agreed else "")
    if isinstance(e, CardPlayed):
        return f"{e.seat}:{e.card}"
    if isinstance(e, Claimed):
        return f"{e.seat}:claim" + ("=lost" if e.lost else "")
    if isinstance(e, TrickGathered):
        return "/"
    if isinstance(e, HandAgreed):
        return f"{e.seat}:agreed"
    raise NotationError(f"{type(e).__name__} has no notation")


def public_event(e: Event, rules: Rules) -> Event:
    """`e` as everyone at the table may see it: no dealt hands, no face-down cards (a
    two-handed discard pile is shown when it is counted)."""
    if isinstance(e, HandDealt) and e.hands is not None:
        return replace(e, hands=None, kitty=None)
    if isinstance(e, CardsPassed) and e.cards is not None:
        return replace(e, cards=None)
    if isinstance(e, StockDrawn) and (e.kept is not None or e.discarded is not None):
        return replace(e, kept=None, discarded=None)
    if isinstance(e, Buried) and e.cards is not None and not rules.draw_from_stock:
        return replace(e, cards=None)
    if isinstance(e, Corrected):  # a corrected deal, bury or pass hides its cards too
        return replace(e, replacement=public_event(e.replacement, rules))
    return e


def position_text(g: Game, public: bool = False) -> str:
    """The notation of `g`; `public` leaves out what the players cannot see (the page's copy:
    it parses as the same game on a table where the hands are hidden)."""
    events = (public_event(e, g.rules) for e in g.events) if public else g.events
    moves = " ".join(event_token(e) for e in events)
    return f"{header_text(g.hand.opening)} : {moves}".rstrip()


def parse_event(token: str, dealer: int) -> Event:
    """The event a move token stands for; `NotationError` quotes a bad token."""
    try:
        return _parse_event(token, dealer)
    except (ValueError, IndexError) as exc:
        raise NotationError(f"bad move {token!r}: {exc}") from None


def _parse_event(token: str, dealer: int) -> Event:
    if token == "/":
        return TrickGathered()
    if token == "deal":
        return HandDealt(dealer=dealer)
    if token.startswith("deal[") and token.endswith("]"):
        parts = token[5:-1].split("|")
        hands = tuple(_parse_cards(p) or () for p in parts[:-1])
        return HandDealt(dealer=dealer, hands=hands, kitty=_parse_cards(parts[-1]) or ())
    if token.startswith("kitty="):
        return KittyShown(cards=_parse_cards(token[6:]) or ())
    seat_text, _, move = token.partition(":")
    seat = int(seat_text)
    if move.isdigit():
        return BidMade(seat=seat, amount=int(move))
    if move == "p":
        return Passed(seat=seat)
    word, _, drawn = move.partition("=")
    if word in ("keep", "reject"):
        kept, discarded = drawn.split(".") if drawn else ("?", "?")
        return StockDrawn(seat=seat, kept_first=word == "keep",
                          kept=_parse_card_or_unseen(kept),
                          discarded=_parse_card_or_unseen(discarded))
    if move == "push":
        return PushedToDealer(seat=seat)
    if move in ("claim", "claim=lost"):
        return Claimed(seat=seat, lost=move.endswith("=lost"))
    if move in ("concede", "concede=agreed"):
        return Conceded(seat=seat, agreed=move.endswith("=agreed"))
    if move == "agreed":
        return HandAgreed(seat=seat)
    if move == "throw" or move.startswith("throw="):
        return ThrownIn(seat=seat, reason=_unescape(move[6:]))
    if move.startswith("trump="):
        return TrumpNamed(seat=seat, suit=Suit.parse(move[6:]))
    if move.startswith("bury="):
        return Buried(seat=seat, cards=_parse_cards(move[5:]))
    if move.startswith("meld="):
        return MeldShown(seat=seat, cards=_parse_cards(move[5:]) or ())
    if move.startswith("pass"):
        to, _, cards = move[4:].partition("=")
        return CardsPassed(seat=seat, to_seat=int(to), cards=_parse_cards(cards))
    return CardPlayed(seat=seat, card=Card.parse(move))


@dataclass(frozen=True)
class Header:
    """What a position's text says before its moves: the game as the hand was dealt."""

    rules: Rules
    names: tuple[str, ...]
    dealer: int
    scores: tuple[int, ...]
    hand_number: int
    ledger: tuple[int, ...] | None   # None: as a new game starts (no money, or the ante paid)
    checks: tuple[int, ...] | None
    sets: tuple[int, ...] | None
    pot: int | None
    target: int
    deals_done: int
    bidders_only: frozenset[int] | None
    winner: int | None
    moves: tuple[str, ...]       # the hand's move tokens (parse_event reads each)

    def standing(self, new: Standing) -> Standing:
        """The standing the text gives, from `new`, the standing of a new game of its rules."""
        return new.replace(
            scores=self.scores, hand_number=self.hand_number,
            ledger=new.ledger if self.ledger is None else self.ledger,
            checks=new.checks if self.checks is None else self.checks,
            sets=new.sets if self.sets is None else self.sets,
            pot=new.pot if self.pot is None else self.pot, target=self.target,
            deals_done=self.deals_done, bidders_only=self.bidders_only, winner=self.winner)


def parse_header(text: str) -> Header:
    """The parts of a position's text (`Game.parse` builds the position from them)."""
    head, sep, moves = text.partition(" : ")
    if not sep:
        head, moves = text.rstrip(" :"), ""
    fields = head.split()
    if len(fields) < 5:
        raise NotationError(f"not a position: {text!r} (want: variant names scores dealer "
                            f"#hands : moves)")
    variant, names, scores, dealer_text, number = fields[:5]
    name, _, opts = variant.partition("{")
    try:
        rules = preset(name)
        if opts:
            pairs = dict(kv.split("=", 1) for kv in opts.rstrip("}").split(","))
            rules = with_options(rules, pairs)
        seat_names = tuple(_unescape(n) for n in names.split(","))
        dealer = int(dealer_text.lstrip("d"))
        extra = dict(f.split("=", 1) for f in fields[5:])
        ledger, checks, sets = (_int_tuple(extra[k]) if k in extra else None
                                for k in ("ledger", "checks", "sets"))
        return Header(
            rules, seat_names, dealer, _int_tuple(scores), int(number.lstrip("#")),
            ledger, checks, sets,
            int(extra.get("pot", "0")) if "pot" in extra or rules.pot_ante else None,
            int(extra.get("target", rules.target)), int(extra.get("deals", "0")),
            frozenset(_int_tuple(extra["only"])) if "only" in extra else None,
            int(extra["winner"]) if "winner" in extra else None, tuple(moves.split()))
    except ValueError as exc:
        raise NotationError(f"not a position: {text!r}: {exc}") from None


def _int_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(","))
