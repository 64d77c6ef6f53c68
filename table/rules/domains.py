"""The values each rule option may take, checked wherever options are read (`with_options`:
the command line's --option, the page's new-game form, and the journal when a game is resumed).

A value outside its domain would make a game that loops (a bid step of -10), fails on every
request (a step of 0) or deals a deck that does not fit the hands. `DOMAINS` names the range of
each option by its text name (`bid_step`, `meld.run`); an option not listed takes any whole
number within `ANY_NUMBER`. `TOGETHER` lists the checks that look at several options at once.
To add an option: add its line to `DOMAINS` (and a line to `TOGETHER` if it must fit others).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .variants import CardPoints, Rules, StakeRow


@dataclass(frozen=True)
class Range:
    """Whole numbers from `low` to `high`; `none` also allows None ("none" in option text)."""

    low: int
    high: int
    none: bool = False

    def problem(self, value: Any) -> str | None:
        if value is None and self.none:
            return None
        if isinstance(value, bool) or not isinstance(value, int) \
                or not self.low <= value <= self.high:
            extra = ", or none" if self.none else ""
            return f"a whole number from {self.low} to {self.high}{extra}"
        return None


@dataclass(frozen=True)
class OneOf:
    values: tuple[int, ...]

    def problem(self, value: Any) -> str | None:
        if value in self.values and not isinstance(value, bool):
            return None
        return "one of " + ", ".join(str(v) for v in self.values)


@dataclass(frozen=True)
class Each:
    """A list (tuple) whose every item is in `item`."""

    item: Range

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, tuple) or any(self.item.problem(v) for v in value):
            return f"numbers each from {self.item.low} to {self.item.high}"
        return None


@dataclass(frozen=True)
class Points:
    """Card points: every rank and the last trick within `each`."""

    each: Range

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, CardPoints) or any(
                self.each.problem(getattr(value, f.name))
                for f in dataclasses.fields(value) if f.name != "name"):
            return f"card points each from {self.each.low} to {self.each.high}"
        return None


@dataclass(frozen=True)
class Stakes:
    """Rows min_bid:win:set, at least one, each number within `each`."""

    each: Range

    def problem(self, value: Any) -> str | None:
        if not isinstance(value, tuple) or not value or not all(
                isinstance(r, StakeRow) and not any(
                    self.each.problem(getattr(r, f.name)) for f in dataclasses.fields(r))
                for r in value):
            return (f"at least one row bid:win:set (like 250:1:2), each number from "
                    f"{self.each.low} to {self.each.high}")
        return None


Domain = Range | OneOf | Each | Points | Stakes

ANY_NUMBER = Range(-1_000_000, 1_000_000)
_SCORE = Range(0, 100_000)
_MELD = Range(0, 100_000, none=True)

DOMAINS: dict[str, Domain] = {
    "players": OneOf((2, 3, 4)),
    "seats_at_table": OneOf((0, 2, 3, 4)),
    "copies": OneOf((2, 4)),
    "hand_size": Range(1, 40),
    "kitty_size": Range(0, 12),
    "bury": Range(0, 12),
    "pass_cards": Range(0, 6),
    "points": Points(Range(0, 1000)),
    "min_bid": Range(1, 100_000),
    "bid_step": Range(1, 1000),
    "forbidden_endings": Each(Range(0, 99)),
    "dealer_forced_bid": _SCORE,
    "push_to_dealer": _SCORE,
    "push_from_bid": _SCORE,
    "concede_margin": _SCORE,
    "forced_concede_margin": _SCORE,
    "stakes": Stakes(Range(0, 1_000_000)),
    "pot_ante": _SCORE,
    "pot_min_bid": _SCORE,
    "game_stake": _SCORE,
    "set_stake": _SCORE,
    "target": Range(0, 1_000_000),  # 0: no target (stakes, pot)
    "deals": Range(0, 1000),
    "negative_limit": Range(-1_000_000, 0),
    "overtime_step": Range(1, 100_000),
    "unburied_forfeit": _SCORE,
    "scale": Range(1, 1000),
    "agree_hands": OneOf((0, 1)),  # 1: the other side agrees to each hand's result
    **{f"meld.{name}": _MELD for name in (
        "run", "royal_marriage", "marriage", "dix", "pinochle", "aces", "kings", "queens",
        "jacks", "double_run", "double_pinochle", "double_aces", "double_kings",
        "double_queens", "double_jacks", "double_royal_marriage", "double_royal_with_run",
        "roundhouse", "roundhouse_with_run")},
}


def _endings(r: Rules) -> str | None:
    reachable = {(r.min_bid + k * r.bid_step) % 100 for k in range(100)}
    if reachable <= set(r.forbidden_endings):
        return (f"with min_bid {r.min_bid} and bid_step {r.bid_step} every bid ends in a "
                f"forbidden ending ({'+'.join(str(e) for e in r.forbidden_endings)})")
    return None


def _deck(r: Rules) -> str | None:
    dealt = r.players * r.hand_size + r.kitty_size
    if dealt > r.deck_size or (not r.draw_from_stock and dealt != r.deck_size):
        return (f"{r.players} hands of {r.hand_size} and a kitty of {r.kitty_size} make "
                f"{dealt} cards, but the deck (copies {r.copies}, nines "
                f"{'yes' if r.nines else 'no'}) has {r.deck_size}")
    return None


def _bury(r: Rules) -> str | None:
    if not r.draw_from_stock and r.bury != r.kitty_size:
        return (f"the declarer buries as many cards as the kitty adds: bury must be "
                f"{r.kitty_size}, not {r.bury}")
    return None


def _seats(r: Rules) -> str | None:
    if r.seats_at_table not in (0, r.players) and not (
            r.players == 3 and r.seats_at_table == 4 and not r.partnerships):
        return f"seats_at_table is 0, {r.players}, or 4 when 3 are dealt in"
    if r.partnerships and (r.players != 4 or r.table_seats != 4):
        return "partnerships need 4 players at 4 seats"
    if r.pass_cards and not r.partnerships:
        return "only partners pass cards: pass_cards needs partnerships"
    if r.draw_from_stock and (r.players, r.kitty_size, r.copies, r.nines, r.hand_size,
                              r.bury) != (2, 0, 2, True, 12, 0):
        return ("hands are built from the stock only as two-hand has it: 2 players, hands "
                "of 12 from one pinochle deck, no kitty, nothing buried")
    return None


# Checks across options, in order: the first problem found is reported.
TOGETHER: tuple[Callable[[Rules], str | None], ...] = (_seats, _deck, _bury, _endings)


def rule_problem(rules: Rules) -> str | None:
    """Why `rules` cannot be played (naming the option and what it may be), or None."""
    for name, value in _option_values(rules):
        domain = DOMAINS.get(name)
        if domain is None:
            if isinstance(value, int) and not isinstance(value, bool):
                domain = ANY_NUMBER
            else:
                continue  # yes/no, a choice from a list: its parser already checked it
        problem = domain.problem(value)
        if problem is not None:
            return f"{name} must be {problem}, not {_text(value)}"
    for check in TOGETHER:
        problem = check(rules)
        if problem is not None:
            return problem
    return None


def _option_values(rules: Rules) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if f.name in ("meld", "checks"):
            out += [(f"{f.name}.{g.name}", getattr(value, g.name))
                    for g in dataclasses.fields(value)]
        elif f.name not in ("name", "description", "source"):
            out.append((f.name, value))
    return out


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return "+".join(str(v) for v in value) or "none"
    if isinstance(value, CardPoints):
        return "/".join(str(getattr(value, f.name)) for f in dataclasses.fields(value)
                        if f.name != "name")
    return str(value)
