"""Frames of the serial protocol: one printable ASCII line per message, with a checksum.

    P1 <seq> <KIND> [<arg> ...] *<crc>\\n

`P1` names the protocol version, `seq` is 0 for link control (HELLO, ACK, HB) and counts the
sender's reliable messages from 1, `crc` is the CRC-16/CCITT-FALSE of everything before " *",
as four upper-case hex digits. A line is at most `MAX_LINE` bytes.

Shared by the board (MicroPython: no imports, only simple f-strings) and the Pi.
"""

VERSION = 2  # of the handshake (HELLO's first field); 2 added the challenge
PREFIX = "P1"
MAX_LINE = 120

# What `decode` makes of a line: a frame, or why it was dropped.
FRAME = "frame"
NOISE = "noise"                  # not ours at all: REPL banners, prompts, tracebacks
GARBAGE = "garbage"              # bytes that are not printable ASCII
TORN = "torn"                    # a frame missing its start or its checksum
BAD_CHECKSUM = "bad-checksum"
UNKNOWN_VERSION = "unknown-version"
MALFORMED = "malformed"          # checksum right, fields wrong
OVERLONG = "overlong"            # no newline within MAX_LINE bytes


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): `crc16(b"123456789") == 0x29B1`."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def _is_token(text: str) -> bool:
    if not text:
        return False
    return all(" " < ch <= "~" and ch != "*" for ch in text)


def encode(seq: int, kind: str, args: list[str]) -> bytes:
    """One frame, newline included. Raises ValueError for a field that would break the line."""
    fields = [PREFIX, str(seq), kind]
    for arg in args:
        fields.append(str(arg))
    for field in fields:
        if not _is_token(field):
            raise ValueError("bad frame field " + repr(field))
    body = " ".join(fields)
    crc = crc16(body.encode())
    line = body + f" *{crc:04X}\n"
    if len(line) > MAX_LINE:
        raise ValueError(f"frame longer than {MAX_LINE} bytes")
    return line.encode()


def _is_hex4(text: str) -> bool:
    if len(text) != 4:
        return False
    return all(ch in "0123456789ABCDEF" for ch in text)


def decode(line: bytes) -> tuple[str, int, str, list[str]]:
    """(status, seq, kind, args) of one line without its newline; status FRAME if it is good."""
    if line.endswith(b"\r"):
        line = line[:-1]
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            return (GARBAGE, 0, "", [])
    text = line.decode()
    star = len(text) - 6
    checked = star >= 0 and text[star:star + 2] == " *" and _is_hex4(text[star + 2:])
    words = text.split(" ")
    head = words[0]
    if len(head) < 2 or head[0] != "P" or not head[1:].isdigit():
        return (TORN if checked else NOISE, 0, "", [])
    if head != PREFIX:
        return (UNKNOWN_VERSION, 0, "", [])
    if not checked:
        return (TORN, 0, "", [])
    body = text[:star]
    if crc16(body.encode()) != int(text[star + 2:], 16):
        return (BAD_CHECKSUM, 0, "", [])
    words = body.split(" ")
    if len(words) < 3 or not words[1].isdigit() or not words[2].isalpha():
        return (MALFORMED, 0, "", [])
    for word in words:
        if not word:
            return (MALFORMED, 0, "", [])
    return (FRAME, int(words[1]), words[2], words[3:])


class LineReader:
    """Splits a byte stream into lines; a run of more than MAX_LINE bytes without a newline is
    dropped up to the next newline and counted in `overlong`."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._skipping = False
        self.overlong = 0

    def feed(self, data: bytes) -> list[bytes]:
        """The lines completed by `data`, newline removed."""
        lines = []
        for byte in data:
            if byte == 0x0A:
                if self._skipping:
                    self._skipping = False
                else:
                    lines.append(bytes(self._buf))
                self._buf = bytearray()
            elif not self._skipping:
                self._buf.append(byte)
                if len(self._buf) > MAX_LINE:
                    self._buf = bytearray()
                    self._skipping = True
                    self.overlong += 1
        return lines
