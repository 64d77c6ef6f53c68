"""A game out of the journal: everything as JSON, and a score sheet players can read (CSV);
and each player's record across the games of a journal (the same name is the same person)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from table.journal import GameRecord, Journal
from table.rules import Game, HandResult, Scoring
from table.rules.seats import side_of
from table.session import replay_journal

FORMAT = "pinochle-table game"
FORMAT_VERSION = 1


def game_json(journal: Journal, game_id: int) -> dict[str, Any]:
    """The whole game: setup, every journal entry (refused ones with their reason), alerts,
    the hands played and where it stands."""
    record = journal.game(game_id)
    game = replay_journal(journal, record)
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": {
            "id": record.id,
            "created": _when(record.created),
            "variant": record.variant,
            "options": record.options,
            "seats": list(record.names),
            "first_dealer": record.first_dealer,
        },
        "entries": [
            {"number": e.number, "accepted": e.accepted, "reason": e.reason,
             "logged": _when(e.logged), "event": e.event.to_dict()}
            for e in journal.events(game_id)
        ],
        "alerts": [
            {"id": a.id, "after_entry": a.after_event, "logged": _when(a.logged),
             "alert": a.alert.to_dict()}
            for a in journal.alerts(game_id)
        ],
        "hands": [_hand_json(h, record.names) for h in hands_played(game)],
        "standing": {
            "phase": game.phase.value,
            "hand_number": game.hand_number,
            "scores": dict(zip(record.names, game.scores, strict=True)),
            "winner": None if game.winner is None else record.names[game.winner],
            "position": game.position(),
        },
    }


def hands_played(game: Game) -> list[HandResult]:
    """The results of the finished hands, the current one included once it is scored."""
    done = list(game.history)
    if game.result is not None:
        done.append(game.result)
    return done


def score_sheet(journal: Journal, game_id: int) -> str:
    """The score sheet as CSV: one row per hand, each seat's meld, tricks, change and total."""
    record = journal.game(game_id)
    game = replay_journal(journal, record)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in score_rows(record, game):
        writer.writerow(row)
    return out.getvalue()


def score_rows(record: GameRecord, game: Game) -> list[list[str]]:
    """The sheet's rows: a header, one row per hand, then the totals the game holds."""
    names = record.names
    money = game.rules.scoring in (Scoring.STAKES, Scoring.POT)
    checks = game.rules.scoring is Scoring.CHECKS
    unit = "stakes" if money else "score"
    header = ["hand", "dealer", "declarer", "bid", "trump", "outcome"]
    for name in names:
        header += [f"{name} meld", f"{name} tricks", f"{name} {unit}", f"{name} total"]
        header += [f"{name} checks"] if checks else []
    rows = [header]
    totals = [0] * len(names)
    for hand in hands_played(game):
        change = hand.ledger_change if money else hand.score_change
        row = [str(hand.hand_number), names[hand.dealer],
               "" if hand.declarer is None else names[hand.declarer],
               "" if hand.bid is None else str(hand.bid),
               "" if hand.trump is None else hand.trump.word,
               hand.outcome + (f" ({hand.note})" if hand.note else "")]
        for seat in range(len(names)):
            totals[seat] += change[seat]
            # meld in brackets did not count (the side took no counter, or only the bidder melds)
            meld = str(hand.meld[seat]) if hand.meld_counted[seat] else f"({hand.meld[seat]})"
            row += [meld, str(hand.tricks[seat]), f"{change[seat]:+d}", str(totals[seat])]
            row += [f"{hand.checks_change[seat]:+d}"] if checks else []
        rows.append(row)
    final = game.ledger if money else game.scores
    last = ["total", "", "", "", "", _standing_text(game)]
    for seat in range(len(names)):
        last += ["", "", "", str(final[seat])]
        last += [str(game.checks[seat])] if checks else []
    rows.append(last)
    return rows


def _standing_text(game: Game) -> str:
    if game.winner is not None:
        return f"{game.names[game.winner]} wins"
    return f"{game.phase.value}, hand {game.hand_number}"


def _hand_json(hand: HandResult, names: tuple[str, ...]) -> dict[str, Any]:
    return {
        "hand": hand.hand_number,
        "dealer": names[hand.dealer],
        "declarer": None if hand.declarer is None else names[hand.declarer],
        "bid": hand.bid,
        "trump": None if hand.trump is None else str(hand.trump),
        "outcome": hand.outcome,
        "note": hand.note,
        "meld": list(hand.meld),
        "meld_counted": list(hand.meld_counted),
        "tricks": list(hand.tricks),
        "score_change": list(hand.score_change),
        "ledger_change": list(hand.ledger_change),
    }


def _when(seconds: float) -> str:
    """A journal time as ISO 8601 in UTC."""
    return dt.datetime.fromtimestamp(seconds, dt.UTC).isoformat(timespec="milliseconds")


@dataclass
class PlayerRecord:
    """One player across games: a player is a name, the same name being the same person."""

    name: str
    games: int = 0
    won: int = 0
    hands: int = 0          # hands dealt in and bid on (thrown-in hands left out)
    bids: int = 0           # bids taken
    made: int = 0
    sets: int = 0           # bids set or conceded
    meld_total: int = 0
    biggest_meld: int = 0

    @property
    def average_meld(self) -> float:
        return self.meld_total / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "games": self.games, "won": self.won, "hands": self.hands,
                "bids": self.bids, "made": self.made, "sets": self.sets,
                "average_meld": round(self.average_meld, 1), "biggest_meld": self.biggest_meld}


def player_records(games: Iterable[tuple[GameRecord, Game]]) -> list[PlayerRecord]:
    """Each name's record over `games` (each a journal record and its game as replayed),
    most games won first. A game counts as won by every seat of the winning side."""
    out: dict[str, PlayerRecord] = {}
    for record, game in games:
        rules = game.rules
        for seat, name in enumerate(record.names):
            rec = out.setdefault(name, PlayerRecord(name))
            rec.games += 1
            if game.winner is not None and side_of(rules, seat) == side_of(rules, game.winner):
                rec.won += 1
            for hand in hands_played(game):
                if hand.declarer is None or seat >= len(hand.meld):
                    continue
                rec.hands += 1
                rec.meld_total += hand.meld[seat]
                rec.biggest_meld = max(rec.biggest_meld, hand.meld[seat])
                if hand.declarer == seat:
                    rec.bids += 1
                    rec.made += 1 if hand.made else 0
                    rec.sets += 0 if hand.made else 1
    return sorted(out.values(), key=lambda r: (-r.won, -r.games, r.name))


RECORD_HEADER = ["player", "games", "won", "hands", "bids taken", "made", "set",
                 "average meld", "biggest meld"]


def records_csv(records: Iterable[PlayerRecord]) -> str:
    """The players' records as CSV, one row each."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(RECORD_HEADER)
    for r in records:
        writer.writerow([r.name, r.games, r.won, r.hands, r.bids, r.made, r.sets,
                         f"{r.average_meld:.1f}", r.biggest_meld])
    return out.getvalue()


def journal_records(journal: Journal) -> list[PlayerRecord]:
    """The records of every game in `journal` (each game replayed)."""
    return player_records((record, replay_journal(journal, record))
                          for record in journal.games())
