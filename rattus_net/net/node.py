"""The peer node: one seat's protocol session driven over the TCP mesh, journaled to disk.

What the node adds to the sans-IO :class:`~protocol.session.Session`:

* **The mesh.** Seat ``i`` dials every seat ``j < i`` and accepts the others, so each pair has
  exactly one dialler, which redials (with backoff) whenever the link drops. Every link is
  authenticated for this game (:mod:`rattus_net.net.handshake`, purpose ``game/<id>``) and only
  roster keys are accepted. Frames are tagged: ``F`` a session frame, ``H`` "I hold your first n
  frames" (sent first on every new link: the other side sends what we lack only once it has
  heard it), ``D`` "my game is over" (said on a link only after every frame the other side
  lacked went out ahead of it; a finished peer lingers until everybody said so and heard ours,
  so nobody ends up short of a frame, a signed abort among them: :meth:`PeerNode._serve_link`).
* **Resumed and paused peers.** A resumed peer sends nothing it makes until every peer has
  said what it holds, then only byte-identical copies of what it had signed
  (:mod:`rattus_net.net.recovery`); a peer whose clock jumped (it was stopped) judges nobody
  until a peer has answered again (:meth:`PeerNode._came_back`).
* **The journal.** Every accepted frame and every decision of our player goes to the game's
  journal (:mod:`rattus_net.net.persist`), fsynced before anything that depends on it is sent.
  The session is deterministic given its secrets (derived from the 32-byte master in the first
  record) and its inputs, so :meth:`PeerNode.load` rebuilds the exact state, including every
  frame we had sent, by replaying the journal. A decision is journaled *before* it is made, so
  a restarted peer can never sign two different moves for one step (equivocation).
* **Time.** ``session.tick`` runs every half second: a peer silent beyond ``stall_timeout``
  makes the others abort with a signed record naming it. A player may think for the session's
  decision timeout (minutes), but a peer whose link has been down longer than ``stall_timeout``
  is blamed even while it owes a move.
* **Hooks for a user interface.** ``choose_async`` (a coroutine function) is awaited on the
  loop for our player's decision instead of running ``choose``/the bot in a thread, and
  ``on_event(kind, seat, detail)`` hears ``"link-up"``/``"link-down"`` (a peer's link came or
  went), ``"fault"`` (a peer misbehaved: detail says how) and ``"progress"`` (the session
  moved: redraw). Callbacks run on the loop and must not block.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import struct
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from protocol.crypto.identity import Identity
from protocol.errors import DecodeError, RemoteProtocolError
from protocol.params import GameParams, PeerSecrets
from protocol.session import DisputeFault, ReplayError, Session
from protocol.session import PeerFault as SessionFault
from protocol.wire import WireValue
from rattus_net.bots import GameBot, make_game_bot
from rattus_net.kit.registry import get_game
from rattus_net.net.handshake import Handshake
from rattus_net.net.lobby import authenticate
from rattus_net.net.pausewatch import PauseWatch
from rattus_net.net.persist import (
    Journal,
    JournalError,
    StorageError,
    is_locked,
    read_meta,
    seat_dir,
    seat_dirs,
    write_json_atomic,
)
from rattus_net.net.recovery import DECIDE, MAX_COPIES, Adopt, Recovery
from rattus_net.net.transport import (
    DEFAULT_TRANSPORT,
    Connection,
    Listener,
    PeerFault,
    Silent,
    TransportError,
    TransportLimits,
    connect,
)
from rattus_net.paths import RECORD_FILE

log = logging.getLogger(__name__)

_COUNT = struct.Struct(">I")
_PORT = struct.Struct(">H")
_MOVED = b"rattus-net/v1/moved"
JOURNAL = "journal.bin"
PORT_RETRY = 2.0
"""Seconds a resumed peer tries its old port (the killed process's socket may linger) before
it listens on another one and tells the others."""
STALL_TIMEOUT = 300.0
"""How long the others wait by default for a peer whose program stopped (5 minutes: time to
restart a computer and run ``rattus resume``); a waiting player may add more
(:meth:`PeerNode.wait_longer`). Said the same way in the README, ``--help`` and the TUI
(:data:`STALL_WORDS`)."""
WAIT_MORE = 300.0
"""What one "wait longer" adds (the TUI's ``w``)."""
STALL_WORDS = (
    "if a player's program stops, the others wait {minutes} for him to come back "
    "(rattus resume); a waiting player may wait longer (w at the table); then the game ends "
    "and the record names who stalled it"
)
ABSENT_GRACE = 3.0
"""Seconds a resumed peer whose game is over waits for a peer whose link is down (it has
probably left) before it ends, instead of the full ``linger``."""
ABORT_LINGER = 120.0
"""Seconds a peer whose game was aborted keeps answering the peers that have not said their
game is over (a peer away may come back and must learn the signed abort rather than write a
claim of its own); announced, and Ctrl+C (:meth:`PeerNode.leave`) ends it sooner."""
STAGGER = 2.0
"""Seconds each seat waits longer than the one before it before it ends the game blaming a
peer that is gone: the lowest seat still there signs the abort, and the others, a little
later, adopt it instead of signing claims of their own at the same moment."""
LAST_WORD = 1.0
"""Seconds a peer leaving after its game keeps its links open for the other side to close
them first (its last frames, our ``D`` among them, reach it rather than a reset)."""
COPY_RATE = 1.0
"""``R`` requests answered per second on one link (a burst of :data:`COPY_BURST`): a peer
asking again and again gets no more than that, and costs no more work or memory."""
COPY_BURST = 2.0
ASK_AGAIN = 2.0
"""Seconds before a resumed peer asks a peer again for a frame of its own it still lacks."""


class NodeError(Exception):
    """A game cannot be run or resumed (bad journal, no setup); one line for the user."""


HUMAN = "human"  # ``Setup.bot`` of a seat a person plays (through the TUI)


@dataclass(frozen=True)
class Setup:
    """Everything a seat needs to play (and later resume) a game: the first journal record.
    ``bot`` is the bot kind playing the seat, or :data:`HUMAN`."""

    params: GameParams
    seat: int
    master: bytes
    addresses: tuple[tuple[str, int], ...]
    table: str = ""
    bot: str = "random"
    bot_seed: int | None = None
    hosted_by: int | None = None
    """The seat of the process that runs this bot seat beside its own (a TUI host's bots), so
    that resuming that seat brings this one back too (:mod:`rattus_net.net.botseats`)."""

    @property
    def game_id(self) -> str:
        return self.params.game_id().hex()

    def to_wire(self) -> dict[str, WireValue]:
        return {
            "params": self.params.to_wire(),
            "seat": self.seat,
            "master": self.master,
            "addresses": [[h, p] for h, p in self.addresses],
            "table": self.table,
            "bot": self.bot,
            "bot_seed": self.bot_seed,
            "hosted_by": self.hosted_by,
        }

    @classmethod
    def from_wire(cls, value: WireValue) -> Setup:
        try:
            assert isinstance(value, dict)
            seat, master, addrs = value["seat"], value["master"], value["addresses"]
            table, bot, bot_seed = value["table"], value["bot"], value["bot_seed"]
            assert isinstance(seat, int) and isinstance(master, bytes)
            assert isinstance(addrs, list) and isinstance(table, str) and isinstance(bot, str)
            assert bot_seed is None or isinstance(bot_seed, int)
            addresses: list[tuple[str, int]] = []
            for a in addrs:
                assert isinstance(a, list) and len(a) == 2
                h, p = a
                assert isinstance(h, str) and isinstance(p, int)
                addresses.append((h, p))
            params = GameParams.from_wire(value["params"])
            hosted_by = value.get("hosted_by")
            assert hosted_by is None or isinstance(hosted_by, int)
        except (AssertionError, KeyError, DecodeError) as exc:
            raise NodeError(f"the journal's setup record is unreadable ({exc})") from None
        return cls(params, seat, master, tuple(addresses), table, bot, bot_seed, hosted_by)


@dataclass
class Outcome:
    """How the game ended for this node."""

    game_id: str
    record: Path
    finished: bool
    abort: str | None = None
    blamed: str | None = None  # the seat the abort names (proven, or only claimed)
    faults: list[str] = field(default_factory=list)
    proven: bool = False  # the abort's fault is proven by the blamed seat's signed messages
    by: str | None = None  # who stopped the game (whose claim it is, if not proven)
    alone: bool = False
    """A resumed peer reached nobody of its game for its stall timeout: no record is written
    and nobody is blamed (the others may have ended the game); the game stays resumable."""


@dataclass
class _Link:
    conn: Connection
    seat: int
    sent_upto: int = 0
    heard: bool = False  # its H came: it says what it holds, our frames go out from there
    done_said: bool = False  # our D went out on it, after every frame it lacked
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    asked: int = -1  # the index of our own frames we asked this peer to send back (R)
    asked_at: float = 0.0
    tokens: float = COPY_BURST  # R requests it may still make now (see COPY_RATE)
    refilled: float = field(default_factory=time.monotonic)

    def may_copy(self, now: float) -> bool:
        """Whether an ``R`` request of this peer is answered (a token bucket)."""
        self.tokens = min(COPY_BURST, self.tokens + (now - self.refilled) * COPY_RATE)
        self.refilled = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class PeerNode:
    """Plays one seat of a game to its end (or abort). Build with :meth:`create` or
    :meth:`load`, then ``await node.run()``."""

    def __init__(
        self,
        setup: Setup,
        journal: Journal,
        directory: Path,
        *,
        limits: TransportLimits = DEFAULT_TRANSPORT,
        stall_timeout: float = STALL_TIMEOUT,
        linger: float = 15.0,
        abort_linger: float = ABORT_LINGER,
        bot: GameBot | None = None,
        choose: Callable[[Any], Any] | None = None,
        choose_async: Callable[[Any], Awaitable[Any]] | None = None,
        on_event: Callable[[str, int | None, str], None] | None = None,
        together: frozenset[int] = frozenset(),
    ) -> None:
        self.setup = setup
        self.together = together
        """Seats resumed with this one in the same process (a host's bot seats, or a bot
        seat's host and fellow bots): hearing from them is not reaching the game (see
        :meth:`_alone`)."""
        self.journal = journal
        self.dir = directory
        self.limits = limits
        self.linger = linger
        self.abort_linger = abort_linger
        self.stall_timeout = stall_timeout
        self.seat = setup.seat
        self.n = setup.params.n
        self.names = setup.params.config.players
        self.definition = get_game(setup.params.game)
        """The game of the table (its views, legal moves, move text and bots)."""
        secrets = PeerSecrets(setup.master)
        self.identity: Identity = secrets.identity()
        self.session = Session(
            setup.params, setup.seat, secrets, now=time.monotonic(), timeout=stall_timeout
        )
        seed = (
            setup.bot_seed if setup.bot_seed is not None else random.SystemRandom().getrandbits(32)
        )
        self.bot = bot or (
            None if setup.bot == HUMAN else make_game_bot(setup.params.game, setup.bot, seed)
        )
        self.choose = choose
        self.choose_async = choose_async
        self.on_event = on_event
        self.sent: list[bytes] = []
        self.got = [0] * self.n
        self.links: dict[int, _Link] = {}
        self.done_from: set[int] = set()
        self.addresses: list[tuple[str, int]] = list(setup.addresses)
        self.moved: bytes | None = None  # our signed new port, if we had to change it
        self.told: set[int] = set()  # seats that got it
        self.resumed = False
        self.received: list[list[bytes]] = [[] for _ in range(self.n)]  # each seat's frames
        # What a resumed peer may send, and when (sans-IO): it holds what each peer said (H)
        # it holds of our frames, and the copies of our own frames they sent back (Y).
        self.recovery = Recovery(
            self.session,
            lambda: self.definition.legal(self.session.game, self.seat),
            resumed=False,
            sent=self.sent,
            delay=self.seat * STAGGER,
            journal=str(journal.path),
        )
        self.held = self.recovery.held
        self.copies = self.recovery.copies
        self.unbacked = self.recovery.unbacked
        self.answered: set[int] = set()  # seats that said what they hold since we came back
        self.away = False  # paused (the clock jumped): see _came_back
        self.pauses = PauseWatch()
        self.told_done: set[int] = set()  # seats our D reached, after all they lacked
        self.faults: list[str] = []
        self.alone = False  # resumed, and nobody of the game reached: see _alone
        self.outcome: Outcome | None = None  # set once the record is written
        self._leave = asyncio.Event()  # end the linger after an abort now (Ctrl+C)
        self.inbox: asyncio.Queue[tuple[int, bytes]] = asyncio.Queue()
        self._wake_main = asyncio.Event()
        # Seats whose link is down, and since when (every other seat until it first connects):
        # the session blames a seat gone too long even while it owes a move.
        start = time.monotonic()
        self.down_since: dict[int, float] = {s: start for s in range(self.n) if s != self.seat}
        self._tasks: set[asyncio.Task[None]] = set()
        self.listener: Listener | None = None
        self.say_drops: Callable[[str], None] | None = None  # dropped strangers, in words
        self.purpose = f"game/{setup.game_id}"
        self.expect = {
            i.fingerprint for s, i in enumerate(setup.params.identities) if s != setup.seat
        }

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def create(cls, setup: Setup, root: Path | None = None, **kw: Any) -> PeerNode:
        """A new game: write the setup as the journal's first record (in the seat's own
        folder, locked while we play it)."""
        directory = seat_dir(setup.game_id, setup.seat, root)
        journal = Journal.open(directory / JOURNAL)
        if len(journal) == 0:
            journal.append(["setup", setup.to_wire()])
        node = cls(setup, journal, directory, **kw)
        node._replay()
        node._write_meta("playing")
        return node

    @classmethod
    def load(
        cls, game_id: str, root: Path | None = None, *, seat: int | None = None, **kw: Any
    ) -> PeerNode:
        """Resume a game from its journal (after a crash, a kill or a reboot). ``seat`` (from
        0) picks one of several seats of the game journaled here (see :func:`find_seat`)."""
        directory, journal, setup = _open_journal(find_seat(game_id, root, seat))
        node = cls(setup, journal, directory, **kw)
        node.resumed = node.recovery.resumed = True
        node._replay()  # (what the journal regenerates goes out as it is: see Recovery)
        return node

    def _replay(self) -> None:
        """Feed the journal back into the fresh session: same inputs, same state, same frames."""
        now = time.monotonic()
        for rec in self.journal.records[1:]:
            if not isinstance(rec, list) or not rec:
                raise NodeError("unreadable journal record")
            if rec[0] == "r" and len(rec) == 3:
                _, link, frame = rec
                assert isinstance(link, int) and isinstance(frame, bytes)
                try:
                    self.session.receive(frame, now, link=link)
                except RemoteProtocolError as exc:
                    # A frame accepted when a later message failed: the same again now.
                    if not exc.accepted:
                        raise NodeError(
                            f"the journal holds a frame the game refuses ({exc.reason})"
                        ) from None
                self.got[link] += 1
                self.received[link].append(frame)
            elif rec[0] == "d" and len(rec) == 2:
                assert isinstance(rec[1], str)
                self.session.decide(self.definition.parse_move(rec[1]), now)
            elif rec[0] == "A" and len(rec) == 2 and isinstance(rec[1], bytes):
                self._abort_kept = True  # our own signed abort, adopted again
                with contextlib.suppress(RemoteProtocolError):
                    self.session.receive(rec[1], now)
            elif rec[0] == "S" and len(rec) == 2 and isinstance(rec[1], bytes):
                self.session.take_abort(rec[1])  # an abort that took the place of ours
            elif rec[0] == "D" and len(rec) == 2 and isinstance(rec[1], int):
                self.done_from.add(rec[1])  # that peer had said its game was over
            elif rec[0] == "p" and len(rec) == 3 and isinstance(rec[1], int):
                assert isinstance(rec[2], bytes)
                self.addresses[self.seat] = (self.addresses[self.seat][0], rec[1])
                self.moved = rec[2]
            elif rec[0] == "a" and len(rec) == 4 and isinstance(rec[1], int):
                _, seat, host, port = rec
                assert isinstance(seat, int) and isinstance(host, str) and isinstance(port, int)
                self.addresses[seat] = (host, port)
        self.sent.extend(self.session.take_outgoing())

    def _write_meta(self, status: str) -> None:
        write_json_atomic(
            self.dir / "meta.json",
            {
                "table": self.setup.table,
                "seat": self.seat,
                "players": list(self.names),
                "game": self.setup.params.game,  # (persist.game_of reads it)
                "status": status,
                "listen": list(self.addresses[self.seat]),
                "bot": self.setup.bot,  # who plays the seat: a bot kind, or HUMAN
                "hosted_by": self.setup.hosted_by,  # a bot seat run by that seat's process
            },
        )

    # -- running ---------------------------------------------------------------------------

    async def run(self, listener: Listener | None = None) -> Outcome:
        """Connect the mesh and play to the end; returns where the record is."""
        if listener is None:
            _, port = self.addresses[self.seat]
            self.listener = Listener(
                self.accept, self.limits, max_connections=4 * self.n, say=self.say_drops
            )
            await self._listen(port)
        else:
            self.listener = listener
        if self.journal.damage is not None:
            self._emit(
                "journal",
                self.seat,
                f"{self.journal.damage}; asking the other peers what you had sent before "
                "you decide anything",
            )
        self._since = time.monotonic()
        self.pauses.start()
        for j in range(self.seat):
            self._spawn(self._dial(j))
        if self.moved is not None:  # the seats that dial us must learn where we are now
            for j in range(self.seat + 1, self.n):
                self._spawn(self._announce(j))
        try:
            await self._main()
            self.outcome = self._finish()
            self._emit("over")
            if not self.alone:
                await self._linger()
            return self.outcome
        finally:
            await self.close()

    async def _listen(self, port: int) -> None:
        """Listen on our port; if another program holds it, on any free port, and tell the
        others (a signed note, journaled so that a later restart uses the new port)."""
        assert self.listener is not None
        deadline = time.monotonic() + PORT_RETRY
        while True:  # the old process's socket may linger briefly after a kill
            try:
                await self.listener.start(None, port)
                return
            except OSError:
                if time.monotonic() >= deadline:
                    break
                await asyncio.sleep(0.2)
        new = await self.listener.start(None, 0)
        log.info("port %d is taken: listening on %d", port, new)
        self.moved = self.identity.sign(self._moved_message(self.seat, new))
        self.journal.append(["p", new, self.moved])
        self.addresses[self.seat] = (self.addresses[self.seat][0], new)
        self.told.clear()
        self._write_meta("playing")
        self._emit("moved", self.seat, f"port {port} was taken: listening on port {new} now")

    def _moved_message(self, seat: int, port: int) -> bytes:
        return _MOVED + bytes.fromhex(self.setup.game_id) + bytes([seat]) + _PORT.pack(port)

    def _moved_frame(self) -> bytes:
        assert self.moved is not None
        return b"P" + _PORT.pack(self.addresses[self.seat][1]) + self.moved

    def _peer_moved(self, seat: int, body: bytes, conn: Connection) -> None:
        """A peer says (signed) that it listens on another port now."""
        if len(body) != _PORT.size + 64:
            raise PeerFault("bad port note", conn.peer)
        (port,) = _PORT.unpack_from(body)
        sig = body[_PORT.size :]
        try:
            self.setup.params.identities[seat].verify(self._moved_message(seat, port), sig)
        except RemoteProtocolError:
            raise PeerFault("port note with a wrong signature", conn.peer) from None
        if port == 0 or self.addresses[seat] == (conn.address, port):
            return
        self.addresses[seat] = (conn.address, port)
        if not self._closing:
            self.journal.append(["a", seat, conn.address, port], sync=False)

    def wait_longer(self, seconds: float = WAIT_MORE) -> None:
        """Wait ``seconds`` more for peers who stopped (and for every step) before the game
        ends blaming them: a player at the table chose to give them more time."""
        self.session.timeout += seconds
        self.stall_timeout = self.session.timeout

    def stall_left(self, seat: int, now: float | None = None) -> float | None:
        """Seconds left before ``seat``, whose link is down, is blamed (None if linked)."""
        since = self._absent().get(seat)
        if since is None:
            return None
        return max(0.0, self.session.timeout - ((now or time.monotonic()) - since))

    def _emit(self, kind: str, seat: int | None = None, detail: str = "") -> None:
        if self.on_event is not None and not self._closing:
            try:
                self.on_event(kind, seat, detail)
            except Exception:  # a user interface's bug must not stop the game
                log.exception("on_event hook failed")

    def _fault(self, seat: int | None, reason: str) -> None:
        self.faults.append(f"{self.names[seat] if seat is not None else 'somebody'}: {reason}")
        self._emit("fault", seat, reason)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def accept(self, conn: Connection, hs: Handshake | None = None) -> None:
        """An incoming link (from our Listener, or the lobby host's shared one)."""
        if hs is None:
            hs = await authenticate(conn, self.identity, None, expect=self.expect)
        if hs.purpose != self.purpose or hs.remote is None:
            raise PeerFault(f"link for {hs.purpose!r}, not this game", conn.peer)
        ids = self.setup.params.identities
        if hs.remote not in ids or ids.index(hs.remote) == self.seat:
            raise PeerFault("key not in the roster", conn.peer)
        seat = ids.index(hs.remote)
        if self.listener is not None:
            self.listener.trust(conn)  # a roster key: a slot strangers cannot take
        conn.start_keepalive()
        await self._serve_link(conn, seat)

    async def _dial(self, seat: int, *, once: bool = False) -> None:
        """Keep a link to ``seat`` (we are its dialler), redialling with backoff; with
        ``once``, only until the link has told it our new port (then it dials us)."""
        fp = self.setup.params.identities[seat].fingerprint
        delay = 0.1
        while not self._over() and not (once and seat in self.told):
            host, port = self.addresses[seat]  # (a peer that moved told us where)
            try:
                conn = await connect(host, port, self.limits)
                try:
                    await authenticate(conn, self.identity, self.purpose, expect={fp})
                except TransportError:
                    conn.abort()
                    raise
                conn.start_keepalive()
                delay = 0.1
                await self._serve_link(conn, seat)
            except TransportError as exc:
                log.debug("link to seat %d: %s", seat, exc)
            if self._over():
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def _announce(self, seat: int) -> None:
        """Dial a seat that normally dials us, to tell it our new port."""
        await self._dial(seat, once=True)

    def _over(self) -> bool:
        return self._closing

    _closing = False

    async def _serve_link(self, conn: Connection, seat: int) -> None:
        """One link to ``seat``, in the order that lets neither side end short of a frame.

        Both sides first say what they hold of the other's frames (``H``); each sends the
        other what it lacks only once it has heard that (:meth:`_writer`), and a side whose
        game is over says so (``D``) only after every frame the other lacked has gone out on
        this link (:meth:`_send_done`). So a peer that hears ``D`` already has, ahead of it
        on the same link, everything the other had to send, a signed abort among them, and
        nobody counts as done before the frames that could change its record have crossed."""
        old = self.links.get(seat)
        if old is not None:
            old.conn.abort()
        link = _Link(conn, seat)
        self.links[seat] = link
        self.down_since.pop(seat, None)
        self._emit("link-up", seat)
        writer = asyncio.get_running_loop().create_task(self._writer(link))
        try:
            await conn.send(b"H" + _COUNT.pack(self.got[seat]))
            if self.moved is not None:
                await conn.send(self._moved_frame())
                self.told.add(seat)
            if self.session.finished or self.session.abort is not None:
                self._spawn(self._send_done(link))
            while True:
                data = await conn.recv()
                tag, body = data[:1], data[1:]
                if tag == b"F":
                    await self.inbox.put((seat, body))
                    self._wake_main.set()
                elif tag == b"H" and len(body) == _COUNT.size:
                    (have,) = _COUNT.unpack(body)
                    link.sent_upto = min(have, len(self.sent))
                    link.heard = True
                    self._on_hold(seat, have)
                    link.wake.set()
                elif tag == b"D":
                    if seat not in self.done_from and not self._closing:
                        self.journal.append(["D", seat], sync=False)  # known after a resume
                    self.done_from.add(seat)
                    self._wake_main.set()
                elif tag == b"P":
                    self._peer_moved(seat, body, conn)
                elif tag == b"R" and len(body) == _COUNT.size:
                    (start,) = _COUNT.unpack(body)  # it lost frames of its own: send them back
                    if not link.may_copy(time.monotonic()):
                        continue  # (asked again too soon: nothing more than the rate allows)
                    for i, own in enumerate(self.received[seat][start : start + MAX_COPIES]):
                        await conn.send(b"Y" + _COUNT.pack(start + i) + own)
                elif tag == b"Y" and len(body) > _COUNT.size:
                    (index,) = _COUNT.unpack_from(body)
                    if self.recovery.copy(seat, index, body[_COUNT.size :]):
                        self._wake_main.set()
                else:
                    raise PeerFault("unknown frame tag", conn.peer)
        except TransportError as exc:
            if isinstance(exc, PeerFault) and not isinstance(exc, Silent):
                self._fault(seat, exc.reason)  # (a silent link only drops: see Silent)
        finally:
            writer.cancel()
            if self.links.get(seat) is link:
                del self.links[seat]
                self.down_since.setdefault(seat, time.monotonic())
                if seat not in self.done_from:
                    self._emit("link-down", seat)
            conn.abort()

    def _on_hold(self, seat: int, have: int) -> None:
        """``seat`` said (``H``) it holds our first ``have`` frames: it answered us."""
        self.recovery.hold(seat, have)
        self.answered.add(seat)
        self._wake_main.set()

    async def _writer(self, link: _Link) -> None:
        """Send our frames to one peer, from what it holds on (once it has said so: its
        ``H``); resends after a reconnect."""
        with contextlib.suppress(TransportError):
            while True:
                await link.wake.wait()
                link.wake.clear()
                while link.heard and link.sent_upto < len(self.sent):
                    frame = self.sent[link.sent_upto]
                    await link.conn.send(b"F" + frame)
                    link.sent_upto += 1

    def _flush_outgoing(self) -> None:
        """Hand what the session made to the recovery step (a resumed peer holds back what it
        may not send yet) and wake the links for what may go out."""
        before = len(self.sent)
        for _ in range(3):  # (the recovery step may stop the game: its abort goes out too)
            abort = self.session.abort
            if abort is not None and abort.by == self.seat and not self._abort_kept:
                # Our own abort (a stall we saw, a stop) came from the clock, not from the
                # journal's inputs: journal the signed frame before it leaves, so that a
                # restart holds the same decision and answers the others with it.
                self._abort_kept = True
                if abort.frame is not None and not self._closing:
                    self.journal.append(["A", abort.frame])
            stopped = self.session.abort is not None
            self.recovery.produce(self.session.take_outgoing(), time.monotonic(), self.done_from)
            if stopped or self.session.abort is None:
                break
        self._recovery_news()
        if len(self.sent) > before:
            for link in self.links.values():
                link.wake.set()

    def _recovery_news(self) -> None:
        """Say what the recovery step found, and ask back the frame of ours it lacks."""
        for kind, seat, detail in self.recovery.events:
            if kind == "fault":
                self._fault(seat, detail)
            else:
                self._emit(kind, seat, detail)
        self.recovery.events.clear()
        want = self.recovery.want
        if want is None:
            return
        index, ahead = want
        now = time.monotonic()
        for s in ahead:
            link = self.links.get(s)
            if link is not None and (link.asked != index or now - link.asked_at >= ASK_AGAIN):
                link.asked, link.asked_at = index, now
                self._spawn(self._ask(link.conn, index))

    async def _drain_inbox(self) -> None:
        """Hand every frame received so far to the session, journalled and made durable
        before anything that depends on it is sent. Checking a frame can take a tenth of a
        second (a shuffle proof at five players), so the loop is let go between frames: a
        screen on the same loop stays responsive."""
        dirty = False
        while not self.inbox.empty():
            seat, frame = self.inbox.get_nowait()
            if dirty:
                await asyncio.sleep(0)
            try:
                self.session.receive(frame, time.monotonic(), link=seat)
            except ReplayError:
                continue
            except RemoteProtocolError as exc:
                if not exc.accepted:
                    self._fault(seat, exc.reason)  # the frame itself: its link is to blame
                    bad = self.links.get(seat)
                    if bad is not None:
                        bad.conn.abort()
                    continue
                # The frame is in the game (journaled below, like any other); the fault is a
                # message processed after it, blamed on that message's author, unless two
                # signed views only disagree (the evidence exchange settles who equivocated).
                if isinstance(exc, DisputeFault):
                    who = " and ".join(self.names[s] for s in (exc.seat, *exc.others))
                    self._fault(None, f"{who} disagree about what was sent: {exc.reason}")
                else:
                    self._fault(exc.seat if isinstance(exc, SessionFault) else None, exc.reason)
            except Exception as exc:  # (the session turns a peer's bad input into a fault)
                log.exception("a frame from seat %d could not be handled", seat)
                self._fault(seat, f"sent a frame that could not be handled ({type(exc).__name__})")
                continue
            self.got[seat] += 1
            self.received[seat].append(frame)
            self.journal.append(["r", seat, frame], sync=False)
            dirty = True
        if dirty:
            self.journal.sync()

    async def _decision(self, loop: asyncio.AbstractEventLoop) -> Any | None:
        """Our player's move. While he (or the bot) thinks, frames from the others are still
        received, so an abort or a cheat is seen at once; ``None`` if the game was aborted."""
        assert self.session.game is not None
        view = self.definition.view(self.session.game, self.seat)
        if self.choose_async is not None:
            self._emit("progress")
            thinking: asyncio.Future[Any] = asyncio.ensure_future(self.choose_async(view))
        else:
            chooser = self.choose or (self.bot.choose if self.bot is not None else None)
            if chooser is None:
                raise NodeError(f"seat {self.seat + 1} is played by a person, and nobody asks")
            thinking = loop.run_in_executor(None, chooser, view)
        while not thinking.done():
            woken: asyncio.Future[Any] = asyncio.ensure_future(self._wake_main.wait())
            waiting: list[asyncio.Future[Any]] = [thinking, woken]
            await asyncio.wait(waiting, timeout=0.5, return_when=asyncio.FIRST_COMPLETED)
            woken.cancel()
            self._wake_main.clear()
            self._check_clock()
            await self._drain_inbox()
            self._flush_outgoing()
            if self.session.abort is not None:
                thinking.cancel()
                return None
            self._emit("progress")
        return thinking.result()

    async def _main(self) -> None:
        self._flush_outgoing()
        for link in self.links.values():
            link.wake.set()
        loop = asyncio.get_running_loop()
        while self.session.abort is None and not self.session.finished:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake_main.wait(), 0.5)
            self._wake_main.clear()
            self._check_clock()
            await self._drain_inbox()
            self._flush_outgoing()
            if self.recovery.pending:  # (held back until every peer said what it holds)
                self._gate()
            if self.session.needs_decision and self._may_decide():
                move = await self._decision(loop)
                if move is None:
                    break  # the game was aborted while our player was thinking
                # (journaled before it is signed and sent)
                self.journal.append(["d", self.definition.format_move(move)])
                self.session.decide(move, time.monotonic())
                self._flush_outgoing()
                self._wake_main.set()
            if self._alone():
                break
            self._check_clock()  # (a pause in the work just done: judge nobody for it)
            if self._reached():  # (nobody reached: no stall claim, see _alone)
                # (staggered: our clock runs STAGGER s per seat late, for steps and links)
                self.session.tick(time.monotonic() - self.seat * STAGGER, self.down_since)
            self._flush_outgoing()
            self._emit("progress")

    def _check_clock(self) -> None:
        """Notice a pause: the process was stopped and woken (SIGSTOP and SIGCONT, say), as
        the pause watch saw it (:mod:`rattus_net.net.pausewatch`). See :meth:`_came_back`."""
        gap = self.pauses.take()
        if gap > 0:
            self._came_back(gap)

    def _came_back(self, gap: float) -> None:
        """We were away for ``gap`` seconds while the others went on: they may have dropped
        our links, judged us, stopped the game, or be waiting for us. That time did not pass
        for the game here (the step's and the links' clocks move on by ``gap``), every link is
        renewed so that each side says again what it holds, and, as for a resumed peer,
        nobody is judged (no stall claim) until a peer has answered since; the first one hands
        us the game's abort if they stopped it."""
        self.away = True
        self.answered.clear()
        self._since = time.monotonic()
        self._said_alone = False
        self.session.pause(gap)
        self.down_since = {s: t + gap for s, t in self.down_since.items()}
        for link in list(self.links.values()):
            link.conn.abort()  # (half-dead after the pause: renewed at once)
        self._emit(
            "paused",
            None,
            f"this program was paused for {_clock(gap)} (stopped, or the computer held): "
            "reconnecting, and asking the others what they hold before judging anyone",
        )

    def _absent(self) -> dict[int, float]:
        """Since when each seat whose link is down counts as gone, for the stall timeout:
        staggered by our seat (:data:`STAGGER`), so that one abort is signed, not several."""
        return {s: t + self.seat * STAGGER for s, t in self.down_since.items()}

    def leave(self) -> None:
        """Stop answering after an abort now (the player pressed Ctrl+C): the record is
        already written."""
        self._leave.set()
        self._wake_main.set()

    def _owed_abort(self) -> list[int]:
        """The seats that may not know of our game's abort yet (they never said it is over)."""
        if self.session.abort is None:
            return []
        return sorted(set(range(self.n)) - {self.seat} - self.done_from)

    async def _linger(self) -> None:
        """Our game is over: let everybody have every frame, say so, and wait for the others'
        "over" (``D``). After an abort, a peer that has not said so may be away and come back:
        we keep answering (its link gets our frames, the signed abort among them) for
        ``abort_linger`` seconds, announced, unless :meth:`leave` is called.

        We leave once every other peer has said ``D`` *and* ours has reached each of them
        behind every frame it lacked: two peers that were cut off, each with its own claim,
        both see the other's claim before either leaves, so the claims meet on both sides
        (:meth:`_claims_meet`)."""
        self._flush_outgoing()
        for link in list(self.links.values()):
            self._spawn(self._send_done(link))
        owed = self._owed_abort()
        answering = bool(owed) and self.abort_linger > 0
        window = self.abort_linger if answering else self.linger
        if answering:
            who = ", ".join(self.names[s] for s in owed)
            self._emit(
                "linger",
                None,
                f"the game was stopped; answering for up to {_clock(window)} so that {who}, "
                "away, learns it when back (Ctrl+C leaves now: the record is written)",
            )
        deadline = time.monotonic() + window
        others = set(range(self.n)) - {self.seat}
        absent_since: dict[int, float] = {}
        while True:
            while not self.inbox.empty():  # late frames: resends, a peer's abort
                seat, frame = self.inbox.get_nowait()
                if self._claims_meet(frame):
                    continue
                with contextlib.suppress(RemoteProtocolError):
                    self.session.receive(frame, time.monotonic(), link=seat)
            if others <= self.done_from and others <= self.told_done:
                break  # (everybody said it is over, and heard us say so after our frames)
            if time.monotonic() >= deadline or self._leave.is_set():
                break
            if not answering and self.session.abort is not None and not self.links:
                break
            if not answering and self.resumed and self._others_left(others, absent_since):
                break
            self._wake_main.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake_main.wait(), 0.5)
        # our "over" must leave before the links close (a lingering peer waits for it), and
        # reach the other side: closing a link at once, with bytes of the other side unread,
        # makes the kernel reset it and drop what we sent last. So the links stay open until
        # the other side closes them, or a second passes.
        end = time.monotonic() + 2.0
        while any(not link.done_said for link in self.links.values()) and time.monotonic() < end:
            await asyncio.sleep(0.05)
        end = time.monotonic() + LAST_WORD
        while self.links and time.monotonic() < end:
            await asyncio.sleep(0.05)

    def _claims_meet(self, frame: bytes) -> bool:
        """Two aborts meet (peers that were cut off from each other, each alone long enough
        to sign a claim; a peer that stopped blaming nobody, and one that proved who
        cheated): one must stand in every record. A proven fault stands over a claim; of two
        claims, the lower seat's stands; ours gives way to the one that stands, so that the
        peers that meet end with one record. Our record is written again, the abort
        journaled (``S``) and passed on. A proven fault of ours is never replaced."""
        ours = self.session.abort
        if ours is None or ours.proven or ours.evidence or ours.by is None:
            return False
        theirs = self.session.read_abort(frame)
        if theirs is None or theirs.by == ours.by:
            return False
        if not theirs.proven and (theirs.evidence or theirs.by is None or theirs.by > ours.by):
            return False
        self.session.abort = theirs
        if not self._closing:
            self.journal.append(["S", frame])
        self.sent.append(frame)  # passed on, as any adopted abort
        for link in self.links.values():
            link.wake.set()
        self.outcome = self._finish()
        abort = self.session.abort
        self._emit(
            "claims",
            abort.by,
            "two claims met (the peers were cut off from each other): the claim of the lower "
            f"seat stands, {abort.describe(self.names, self.seat)}"
            if not abort.proven
            else "the game was stopped twice: a proof stands over a claim, "
            + abort.describe(self.names, self.seat),
        )
        self._emit("over")
        return True

    def _reached(self) -> bool:
        """Whether we may judge who stalls: neither resumed nor back from a pause, or some
        peer of the game outside this process has answered (``H``) since we came back."""
        if not self.resumed and not self.away:
            return True
        return any(s not in self.together for s in self.answered)

    def _alone(self) -> bool:
        """Whether a resumed peer that has reached nobody of its game gives up waiting.

        Its game may have been aborted by the others while it was away (they waited for it,
        then stopped the game with a signed abort, and left). Blaming them as stalled would
        write a record that contradicts theirs, so a resumed peer that no other peer has
        answered (``H``) never writes a stall claim: it says that nobody else of the game is
        online, and after its stall timeout it ends without a record, the game kept
        resumable; the first peer it reaches later hands it the signed abort, if there is
        one. The seats resumed in the same process (:attr:`together`) do not count: a host's
        bot seats answer it at once, and know no more than it does. A peer back from a pause
        (:meth:`_came_back`) is treated the same way."""
        if self._reached():
            return False
        waited = time.monotonic() - self._since
        if waited >= min(ABSENT_GRACE, self.session.timeout / 2) and not self._said_alone:
            self._said_alone = True
            left = max(0.0, self.session.timeout - waited)
            self._emit(
                "alone",
                None,
                "nobody else of this game is online (they may have ended it while you were "
                f"away); waiting {_clock(left)} for them, then the game is kept for later "
                "(rattus resume)",
            )
        if waited <= self.session.timeout:
            return False
        self.alone = True
        return True

    _said_alone = False
    _since = 0.0
    _abort_kept = False  # our own abort is journaled (see _flush_outgoing)

    def _gate(self) -> bool:
        """Whether every other peer still in the game has said what it holds of ours (a
        resumed peer sends and decides nothing before). A peer gone longer than the stall
        timeout meanwhile is blamed, as :meth:`Session.tick` does for a peer gone while it
        owes a message; a resumed peer that nobody has answered yet blames nobody."""
        waiting = set(range(self.n)) - {self.seat} - set(self.held) - self.done_from
        if not waiting:
            return True
        if not self._reached():
            return False  # nobody reached yet: no stall claim either (see _alone)
        now = time.monotonic()
        gone = sorted(s for s in waiting if now - self._absent().get(s, now) > self.session.timeout)
        if gone:
            step = self.session.step.index if self.session.step else -1
            self.session.stop(
                f"stalled: gone while {self.names[self.seat]} waited to hear what it holds "
                f"of its messages (step {step})",
                gone[0],
            )
            self._flush_outgoing()
        return False

    def _may_decide(self) -> bool:
        """Whether our player may decide now (a new message of ours would be signed).

        A journal is never trusted past damage: a resumed peer decides nothing until every
        other peer still in the game has said (``H``) how many of our frames it holds
        (:meth:`_gate`), and until every frame it made since it came back has gone out
        (see :class:`~rattus_net.net.recovery.Recovery`). If a peer holds our frame for this
        decision, our decision was sent already and is lost here: it is made again from the
        copy a peer sends back (``R``/``Y``), to the very same signed message
        (:meth:`_adopt`), never decided anew (a second, different message for one sequence
        number would be an equivocation naming the honest player)."""
        if not self.resumed:
            return True
        if not self._gate():
            return False
        verdict = self.recovery.decision(time.monotonic(), self.done_from)
        self._recovery_news()
        if isinstance(verdict, Adopt):
            self._adopt(verdict.move)
            return False
        if self.session.abort is not None:
            self._flush_outgoing()  # (the recovery step stopped the game)
        return verdict == DECIDE

    async def _ask(self, conn: Connection, index: int) -> None:
        with contextlib.suppress(TransportError):
            await conn.send(b"R" + _COUNT.pack(index))

    def _adopt(self, move: Any) -> None:
        """Make again the decision ``move`` whose signed message another peer holds and our
        journal lost: journaled first, like any decision, and signed to the very same bytes
        (the recovery step sends it only if it is the copy, byte for byte)."""
        # (journaled before it is signed and sent)
        self.journal.append(["d", self.definition.format_move(move)])
        self.session.decide(move, time.monotonic())
        self._flush_outgoing()
        self._emit(
            "journal",
            self.seat,
            f"your move ({self.definition.format_move(move)}), lost from your journal, was "
            "recovered from the other peers: the same signed message, journaled again",
        )

    def _others_left(self, others: set[int], absent_since: dict[int, float]) -> bool:
        """Whether every peer we still wait for has been unreachable for ABSENT_GRACE: a
        resumed peer does not wait the full linger for peers that already left (they could
        not have finished without our frames, so they have them, or they gave up)."""
        now = time.monotonic()
        waiting = others - (self.done_from & self.told_done)
        for s in waiting:
            if s in self.links:
                absent_since.pop(s, None)
            else:
                absent_since.setdefault(s, now)
        return all(s in absent_since and now - absent_since[s] >= ABSENT_GRACE for s in waiting)

    async def _send_done(self, link: _Link) -> None:
        """Say ``D`` (our game is over) on ``link`` once the peer has said what it holds and
        every frame it lacked has gone out ahead of it (see :meth:`_serve_link`)."""
        with contextlib.suppress(TransportError):
            while not link.heard or link.sent_upto < len(self.sent):
                if link.conn.closed:
                    return
                await asyncio.sleep(0.05)
            if link.done_said:
                return
            link.done_said = True
            await link.conn.send(b"D")
            self.told_done.add(link.seat)
            self._wake_main.set()

    def _finish(self) -> Outcome:
        record = self.dir / RECORD_FILE
        if self.alone:  # nothing to record, nobody to blame: the game stays resumable
            return Outcome(self.setup.game_id, record, False, alone=True)
        data = self.session.record_bytes()
        tmp = record.with_name(RECORD_FILE + ".tmp")
        abort = self.session.abort
        status = "finished" if abort is None else "aborted"
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, record)
            self._write_meta(status)
        except OSError as exc:
            raise StorageError(
                f"cannot write {record}: {exc.strerror or exc}; free some space, then "
                f"`rattus resume {self.setup.game_id}` writes it again"
            ) from None
        return Outcome(
            self.setup.game_id,
            record,
            abort is None and self.session.finished,
            abort.reason if abort else None,
            self.names[abort.blamed] if abort and abort.blamed is not None else None,
            self.faults,
            abort.proven if abort else False,
            self.names[abort.by] if abort and abort.by is not None else None,
        )

    async def close(self) -> None:
        self._closing = True
        self.pauses.stop()
        for link in list(self.links.values()):
            link.conn.abort()
        if self.listener is not None:
            await self.listener.close()
        for task in list(self._tasks):
            task.cancel()
        self.journal.close()


def _clock(seconds: float) -> str:
    """``2:05`` for 125 seconds (rounded up)."""
    whole = math.ceil(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _seat_label(directory: Path) -> str:
    meta = read_meta(directory)
    seat, players = meta.get("seat"), meta.get("players")
    if isinstance(seat, int) and isinstance(players, list) and 0 <= seat < len(players):
        return f"seat {seat + 1} ({players[seat]})"
    return directory.name


def find_seat(game_id: str, root: Path | None = None, seat: int | None = None) -> Path:
    """The folder of the seat of ``game_id`` to resume.

    ``seat`` (from 0) names it; without it, the only seat of the game journaled here, else the
    only one of the unfinished seats that no process is playing right now (three terminals on
    one account: the one that was killed), else, when every seat here is over, the first one
    (not a bot seat) whose record says how it ended. Raises NodeError naming the choices
    otherwise."""
    try:
        folders = seat_dirs(game_id, root)
    except JournalError as exc:
        raise NodeError(str(exc)) from None
    if not folders:
        where = root or Path("the data directory")
        raise NodeError(f"no game {game_id} in {where}")
    if seat is not None:
        for folder in folders:
            if folder.name == f"seat-{seat + 1}":
                return folder
        raise NodeError(f"seat {seat + 1} of game {game_id} is not journaled here")
    if len(folders) == 1:
        return folders[0]
    unfinished = [f for f in folders if read_meta(f).get("status") == "playing"]
    if not unfinished:  # every seat here is over: its record says how (as for one seat)
        own = [f for f in folders if read_meta(f).get("hosted_by") is None]
        return (own or folders)[0]
    free = [f for f in unfinished if not is_locked(f)]
    if len(free) == 1:
        return free[0]
    own = [f for f in free if read_meta(f).get("hosted_by") is None]
    if len(own) == 1:
        return own[0]  # (the others are its bot seats: they come back with it)
    if not free and unfinished:
        raise NodeError(
            f"every unfinished seat of game {game_id} here is being played by a process now"
        )
    choices = ", ".join(_seat_label(f) for f in (free or folders))
    raise NodeError(f"game {game_id} has several seats here ({choices}): choose one with --seat N")


def _open_journal(directory: Path) -> tuple[Path, Journal, Setup]:
    path = directory / JOURNAL
    if not path.exists():
        raise NodeError(f"no journal in {directory}")
    journal = Journal.open(path)
    first = journal.records[0] if journal.records else None
    if not isinstance(first, list) or len(first) != 2 or first[0] != "setup":
        journal.close()
        raise NodeError(f"the journal {path} has no setup")
    try:
        return directory, journal, Setup.from_wire(first[1])
    except NodeError:
        journal.close()
        raise


def read_setup(game_id: str, root: Path | None = None, seat: int | None = None) -> Setup:
    """The setup of a journaled game (who plays the seat, say), without replaying it."""
    directory = find_seat(game_id, root, seat)
    path = directory / JOURNAL
    with Journal.open(path, lock=False) as journal:
        first = journal.records[0] if journal.records else None
    if not isinstance(first, list) or len(first) != 2 or first[0] != "setup":
        raise NodeError(f"the journal {path} has no setup")
    return Setup.from_wire(first[1])


def new_master() -> bytes:
    """A fresh master secret for a real game (every other secret is derived from it)."""
    return os.urandom(32)
