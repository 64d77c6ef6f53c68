"""The Pico's entry point (copied to the board as /main.py): binds the pins and runs the
board's logic from /pinochle_fw/ over the USB serial line (MicroPython's stdin/stdout).

Buttons connect a GPIO to ground (internal pull-up, pressed = low); lights and the buzzer are
driven high to switch on (through a resistor, or a transistor for the buzzer).

The Pico's watchdog restarts a board whose loop stops being fed (a hang); an error the loop
does not expect is written to /crash.txt (and to the USB line, where the Pi counts it as noise)
and the board restarts cleanly. Ctrl-C (mpremote, when flashing) stops the loop for the REPL:
the watchdog cannot be switched off on the Pico, so a timer feeds it until the next reset.
"""

import os
import select
import sys
import time

from machine import WDT, Pin, Timer, reset, unique_id
from pinochle_fw.board import Board

# (GPIO, seat, button): seats 0-3 from the dealer's first deal; "T" is the table.
BUTTON_PINS = (
    (2, "0", "BID"), (3, "0", "PASS"),
    (4, "1", "BID"), (5, "1", "PASS"),
    (6, "2", "BID"), (7, "2", "PASS"),
    (8, "3", "BID"), (9, "3", "PASS"),
    (10, "T", "UNDO"),
)
# seat turn lights 0-3, then the trump suit lights: spades, hearts, clubs, diamonds
LIGHT_PINS = (11, 12, 13, 14, 16, 17, 18, 19)
BUZZER_PIN = 15
MAX_READ = 256  # bytes taken from USB per loop, so the buttons keep being scanned
WATCHDOG_MS = 4000  # the loop takes a few ms; the Pico's watchdog allows at most 8388
CRASH_LOG = "crash.txt"
_feeder = None  # the timer that feeds the watchdog while the REPL has the board


def run(watchdog: WDT) -> None:
    buttons = [Pin(gpio, Pin.IN, Pin.PULL_UP) for gpio, _, _ in BUTTON_PINS]
    lights = [Pin(gpio, Pin.OUT, value=0) for gpio in LIGHT_PINS]
    buzzer = Pin(BUZZER_PIN, Pin.OUT, value=0)
    usb_in, usb_out = sys.stdin.buffer, sys.stdout.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    last = time.ticks_ms()
    now = 0
    nonce = "".join(f"{b:02x}" for b in os.urandom(4))
    board_id = "".join(f"{b:02x}" for b in unique_id())  # the flash chip's serial number
    board = Board([(seat, name) for _, seat, name in BUTTON_PINS], usb_out.write, now, nonce,
                  os.urandom, board_id=board_id)
    while True:
        watchdog.feed()
        tick = time.ticks_ms()
        now += time.ticks_diff(tick, last)  # a running count: ticks_ms itself wraps
        last = tick
        data = bytearray()
        while len(data) < MAX_READ and poller.poll(0):
            byte = usb_in.read(1)
            if not byte:  # end of input (only off the board): nothing more to read now
                break
            data += byte
        if data:
            board.receive(bytes(data), now)
        board.scan([pin.value() == 0 for pin in buttons], now)
        board.tick(now)
        levels = board.light_levels(now)
        for i in range(len(lights)):
            lights[i].value(levels[i])
        buzzer.value(board.buzzing(now))
        time.sleep_ms(2)


def record(error: Exception) -> None:
    """What went wrong, for `mpremote cat :crash.txt` and on the USB line; never raises."""
    try:
        sys.print_exception(error)
        with open(CRASH_LOG, "w") as log:
            sys.print_exception(error, log)
    except Exception:  # a full or broken flash must not stop the restart
        pass


def main() -> None:
    global _feeder
    watchdog = WDT(timeout=WATCHDOG_MS)
    try:
        run(watchdog)
    except KeyboardInterrupt:
        _feeder = Timer(period=WATCHDOG_MS // 4, callback=lambda timer: watchdog.feed())
        raise
    except Exception as error:  # anything else: log it and start afresh
        record(error)
        reset()


if __name__ == "__main__":
    main()
