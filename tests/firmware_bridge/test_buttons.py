"""Debouncing and long presses, on an injected clock (ms)."""

from __future__ import annotations

from firmware_bridge.firmware.buttons import HOLD, TAP, ButtonTracker


def run(tracker: ButtonTracker, script: list[tuple[float, bool | None]]) -> list[tuple[float,
                                                                                      str]]:
    """Feed (time, level) edges; a level of None is a tick. Returns (time, gesture)."""
    out = []
    for t, level in script:
        g = tracker.tick(t) if level is None else tracker.feed(level, t)
        if g is not None:
            out.append((t, g))
    return out


def test_a_clean_tap_is_reported_on_release() -> None:
    t = ButtonTracker(debounce_ms=25, hold_ms=700)
    assert run(t, [(0, True), (120, False)]) == [(120, TAP)]
    assert t.deadline() is None


def test_a_long_press_is_a_hold_at_the_hold_time_and_release_says_nothing() -> None:
    t = ButtonTracker(debounce_ms=25, hold_ms=700)
    assert t.feed(True, 0) is None
    assert t.deadline() == 700
    assert t.tick(699) is None
    assert t.tick(700) == HOLD
    assert t.tick(900) is None
    assert t.feed(False, 1500) is None


def test_chatter_on_press_and_release_is_one_tap() -> None:
    t = ButtonTracker(debounce_ms=25, hold_ms=700)
    press = [(0, True), (1, False), (2, True), (3, False), (4, True)]
    release = [(200, False), (201, True), (202, False), (203, True), (205, False)]
    assert run(t, [*press, *release, (240, None)]) == [(200, TAP)]


def test_chatter_ending_released_inside_the_window_is_found_when_it_closes() -> None:
    t = ButtonTracker(debounce_ms=25, hold_ms=700)
    # a very short tap: pressed at 0, let go at 10 while the window after the press is open
    assert run(t, [(0, True), (10, False)]) == []
    assert t.deadline() == 25
    assert t.tick(25) == TAP


def test_bounce_does_not_make_a_hold_out_of_two_taps() -> None:
    t = ButtonTracker(debounce_ms=25, hold_ms=300)
    got = run(t, [(0, True), (100, False), (101, True), (103, False),
                  (400, True), (500, False), (800, None)])
    assert got == [(100, TAP), (500, TAP)]
