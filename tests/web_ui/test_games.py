"""Issue 18 through `app.test_client()`: the bid as it stands, the road to the target, past
games and player records with their CSV downloads, hands agreed by the other side, the
new-game fields, the manifest, and what the card entry offers."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from table.export import hands_played, journal_records, records_csv, score_sheet
from table.journal import Journal
from table.rules import HandAgreed, HandDealt, in_effect, play_game, preset, with_options
from table.rules.game import Phase
from table.rules.scoring import bid_standing
from table.session import Session, replay_journal
from web_ui.app import create_app, web_table
from web_ui.state import road
from web_ui.words import bid_words

from .conftest import NAMES, PIN, pin_headers, play_until


def test_the_bid_as_it_stands_comes_from_the_rules_core(
        client: FlaskClient, session: Session) -> None:
    game = play_until(session, lambda g: g.phase is Phase.PLAY and len(g.tricks) == 3)
    state = client.get("/api/state").get_json()
    b = bid_standing(game)
    assert b is not None and state["game"]["standing"]["needs"] == b.needs
    words = state["bid"]
    who = NAMES[b.declarer]
    if b.needs:
        assert words["declarer"].startswith(f"{who} needs {b.needs} more to make {b.bid}")
        assert f"{b.to_set} of the {b.still_out} still out to set it" in words["others"]
    elif b.made:
        assert words["declarer"].startswith(f"{who} has made {b.bid}")
    else:
        assert words["declarer"].startswith(f"{who} makes {b.bid} on taking")
    assert ("the meld counts once" in words["declarer"]) == (not b.meld_saved and b.meld > 0)
    assert f"meld {b.meld} + {b.taken} taken" in words["declarer"]


@pytest.mark.parametrize("variant", ["partnership4", "brooklyn"])
def test_partnership_and_stakes_say_it_in_their_own_words(variant: str) -> None:
    rules = preset(variant)
    names = ["Ann", "Bob", "Cy", "Dee"][:rules.table_seats]
    for _, game in play_game(rules, random.Random(4), names=names, max_hands=6):
        if game.phase is Phase.PLAY and bid_standing(game) is not None \
                and bid_standing(game).needs:  # type: ignore[union-attr]
            words = bid_words(game.view())
            assert words is not None
            if variant == "partnership4":
                side = " & ".join(names[s] for s in range(4) if s % 2 == game.declarer % 2)
                assert words["declarer"].startswith(f"{side} need ")
                assert " & " in words["others"]
            else:
                assert "; made, each pays" in words["declarer"]
            return
    raise AssertionError("no hand was played")


def test_the_road_runs_through_each_hand_to_the_scores() -> None:
    rules = preset("bison")
    game = list(play_game(rules, random.Random(1), names=NAMES, max_hands=4))[-1][1]
    out = road(game)
    assert out["target"] == rules.target and len(out["hands"]) >= 3
    for side in out["sides"]:
        seat = side["seats"][0]
        assert side["series"][0] == 0 and side["series"][-1] == game.scores[seat]
        assert side["needs"] == max(0, rules.target - game.scores[seat])
        assert len(side["series"]) == len(out["hands"]) + 1
    ledger = road(next(g for _, g in play_game(preset("brooklyn"), random.Random(1),
                                                 max_hands=3) if g.phase is Phase.HAND_OVER))
    assert ledger["unit"] == "stakes" and ledger["target"] is None


def test_the_entry_dims_faces_gone_and_stops_offering_a_gather_once_scored(
        session: Session, client: FlaskClient) -> None:
    game = play_until(session, lambda g: g.phase is Phase.HAND_OVER)
    state = client.get("/api/state").get_json()
    assert state["entry"]["gather"] is False
    played = [str(c) for t in game.tricks for _, c in t]
    assert state["entry"]["gone"] == sorted({c for c in played if played.count(c) == 2})
    assert state["entry"]["gone"]  # a whole hand plays both copies of some faces


# -- hands agreed by the other side ----------------------------------------------------------

@pytest.fixture
def agreeing(journal: Journal) -> Iterator[tuple[Session, FlaskClient]]:
    rules = with_options(preset("bison"), {"agree_hands": "1"})
    s = Session.create(journal, rules, NAMES).start()
    app = create_app({"SESSION": s, "PIN": PIN, "TESTING": True})
    yield s, app.test_client()
    web_table(app).close()
    s.stop(5)


def test_the_next_deal_waits_until_the_other_side_agrees(
        agreeing: tuple[Session, FlaskClient]) -> None:
    session, client = agreeing
    game = play_until(session, lambda g: g.phase is Phase.HAND_OVER
                      and g.result is not None and g.result.declarer is not None)
    assert game.result is not None and game.result.declarer is not None
    declarer = game.result.declarer
    others = [s for s in game.active if s != declarer]
    state = client.get("/api/state").get_json()
    assert state["entry"]["agree"] == others
    assert state["game"]["agreement"] == {"due": others, "by": None}
    reply = client.post("/api/deal", json={}, headers=pin_headers())
    assert reply.status_code == 409 and "to agree" in reply.get_json()["error"]
    reply = client.post("/api/agree", json={"seat": declarer}, headers=pin_headers())
    assert reply.status_code == 409 and "took the bid" in reply.get_json()["error"]
    reply = client.post("/api/agree", json={"seat": NAMES[others[1]]}, headers=pin_headers())
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["text"] == f"{NAMES[others[1]]} agreed with the hand's result"
    assert reply.get_json()["state"]["game"]["agreement"]["by"] == others[1]
    # the journal records who agreed
    last = session.journal.accepted_events(session.game_id)[-1][1]
    assert isinstance(last, HandAgreed) and last.seat == others[1] and last.source == "web"
    assert client.post("/api/deal", json={}, headers=pin_headers()).status_code == 200
    assert session.game.phase is Phase.AUCTION


# -- past games and records ------------------------------------------------------------------

@pytest.fixture
def two_games(journal: Journal) -> Iterator[tuple[Flask, list[int]]]:
    ids = []
    for seed, names in ((1, NAMES), (2, ["Cy", "Ann", "Dot"])):
        s = Session.create(journal, preset("bison"), names).start()
        for event, _ in play_game(preset("bison"), random.Random(seed), names=names,
                                  max_hands=2):
            assert s.submit(event).accepted
        ids.append(s.game_id)
        last = s
        if seed == 1:
            s.stop(5)
    app = create_app({"SESSION": last, "PIN": PIN, "TESTING": True})
    yield app, ids
    web_table(app).close()
    last.stop(5)


def test_past_games_are_listed_and_open_with_their_hands_and_moves(
        two_games: tuple[Flask, list[int]], journal: Journal) -> None:
    app, ids = two_games
    client = app.test_client()
    listed = client.get("/api/games").get_json()["games"]
    assert [g["id"] for g in listed] == ids[::-1]
    assert listed[0]["names"] == ["Cy", "Ann", "Dot"] and listed[0]["variant"] == "bison"
    one = client.get(f"/api/games/{ids[0]}").get_json()
    assert len(one["hand_results"]) == 2 and one["scores"] == listed[1]["scores"]
    hand = client.get(f"/api/games/{ids[0]}?hand=2").get_json()
    deals = [n for n, e in in_effect(journal.accepted_events(ids[0]))
             if isinstance(e, HandDealt)]
    assert hand["moves"][0] == {"number": deals[1], "text": f"{NAMES[1]} dealt"}
    assert client.get(f"/api/games/{ids[0]}?hand=x").status_code == 400
    assert client.get("/api/games/999").status_code == 404
    sheet = client.get(f"/api/games/{ids[0]}/sheet.csv")
    assert sheet.mimetype == "text/csv" and "attachment" in sheet.headers["Content-Disposition"]
    assert sheet.get_data(as_text=True) == score_sheet(journal, ids[0])


def test_player_records_across_games_by_name(two_games: tuple[Flask, list[int]],
                                            journal: Journal) -> None:
    app, _ = two_games
    client = app.test_client()
    data = client.get("/api/records").get_json()
    assert "same name" in data["note"] and data["games"] == 2
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name["Ann"]["games"] == 2 and by_name["Bob"]["games"] == 1
    assert by_name["Dot"]["games"] == 1
    for p in data["players"]:
        assert p["made"] + p["sets"] == p["bids"] and p["biggest_meld"] >= p["average_meld"]
    bid_hands = [h for r in journal.games() for h in hands_played(replay_journal(journal, r))
                 if h.declarer is not None]
    assert sum(p["bids"] for p in data["players"]) == len(bid_hands) > 0
    assert sum(p["made"] for p in data["players"]) == sum(1 for h in bid_hands if h.made)
    assert max(p["biggest_meld"] for p in data["players"]) == max(
        m for h in bid_hands for m in h.meld)
    expected = records_csv(journal_records(journal))
    got = client.get("/api/records.csv").get_data(as_text=True)
    assert got == expected
    rows = list(csv.reader(io.StringIO(got)))
    assert rows[0][0] == "player" and {r[0] for r in rows[1:]} == {"Ann", "Bob", "Cy", "Dot"}


def test_a_table_without_a_journal_says_it_has_no_past_games() -> None:
    app = create_app({"PIN": PIN})
    try:
        reply = app.test_client().get("/api/games")
        assert reply.status_code == 404 and "no past games" in reply.get_json()["error"]
    finally:
        web_table(app).close()


# -- the new-game fields, the manifest -------------------------------------------------------

def test_new_game_fields_carry_the_presets_defaults_and_domains(client: FlaskClient) -> None:
    presets = {p["name"]: p for p in client.get("/api/presets").get_json()["presets"]}
    fields = {f["name"]: f for f in presets["bison"]["fields"]}
    assert fields["min_bid"]["value"] == preset("bison").min_bid
    assert fields["target"]["value"] == preset("bison").target
    assert (fields["agree_hands"]["min"], fields["agree_hands"]["max"]) == (0, 1)
    assert fields["bid_step"]["min"] == 1
    reply = client.post("/api/game", json={"preset": "bison", "names": NAMES,
                                           "options": {"bid_step": "0"}},
                        headers=pin_headers())
    assert reply.status_code == 400
    assert reply.get_json()["error"] == "bid_step must be a whole number from 1 to 1000, not 0"


def test_the_manifest_lets_the_page_sit_on_the_home_screen(client: FlaskClient) -> None:
    reply = client.get("/manifest.webmanifest")
    assert reply.status_code == 200 and reply.mimetype == "application/manifest+json"
    data = reply.get_json()
    assert data["display"] == "standalone" and data["start_url"] == "./"
    icon = client.get(data["icons"][0]["src"])
    assert icon.status_code == 200 and b"<svg" in icon.get_data()
    icon.close()
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_a_finished_game_is_replayed_once(two_games: tuple[Flask, list[int]],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from web_ui import games
    app, ids = two_games
    replayed: list[int] = []
    real = games.replay_journal

    def counting(journal: Journal, record: object) -> object:
        replayed.append(record.id)  # type: ignore[attr-defined]
        return real(journal, record)  # type: ignore[arg-type]
    monkeypatch.setattr(games, "replay_journal", counting)
    client = app.test_client()
    client.get("/api/records")
    client.get("/api/games")
    assert sorted(replayed) == sorted(ids)  # each once, for both answers
    session = web_table(app).live.session
    assert session is not None
    dealer = session.game.next_dealer
    assert dealer is not None
    # the current game moves on; the other does not
    assert session.submit(HandDealt(dealer=dealer)).accepted
    client.get("/api/records")
    assert sorted(replayed) == sorted([*ids, ids[1]])
