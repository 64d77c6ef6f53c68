"""Frames: the checksum, and what becomes of every kind of bad line."""

from __future__ import annotations

import pytest

from firmware_bridge.firmware import wire


def test_crc_is_ccitt_false() -> None:
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16(b"") == 0xFFFF


def test_a_frame_reads_back() -> None:
    line = wire.encode(7, "BTN", ["2", "BID", "TAP"])
    assert line.endswith(b"\n") and line.startswith(b"P1 7 BTN 2 BID TAP *")
    assert wire.decode(line[:-1]) == (wire.FRAME, 7, "BTN", ["2", "BID", "TAP"])
    assert wire.decode(line[:-1] + b"\r")[0] == wire.FRAME  # CRLF from a REPL-ish sender


@pytest.mark.parametrize(("line", "status"), [
    (b">>> ", wire.NOISE),
    (b"MicroPython v1.22.2 on 2024-02-22; Raspberry Pi Pico with RP2040", wire.NOISE),
    (b"Traceback (most recent call last):", wire.NOISE),
    (b"", wire.NOISE),
    (b"P1 7 BTN 2 BID TAP", wire.TORN),                   # the end is missing
    (b"BID TAP *1234", wire.TORN),                        # the start is missing
    (b"P1 7 BTN 2 BID TAP *0000", wire.BAD_CHECKSUM),
    (b"P2 7 BTN 2 BID TAP *1234", wire.UNKNOWN_VERSION),
    (b"P1 7 BTN \xff\xfe *1234", wire.GARBAGE),
    (b"P1 7 BTN \x00 *1234", wire.GARBAGE),
])
def test_bad_lines_are_classified(line: bytes, status: str) -> None:
    assert wire.decode(line)[0] == status


def test_a_good_checksum_over_bad_fields_is_malformed() -> None:
    for body in ("P1 x BTN", "P1 3", "P1 3 B7N"):
        line = f"{body} *{wire.crc16(body.encode()):04X}".encode()
        assert wire.decode(line)[0] == wire.MALFORMED, body


def test_two_torn_halves_glued_together_fail_the_checksum() -> None:
    a = wire.encode(5, "BTN", ["0", "BID", "TAP"])
    b = wire.encode(6, "BTN", ["1", "PASS", "TAP"])
    glued = a[:12] + b[12:-1]
    assert wire.decode(glued)[0] == wire.BAD_CHECKSUM


def test_encode_refuses_fields_that_would_break_the_line() -> None:
    for bad in ("two words", "", "star*", "tab\t", "é"):
        with pytest.raises(ValueError):
            wire.encode(1, "BTN", [bad])
    with pytest.raises(ValueError):
        wire.encode(1, "BTN", ["x" * 200])


def test_line_reader_splits_a_stream_and_drops_overlong_runs() -> None:
    reader = wire.LineReader()
    assert reader.feed(b"ab") == []
    assert reader.feed(b"c\nde\nf") == [b"abc", b"de"]
    assert reader.feed(b"x" * (wire.MAX_LINE + 10)) == []
    assert reader.overlong == 1
    assert reader.feed(b"yyy\nok\n") == [b"ok"]  # the rest of the long run is dropped too
