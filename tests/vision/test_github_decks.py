"""Decks read from GitHub snapshots (vision/training/github_decks.py): a tiny fake snapshot made
here with git (no network) becomes correctly labelled faces, and reserved material is refused."""

from __future__ import annotations

import dataclasses
import multiprocessing
import subprocess
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from table.rules import ALL_CARDS, Card, Suit
from vision.corners import NO_SUIT, OTHER_RANK
from vision.faces import DeckUnusable
from vision.training import github_decks
from vision.training.github_decks import GithubDeck, SnapshotMissing


def _card_png(text: str, colour: tuple[int, int, int]) -> bytes:
    image = np.full((176, 126, 3), 255, np.uint8)
    cv2.putText(image, text, (4, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2)
    ok, data = cv2.imencode(".png", image)
    assert ok
    return bytes(data.tobytes())


def _fake_snapshot(root: Path, repo: str, files: dict[str, bytes]) -> str:
    """A bare mirror of a one-commit repository holding `files`; returns the commit."""
    work = root / "work"
    for path, data in files.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_bytes(data)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false",
           "-C", str(work)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "deck"], check=True)
    bare = root / "mirror" / repo.replace("/", "+") / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True)
    out = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def _fake_deck(commit: str, split: str = "train") -> GithubDeck:
    return GithubDeck("gh-fake", "someone/fake-cards", commit,
                      r"faces/(?P<rank>\w+?)_of_(?P<suit>\w+)\.png", r"faces/(back|joker)\.png",
                      "public domain", "drawn by this test", split)


def test_a_snapshot_becomes_labelled_faces(tmp_path: Path) -> None:
    red, black = (0, 0, 200), (0, 0, 0)
    files = {"faces/ace_of_spades.png": _card_png("A", black),
             "faces/10_of_hearts.png": _card_png("10", red),
             "faces/queen_of_diamonds.png": _card_png("Q", red),
             "faces/9_of_clubs.png": _card_png("9", black),
             "faces/7_of_hearts.png": _card_png("7", red),
             "faces/joker.png": _card_png("JK", black),
             "faces/back.png": _card_png("", black),
             "faces/notes.png": _card_png("?", black),
             "README.md": b"a fake deck\n"}
    commit = _fake_snapshot(tmp_path, "someone/fake-cards", files)
    deck = _fake_deck(commit)
    sizes: list[tuple[int, ...]] = []

    def fit(image: np.ndarray) -> np.ndarray:
        sizes.append(image.shape)
        return cv2.resize(image, (63, 88))

    faces = github_decks.load_faces(deck, fit, tmp_path / "cache", tmp_path / "mirror")
    named = sorted(str(f.card) for f in faces if f.card is not None)
    assert named == sorted(str(Card.parse(c)) for c in ("AS", "10H", "QD", "9C"))
    others = sorted((f.rank, f.suit) for f in faces if f.card is None)
    assert others == sorted([(OTHER_RANK, Card.parse("AH").suit.index),
                             (OTHER_RANK, NO_SUIT), (OTHER_RANK, NO_SUIT)])
    assert all(f.image.shape == (88, 63, 4) for f in faces)
    assert all(shape[2] == 4 for shape in sizes)           # opaque PNGs gain an alpha channel
    # A second load reads the cache, not the snapshot.
    again = github_decks.load_faces(deck, fit, tmp_path / "cache", tmp_path / "nowhere")
    assert sorted(str(f.card) for f in again if f.card) == named


def test_a_missing_snapshot_says_how_to_bring_it(tmp_path: Path) -> None:
    deck = _fake_deck("0" * 40)
    with pytest.raises(SnapshotMissing, match="fetch github:someone/fake-cards"):
        github_decks.load_faces(deck, lambda i: i, tmp_path / "cache", tmp_path)
    assert not github_decks.available(deck, tmp_path / "cache", tmp_path)
    assert github_decks.check_snapshots([deck], tmp_path)[0].startswith("gh-fake: no snapshot")


def test_a_snapshot_without_the_pinned_commit_is_unusable(tmp_path: Path) -> None:
    _fake_snapshot(tmp_path, "someone/fake-cards", {"faces/ace_of_spades.png": b"x"})
    deck = _fake_deck("1" * 40)
    with pytest.raises(DeckUnusable, match="someone/fake-cards"):
        github_decks.load_faces(deck, lambda i: i, tmp_path / "cache", tmp_path / "mirror")


@pytest.mark.parametrize("rank, suit, want", [
    ("ace", "spades", ("A", "S")), ("K", "h", ("K", "H")), ("Queen", "Clubs", ("Q", "C")),
    ("jack", "diamond", ("J", "D")), ("T", "S", ("10", "S")), ("10", "hearts", ("10", "H")),
    ("9", "c", ("9", "C")), ("1", "d", ("A", "D")), ("es", "spar", ("A", "S")),
    ("konge", "kloer", ("K", "C")), ("dame", "hjerter", ("Q", "H")),
    ("knaegt", "ruder", ("J", "D"))])
def test_file_names_give_ranks_and_suits(rank: str, suit: str, want: tuple[str, str]) -> None:
    labelled = github_decks.label(rank, suit)
    assert labelled is not None
    card = Card.parse("".join(want))
    assert labelled == (int(card.rank), card.suit.index)


def test_small_ranks_are_other_faces_and_nonsense_is_nothing() -> None:
    assert github_decks.label("8", "spades") == (OTHER_RANK, Card.parse("AS").suit.index)
    assert github_decks.label("2", "h") == (OTHER_RANK, Card.parse("AH").suit.index)
    assert github_decks.label("ace", "stars") is None
    assert github_decks.label("knight", "spades") is None


@pytest.mark.parametrize("name, repo", [
    ("photos", "EdjeElectronics/TensorFlow-Object-Detection-API-Tutorial-Train-Multiple-"
               "Objects-Windows-10"),
    ("jumbo", "rickcrawford/cards_dataset"), ("gen", "geaxgx/playing-card-detection"),
    ("std", "younestouati/playing-cards-standard-deck"),
    ("gh-bonded", "someone/solitaire-decks"), ("gh-x", "someone/gnome-cards-data-copy"),
    ("gh-bicycle-jumbo", "someone/cards"), ("gh-pysol-me-uk", "shlomif/PySolFC-Cardsets"),
    ("cardsJS", "npm:cardsJS-1.1.1")])
def test_reserved_material_is_refused(name: str, repo: str) -> None:
    assert github_decks.refused(name, repo)
    with pytest.raises(ValueError, match="reserved"):
        github_decks.checked([GithubDeck(name, repo, "0" * 40, "x", "", "", "", "train")])


@pytest.mark.parametrize("lineage", [
    "Chris Aguilar's Vectorized Playing Cards", "Adrian Kennard's cards (www.me.uk/cards)"])
def test_a_copy_of_reserved_artwork_is_refused_by_its_lineage(lineage: str) -> None:
    # The reserved npm decks are these artworks: a copy under another name is theirs too.
    deck = GithubDeck("gh-nice", "someone/cards", "0" * 40, "x", "", "CC0", lineage,
                      "evaluation")
    with pytest.raises(ValueError, match="reserved"):
        github_decks.checked([deck])


@pytest.mark.parametrize("name, paths, want", [
    ("gh-gruppe9-photos", ["app/src/main/res/drawable/spares.jpg",
                           "app/src/main/res/drawable/hjerterknaegt.jpg",
                           "app/src/main/res/drawable/ruder10.jpg",
                           "app/src/main/res/drawable/test1.jpg"], ["AS", "JH", "10D"]),
    ("gh-kalkaran-photos", ["data/cards/As/As.jpg", "data/cards/10h/10h.jpg",
                            "data/cards/Qd/Kd.jpg", "data/cards/Jc/Jc.png"], ["AS", "10H"])])
def test_a_listed_deck_names_its_faces_from_its_file_names(name: str, paths: list[str],
                                                           want: list[str]) -> None:
    deck = next(d for d in github_decks.DECKS if d.name == name)
    named = [Card.from_index(suit * 6 + rank) for _, rank, suit in
             github_decks.labelled_paths(deck, paths)]
    assert named == [Card.parse(c) for c in want]


def test_the_listed_decks_are_allowed_and_pinned() -> None:
    assert github_decks.DECKS
    for deck in github_decks.DECKS:
        assert github_decks.refused(deck.name, deck.repo) is None
        assert len(deck.commit) == 40 and deck.split in ("train", "calibration", "evaluation")
        assert deck.repo in deck.source and deck.commit[:12] in deck.source


def test_a_photographed_card_is_found_and_straightened_upright() -> None:
    photo = np.full((900, 1200, 3), (30, 60, 110), np.uint8)          # a brown table
    card = np.full((352, 252, 3), 245, np.uint8)
    cv2.putText(card, "K", (10, 45), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 200), 3)
    turned = cv2.rotate(card, cv2.ROTATE_90_CLOCKWISE)                # lying sideways
    photo[300:300 + 252, 400:400 + 352] = turned
    face = github_decks.straightened(photo)
    assert face is not None and face.shape == (352, 252, 4)
    red = (face[:, :, 2] > 150) & (face[:, :, 1] < 80)
    ys, xs = np.nonzero(red)
    # The red K is near one short side's corner: upright (top left) or upside down (bottom right).
    near_top_left = ys.mean() < 80 and xs.mean() < 80
    near_bottom_right = ys.mean() > 352 - 80 and xs.mean() > 252 - 80
    assert near_top_left or near_bottom_right
    assert github_decks.straightened(np.full((600, 800, 3), (30, 60, 110), np.uint8)) is None


def test_a_card_filling_most_of_its_photo_is_cut_whole() -> None:
    # A phone photo of one card (as gh-eeproject-photos): the card covers over half the frame,
    # more than any card on the table does, and runs off the bottom onto a dark strip.
    photo = np.full((1000, 750, 3), (30, 45, 90), np.uint8)           # a brown table
    photo[900:] = (25, 25, 25)
    card = np.full((880, 630, 3), 240, np.uint8)
    cv2.putText(card, "10", (12, 80), cv2.FONT_HERSHEY_SIMPLEX, 2.4, (0, 0, 200), 6)
    for y in (200, 420, 640):
        for x in (200, 430):
            cv2.circle(card, (x, y), 45, (0, 0, 200), -1)
    turn = cv2.getRotationMatrix2D((315, 440), 8, 1.0)
    mask = cv2.warpAffine(np.full(card.shape[:2], 255, np.uint8), turn, (630, 880))
    turned = cv2.warpAffine(card, turn, (630, 880))
    area = photo[60:940, 60:690]
    area[mask > 0] = turned[mask > 0]
    face = github_decks.straightened(photo)
    assert face is not None
    # Whole: all six pips, not a part of the card stretched to a card's shape.
    red = ((face[:, :, 2] > 150) & (face[:, :, 1] < 80)).astype(np.uint8)
    blobs = cv2.connectedComponentsWithStats(red)[2][1:]
    pips = [b for b in blobs if b[cv2.CC_STAT_AREA] > 500]
    assert len(pips) == 6


def test_a_changed_deck_entry_renders_its_faces_again(tmp_path: Path) -> None:
    files = {"faces/ace_of_spades.png": _card_png("A", (0, 0, 0)),
             "faces/king_of_hearts.png": _card_png("K", (0, 0, 200))}
    commit = _fake_snapshot(tmp_path, "someone/fake-cards", files)
    deck = _fake_deck(commit)
    mirror, cache = tmp_path / "mirror", tmp_path / "cache"
    assert len(github_decks.load_faces(deck, lambda i: i, cache, mirror)) == 2
    only_aces = dataclasses.replace(deck, faces=r"faces/(?P<rank>ace)_of_(?P<suit>\w+)\.png")
    faces = github_decks.load_faces(only_aces, lambda i: i, cache, mirror)
    assert [str(f.card) for f in faces] == [str(Card.parse("AS"))]


def _load_into(deck: GithubDeck, root: Path, out: Any) -> None:
    def fit(image: np.ndarray) -> np.ndarray:
        time.sleep(0.02)   # a slower face, so that the second loader starts amid the first
        return image

    faces = github_decks.load_faces(deck, fit, root / "cache", root / "mirror")
    out.put(sorted(str(f.card) for f in faces if f.card is not None))


def test_two_trainers_making_one_deck_at_once_both_get_every_face(tmp_path: Path) -> None:
    ranks = ("ace", "king", "queen", "jack", "10", "9")
    suits = ("spades", "hearts", "clubs", "diamonds")
    files = {f"faces/{r}_of_{s}.png": _card_png(r[0].upper(), (0, 0, 0))
             for r in ranks for s in suits}
    deck = _fake_deck(_fake_snapshot(tmp_path, "someone/fake-cards", files))
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    loaders = [context.Process(target=_load_into, args=(deck, tmp_path, out)) for _ in range(2)]
    loaders[0].start()
    # The second starts once the first has made most faces: unlocked, it would clear them
    # while the first makes its last and reads them back. `got` does not depend on when.
    for _ in range(600):
        made = len(list((tmp_path / "cache").glob("face-*.png")))
        if made >= 20 or not loaders[0].is_alive():
            break
        time.sleep(0.01)
    loaders[1].start()
    got = [out.get(timeout=120) for _ in loaders]
    for loader in loaders:
        loader.join(timeout=60)
    assert got[0] == got[1] and len(got[0]) == 24
    assert not list((tmp_path / "cache").glob("**/*.part*"))


def test_the_design_list_refuses_reserved_material(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    from vision.training import designs

    reserved = GithubDeck("gh-std", "younestouati/playing-cards-standard-deck", "0" * 40,
                          r"(?P<rank>\w)(?P<suit>\w)\.png", "", "", "", "evaluation")
    monkeypatch.setattr(github_decks, "DECKS", (reserved,))
    monkeypatch.setattr(github_decks, "available", lambda deck, cache, root=None: True)
    with pytest.raises(ValueError, match="reserved"):
        designs.designs(0)


def _photographed_deck(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       files: dict[str, bytes]) -> None:
    """A fake snapshot of card photos listed as the photographed deck "fake"."""
    from bench import unseen_decks

    commit = _fake_snapshot(tmp_path, "someone/photos", files)
    entry = GithubDeck("gh-fake-photos", "someone/photos", commit,
                       r"out/(?P<rank>\w+?)(?P<suit>[CDHS])_00\.jpg", "", "none", "a test",
                       "calibration")
    monkeypatch.setattr(github_decks, "DECKS", (entry,))
    monkeypatch.setitem(unseen_decks.GITHUB, "fake", "gh-fake-photos")
    monkeypatch.setattr(unseen_decks, "PHOTOGRAPHED", frozenset({"fake"}))


def test_a_photographed_deck_becomes_faces_with_round_corners_for_busy_scenes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import unseen_decks
    from vision.faces import FACE_HEIGHT, FACE_WIDTH, load_face_folder

    def photo(card: Card) -> bytes:   # a card photographed on a dark table, cut out square
        image = np.full((356, 232, 3), (190, 200, 205), np.uint8)
        for x, y in ((0, 0), (231, 0), (0, 355), (231, 355)):
            cv2.circle(image, (x, y), 12, (30, 30, 30), -1)
        for _ in range(2):   # a four-index deck: top left and top right, and turned round
            for x in (6, 186):
                cv2.putText(image, str(card)[:-1], (x, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                            (0, 0, 0), 3)
            image = cv2.rotate(image, cv2.ROTATE_180)
        ok, data = cv2.imencode(".jpg", image)
        assert ok
        return bytes(data.tobytes())

    files = {f"out/{card}_00.jpg": photo(card) for card in ALL_CARDS}
    files["out/7S_00.jpg"] = photo(Card.parse("AS"))
    _photographed_deck(tmp_path, monkeypatch, files)
    folder = unseen_decks.make_github_deck("fake", tmp_path / "unseen", tmp_path / "mirror")
    faces = load_face_folder(folder)
    assert sorted(faces) == sorted(ALL_CARDS)         # the seven of spades is no pinochle face
    face = faces[Card.parse("KH")]
    assert face.shape == (FACE_HEIGHT, FACE_WIDTH, 4)
    alpha = face[:, :, 3]
    assert alpha[0, 0] == alpha[-1, -1] == alpha[0, -1] == alpha[-1, 0] == 0   # the table's dark
    assert alpha[FACE_HEIGHT // 2].min() == 255 and alpha[:, FACE_WIDTH // 2].min() == 255
    # A face is straight from the photo: its two indices where the photo has them, the other
    # two painted out with the paper (the photos' Bicycle prints two).
    assert face[10:40, 4:30, :3].min() < 80 and face[-40:-10, -30:-4, :3].min() < 80
    for painted in (face[16:46, -64:-12], face[-46:-16, 12:64]):
        assert painted[:, :, :3].min() > 150


def test_a_photographed_deck_lacking_a_face_is_unusable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from bench import unseen_decks

    image = np.full((356, 232, 3), 200, np.uint8)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    _photographed_deck(tmp_path, monkeypatch, {"out/AS_00.jpg": bytes(data.tobytes())})
    with pytest.raises(DeckUnusable, match="fake lacks 9S, JS, QS, KS, 10S, 9H"):
        unseen_decks.make_github_deck("fake", tmp_path / "unseen", tmp_path / "mirror")


def test_a_drawn_deck_from_github_keeps_its_faces_as_drawn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An evaluation deck for the busy scenes (Tek Eye's): no corner rounded, no index painted.
    from bench import unseen_decks
    from vision.faces import load_face_folder

    def face(card: Card) -> bytes:
        image = np.full((352, 252, 4), 255, np.uint8)
        for _ in range(2):   # an index at top left and at top right, and turned round
            for x in (6, 200):
                cv2.putText(image, str(card)[:-1], (x, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                            (0, 0, 0, 255), 3)
            image = cv2.rotate(image, cv2.ROTATE_180)
        ok, data = cv2.imencode(".png", image)
        assert ok
        return bytes(data.tobytes())

    names = {Suit.SPADES: "spades", Suit.HEARTS: "hearts", Suit.CLUBS: "clubs",
             Suit.DIAMONDS: "diamonds"}
    ranks = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "10": "10", "9": "9"}
    files = {f"faces/{ranks[str(c)[:-1]]}_of_{names[c.suit]}.png": face(c) for c in ALL_CARDS}
    commit = _fake_snapshot(tmp_path, "someone/fake-cards", files)
    monkeypatch.setattr(github_decks, "DECKS", (_fake_deck(commit, "evaluation"),))
    monkeypatch.setitem(unseen_decks.GITHUB, "drawn", "gh-fake")
    faces = load_face_folder(
        unseen_decks.make_deck("drawn", tmp_path / "unseen", tmp_path / "mirror"))
    assert sorted(faces) == sorted(ALL_CARDS)
    king = faces[Card.parse("KH")]
    assert king[0, 0, 3] == 255 and king[-1, -1, 3] == 255     # square corners, as drawn
    assert king[10:40, -52:-10, :3].min() < 80                 # the top right index is kept
