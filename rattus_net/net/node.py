"""The peer node: one seat's protocol session driven over the TCP mesh, journaled to disk.

What the node adds to the sans-IO :class:`~protocol.session.Session`:

* **The mesh** (:mod:`rattus_net.net.mesh`, the class this one derives from): a link to every
  other seat, redialled when it drops, on which each side says what it holds (``H``) before
  the other sends what it lacks; a finished peer lingers until everybody said its game is over
  (``D``) and heard ours, so nobody ends up short of a frame, a signed abort among them.
* **An owner for every task.** :meth:`PeerNode.run` plays the game inside an
  :class:`asyncio.TaskGroup` that holds the dials; each link's writer belongs to its link's
  own group; the accepted links to the listener. Nothing is left running, or unawaited, when
  ``run`` returns.
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
import os
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
from rattus_net.net.ending import ABORT_LINGER
from rattus_net.net.heldsteps import HeldTurn
from rattus_net.net.mesh import Link
from rattus_net.net.pausewatch import PauseWatch
from rattus_net.net.persist import Journal, StorageError, seat_dir, write_json_atomic
from rattus_net.net.recovery import Recovery
from rattus_net.net.relink import Asks
from rattus_net.net.seats import (
    HUMAN,
    NodeError,
    Outcome,
    Setup,
    find_seat,
    open_journal,
)
from rattus_net.net.transport import DEFAULT_TRANSPORT, Listener, TransportLimits
from rattus_net.paths import JOURNAL_FILE, RECORD_FILE

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


class PeerNode(Comeback):
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
        ids = setup.params.identities
        book = ChatBook(self.session.game_id, ids, self.names, self.seat, self.identity)
        self.chat = NodeChat(book, journal)  # the table's chat: not the game
        self.chat.wake = self.wake_links
        self.choose = choose
        self.choose_async = choose_async
        self.turn = HeldTurn(self.definition, self.seat, journal)
        """Our person's steps of his turn, held here until they are final (``heldsteps``)."""
        self.on_event = on_event
        self.sent: list[bytes] = []
        self.got = [0] * self.n
        self.links: dict[int, Link] = {}
        self.asks = Asks()  # when each linked peer was last asked for our lost frames
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
        self._group: asyncio.TaskGroup | None = None  # the tasks of run(), while it runs
        self._dials: list[asyncio.Task[None]] = []
        self._failed: queue.SimpleQueue[tuple[int, str]] = queue.SimpleQueue()
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
                "winners": self._winners() if status == "finished" else None,
            },
        )

    def _winners(self) -> list[int] | None:
        """The seats that won a finished game, for the list of recent games (which cannot
        verify every record it lists: that takes seconds); ``None`` if the game has no
        outcome yet."""
        game = self.session.game
        outcome = None if game is None else self.definition.outcome(game)
        return None if outcome is None else list(outcome.winners)

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
        error: Exception | None = None
        try:
            async with asyncio.TaskGroup() as group:
                self._group = group
                for j in range(self.seat):
                    self._dials.append(group.create_task(self._dial(j)))
                if self.moved is not None:  # the seats that dial us must learn where we are
                    for j in range(self.seat + 1, self.n):
                        self._dials.append(group.create_task(self._announce(j)))
                try:
                    self.outcome = await self._play()
                except Exception as exc:  # (raised below as itself, not in a group)
                    error = exc
                finally:
                    self._closing = True
                    for task in self._dials:
                        task.cancel()  # (awaited by the group)
                    self.drop_links()
        finally:
            self._group = None
            await self.close()
        if error is not None:
            raise error
        assert self.outcome is not None
        return self.outcome

    async def _play(self) -> Outcome:
        """The game to its end, its record written, then the linger."""
        await self._main()
        self.outcome = self._finish()
        self._emit("over")
        if not self.alone:
            await self._linger()  # (claims that meet there write the record again)
        return self.outcome

    # -- what the mesh hears ---------------------------------------------------------------

    def _heard_frame(self, seat: int, frame: bytes) -> None:
        self.inbox.put_nowait((seat, frame))
        self._wake_main.set()

    def _heard_hold(self, seat: int, have: int) -> None:
        """``seat`` said (``H``) it holds our first ``have`` frames: it answered us."""
        self.recovery.hold(seat, have)
        self.answered.add(seat)
        self._wake_main.set()

    def _heard_done(self, seat: int) -> None:
        if seat not in self.done_from and not self._closing:
            self.journal.append(["D", seat], sync=False)  # known after a resume
        self.done_from.add(seat)
        self._wake_main.set()

    def _heard_copy(self, seat: int, index: int, frame: bytes) -> None:
        if self.recovery.copy(seat, index, frame):
            self._wake_main.set()

    def _game_over(self) -> bool:
        return self.session.finished or self.session.abort is not None

    def _said_done(self) -> None:
        self._wake_main.set()

    def bot_failed(self, seat: int, problem: str) -> None:
        """The bot this process ran for ``seat`` stopped (``problem``): from any thread. The
        game is stopped (a signed abort saying so) rather than left waiting for a seat that
        will not come back, to be blamed later as a staller."""
        self._failed.put((seat, problem))

    def _take_failures(self) -> None:
        """Say the failed bot seats (:meth:`bot_failed`) and stop the game for them."""
        while True:
            try:
                seat, problem = self._failed.get_nowait()
            except queue.Empty:
                return
            self.faults.append(f"{self.names[seat]}: its bot stopped here ({problem})")
            self._emit("bot-failed", seat, problem)
            if not self._game_over() and not self._closing:
                self.session.stop(
                    f"stopped: the bot playing {self.names[seat]} on the computer of "
                    f"{self.names[self.seat]} failed ({problem})",
                    seat,
                )
                self._flush_outgoing()

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
        if want is not None:
            index, ahead = want
            self.ask_copies(self.asks.due(index, ahead, self.links, time.monotonic()), index)

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
        # A copy: the thread (or the screen) that decides reads it while frames from the
        # others go on changing the session's game on this loop.
        view = self.definition.view(self.turn.shown(self.session.game).clone(), self.seat)
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
            await asyncio.gather(woken, return_exceptions=True)
            self._wake_main.clear()
            self._checkclock()
            await self._drain_inbox()
            self._take_failures()
            self._flush_outgoing()
            if self.session.abort is not None:
                thinking.cancel()  # (a thread deciding finishes on its own: the view is a copy)
                await asyncio.gather(thinking, return_exceptions=True)
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
            self._checkclock()
            await self._drain_inbox()
            self._take_failures()
            self._flush_outgoing()
            if self.recovery.pending:  # (held back until every peer said what it holds)
                self._gate()
            if self.session.needs_decision and self._may_decide():
                move = await self._decision(loop)
                if move is None:
                    break  # the game was aborted while our player was thinking
                # (steps held are journaled as local; steps sent before they are signed)
                holding = self.bot is None and self.choose_async is not None
                for step in self.turn.decided(self.session.game, move, holding=holding):
                    self.journal.append(["d", self.definition.format_move(step)])
                    self.session.decide(step, time.monotonic())
                self._flush_outgoing()
                self._wake_main.set()
            if self._alone():
                break
            self._checkclock()  # (a pause in the work just done: judge nobody for it)
            if self._reached():  # (nobody reached: no stall claim, see _alone)
                # (staggered: our clock runs STAGGER s per seat late, for steps and links)
                self.session.tick(time.monotonic() - self.seat * STAGGER, self.down_since)
            self._flush_outgoing()
            self._emit("progress")

    def _finish(self) -> Outcome:
        record = self.dir / RECORD_FILE
        if self.alone:  # nothing to record, nobody to blame: the game stays resumable
            return Outcome(self.setup.game_id, record, False, alone=True)
        data = self.session.record_bytes(self.chat.record())
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
        """Stop: every link dropped, the listener closed, the journal closed."""
        self._closing = self.chat.closing = True
        self.pauses.stop()
        self.drop_links()
        if self.listener is not None:
            await self.listener.close()
        self.journal.close()
