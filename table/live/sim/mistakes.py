"""Deliberate mistakes the simulated players make, once each per run, and whether the table
caught them: a PASS pressed out of turn (refused, the buzzer sounds), a renege (proven later,
scored by the rules), a card the camera cannot read (a smudged face: asked on the phone), a
bumped camera (found, recalibrated)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from table.alerts import Alert
from table.rules import Card, CardPlayed, Game, Passed, legal_plays
from table.session import Session
from vision.simulator import MatScene

from ..phone import PhoneError
from .answers import TableAnswers
from .camera import SimulatedCamera
from .fingers import Fingers

BUMP_FRAMES = 40     # frames for the camera to notice it was bumped and find the mat again


@dataclass
class Mistake:
    """A deliberate mistake and whether the table caught it (and how it was put right)."""

    kind: str           # "out-of-turn", "renege", "unreadable", "bumped"
    hand: int
    text: str
    caught: bool = False
    settled: str = ""


class DeliberateMistakes:
    """Makes each mistake once (none when not `on`), listing them in `made`."""

    def __init__(self, on: bool, made: list[Mistake], session: Session, scene: MatScene,
                 camera: SimulatedCamera, answers: TableAnswers, fingers: Fingers) -> None:
        self.on = on
        self.made = made
        self.session = session
        self.scene = scene
        self.camera = camera
        self.answers = answers
        self.fingers = fingers
        self.renege_hand: int | None = None
        self._smudged: tuple[Card, np.ndarray] | None = None
        self._moved_seen: list[Alert] = []

    def due(self, kind: str) -> bool:
        """Whether this mistake is still to be made."""
        return self.on and not any(m.kind == kind for m in self.made)

    # -- a PASS out of turn --------------------------------------------------------------------

    def out_of_turn(self, g: Game) -> None:
        """The seat after the one to bid presses PASS."""
        assert g.turn is not None
        seat = next(s for s in g.active[g.active.index(g.turn) + 1:] + g.active
                    if s != g.turn)
        mistake = Mistake("out-of-turn", g.hand_number,
                          f"{g.names[seat]} pressed PASS while {g.names[g.turn]} was to bid "
                          f"({self.fingers.channel(seat)})")
        self.made.append(mistake)
        try:
            self.fingers.speak(Passed(seat=seat), self.session.game)
        except PhoneError as exc:
            mistake.caught, mistake.settled = True, f"the page refused it: {exc}"
            return
        outcome = self.answers.wait_for(Passed(seat=seat), "the out-of-turn press to be refused",
                                        None, self.camera.frame, refused=True)
        mistake.caught = not outcome.accepted
        mistake.settled = f"refused: {outcome.reason}"

    # -- a renege ------------------------------------------------------------------------------

    def renege(self, g: Game, event: CardPlayed, hand: list[Card]) -> CardPlayed:
        """From the third trick on, a seat that must follow plays another suit instead."""
        if len(g.tricks) < 2 or not g.trick or not self.due("renege"):
            return event
        led = [c for _, c in g.trick]
        legal = set(legal_plays(hand, led, g.trump, g.rules, False))
        wrong = sorted(c for c in hand if c not in legal and c.suit is not led[0].suit)
        if not wrong:
            return event
        card = wrong[0]
        self.renege_hand = g.hand_number
        self.made.append(Mistake("renege", g.hand_number,
                                 f"{g.names[event.seat]} played {card} on a "
                                 f"{led[0].suit.word} lead holding {led[0].suit.word}"))
        return CardPlayed(seat=event.seat, card=card, source=event.source)

    def check_renege(self) -> None:
        mistake = next((m for m in self.made if m.kind == "renege" and not m.caught), None)
        if mistake is None:
            return
        found = self.session.game.reneges
        if found:
            mistake.caught = True
            mistake.settled = f"proven: {found[0].text}; the rules score it"

    # -- a smudged card ------------------------------------------------------------------------

    def smudge(self, g: Game, card: Card) -> bool:
        """From the second trick on (not in the renege's hand), a thumb over the index: the
        face washed out so the camera cannot be sure. Whether it was smudged."""
        if not (g.tricks and self.renege_hand != g.hand_number
                and not any(c == card for _, c in g.trick) and self.due("unreadable")):
            return False
        face = self.scene.faces[card]
        self._smudged = (card, face)
        washed = face.copy()
        # Washed out past reading by eye: the corner reader reads a face blurred at 6 px with
        # 35 % of its contrast left (most cards of a kdegames deck), so it is not smudged enough.
        washed[:, :, :3] = cv2.GaussianBlur(face[:, :, :3], (0, 0), 10)
        washed[:, :, :3] = (washed[:, :, :3] * 0.25 + 180).astype(np.uint8)
        self.scene.faces[card] = washed
        self.made.append(Mistake("unreadable", g.hand_number,
                                 f"the {card.name} was laid with a smudged face"))
        return True

    def unsmudge(self) -> None:
        if self._smudged is not None:
            card, face = self._smudged
            self.scene.faces[card] = face
            self._smudged = None

    # -- a bumped camera -----------------------------------------------------------------------

    def bump(self, g: Game) -> None:
        """From the second trick on, someone knocks the camera once."""
        if len(g.tricks) < 2 or not self.due("bumped"):
            return
        mistake = Mistake("bumped", g.hand_number, "someone knocked the camera")
        self.made.append(mistake)
        self.scene.bump(25.0)
        seen = len(self._moved_seen)
        for _ in range(BUMP_FRAMES):
            self.camera.frame()
            self.answers.catch_up()
            kinds = [a.kind for a in self._moved_seen[seen:]]
            if "camera-moved" in kinds and ("camera-calibrated" in kinds
                                            or "camera-ok" in kinds):
                mistake.caught = True
                mistake.settled = "the camera found the mat again (" + ", ".join(kinds) + ")"
                return
        mistake.settled = "the camera did not notice within " + str(BUMP_FRAMES) + " frames"

    # -- what the table said -------------------------------------------------------------------

    def seen(self, alert: Alert) -> None:
        """Note an alert: the camera's word on being moved, or its question about the
        smudged card (which catches that mistake)."""
        if alert.kind.startswith("camera-") and alert.kind != "camera-unsure":
            self._moved_seen.append(alert)
        elif alert.kind == "camera-unsure" and self._smudged is not None \
                and str(alert.details.get("area", "play")) == "play":
            mistake = next(m for m in self.made if m.kind == "unreadable")
            mistake.caught = True
            mistake.settled = "asked on the page: " + alert.text
