"""The board's program on a real MicroPython (the Unix port), with the stand-in `machine`:

    micropython scenarios.py BOARD_DIR

BOARD_DIR holds what the Pico holds: main.py and pinochle_fw/ (the logic, as .py or as .mpy
from mpy-cross). Each scenario prints "ok NAME" or "FAIL NAME: why"; the last line counts them
and the exit status is 1 if any failed. Written for MicroPython: no pytest, plain asserts.
"""

import os
import sys

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, HERE)  # the stand-in machine.py shadows the Unix port's own machine

import machine  # noqa: E402
from pinochle_fw import board as fw_board  # noqa: E402
from pinochle_fw import buttons, link, wire  # noqa: E402

SCENARIOS = []


def scenario(fn):
    SCENARIOS.append(fn)
    return fn


class Wire:
    """What one end wrote, for the other end to read."""

    def __init__(self):
        self.data = b""

    def write(self, data):
        self.data += data

    def take(self):
        data, self.data = self.data, b""
        return data


def frames(data):
    """(kind, args) of the good frames in `data`."""
    out = []
    for line in data.split(b"\n"):
        if line:
            status, _seq, kind, args = wire.decode(line)
            if status == wire.FRAME:
                out.append((kind, args))
    return out


def linked_pair(now=0):
    """A board and a Pi-side link, handshaken."""
    to_pi, to_board = Wire(), Wire()
    board = fw_board.Board([("0", "BID"), ("0", "PASS"), ("T", "UNDO")], to_pi.write, now,
                           "b0a4d001", os.urandom, debounce_ms=25, hold_ms=700, blink_ms=250)
    pi = link.Link("9f1e0000", to_board.write, now, os.urandom)
    got = []
    for step in range(6):
        t = now + step * 10
        board.tick(t)
        pi.tick(t)
        got += pi.receive(to_pi.take(), t)
        board.receive(to_board.take(), t)
    assert pi.alive(now + 50) and board.link.alive(now + 50), (pi.stats, board.link.stats)
    assert got == [(link.LINKED, ["b0a4d001"])], got
    assert pi.peer_info == [fw_board.FIRMWARE, "3", "-"], pi.peer_info
    return board, pi, to_pi, to_board


@scenario
def wire_frames():
    assert wire.crc16(b"123456789") == 0x29B1
    line = wire.encode(7, "BTN", ["0", "BID", "TAP"])
    assert wire.decode(line[:-1]) == (wire.FRAME, 7, "BTN", ["0", "BID", "TAP"])
    assert wire.decode(line[:-5] + b"0000")[0] == wire.BAD_CHECKSUM
    assert wire.decode(b">>> ")[0] == wire.NOISE
    assert wire.decode(b"\xff\x00")[0] == wire.GARBAGE
    assert wire.decode(b"P1 3 BTN")[0] == wire.TORN


@scenario
def handshake_and_reliable_delivery():
    board, pi, to_pi, to_board = linked_pair()
    pi.send("LEDS", ["1", "0"], 100)
    assert pi.pending() == 1
    to_board.take()  # lost on the cable: the Pi sends it again
    pi.tick(500)
    board.receive(to_board.take(), 500)
    assert board.lit == 1
    pi.receive(to_pi.take(), 510)  # the board's acknowledgement
    assert pi.pending() == 0
    board.receive(wire.encode(1, "LEDS", ["F", "0"]), 520)  # a replay is not obeyed twice
    assert board.lit == 1 and board.link.stats.get("replayed") == 1


@scenario
def only_the_current_challenge_links():
    board, pi, to_pi, to_board = linked_pair()
    pi.restart(100)  # the Pi reconnects: a new challenge, answered by the board
    recorded = to_board.take()
    board.receive(recorded, 100)
    pi.receive(to_pi.take(), 110)
    assert pi.confirmed
    # the board restarts (a new link, a new challenge); the Pi's recorded HELLO answers the
    # old board's challenge: refused, and the new board is not linked by it
    fresh = fw_board.Board([("0", "BID"), ("0", "PASS"), ("T", "UNDO")], to_pi.write, 200,
                           "b0a4d002", os.urandom, board_id="e661")
    fresh.receive(recorded, 200)
    assert fresh.link.stats.get("wrong-answer") == 1 and not fresh.link.confirmed
    assert "never sent" in fresh.link.refused
    # a HELLO answering a guessed challenge, then a press with the next number: neither taken
    forged = wire.encode(0, link.HELLO, [str(wire.VERSION), "9f1e0000", "1", "c0ffee", "1234"])
    fresh.receive(forged + wire.encode(1, "LEDS", ["F", "0"]), 210)
    assert fresh.lit == 0 and fresh.link.stats.get("before-handshake") == 1
    # the real Pi hears the new board's HELLO (answering nothing yet) and they link
    fresh.tick(300)
    pi.receive(to_pi.take(), 300)
    fresh.receive(to_board.take(), 310)
    pi.receive(to_pi.take(), 320)
    assert fresh.link.confirmed and pi.confirmed and pi.peer == "b0a4d002"
    assert pi.peer_info == [fw_board.FIRMWARE, "3", "e661"], pi.peer_info


@scenario
def tap_and_hold():
    board, _pi, to_pi, _to_board = linked_pair()
    up, down = [False, False, False], [True, False, False]
    for t, levels in ((100, down), (101, up), (102, down), (180, up), (260, up)):  # chatter
        board.scan(levels, t)
    board.scan([False, False, True], 1000)
    board.scan([False, False, True], 1699)
    assert frames(to_pi.data) == [("BTN", ["0", "BID", "TAP"])], to_pi.data
    board.scan([False, False, True], 1700)
    board.scan([False, False, False], 2500)  # the release after a hold says nothing
    assert frames(to_pi.take())[1:] == [("BTN", ["T", "UNDO", "HOLD"])]
    tracker = buttons.ButtonTracker(25, 700)
    assert tracker.feed(True, 0) is None and tracker.deadline() == 700


@scenario
def lights_blink_and_go_slow_when_the_pi_is_silent():
    board, pi, _to_pi, to_board = linked_pair()
    pi.send("LEDS", ["31", "10"], 100)
    board.receive(to_board.take(), 100)
    on = board.light_levels(500)
    assert on == [True, False, False, False, True, True, False, False], on  # 4 blinks, 5 lit
    assert board.light_levels(750)[4] is False  # blinking: the other half of the period
    assert board.light_levels(750)[0] is True
    silent = 100 + board.link.dead_ms + 1000
    assert board.light_levels(silent)[:4] in ([True] * 4, [False] * 4)
    assert board.light_levels(silent)[4:] == [False] * 4


@scenario
def buzzer_pattern_and_bad_arguments():
    board, pi, _to_pi, to_board = linked_pair()
    pi.send("BUZZ", ["100", "50", "2"], 100)
    board.receive(to_board.take(), 100)
    pattern = [board.buzzing(100 + t) for t in (0, 99, 100, 149, 150, 249, 250, 400)]
    assert pattern == [True, True, False, False, True, True, False, False], pattern
    pi.send("BUZZ", ["0", "50", "99"], 500)
    pi.send("LEDS", ["XYZW1", "0"], 500)
    board.receive(to_board.take(), 500)
    assert board.rejected == 2 and not board.buzzing(510)


@scenario
def noise_on_the_line_is_dropped():
    board, pi, _to_pi, to_board = linked_pair()
    noise = (b"MicroPython v1.22 on 2024-01-01; Raspberry Pi Pico\r\n>>> \r\n"
             b"\xff\xfe\x00junk\n" + b"P1 5 LEDS 1 0\n" + b"x" * 300 + b"\n"
             + wire.encode(1, "LEDS", ["3", "0"])[:-3] + b"00\n")
    board.receive(noise, 100)
    stats = board.link.stats
    for what in (wire.NOISE, wire.GARBAGE, wire.TORN, wire.OVERLONG, wire.BAD_CHECKSUM):
        assert stats.get(what, 0) >= 1, (what, stats)
    assert board.lit == 0
    pi.send("LEDS", ["3", "0"], 200)
    board.receive(to_board.take(), 200)
    assert board.lit == 3


def run_main(**setup):
    """main.main() on the stand-in machine until it halts, resets or is interrupted."""
    import main

    machine.clear()
    for key in setup:
        setattr(machine, key, setup[key])
    try:
        main.main()
    except (machine.Halt, machine.ResetCalled, KeyboardInterrupt) as stop:
        return main, stop
    raise AssertionError("main.main() returned")


@scenario
def the_loop_feeds_the_watchdog():
    main, stop = run_main(halt_after_feeds=40, levels={2: 0})
    assert isinstance(stop, machine.Halt)
    assert 0 < machine.watchdog_timeout <= 8388  # the RP2040's longest
    assert machine.feeds == 40 and machine.resets == 0
    assert machine.reads >= 39 * len(main.BUTTON_PINS)  # every pass scanned every button
    lights = {gpio for gpio, _ in machine.outputs}
    assert set(main.LIGHT_PINS) | {main.BUZZER_PIN} <= lights


@scenario
def an_unexpected_error_is_logged_and_the_board_restarts():
    print("(the traceback below is the board reporting the error it is given)")
    main, stop = run_main(fault=OSError(5, "pin"), fault_at=30)
    assert isinstance(stop, machine.ResetCalled) and machine.resets == 1
    with open(main.CRASH_LOG) as log:
        text = log.read()
    assert "OSError" in text and "Traceback" in text, text


@scenario
def ctrl_c_hands_the_board_to_the_repl_with_the_watchdog_fed():
    _main, stop = run_main(fault=KeyboardInterrupt(), fault_at=30)
    assert isinstance(stop, KeyboardInterrupt) and machine.resets == 0
    assert len(machine.timers) == 1
    timer = machine.timers[0]
    assert 0 < timer.period < machine.watchdog_timeout
    feeds = machine.feeds
    timer.fire()
    assert machine.feeds == feeds + 1


passed = failed = 0
for fn in SCENARIOS:
    try:
        fn()
    except Exception as error:  # a failed scenario: report it and go on with the rest
        failed += 1
        print(f"FAIL {fn.__name__}: {error!r}")
        sys.print_exception(error)
    else:
        passed += 1
        print("ok " + fn.__name__)
impl = sys.implementation
version = ".".join(str(n) for n in impl.version[:3])
print(f"{impl.name} {version}: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
