"""`pinochle-table run`: the whole table in one process.

Opens the journal, resumes the last unfinished game (or starts one), connects the buttons (GPIO
pins, the serial board), the camera and the face-down keeper to the session, serves the page,
prints its address, the table PIN and a QR code, and runs until Ctrl-C or SIGTERM. With the
simulated camera, simulated players play through all of it (table.live.demo).
"""

from __future__ import annotations

import dataclasses
import logging
import signal
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from table.cli_common import CommandError
from table.journal import Journal, JournalError, default_path
from table.rules import Game, OptionError, Rules, UnknownPresetError, preset, with_options
from table.session import Session, SessionError

from .hardware import Hardware
from .keeper import Keeper

if TYPE_CHECKING:  # the parts are imported when started, so that `--help` stays quick
    from flask import Flask

    from firmware_bridge.config import Wiring
    from firmware_bridge.controls import Controls
    from firmware_bridge.simboard import SimulatedBoard
    from vision.simulator import MatScene
    from web_ui.server import TableServer

    from .camera import CameraFeed
    from .demo import SimulatedPlayers

log = logging.getLogger(__name__)

DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Dee")
QUICK_TIMING = dict(debounce_ms=10, hold_ms=400, raise_window_ms=600)  # headless fingers


@dataclass
class RunOptions:
    """Everything `pinochle-table run` is told (see table/live/commands.py)."""

    db: Path | None = None
    preset: str = "bison"
    options: dict[str, str] = field(default_factory=dict)
    seats: Sequence[str] = ()
    new: bool = False
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str | None = None
    allow_hosts: tuple[str, ...] = ()  # names the page answers to besides its own (guard.py)
    wiring: Path | None = None
    seed: int = 1
    speed: float = 1.0
    hands: int | None = None
    headless: bool = False
    mistakes: bool = True
    sim_frame: tuple[int, int] = (1920, 1080)
    sim_fps: float | None = None   # pace the simulated camera alone (headless benchmark)
    deck: str = "svg-standard"


def choose_rules(options: RunOptions) -> Rules:
    try:
        return with_options(preset(options.preset), options.options)
    except (UnknownPresetError, OptionError) as exc:
        raise CommandError(str(exc)) from None


def open_game(journal: Journal, options: RunOptions) -> tuple[Session, str]:
    """The last unfinished game, or a new one (always new with `options.new`)."""
    last = journal.last_game()
    unplayable = ""
    if last is not None and last.standing.phase != "game-over" and not options.new:
        try:
            session = Session.resume(journal, last.id)
            return session, f"resumed game {session.game_id} at entry {session.last_number}"
        except SessionError as exc:  # its rules no longer hold: a bad game must not stop the table
            unplayable = f"game {last.id} could not be resumed ({exc}); "
    rules = choose_rules(options)
    names = list(options.seats) or list(DEFAULT_NAMES[:rules.table_seats])
    if len(names) != rules.table_seats:
        raise CommandError(f"{rules.name} is played by {rules.table_seats} seats: give --seat "
                           f"{rules.table_seats} times (got {len(names)})")
    if len(set(names)) != len(names) or not all(n.strip() for n in names):
        raise CommandError("give each seat a different, non-empty name")
    session = Session.create(journal, rules, names, 0)
    return session, f"{unplayable}started game {session.game_id}"


class RunningTable:
    """The table's parts, started together and stopped in the reverse order."""

    def __init__(self, options: RunOptions, hardware: Hardware,
                 out: TextIO = sys.stdout) -> None:
        self.options = options
        self.hardware = hardware
        self.out = out
        self.stopping = threading.Event()
        self.failure: str | None = None
        self.journal: Journal | None = None
        self.session: Session | None = None
        self.controls: Controls | None = None
        self.keeper: Keeper | None = None
        self.board: SimulatedBoard | None = None
        self.wiring: Wiring | None = None
        self.factory: object = None     # the gpiozero pin factory (None: gpiozero's choice)
        self.feed: CameraFeed | None = None
        self.scene: MatScene | None = None
        self.server: TableServer | None = None
        self.app: Flask | None = None
        self.players: SimulatedPlayers | None = None
        self.pin = ""
        self.url = ""
        self._demo: threading.Thread | None = None
        self._lock = threading.RLock()

    # -- starting -----------------------------------------------------------------------------

    def start(self) -> RunningTable:
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        from web_ui.pin import new_pin

        from .blas import one_blas_thread

        one_blas_thread()
        opts = self.options
        self.pin = (opts.pin or new_pin()).strip()
        if not self.pin.isdigit() or not 4 <= len(self.pin) <= 12:
            raise CommandError("the PIN is 4 to 12 digits, so it can be typed on a phone")
        try:
            self.journal = Journal(opts.db or default_path(), exclusive=True)
            session, how = open_game(self.journal, opts)
        except (JournalError, SessionError) as exc:
            raise CommandError(str(exc)) from None
        self.session = session.start()
        self._say(f"{how}: {_standing(session.game)}")
        self._say(f"position: {session.game.position()}")
        self._open_camera()
        self._connect(session)
        self._serve()
        for note in self.hardware.notes:
            self._say(f"note: {note}")
        self._say(self._parts())
        self._say(f"the table's page: {self.url}")
        self._say(f"table PIN: {self.pin}")
        from web_ui.server import print_qr

        print_qr(self.url, self.out)
        if self.scene is not None:
            self._start_players()

    def _connect(self, session: Session) -> None:
        """Buttons and the keeper for `session` (again after a new game from the page)."""
        from firmware_bridge.config import BoardPlace, Timing, default_wiring, load_wiring
        from firmware_bridge.controls import open_controls, pin_factory

        hw = self.hardware
        try:
            wiring = load_wiring(self.options.wiring) if self.options.wiring else \
                default_wiring(session.rules.table_seats)
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        if self.options.headless and hw.gpio == "mock" and self.options.wiring is None:
            wiring = dataclasses.replace(wiring, timing=Timing(**QUICK_TIMING))
        if hw.serial == "sim" and self.board is None:
            from firmware_bridge.simboard import SimulatedBoard

            self.board = SimulatedBoard(seats=4).start()
        if hw.serial is not None:
            port = self.board.path if hw.serial == "sim" and self.board else hw.serial
            wiring = dataclasses.replace(wiring, board=BoardPlace(port=port, usb_id=None))
        if hw.gpio is not None and self.factory is None:
            self.factory = pin_factory(hw.pin_factory)
        self.wiring = wiring
        try:
            controls = open_controls(session, wiring, gpio=hw.gpio is not None,
                                     board=hw.serial is not None, factory=self.factory)
        except Exception as exc:  # gpiozero's errors: no pin factory, pins busy, no access
            if hw.gpio is None:
                raise
            self._say(f"note: the GPIO pins cannot be used ({type(exc).__name__}: {exc}); "
                      "the serial board and the page take their place")
            self.hardware = dataclasses.replace(hw, gpio=None, pin_factory=None)
            controls = open_controls(session, wiring, gpio=False, board=hw.serial is not None)
        self.controls = controls
        if controls.board is not None and not controls.board.wait_linked(5):
            self._say(f"note: the serial board on {wiring.board.port} does not answer yet; "
                      "it is looked for again in the background")
        self.keeper = Keeper(session).start()

    def _open_camera(self) -> None:
        from .camera import CameraFeed

        spec = self.hardware.camera
        if spec is None:
            return
        seats = self.session.rules.table_seats if self.session else 3
        self.feed = CameraFeed(lambda: self.session, seats, may_deal=self._may_deal)
        if spec == "sim":
            from vision.mat import mat_layout
            from vision.simulator import MatScene

            self.scene = MatScene.create(mat_layout(seats), self.options.deck, self.options.seed,
                                         size=self.options.sim_frame)
            return
        from vision.calibration import Calibration, CalibrationError
        from vision.commands import (
            default_calibration,
            default_deck,
            learned_deck,
            saved_camera_settings,
        )
        from vision.learning import table_deck
        from vision.sources import SourceError, open_source

        try:
            settings = saved_camera_settings()
        except SourceError as exc:
            self._say(f"note: {exc}")
            settings = None
        try:
            source = open_source(spec, seats=seats, settings=settings)
        except SourceError as exc:
            self._say(f"note: camera {spec}: {exc}; cards are entered on the page")
            self.feed = None
            return
        if spec == "pi":
            self._say(f"camera settings from calibrate: {settings.describe()}" if settings else
                      "note: the camera sets exposure and white balance itself until "
                      "`pinochle-table calibrate` fixes them")
        self.feed.learner, said = table_deck(default_deck(), learned_deck())
        for line in said:
            self._say(line)
        path = default_calibration()
        if path.exists():
            try:
                calibration = Calibration.load(path)
                if calibration.seats == seats:
                    self.feed.use_calibration(calibration)
            except CalibrationError as exc:
                self._say(f"note: {exc}; looking for the mat's markers instead")
        self.feed.run(source)

    def _may_deal(self, game: Game) -> bool:
        hands = self.options.hands
        return hands is None or game.hand_number < hands

    def _serve(self) -> None:
        from web_ui.app import create_app
        from web_ui.server import TableServer, page_address

        self.app = create_app({"SESSION": self.session, "JOURNAL": self.journal,
                               "PIN": self.pin, "CAMERA": self.feed,
                               "START_GAME": self._start_game,
                               "ALLOWED_HOSTS": self.options.allow_hosts})
        try:
            self.server = TableServer(self.app, self.options.host, self.options.port).start()
        except OSError as exc:
            raise CommandError(f"cannot listen on port {self.options.port}: {exc.strerror}; "
                               "try another --port") from None
        self.url = page_address(self.options.host, self.server.port)

    def _parts(self) -> str:
        hw = self.hardware
        camera = {None: "none (the page)", "sim": "simulated mat"}.get(hw.camera, hw.camera)
        factory = hw.pin_factory or "gpiozero's default"
        gpio = {None: "off", "mock": "mock pins"}.get(hw.gpio, f"GPIO pins ({factory})")
        board = "off" if hw.serial is None else \
            f"simulated on {self.board.path}" if self.board is not None else hw.serial
        return f"camera: {camera}; buttons: {gpio}; serial board: {board}"

    # -- the simulated players -----------------------------------------------------------------

    def _start_players(self) -> None:
        from firmware_bridge.presser import PinPresser

        from .demo import Fingers, Pacing, SimulatedPlayers
        from .phone import Phone

        controls, server, feed = self.controls, self.server, self.feed
        assert self.session is not None and server is not None and feed is not None
        phone = Phone(f"http://127.0.0.1:{server.port}", self.pin)
        presser = PinPresser(self.factory, self.wiring) \
            if self.hardware.gpio == "mock" and controls and controls.gpio is not None \
            and self.wiring is not None else None
        board = self.board if controls is not None and controls.board is not None else None
        self.players = SimulatedPlayers(
            self.session, feed, self.scene, Fingers(presser, board, phone), phone,
            seed=self.options.seed, hands=self.options.hands,
            pacing=Pacing(self.options.headless, self.options.speed, self.options.sim_fps),
            mistakes_on=self.options.mistakes)
        self._demo = threading.Thread(target=self._play, name="simulated-players", daemon=True)
        self._demo.start()

    def _play(self) -> None:
        from .demo import DemoStuck
        from .phone import PhoneError

        players = self.players
        assert players is not None
        try:
            players.run()
        except (DemoStuck, PhoneError, SessionError) as exc:
            self.failure = f"the simulated players stopped: {exc}"
            self._say(self.failure)
        except Exception as exc:  # the page stays up; say what broke
            log.exception("the simulated players failed")
            self.failure = f"the simulated players failed: {type(exc).__name__}: {exc}"
            self._say(self.failure)
        if self.stopping.is_set() or self.players is not players:
            return  # shutting down, or a new game from the page replaced these players
        game = self.session.game if self.session else None
        if game is not None:
            self._say(f"the simulated players are done: {_standing(game)}")
        for mistake in players.mistakes:
            verdict = "caught" if mistake.caught else "NOT caught"
            self._say(f"mistake ({mistake.kind}, hand {mistake.hand}): {mistake.text}: "
                      f"{verdict}; {mistake.settled}")
        if players.phone_fixes:
            self._say(f"settled on the phone ({len(players.phone_fixes)}): "
                      + "; ".join(players.phone_fixes))
        self._say(f"{players.frames} camera frames")
        if self.options.headless:
            self.stopping.set()
        else:
            self._say("the page stays up: Ctrl-C to stop")

    def _start_game(self, rules: Rules, names: Sequence[str], dealer: int) -> Session:
        """A new game from the page: the buttons, camera and players follow it."""
        assert self.journal is not None
        with self._lock:
            session = Session.create(self.journal, rules, names, dealer).start()
            old = self.session
            self._stop_players()
            self._disconnect()
            self.session = session
            self._connect(session)
            if old is not None:
                old.stop(5)
            if self.scene is not None:
                self.scene.gather()
                self._start_players()
        return session

    # -- running and stopping -----------------------------------------------------------------

    def wait(self) -> int:
        """Until Ctrl-C, SIGTERM or (headless) the players are done; then stop."""
        def on_term(signum: int, frame: FrameType | None) -> None:
            self.stopping.set()
        previous = signal.signal(signal.SIGTERM, on_term)
        try:
            while not self.stopping.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            self.stop()
        return 1 if self.failure and self.options.headless else 0

    def _stop_players(self) -> None:
        if self.players is not None:
            self.players.stop()
        if self._demo is not None and self._demo is not threading.current_thread():
            self._demo.join(10)
        self._demo = None

    def _disconnect(self) -> None:
        if self.keeper is not None:
            self.keeper.stop()
            self.keeper = None
        if self.controls is not None:
            self.controls.stop()
            self.controls = None

    def stop(self) -> None:
        """Stop everything that was started, newest first; safe to call twice."""
        from web_ui.context import web_table

        self.stopping.set()
        self._stop_players()
        if self.feed is not None:
            self.feed.stop()
        if self.server is not None:
            self.server.stop()
            self.server = None
        self._disconnect()
        if self.board is not None:
            self.board.stop()
            self.board = None
        live = web_table(self.app).live.session if self.app is not None else None
        for session in {id(s): s for s in (self.session, live) if s is not None}.values():
            session.stop(5)
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def run(options: RunOptions, hardware: Hardware, out: TextIO = sys.stdout) -> int:
    """Start the table, run until told to stop, stop cleanly; the exit code."""
    table = RunningTable(options, hardware, out).start()
    return table.wait()


def _standing(game: Game) -> str:
    names = game.names
    scores = ", ".join(f"{n} {s}" for n, s in zip(names, game.scores, strict=True))
    if game.winner is not None:
        return f"{game.rules.name}, {names[game.winner]} won: {scores}"
    turn = "" if game.turn is None else f", {names[game.turn]} to act"
    return f"{game.rules.name}, hand {game.hand_number}, {game.phase.value}{turn}: {scores}"


