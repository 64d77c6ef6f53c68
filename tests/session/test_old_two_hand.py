"""Two-handed journals written before each turn at the stock was entered (`StockDrawn`) still
resume: their games read as `draw_events=no`; new games say which they are."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from table.journal import Journal
from table.rules import BidMade, Event, HandDealt, Passed, Phase, StockDrawn, new_game, preset
from table.session import Session, replay_journal

NAMES = ["South", "North"]


def _write_old_game(journal: Journal, events: list[Event]) -> int:
    """A two-handed game as the program before the draws wrote it: no draw_events option."""
    game_id = journal.new_game("two-hand", {}, NAMES, 0)
    for number, event in enumerate(events, 1):
        journal.append(game_id, number, event, True)
    return game_id


def test_an_old_two_hand_journal_resumes_without_draws(tmp_path: Path) -> None:
    old_rules = dataclasses.replace(preset("two-hand"), draw_events=False)
    game = new_game(old_rules, NAMES, 0).apply(HandDealt(dealer=0))
    first = game.turn
    assert first is not None and game.phase is Phase.AUCTION
    bid = BidMade(seat=first, amount=old_rules.min_bid)
    with Journal(tmp_path / "old.sqlite3") as journal:
        game_id = _write_old_game(journal, [HandDealt(dealer=0), bid])
        session = Session.resume(journal, game_id).start()
        try:
            assert session.rules.draw_events is False
            assert session.game.phase is Phase.AUCTION and session.game.high_bid == bid.amount
            other = session.game.turn
            assert other is not None and other != first
            assert session.submit(Passed(seat=other), timeout=5).accepted  # play goes on
        finally:
            session.stop(5)
        assert replay_journal(journal, journal.game(game_id)).phase is not Phase.DRAW


def test_a_journal_with_draws_keeps_them(tmp_path: Path) -> None:
    """A game written after the draws came in but before its option was recorded."""
    game = new_game(preset("two-hand"), NAMES, 0).apply(HandDealt(dealer=0))
    assert game.phase is Phase.DRAW and game.turn is not None
    drawn = StockDrawn(seat=game.turn, kept_first=True)
    with Journal(tmp_path / "between.sqlite3") as journal:
        game_id = _write_old_game(journal, [HandDealt(dealer=0), drawn])
        session = Session.resume(journal, game_id)
        assert session.rules.draw_events is True
        assert session.game.phase is Phase.DRAW and session.game.turn != drawn.seat


def test_new_two_hand_games_record_whether_draws_are_entered(tmp_path: Path) -> None:
    with Journal(tmp_path / "new.sqlite3") as journal:
        for rules, said in ((preset("two-hand"), "yes"),
                            (dataclasses.replace(preset("two-hand"), draw_events=False), "no")):
            session = Session.create(journal, rules, NAMES)
            assert journal.game(session.game_id).options["draw_events"] == said
            assert Session.resume(journal, session.game_id).rules == rules
        bison = Session.create(journal, preset("bison"), ["Ann", "Bob", "Cy"])
        assert journal.game(bison.game_id).options == {}
