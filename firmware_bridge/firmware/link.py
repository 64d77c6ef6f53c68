"""One end of the serial link: handshake, heartbeats, sequence numbers, acknowledgements.

Both ends run this same class (the board and the Pi). Messages with a sequence number are
reliable: kept until the other end acknowledges them and sent again, in order, until it does
(go-back-N), so a message is delivered once, in order, or not at all while the cable is out.

The handshake: each end picks a random `nonce` when it starts. `HELLO <version> <nonce>
<next-seq> <peer-nonce-heard|->` says who I am, the lowest sequence number I will (re)send,
and whether I have heard you on this connection. An end answers a HELLO when the sender is new
to it or has not heard it yet, so one exchange links both ends. A board that restarts comes
back with a new nonce and its numbering starts over; an end that reconnects keeps its nonce,
so messages sent again after an unplug are recognised as replays and acknowledged, not doubled.
The resume number of a HELLO may skip ahead by at most `MAX_SKIP` (an end's outbox holds 64):
a forged or garbled HELLO with a far number would otherwise make every later message look
like a replay. Such a HELLO is counted ("far-resume") and ignored; so is a new nonce that does
not start near 1 once a peer is known (a board that restarts numbers from 1).

All times are milliseconds on the caller's clock. MicroPython-compatible: imports only `wire`.
"""

try:  # noqa: SIM105 (MicroPython has no contextlib)
    from collections.abc import Callable
except ImportError:  # MicroPython: no such module, and it never evaluates annotations
    pass

from . import wire

HELLO = "HELLO"
ACK = "ACK"
HEARTBEAT = "HB"
LINKED = "LINKED"  # delivered to the program when the handshake completes
CONTROL = (HELLO, ACK, HEARTBEAT)
MAX_SKIP = 256


class Link:
    """Frames out through `write`; `receive` bytes in, get back the messages to act on."""

    def __init__(self, nonce: str, write: Callable[[bytes], object], now: float,
                 info: list[str] | None = None, resend_ms: float = 300,
                 hello_ms: float = 500, heartbeat_ms: float = 1000, dead_ms: float = 3500,
                 outbox_limit: int = 64) -> None:
        self.nonce = nonce
        self.info = info or []
        self.peer: str | None = None
        self.peer_info: list[str] = []
        self.confirmed = False   # the peer has heard us on this connection
        self.heard = False       # we have heard the peer's HELLO on this connection
        self.stats: dict[str, int] = {}
        self._write = write
        self._resend_ms = resend_ms
        self._hello_ms = hello_ms
        self._heartbeat_ms = heartbeat_ms
        self.dead_ms = dead_ms
        self._outbox_limit = outbox_limit
        self._reader = wire.LineReader()
        self._expect = 1
        self._next_seq = 1
        self._outbox: list[list] = []  # [seq, frame bytes, last sent at]
        self._last_sent = now
        self._last_heard = now
        self._last_hello = now - hello_ms

    # -- sending ------------------------------------------------------------------------

    def send(self, kind: str, args: list[str], now: float) -> int:
        """Queue a reliable message; it goes out now if the link is up. Returns its number."""
        seq = self._next_seq
        self._next_seq += 1
        frame = wire.encode(seq, kind, args)
        self._outbox.append([seq, frame, now])
        if len(self._outbox) > self._outbox_limit:
            self._outbox.pop(0)
            self._count("outbox-overflow")
            # a fresh handshake tells the peer where our numbering resumes
            self.confirmed = False
            self.heard = False
        if self.confirmed:
            self._emit(frame, now)
        return seq

    def pending(self) -> int:
        """Reliable messages not yet acknowledged."""
        return len(self._outbox)

    def drop_outbox(self) -> None:
        """Forget unacknowledged messages (stale lights after a reconnection); the next HELLO
        tells the peer to skip their numbers."""
        self._outbox = []

    def restart(self, now: float) -> None:
        """This end opened a new connection: handshake again, keep nonce and numbering."""
        self.confirmed = False
        self.heard = False
        self._reader = wire.LineReader()
        self._last_heard = now
        self._send_hello(now)

    def tick(self, now: float) -> None:
        """Send what time calls for: HELLO until linked, resends, heartbeats."""
        if not self.confirmed:
            if now - self._last_hello >= self._hello_ms:
                self._send_hello(now)
            return
        if self._outbox and now - self._outbox[0][2] >= self._resend_ms:
            self._flush(now)
        if now - self._last_sent >= self._heartbeat_ms:
            self._emit(wire.encode(0, HEARTBEAT, []), now)

    # -- receiving ----------------------------------------------------------------------

    def receive(self, data: bytes, now: float) -> list[tuple[str, list[str]]]:
        """The reliable messages in `data` that are new, in order, as (kind, args); LINKED
        when the handshake completes. Everything else is counted in `stats` and dropped."""
        out: list[tuple[str, list[str]]] = []
        acknowledge = False
        overlong = self._reader.overlong
        for line in self._reader.feed(data):
            status, seq, kind, args = wire.decode(line)
            if status != wire.FRAME:
                self._count(status)
                continue
            self._count("frames")
            self._last_heard = now
            if seq == 0:
                self._control(kind, args, now, out)
            elif self.peer is None or not self.heard:
                self._count("before-handshake")
            else:
                acknowledge = True
                if seq == self._expect:
                    self._expect += 1
                    out.append((kind, args))
                elif seq < self._expect:
                    self._count("replayed")
                else:
                    self._count("out-of-order")
        if self._reader.overlong != overlong:
            self._count(wire.OVERLONG, self._reader.overlong - overlong)
        if acknowledge:
            self._emit(wire.encode(0, ACK, [str(self._expect - 1)]), now)
        return out

    def alive(self, now: float) -> bool:
        """Linked, and the peer was heard within the dead time."""
        return self.confirmed and now - self._last_heard < self.dead_ms

    def silent_for(self, now: float) -> float:
        return now - self._last_heard

    # -- internals ----------------------------------------------------------------------

    def _control(self, kind: str, args: list[str], now: float,
                 out: list[tuple[str, list[str]]]) -> None:
        if kind == HELLO:
            self._hello(args, now, out)
        elif kind == ACK:
            if len(args) != 1 or not args[0].isdigit():
                self._count(wire.MALFORMED)
                return
            upto = int(args[0])
            while self._outbox and self._outbox[0][0] <= upto:
                self._outbox.pop(0)
        elif kind != HEARTBEAT:
            self._count("unknown-kind")

    def _hello(self, args: list[str], now: float, out: list[tuple[str, list[str]]]) -> None:
        if len(args) < 4 or not args[0].isdigit() or not args[2].isdigit():
            self._count(wire.MALFORMED)
            return
        if int(args[0]) != wire.VERSION:
            self._count(wire.UNKNOWN_VERSION)
            return
        nonce, resume, seen = args[1], int(args[2]), args[3]
        new_peer = nonce != self.peer
        if self.peer is not None and resume > (1 if new_peer else self._expect) + MAX_SKIP:
            self._count("far-resume")
            return
        if new_peer:
            self.peer = nonce
            self._expect = resume
            self.confirmed = False
        elif resume > self._expect:
            self._count("skipped", resume - self._expect)
            self._expect = resume
        self.peer_info = args[4:]
        self.heard = True
        if seen != self.nonce or new_peer:
            self._send_hello(now)
            if self.confirmed:
                self._flush(now)  # the peer reconnected: what it may have missed, at once
        if seen == self.nonce and not self.confirmed:
            self.confirmed = True
            out.append((LINKED, [nonce]))
            self._flush(now)

    def _send_hello(self, now: float) -> None:
        resume = self._outbox[0][0] if self._outbox else self._next_seq
        seen = self.peer if (self.heard and self.peer) else "-"
        args = [str(wire.VERSION), self.nonce, str(resume), seen]
        self._emit(wire.encode(0, HELLO, args + self.info), now)
        self._last_hello = now

    def _flush(self, now: float) -> None:
        for item in self._outbox:
            item[2] = now
            self._emit(item[1], now)

    def _emit(self, frame: bytes, now: float) -> None:
        self._write(frame)
        self._last_sent = now

    def _count(self, what: str, n: int = 1) -> None:
        self.stats[what] = self.stats.get(what, 0) + n
