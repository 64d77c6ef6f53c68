"""Two-handed (004): keep or reject the card drawn from the stock with the seat buttons."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_bridge.config import BoardPlace, default_wiring
from firmware_bridge.controls import open_controls
from firmware_bridge.simboard import SimulatedBoard
from table.rules import Phase, StockDrawn
from table.session import Session

from .conftest import accepted, refused, settle, turn, wait_until
from .test_gpio import Table


def draws(session: Session) -> list[StockDrawn]:
    return [e for e in accepted(session) if isinstance(e, StockDrawn)]


def test_bid_keeps_and_pass_rejects_on_the_pins(open_session: Callable[..., Session],
                                                pin_factory: Any) -> None:
    session = open_session("two-hand")
    assert session.game.phase is Phase.DRAW
    table = Table(session, pin_factory, default_wiring(2))
    first = turn(session)
    assert session.game.expected().draw is not None
    assert table.light(first) and not table.light(1 - first)
    table.tap(first, "BID")
    second = turn(session)
    assert second != first and table.light(second)
    table.tap(second, "PASS", hold=True)   # a long press means the same
    assert [(d.seat, d.kept_first, d.source) for d in draws(session)] == [
        (first, True, "gpio"), (second, False, "gpio")]
    assert table.panel.refusals == []


def test_a_press_out_of_turn_is_refused_by_the_game(open_session: Callable[..., Session],
                                                    pin_factory: Any) -> None:
    session = open_session("two-hand")
    table = Table(session, pin_factory, default_wiring(2))
    other = 1 - turn(session)
    table.tap(other, "PASS")
    assert draws(session) == []
    assert "draw" in refused(session)[-1].reason
    assert wait_until(lambda: bool(table.panel.refusals))


def test_the_whole_stock_by_buttons_leads_to_the_auction(
        open_session: Callable[..., Session], pin_factory: Any) -> None:
    session = open_session("two-hand")
    table = Table(session, pin_factory, default_wiring(2))
    while (due := session.game.expected().draw) is not None:
        table.tap(due.seat, "BID" if due.count % 3 else "PASS")
    assert len(draws(session)) == session.game.rules.deck_size // 2
    assert session.game.phase is Phase.AUCTION
    assert table.panel.refusals == []


def test_keep_and_reject_on_the_serial_board(open_session: Callable[..., Session],
                                             tmp_path: Path, pin_factory: Any) -> None:
    session = open_session("two-hand")
    board = SimulatedBoard(2, tmp_path / "board").start()
    wiring = replace(default_wiring(2), board=BoardPlace(port=str(tmp_path / "board"),
                                                         usb_id=None))
    controls = open_controls(session, wiring, gpio=False, factory=pin_factory)
    try:
        assert controls.board is not None and controls.board.wait_linked(5)
        first = turn(session)
        board.press(first, "PASS")
        assert wait_until(lambda: len(draws(session)) == 1)
        board.press(turn(session), "BID", hold=True)
        assert wait_until(lambda: len(draws(session)) == 2)
        settle(session)
        assert [(d.seat, d.kept_first, d.source) for d in draws(session)] == [
            (first, False, "serial"), (1 - first, True, "serial")]
    finally:
        controls.stop()
        board.stop()
