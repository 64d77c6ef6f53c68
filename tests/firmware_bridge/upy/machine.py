"""A stand-in for MicroPython's `machine` on the Pico, so the board's main.py runs on
MicroPython's Unix port: pins, the watchdog, a timer and reset, with what they did recorded.

Input pins read `levels` (gpio -> 0 or 1; a pin not listed is pulled up: 1), or, when
`pins_file` is set, that file: "seq N" then "gpio level" lines, re-read every few ms, and
"fault" there makes the next read fail. Output changes are kept in `outputs` and, when
`log_file` is set, appended to it as "out gpio level"; "seen N" says file N was read.
`reset()` raises ResetCalled (a real reset never returns); the watchdog counts its feeds and,
after `halt_after_feeds` of them, raises Halt: the test's way out of the board's endless loop.
"""

import time

levels = {}
outputs = []
timers = []
pins_file = None
log_file = None
feeds = 0
resets = 0
reads = 0
watchdog_timeout = None
fault = None              # an exception to raise at the input read number `fault_at`
fault_at = 0
halt_after_feeds = None

_loaded_at = None
_seen = None


class ResetCalled(BaseException):
    pass


class Halt(BaseException):
    pass


def clear():
    """Back to a freshly powered board (between scenarios)."""
    global feeds, resets, reads, watchdog_timeout, fault, fault_at, halt_after_feeds
    global _loaded_at, _seen
    levels.clear()
    outputs.clear()
    timers.clear()
    feeds = resets = reads = fault_at = 0
    watchdog_timeout = fault = halt_after_feeds = _loaded_at = _seen = None


def reset():
    global resets
    resets += 1
    _log("reset")
    raise ResetCalled()


def _log(line):
    if log_file is not None:
        with open(log_file, "a") as log:
            log.write(line + "\n")


def _load():
    """Re-read `pins_file` (at most every 5 ms)."""
    global _loaded_at, _seen, fault, fault_at
    now = time.ticks_ms()
    if _loaded_at is not None and time.ticks_diff(now, _loaded_at) < 5:
        return
    _loaded_at = now
    try:
        with open(pins_file) as f:
            lines = f.read().split("\n")
    except OSError:
        return
    seq = None
    fresh = {}
    failing = False
    for line in lines:
        words = line.split()
        if len(words) == 2 and words[0] == "seq":
            seq = words[1]
        elif len(words) == 2:
            fresh[int(words[0])] = int(words[1])
        elif words == ["fault"]:
            failing = True
    if seq is None or seq == _seen:
        return
    _seen = seq
    levels.clear()
    levels.update(fresh)
    if failing:
        fault, fault_at = OSError(5, "the pin stopped answering"), reads + 1
    _log("seen " + seq)


BOARD_ID = b"\xe6\x61\x4c\x31\x1b\x7e\x2f\x2a"  # a made-up chip serial number


def unique_id():
    return BOARD_ID


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gpio, mode=-1, pull=-1, value=None):
        self.gpio = gpio
        self.mode = mode
        self._level = None
        if value is not None:
            self.value(value)

    def value(self, level=None):
        global reads, fault
        if level is None:
            reads += 1
            if pins_file is not None:
                _load()
            if fault is not None and reads >= fault_at:
                error, fault = fault, None
                raise error
            return levels.get(self.gpio, 1)
        level = 1 if level else 0
        if level != self._level:
            self._level = level
            outputs.append((self.gpio, level))
            _log(f"out {self.gpio} {level}")
        return None


class WDT:
    def __init__(self, id=0, timeout=5000):
        global watchdog_timeout
        watchdog_timeout = timeout

    def feed(self):
        global feeds
        feeds += 1
        if halt_after_feeds is not None and feeds >= halt_after_feeds:
            raise Halt()


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, mode=PERIODIC, period=-1, callback=None):
        self.mode = mode
        self.period = period
        self.callback = callback
        timers.append(self)

    def fire(self):
        """What the hardware would do when the period ends."""
        self.callback(self)

    def deinit(self):
        timers.remove(self)
