"""The table learns the deck it plays with: a face it cannot read is asked about in the first
hand; once the phone has settled it and every other face was read, it is read in the next hand
and after a restart. Sure readings are learnt once their hand is over, as the game then holds
them; what is learnt stays small and belongs to one deck profile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from table.live.camera import CameraFeed
from table.rules import ALL_CARDS, Card, CardPlayed, Corrected
from vision.calibration import calibrate
from vision.learning import DeckLearner, table_deck
from vision.mat import mat_layout
from vision.profile import DeckProfile, builtin_profile
from vision.simulator import MatScene
from vision.tracker import CardUnsure

from .camera_fakes import SMUDGED, Faces, PlaySession, smudged_faces, standard_faces


def _table(faces: Faces, seed: int, learner: DeckLearner,
           session: Any = None) -> tuple[CameraFeed, MatScene]:
    scene = MatScene.create(mat_layout(3), faces, seed)
    feed = CameraFeed(lambda: session, 3, calibration=calibrate(scene.render(), scene.layout),
                      learner=learner)
    return feed, scene


def _watch(feed: CameraFeed, scene: MatScene, frames: int = 16) -> list[Any]:
    out: list[Any] = []
    for _ in range(frames):
        out += feed.process(scene.render())
    return out


def _played(out: list[Any]) -> list[Card]:
    return [item.card for item in out if isinstance(item, CardPlayed)]


def _hand(feed: CameraFeed, scene: MatScene, seed: int) -> tuple[list[Card], list[Card]]:
    """Every face laid once, three at a time on the play spots, each trick gathered; a card
    the camera asks about is settled on the phone. The cards read, and those asked about."""
    order = [ALL_CARDS[int(i)] for i in np.random.default_rng(seed).permutation(24)]
    read, asked = [], []
    for start in range(0, len(order), 3):
        trick = order[start:start + 3]
        for seat, card in enumerate(trick):
            scene.place(card, seat)
        for item in _watch(feed, scene, 14):
            if isinstance(item, CardPlayed):
                assert item.card == trick[item.seat], "a silent misread"
                read.append(item.card)
            elif isinstance(item, CardUnsure) and item.seat is not None:
                asked.append(trick[item.seat])
                assert feed.confirm(trick[item.seat], item.seat, "play")
        scene.gather()
        _watch(feed, scene, 4)
    return read, asked


def test_the_second_hand_asks_less_than_the_first(tmp_path: Path) -> None:
    faces = smudged_faces()
    learnt = tmp_path / "learned-deck.png"
    learner, said = table_deck(tmp_path / "deck.png", learnt)
    assert said == ["deck profile: built-in (ordinary corner indices)",
                    "learnt at the table: nothing yet"]
    session = PlaySession()
    feed, scene = _table(faces, 1, learner, session)
    read, asked = _hand(feed, scene, 1)
    assert SMUDGED in asked and len(read) + len(asked) == 24
    assert not feed.confirm(SMUDGED, 1, "play")       # nobody waits any more
    assert learner.cards == sorted(asked, key=lambda c: c.index) and not learner.complete

    session.game.hand_number = 2                       # the hand is over: the sure ones too
    read, asked = _hand(feed, scene, 2)
    assert learner.complete and learnt.exists()
    assert asked == [] and SMUDGED in read
    assert feed.status()["deck"]["read_with_learnt"]

    # The next start: another camera position and light, what was learnt read from the file.
    again, said = table_deck(tmp_path / "deck.png", learnt)
    assert said[-1] == "learnt at the table: all 24 faces, read with"
    feed, scene = _table(faces, 2, again)
    scene.place(SMUDGED, 2)
    out = _watch(feed, scene)
    assert _played(out) == [SMUDGED]
    assert not any(isinstance(item, CardUnsure) for item in out)


def test_sure_readings_are_learnt_when_their_hand_is_over_as_the_game_holds_them(
        tmp_path: Path) -> None:
    session = PlaySession()
    learner = DeckLearner(builtin_profile(), tmp_path / "learned-deck.png", keep=1)
    feed, scene = _table(standard_faces(), 3, learner, session)
    queen, jack = Card.parse("QS"), Card.parse("JD")
    scene.place(queen, 0)
    scene.place(jack, 1)
    _watch(feed, scene)
    played = {event.card: number for number, event in session.played
              if isinstance(event, CardPlayed)}
    assert set(played) == {queen, jack}
    assert learner.cards == []                        # not while the hand goes on
    # The page put the jack of hearts in place of the jack read: that picture is the jack of
    # hearts from now on (as if settled on the phone: it takes the place of an older one).
    hearts = Card.parse("JH")
    session.played.append((99, Corrected(target=played[jack], replacement=CardPlayed(
        seat=1, card=hearts, source="web"))))
    learner.learn(hearts, np.full((176, 126, 3), 200, np.uint8), settled=True)
    session.game.hand_number = 2
    feed.process(scene.render())
    assert learner.cards == [queen, hearts]
    learned = learner.learned()
    assert len(learned.cards) == 4                    # keep=1: one picture of each
    assert learned.patches[learned.cards == hearts.index].std() > 20   # the camera's, inked
    saved = DeckLearner.load(builtin_profile(), tmp_path / "learned-deck.png")[0]
    assert np.array_equal(saved.learned().patches, learner.learned().patches)
    assert feed.tracker.deck is learner.profile       # the new hand reads with it

    scene.place(Card.parse("KD"), 2)
    _watch(feed, scene)
    assert Card.parse("KD") in [e.card for _, e in session.played if isinstance(e, CardPlayed)]
    session.game_id = 2                               # a new game from the page meanwhile
    session.game.hand_number = 3
    feed.process(scene.render())
    assert learner.cards == [queen, hearts]           # the other game's entries say nothing


def test_what_is_learnt_is_bounded_and_belongs_to_one_profile(tmp_path: Path) -> None:
    base = builtin_profile()
    picture = np.full((176, 126, 3), 230, np.uint8)
    picture[10:40, 8:24] = 30
    learner = DeckLearner(base, tmp_path / "learned-deck.png", keep=2)
    king = Card.parse("KS")
    assert learner.learn(king, picture, settled=False)
    assert learner.learn(king, picture[:, ::-1].copy(), settled=False)
    assert not learner.learn(king, picture, settled=False)   # full: a sure reading waits
    assert learner.learn(king, picture, settled=True)        # a settled card takes a place
    assert len(learner.learned().cards) == 4                 # two pictures, two corners each
    assert not learner.learn(king, picture[:10], settled=True)   # a sliver: nothing to keep
    assert learner.save() and not learner.save()             # written once per change
    loaded, _ = DeckLearner.load(base, tmp_path / "learned-deck.png")
    assert len(DeckLearner(base, None, learner.learned(), keep=1).learned().cards) == 2
    assert np.array_equal(loaded.learned().patches, learner.learned().patches)
    assert loaded.learned().settled == learner.learned().settled == (False, True)
    assert learner.profile is base                          # not read with: one face only
    for card in ALL_CARDS:
        learner.learn(card, picture, settled=False)
    assert learner.complete
    profile = learner.profile
    assert len(profile.cards) == len(base.cards) + 4 + 23 * 2
    assert profile.middles is base.middles

    other = DeckProfile("enrolled", base.patches[:48], base.cards[:48])
    _, said = DeckLearner.load(other, tmp_path / "learned-deck.png")
    assert "another deck profile" in said
    (tmp_path / "damaged.png").write_bytes(b"not a png")
    fresh, said = DeckLearner.load(base, tmp_path / "damaged.png")
    assert fresh.cards == [] and "learning starts afresh" in said


def test_a_card_settled_on_the_phone_fills_in_only_what_the_reader_cannot_tell() -> None:
    # The smudged king: the corner reader sees a king but cannot tell its suit. Corners learnt
    # from sure readings alone never name it; once it was settled on the phone, its learnt
    # corners give the suit, but a rank other than the king the reader leans to they never do.
    from vision import identify
    from vision.faces import flatten

    smudged = flatten(smudged_faces()[SMUDGED])
    assert identify(smudged).card is None
    for settled_as, named in ((None, None), (SMUDGED, SMUDGED), (Card.parse("QH"), None)):
        learner = DeckLearner(builtin_profile())
        for card, face in standard_faces().items():
            learner.learn(card, flatten(face), settled=False)
        if settled_as is not None:
            learner.learn(settled_as, smudged, settled=True)
        assert learner.complete
        assert identify(smudged, learner.profile).card == named, settled_as
