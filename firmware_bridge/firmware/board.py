"""The board's program, without its pins: buttons in, lights and buzzer out, over the link.

Messages (besides the link's own HELLO, ACK and HB):

    board -> Pi   BTN <seat|T> <BID|PASS|UNDO> <TAP|HOLD>   a button gesture (T: the table)
    Pi -> board   LEDS <lit> <blink>                        hex bit masks of the lights
    Pi -> board   BUZZ <on-ms> <off-ms> <times>             a buzzer pattern

Light bits: 0-3 the seats' turn lights, 4-7 the trump suit lights (spades, hearts, clubs,
diamonds). `main.py` reads the pins into `scan`, feeds serial bytes to `receive`, and drives
the pins from `light_levels` and `buzzing`. MicroPython-compatible.
"""

try:  # noqa: SIM105 (MicroPython has no contextlib)
    from collections.abc import Callable
except ImportError:  # MicroPython: no such module, and it never evaluates annotations
    pass

from .buttons import ButtonTracker
from .link import LINKED, Link

FIRMWARE = "pinochle-fw-1.1"  # 1.1: the handshake answers the Pi's challenge
LIGHTS = 8
SUITS = "SHCD"
BUTTON = "BTN"
LEDS = "LEDS"
BUZZ = "BUZZ"
OFFLINE_BLINK_MS = 1000  # while the Pi is silent, the seat lights pulse slowly together


def _hex_mask(text: str) -> int:
    if not text or len(text) > 4:
        raise ValueError(text)
    return int(text, 16)


class Board:
    """`buttons` lists (seat, name) per input in scan order, e.g. ("0", "BID"), ("T", "UNDO")."""

    def __init__(self, buttons: list[tuple[str, str]], write: Callable[[bytes], object],
                 now: float, nonce: str, random_bytes: Callable[[int], bytes],
                 debounce_ms: float = 25, hold_ms: float = 700, blink_ms: float = 250,
                 board_id: str = "-") -> None:
        """`random_bytes`: `os.urandom`, for the link's challenges; `board_id`: the chip's
        serial number in hex (sent in the HELLO), "-" if unknown."""
        self.buttons = buttons
        self.trackers = [ButtonTracker(debounce_ms, hold_ms) for _ in buttons]
        self.link = Link(nonce, write, now, random_bytes,
                         info=[FIRMWARE, str(len(buttons)), board_id])
        self.lit = 0
        self.blink = 0
        self.blink_ms = blink_ms
        self.rejected = 0           # host messages with bad arguments or of unknown kind
        self._buzz_start = 0.0
        self._buzz = (0, 0, 0)

    def scan(self, levels: list[bool], now: float) -> None:
        """The raw button levels, in `buttons` order (True = pressed)."""
        for i in range(len(self.trackers)):
            gesture = self.trackers[i].feed(levels[i], now)
            if gesture is not None:
                seat, name = self.buttons[i]
                self.link.send(BUTTON, [seat, name, gesture], now)

    def receive(self, data: bytes, now: float) -> None:
        for kind, args in self.link.receive(data, now):
            try:
                self._obey(kind, args, now)
            except ValueError:
                self.rejected += 1

    def tick(self, now: float) -> None:
        self.link.tick(now)

    def light_levels(self, now: float) -> list[bool]:
        """Which lights are on at `now` (blinking resolved)."""
        if not self.link.alive(now):
            pulse = int(now // OFFLINE_BLINK_MS) % 2 == 0
            return [pulse and i < 4 for i in range(LIGHTS)]
        phase = int(now // self.blink_ms) % 2 == 0
        levels = []
        for i in range(LIGHTS):
            bit = 1 << i
            levels.append(phase if self.blink & bit else bool(self.lit & bit))
        return levels

    def buzzing(self, now: float) -> bool:
        on_ms, off_ms, times = self._buzz
        elapsed = now - self._buzz_start
        period = on_ms + off_ms
        if period <= 0 or elapsed < 0 or elapsed >= period * times:
            return False
        return elapsed % period < on_ms

    def _obey(self, kind: str, args: list[str], now: float) -> None:
        if kind == LEDS and len(args) == 2:
            self.lit, self.blink = _hex_mask(args[0]), _hex_mask(args[1])
        elif kind == BUZZ and len(args) == 3:
            on_ms, off_ms, times = int(args[0]), int(args[1]), int(args[2])
            if not (0 < on_ms <= 5000 and 0 <= off_ms <= 5000 and 0 < times <= 10):
                raise ValueError(args)
            self._buzz = (on_ms, off_ms, times)
            self._buzz_start = now
        elif kind != LINKED:
            raise ValueError(kind)
