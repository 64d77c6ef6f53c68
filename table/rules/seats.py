"""Seats around the table: who plays this hand, in what order, and who partners whom."""

from __future__ import annotations

from .variants import Rules, SitOut

COMPASS = {
    2: ("South", "North"),
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
}


def default_names(seats: int) -> tuple[str, ...]:
    return COMPASS.get(seats, tuple(f"Seat {i + 1}" for i in range(seats)))


def active_seats(rules: Rules, dealer: int) -> tuple[int, ...]:
    """The seats dealt in this hand, in order of play from the dealer's left (clockwise)."""
    n = rules.table_seats
    order = tuple((dealer + 1 + i) % n for i in range(n))
    if n > rules.players:
        sitter = dealer if rules.sit_out is SitOut.DEALER else (dealer - 1) % n
        order = tuple(s for s in order if s != sitter)
    return order


def side_of(rules: Rules, seat: int) -> int:
    """Partners opposite share a side (0 or 1); otherwise every seat is its own side."""
    return seat % 2 if rules.partnerships else seat


def partner_of(rules: Rules, seat: int) -> int | None:
    return (seat + 2) % 4 if rules.partnerships else None
