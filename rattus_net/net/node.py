"""The peer node: one seat's protocol session driven over the TCP mesh, journaled to disk.

What the node adds to the sans-IO :class:`~protocol.session.Session`:

* **Its parts**, objects with their own state that the node owns and calls, each asking the
  node for what it needs through a small interface (``MeshOwner``, ``ComebackOwner``,
  ``EndingOwner``). The mesh (:class:`~rattus_net.net.mesh.Mesh`): a link to every other seat,
  redialled when it drops, on which each side says what it holds (``H``) before the other
  sends what it lacks. The ending (:class:`~rattus_net.net.ending.GameEnd`): a finished peer
  lingers until everybody said its game is over (``D``) and heard ours. The comeback
  (:class:`~rattus_net.net.comeback.Comeback`), below. What it tells a user interface
  (:class:`~rattus_net.net.events.NodeEvents`) and its files (``SeatFiles``).
* **An owner for every task.** :meth:`PeerNode.run` plays the game inside an
  :class:`asyncio.TaskGroup` that holds the dials; each link's writer belongs to its link's
  own group; the accepted links to the listener. Nothing is left running, or unawaited, when
  ``run`` returns.
* **Resumed and paused peers.** A resumed peer sends nothing it makes until every peer has
  said what it holds, then only byte-identical copies of what it had signed
  (:mod:`rattus_net.net.recovery`); a peer whose clock jumped (it was stopped) judges nobody
  until a peer has answered again (:meth:`~rattus_net.net.comeback.Comeback.came_back`).
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
import queue
import random
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from protocol.chat import ChatBook
from protocol.crypto.identity import Identity
from protocol.errors import RemoteProtocolError
from protocol.params import PeerSecrets
from protocol.session import DisputeFault, ReplayError, Session
from protocol.session import PeerFault as SessionFault
from rattus_net.bots import GameBot, make_game_bot
from rattus_net.kit.registry import get_game
from rattus_net.net.chat import NodeChat
from rattus_net.net.comeback import STAGGER, Comeback
from rattus_net.net.ending import ABORT_LINGER, GameEnd
from rattus_net.net.events import EventHook, NodeEvents
from rattus_net.net.handshake import Handshake
from rattus_net.net.heldsteps import HeldTurn
from rattus_net.net.mesh import Mesh
from rattus_net.net.persist import Journal, seat_dir
from rattus_net.net.recovery import Recovery
from rattus_net.net.seatfiles import SeatFiles
from rattus_net.net.seats import (
    HUMAN,
    NodeError,
    Outcome,
    Setup,
    find_seat,
    open_journal,
)
from rattus_net.net.transport import DEFAULT_TRANSPORT, Connection, Listener, TransportLimits
from rattus_net.paths import JOURNAL_FILE

log = logging.getLogger(__name__)

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
        self.journal = journal
        self.dir = directory
        self.limits = limits
        self.stall_timeout = stall_timeout
        self.seat = setup.seat
        self.n = setup.params.n
        self.names = setup.params.config.players
        self.definition = get_game(setup.params.game)
        """The game of the table (its views, legal moves, move text and bots)."""
        self.files = SeatFiles(directory, setup, self.definition)  # its summary and record
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
        self.events = NodeEvents(self.names, on_event)  # told to a user interface; faults
        ids = setup.params.identities
        book = ChatBook(self.session.game_id, ids, self.names, self.seat, self.identity)
        self.chat = NodeChat(book, journal)  # the table's chat: not the game
        self.choose = choose
        self.choose_async = choose_async
        self.turn = HeldTurn(self.definition, self.seat, journal)
        """Our person's steps of his turn, held here until they are final (``heldsteps``)."""
        self.mesh = Mesh(self, setup, self.identity, journal, self.chat, self.events, limits)
        self.chat.wake = self.mesh.wake_links
        # What a resumed peer may send, and when (sans-IO): it holds what each peer said (H)
        # it holds of our frames, and the copies of our own frames they sent back (Y).
        self.recovery = Recovery(
            self.session,
            lambda: self.definition.legal(self.session.game, self.seat),
            resumed=False,
            sent=self.mesh.sent,
            delay=self.seat * STAGGER,
            journal=str(journal.path),
        )
        self.copies = self.recovery.copies
        self.comeback = Comeback(
            self,
            self.session,
            self.mesh,
            self.recovery,
            self.definition,
            journal,
            self.events,
            together=together,
        )
        self.outcome: Outcome | None = None  # set once the record is written
        self.inbox: asyncio.Queue[tuple[int, bytes]] = asyncio.Queue()
        self._wake_main = asyncio.Event()
        self.ending = GameEnd(
            self,
            self.session,
            self.mesh,
            journal,
            self.events,
            self.inbox,
            self._wake_main,
            linger=linger,
            abort_linger=abort_linger,
        )
        self._abort_kept = False  # our own abort is journaled (see flush_outgoing)
        self._group: asyncio.TaskGroup | None = None  # the tasks of run(), while it runs
        self._dials: list[asyncio.Task[None]] = []
        self._failed: queue.SimpleQueue[tuple[int, str]] = queue.SimpleQueue()
        self.say_drops: Callable[[str], None] | None = None  # dropped strangers, in words

    @property
    def on_event(self) -> EventHook | None:
        """The user interface's ``on_event(kind, seat, detail)`` hook (settable)."""
        return self.events.on_event

    @on_event.setter
    def on_event(self, hook: EventHook | None) -> None:
        self.events.on_event = hook

    @property
    def faults(self) -> list[str]:
        """The faults seen so far, in words (the outcome lists them)."""
        return self.events.faults

    @property
    def resumed(self) -> bool:
        """Whether this node was resumed from its journal (:meth:`load`)."""
        return self.comeback.resumed

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def create(cls, setup: Setup, root: Path | None = None, **kw: Any) -> PeerNode:
        """A new game: write the setup as the journal's first record (in the seat's own
        folder, locked while we play it)."""
        directory = seat_dir(setup.game_id, setup.seat, root)
        journal = Journal.open(directory / JOURNAL_FILE)
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
        directory, journal, setup = open_journal(find_seat(game_id, root, seat))
        node = cls(setup, journal, directory, **kw)
        node.comeback.resumed = node.recovery.resumed = True
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
                self.mesh.got[link] += 1
                self.mesh.received[link].append(frame)
            elif self.turn.replay(rec, self.session.game):
                continue  # a step held (or taken back), never sent
            elif rec[0] == "d" and len(rec) == 2:
                assert isinstance(rec[1], str)
                self.session.decide(self.definition.parse_move(rec[1]), now)
            elif rec[0] == "A" and len(rec) == 2 and isinstance(rec[1], bytes):
                self._abort_kept = True  # our own signed abort, adopted again
                with contextlib.suppress(RemoteProtocolError):
                    self.session.receive(rec[1], now)
            elif rec[0] == "S" and len(rec) == 2 and isinstance(rec[1], bytes):
                self.session.take_abort(rec[1])  # an abort that took the place of ours
            elif rec[0] == "c" and len(rec) == 2 and isinstance(rec[1], bytes):
                self.chat.replay(rec[1])  # a chat line (not the game)
            elif rec[0] == "D" and len(rec) == 2 and isinstance(rec[1], int):
                self.mesh.done_from.add(rec[1])  # that peer had said its game was over
            elif rec[0] == "p" and len(rec) == 3 and isinstance(rec[1], int):
                assert isinstance(rec[2], bytes)
                self.mesh.addresses[self.seat] = (self.mesh.addresses[self.seat][0], rec[1])
                self.mesh.moved = rec[2]
            elif rec[0] == "a" and len(rec) == 4 and isinstance(rec[1], int):
                _, seat, host, port = rec
                assert isinstance(seat, int) and isinstance(host, str) and isinstance(port, int)
                self.mesh.addresses[seat] = (host, port)
        self.mesh.sent.extend(self.session.take_outgoing())

    def _write_meta(self, status: str) -> None:
        self.files.write_meta(status, self.mesh.addresses[self.seat], self.session.game)

    def port_moved(self) -> None:
        """The mesh listens on another port now: a restart finds it in the meta file."""
        self._write_meta("playing")

    # -- running ---------------------------------------------------------------------------

    async def run(self, listener: Listener | None = None) -> Outcome:
        """Connect the mesh and play to the end; returns where the record is."""
        if listener is None:
            _, port = self.mesh.addresses[self.seat]
            self.mesh.listener = Listener(
                self.mesh.accept, self.limits, max_connections=4 * self.n, say=self.say_drops
            )
            await self.mesh.listen(port)
        else:
            self.mesh.listener = listener
        if self.journal.damage is not None:
            self.events.emit(
                "journal",
                self.seat,
                f"{self.journal.damage}; asking the other peers what you had sent before "
                "you decide anything",
            )
        self.comeback.since = time.monotonic()
        self.comeback.pauses.start()
        error: Exception | None = None
        try:
            async with asyncio.TaskGroup() as group:
                self._group = group
                for j in range(self.seat):
                    self._dials.append(group.create_task(self.mesh.dial(j)))
                if self.mesh.moved is not None:  # the seats that dial us must learn where we are
                    for j in range(self.seat + 1, self.n):
                        self._dials.append(group.create_task(self.mesh.announce(j)))
                try:
                    self.outcome = await self._play()
                except Exception as exc:  # (raised below as itself, not in a group)
                    error = exc
                finally:
                    self.events.closing = True
                    for task in self._dials:
                        task.cancel()  # (awaited by the group)
                    self.mesh.drop_links()
        finally:
            self._group = None
            await self.close()
        if error is not None:
            raise error
        assert self.outcome is not None
        return self.outcome

    async def accept(self, conn: Connection, hs: Handshake | None = None) -> None:
        """An incoming link (from our Listener, or the lobby host's shared one)."""
        await self.mesh.accept(conn, hs)

    def leave(self) -> None:
        """Stop answering after an abort now (the player pressed Ctrl+C): the record is
        already written."""
        self.ending.leave()

    @property
    def linger(self) -> float:
        """Seconds a finished node waits for the others to say their game is over."""
        return self.ending.linger

    async def _play(self) -> Outcome:
        """The game to its end, its record written, then the linger."""
        await self._main()
        self.write_record()
        self.events.emit("over")
        if not self.comeback.gave_up:
            await self.ending.linger_on(self.resumed)  # (claims that meet write it again)
        assert self.outcome is not None
        return self.outcome

    # -- what the mesh hears (MeshOwner) -------------------------------------------------

    def heard_frame(self, seat: int, frame: bytes) -> None:
        self.inbox.put_nowait((seat, frame))
        self._wake_main.set()

    def heard_hold(self, seat: int, have: int) -> None:
        """``seat`` said (``H``) it holds our first ``have`` frames: it answered us."""
        self.recovery.hold(seat, have)
        self.comeback.answered.add(seat)
        self._wake_main.set()

    def heard_done(self, seat: int) -> None:
        if seat not in self.mesh.done_from and not self.events.closing:
            self.journal.append(["D", seat], sync=False)  # known after a resume
        self.mesh.done_from.add(seat)
        self._wake_main.set()

    def heard_copy(self, seat: int, index: int, frame: bytes) -> None:
        if self.recovery.copy(seat, index, frame):
            self._wake_main.set()

    def game_over(self) -> bool:
        return self.session.finished or self.session.abort is not None

    def said_done(self) -> None:
        self._wake_main.set()

    def bot_failed(self, seat: int, problem: str) -> None:
        """The bot this process ran for ``seat`` stopped (``problem``): from any thread. The
        game is stopped (a signed abort saying so) rather than left waiting for a seat that
        will not come back, to be blamed later as a staller."""
        self._failed.put((seat, problem))

    def take_failures(self) -> None:
        """Say the failed bot seats (:meth:`bot_failed`) and stop the game for them."""
        while True:
            try:
                seat, problem = self._failed.get_nowait()
            except queue.Empty:
                return
            self.faults.append(f"{self.names[seat]}: its bot stopped here ({problem})")
            self.events.emit("bot-failed", seat, problem)
            if not self.game_over() and not self.events.closing:
                self.session.stop(
                    f"stopped: the bot playing {self.names[seat]} on the computer of "
                    f"{self.names[self.seat]} failed ({problem})",
                    seat,
                )
                self.flush_outgoing()

    def wait_longer(self, seconds: float = WAIT_MORE) -> None:
        """Wait ``seconds`` more for peers who stopped (and for every step) before the game
        ends blaming them: a player at the table chose to give them more time."""
        self.session.timeout += seconds
        self.stall_timeout = self.session.timeout

    def stall_left(self, seat: int, now: float | None = None) -> float | None:
        """Seconds left before ``seat``, whose link is down, is blamed (None if linked)."""
        since = self.comeback.absent().get(seat)
        if since is None:
            return None
        return max(0.0, self.session.timeout - ((now or time.monotonic()) - since))

    def flush_outgoing(self) -> None:
        """Hand what the session made to the recovery step (a resumed peer holds back what it
        may not send yet) and wake the links for what may go out."""
        before = len(self.mesh.sent)
        for _ in range(3):  # (the recovery step may stop the game: its abort goes out too)
            abort = self.session.abort
            if abort is not None and abort.by == self.seat and not self._abort_kept:
                # Our own abort (a stall we saw, a stop) came from the clock, not from the
                # journal's inputs: journal the signed frame before it leaves, so that a
                # restart holds the same decision and answers the others with it.
                self._abort_kept = True
                if abort.frame is not None and not self.events.closing:
                    self.journal.append(["A", abort.frame])
            stopped = self.session.abort is not None
            made = self.session.take_outgoing()
            self.recovery.produce(made, time.monotonic(), self.mesh.done_from)
            if stopped or self.session.abort is None:
                break
        self.recovery_news()
        if len(self.mesh.sent) > before:
            for link in self.mesh.links.values():
                link.wake.set()

    def recovery_news(self) -> None:
        """Say what the recovery step found, and ask back the frame of ours it lacks."""
        for kind, seat, detail in self.recovery.events:
            if kind == "fault":
                self.events.fault(seat, detail)
            else:
                self.events.emit(kind, seat, detail)
        self.recovery.events.clear()
        want = self.recovery.want
        if want is not None:
            index, ahead = want
            due = self.mesh.asks.due(index, ahead, self.mesh.links, time.monotonic())
            self.mesh.ask_copies(due, index)

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
                    self.events.fault(seat, exc.reason)  # the frame itself: its link is to blame
                    bad = self.mesh.links.get(seat)
                    if bad is not None:
                        bad.conn.abort()
                    continue
                # The frame is in the game (journaled below, like any other); the fault is a
                # message processed after it, blamed on that message's author, unless two
                # signed views only disagree (the evidence exchange settles who equivocated).
                if isinstance(exc, DisputeFault):
                    who = " and ".join(self.names[s] for s in (exc.seat, *exc.others))
                    self.events.fault(None, f"{who} disagree about what was sent: {exc.reason}")
                else:
                    blamed = exc.seat if isinstance(exc, SessionFault) else None
                    self.events.fault(blamed, exc.reason)
            except Exception as exc:  # (the session turns a peer's bad input into a fault)
                log.exception("a frame from seat %d could not be handled", seat)
                what = type(exc).__name__
                self.events.fault(seat, f"sent a frame that could not be handled ({what})")
                continue
            self.mesh.got[seat] += 1
            self.mesh.received[seat].append(frame)
            self.journal.append(["r", seat, frame], sync=False)
            dirty = True
        if dirty:
            self.journal.sync()

    async def _decision(self, loop: asyncio.AbstractEventLoop) -> Any | None:
        """Our player's move. While he (or the bot) thinks, frames from the others are still
        received, so an abort or a cheat is seen at once; ``None`` if the game was aborted."""
        assert self.session.game is not None
        # A copy: the thread (or the screen) that decides reads it while frames from the
        # others go on changing the session's game on this loop.
        view = self.definition.view(self.turn.shown(self.session.game).clone(), self.seat)
        if self.choose_async is not None:
            self.events.emit("progress")
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
            await asyncio.gather(woken, return_exceptions=True)
            self._wake_main.clear()
            self.comeback.checkclock()
            await self._drain_inbox()
            self.take_failures()
            self.flush_outgoing()
            if self.session.abort is not None:
                thinking.cancel()  # (a thread deciding finishes on its own: the view is a copy)
                await asyncio.gather(thinking, return_exceptions=True)
                return None
            self.events.emit("progress")
        return thinking.result()

    async def _main(self) -> None:
        self.flush_outgoing()
        for link in self.mesh.links.values():
            link.wake.set()
        loop = asyncio.get_running_loop()
        while self.session.abort is None and not self.session.finished:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake_main.wait(), 0.5)
            self._wake_main.clear()
            self.comeback.checkclock()
            await self._drain_inbox()
            self.take_failures()
            self.flush_outgoing()
            if self.recovery.pending:  # (held back until every peer said what it holds)
                self.comeback.gate()
            if self.session.needs_decision and self.comeback.may_decide():
                move = await self._decision(loop)
                if move is None:
                    break  # the game was aborted while our player was thinking
                # (steps held are journaled as local; steps sent before they are signed)
                holding = self.bot is None and self.choose_async is not None
                for step in self.turn.decided(self.session.game, move, holding=holding):
                    self.journal.append(["d", self.definition.format_move(step)])
                    self.session.decide(step, time.monotonic())
                self.flush_outgoing()
                self._wake_main.set()
            if self.comeback.alone():
                break
            self.comeback.checkclock()  # (a pause in the work just done: judge nobody for it)
            if self.comeback.reached():  # (nobody reached: no stall claim, see _alone)
                # (staggered: our clock runs STAGGER s per seat late, for steps and links)
                self.session.tick(time.monotonic() - self.seat * STAGGER, self.mesh.down_since)
            self.flush_outgoing()
            self.events.emit("progress")

    def write_record(self) -> None:
        """Write the game's record (:meth:`_finish`) and keep where it is (:attr:`outcome`)."""
        self.outcome = self._finish()

    def _finish(self) -> Outcome:
        record = self.files.record
        if self.comeback.gave_up:  # nothing to record, nobody to blame: the game stays resumable
            return Outcome(self.setup.game_id, record, False, alone=True)
        abort = self.session.abort
        status = "finished" if abort is None else "aborted"
        data = self.session.record_bytes(self.chat.record())
        self.files.write_record(data, status, self.mesh.addresses[self.seat], self.session.game)
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
        """Stop: every link dropped, the listener closed, the journal closed."""
        self.events.closing = self.chat.closing = True
        self.comeback.pauses.stop()
        self.mesh.drop_links()
        if self.mesh.listener is not None:
            await self.mesh.listener.close()
        self.journal.close()
