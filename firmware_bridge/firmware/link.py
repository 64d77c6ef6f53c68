"""One end of the serial link: handshake, heartbeats, sequence numbers, acknowledgements.

Both ends run this same class (the board and the Pi). Messages with a sequence number are
reliable: kept until the other end acknowledges them and sent again, in order, until it does
(go-back-N), so a message is delivered once, in order, or not at all while the cable is out.

The handshake: each end picks a random `nonce` when it starts, and a fresh random `challenge`
for each connection (`restart`). `HELLO <version> <nonce> <next-seq> <challenge> <answer|->
<info...>` says who I am, the lowest sequence number I will (re)send, my challenge, and the
peer's challenge as I heard it (`-`: not yet); the board's info is its firmware, its number of
buttons and its id. An end is linked only by a HELLO that answers its *current* challenge, and
takes numbered messages only once linked: a HELLO recorded on an earlier connection (a replay)
answers an old challenge and is refused ("stale-answer"), one that answers a challenge this end
never made is refused too ("wrong-answer"); `refused` says why in words. Neither changes
anything: the sender is only told this end's current challenge. (Without a shared secret, a
device that can read this connection's challenge can still answer it: the challenge stops
replays and blind forgeries, not a live man in the middle.) A HELLO that answers nothing yet
(`-`) changes nothing either: it is answered with this end's HELLO. An answering HELLO from a
new sender, or with a new challenge, is answered too, so one exchange links both ends. An end
that drops its link (a reconnection, an overflowing outbox) makes a new challenge, so the peer
answers it even while still linked. A board that restarts comes back with a new nonce and its
numbering starts over; an end that reconnects keeps its nonce, so messages sent again after an
unplug are recognised as replays and acknowledged, not doubled.
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
OLD_CHALLENGES = 8  # earlier challenges remembered, to tell a replay from a forgery
CHALLENGE_BYTES = 8  # 64 random bits: not guessed


class Link:
    """Frames out through `write`; `receive` bytes in, get back the messages to act on.
    `random_bytes(n)` makes the challenges: `os.urandom` (on the Pico too)."""

    def __init__(self, nonce: str, write: Callable[[bytes], object], now: float,
                 random_bytes: Callable[[int], bytes], info: list[str] | None = None,
                 resend_ms: float = 300, hello_ms: float = 500, heartbeat_ms: float = 1000,
                 dead_ms: float = 3500, outbox_limit: int = 64) -> None:
        self.nonce = nonce
        self._random_bytes = random_bytes
        self.challenge = self._new_challenge()
        self._old_challenges: list[str] = []
        self.peer_challenge: str | None = None
        self.refused: str | None = None  # why the last HELLO was refused, in words
        self.refusals = 0                # how many HELLOs were refused so far
        self.info = info or []
        self.peer: str | None = None
        self.peer_info: list[str] = []
        self.confirmed = False   # the peer answered our current challenge
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
            self._unlink()  # a fresh handshake tells the peer where our numbering resumes
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
        """This end opened a new connection: handshake again with a fresh challenge, keep nonce
        and numbering."""
        self._unlink()
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
            elif not self.confirmed:  # only a peer that answered our challenge is heard
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
        if len(args) < 1 or not args[0].isdigit():
            self._count(wire.MALFORMED)
            return
        if int(args[0]) != wire.VERSION:
            self._count(wire.UNKNOWN_VERSION)
            self.refusals += 1
            self.refused = (f"the other end speaks handshake version {args[0]}, this one "
                            f"{wire.VERSION}: put the same program on both (flash the board)")
            return
        if len(args) < 5 or not args[2].isdigit():
            self._count(wire.MALFORMED)
            return
        nonce, resume, challenge, answer = args[1], int(args[2]), args[3], args[4]
        if answer not in ("-", self.challenge):
            stale = answer in self._old_challenges
            self._count("stale-answer" if stale else "wrong-answer")
            self.refusals += 1
            self.refused = ("a HELLO answered the challenge of an earlier connection (a "
                            "replayed message?) and was ignored" if stale else
                            "a HELLO answered a challenge this end never sent (a forged "
                            "message?) and was ignored")
            # answered with our current challenge, so a peer whose HELLO crossed ours (both
            # ends reconnected at once) links on its next one; a replay gains nothing by it
            self._send_hello(now, challenge)
            return
        if answer == "-":
            # the sender has not heard us: tell it our challenge, answering its own; nothing
            # changes here until it answers (so a forged HELLO cannot take the peer's place)
            self._send_hello(now, challenge)
            if self.confirmed:
                self._flush(now)  # the peer reconnected: what it may have missed, at once
            return
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
        new_challenge = challenge != self.peer_challenge
        self.peer_challenge = challenge
        self.peer_info = args[5:]
        if new_peer or new_challenge:
            self._send_hello(now)  # our answer to its (new) challenge
            if self.confirmed:
                self._flush(now)  # the peer reconnected: what it may have missed, at once
        if not self.confirmed:
            self.confirmed = True
            out.append((LINKED, [nonce]))
            self._flush(now)

    def _send_hello(self, now: float, answer: str | None = None) -> None:
        """HELLO, answering `answer` (default: the challenge of the peer heard, if any)."""
        resume = self._outbox[0][0] if self._outbox else self._next_seq
        if answer is None:  # the last challenge heard: a peer that kept it is answered at once
            answer = self.peer_challenge or "-"
        args = [str(wire.VERSION), self.nonce, str(resume), self.challenge, answer]
        self._emit(wire.encode(0, HELLO, args + self.info), now)
        self._last_hello = now

    def _unlink(self) -> None:
        """Handshake again, with a new challenge: the peer answers it (and so hears where our
        numbering resumes) even if it is still linked to us."""
        self._old_challenges = (self._old_challenges + [self.challenge])[-OLD_CHALLENGES:]
        self.challenge = self._new_challenge()
        self.confirmed = False

    def _new_challenge(self) -> str:
        return "".join(f"{b:02x}" for b in self._random_bytes(CHALLENGE_BYTES))

    def _flush(self, now: float) -> None:
        for item in self._outbox:
            item[2] = now
            self._emit(item[1], now)

    def _emit(self, frame: bytes, now: float) -> None:
        self._write(frame)
        self._last_sent = now

    def _count(self, what: str, n: int = 1) -> None:
        self.stats[what] = self.stats.get(what, 0) + n
