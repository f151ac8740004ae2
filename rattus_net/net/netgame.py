"""One person's seat at a network table, played from a front end that must never be held up.

:class:`NetworkGame` drives one :class:`~rattus_net.net.node.PeerNode` and offers a front end
(the TUI's table screen and dialogs) the same interface as an offline game: ``view``,
``my_turn``, ``play(move)``, ``new_log_lines()``, ``awaited()``... It serves any game of the
family: the game is the one the node's parameters name (``game_name``), its views and the
legal check of a move come through the game interface (``rattus_net/kit/interface.py``), and
its words (the log, the decision awaited) from the game's side
(:mod:`rattus_net.net.tablewords`; a front end may put its own in their place: ``words``).

The node runs on the program's network thread and its asyncio loop (a
:class:`~rattus_net.net.loopthread.LoopThread` the program hands down; the game owns only its
node's task there), never on the front end's: it checks every
shuffle proof and decryption it receives, work that held a screen's loop up for half a second
at a time. The two sides share nothing mutable:

* after each thing that changes what a player sees, the node's thread publishes a
  :class:`TableSnapshot` (a copy of the game, whether our decision is awaited, how the game
  ended) and tells the front end's ``listeners`` on the front end's loop; the "waiting" line
  (:class:`WaitInfo`) is refreshed with every tick of the node, without a redraw;
* the lines for the log ("Bob dropped off the table", ...) are queued under a lock;
* our player's decision goes the other way: ``play(move)`` checks it against the snapshot,
  then hands it to the node's thread, where it completes the future the node awaits
  (``choose_async``).

While the game is played, :class:`~rattus_net.net.quietgc.QuietCollector` keeps the garbage
collector's full passes (which stop every thread) short.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from protocol.messages import (
    COMMIT_MOVES,
    HELLO,
    KEYS,
    MOVE,
    OPEN,
    OPEN_MOVES,
    PRIVATE_MIX,
    RAND_COMMIT,
    RAND_REVEAL,
    SHARES,
    SHUFFLE,
)
from protocol.safetext import safetext
from protocol.verdict import Verdict
from protocol.verify import verify_record
from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.interface import AnyGame
from rattus_net.kit.registry import get_game
from rattus_net.kit.undo import UndoRefused
from rattus_net.net.botseats import HostedBots
from rattus_net.net.chat import ChatFeed
from rattus_net.net.heldsteps import TAKE_BACK
from rattus_net.net.loopthread import NETWORK_THREAD, LoopThread, hand_to
from rattus_net.net.news import LinkNews
from rattus_net.net.node import WAIT_MORE, PeerNode
from rattus_net.net.persist import split_game_id
from rattus_net.net.problems import problem_text
from rattus_net.net.quietgc import QuietCollector
from rattus_net.net.seats import Outcome
from rattus_net.net.served import Served
from rattus_net.net.tablestate import TableSnapshot, WaitInfo, Waiting
from rattus_net.net.tablewords import TableWords, table_words
from rattus_net.net.tasks import cancel_and_wait
from rattus_net.net.transport import Listener
from rattus_net.net.verdicts import remember_verdict

log = logging.getLogger(__name__)
Notify = Callable[[], None]
Cleanup = Callable[..., object]
Move = Any  # a move of the table's game

STEP_WORDS = {
    HELLO: "Greeting the peers",
    RAND_COMMIT: "Drawing shared random numbers",
    RAND_REVEAL: "Drawing shared random numbers",
    SHARES: "Revealing {things}",
    OPEN: "Opening {things}",
    PRIVATE_MIX: "Mixing a player's {things} in private",
    MOVE: "Waiting for a move",
    COMMIT_MOVES: "Everyone choosing at once",
    OPEN_MOVES: "Showing the choices made at once",
    KEYS: "Publishing keys for the final check",
}
"""What a player reads while a step runs, in words for any game; a game says a step in its
own words with ``GameType.step_words``."""


def step_text(definition: AnyGame, kind: str, things: str) -> str:
    """What a player of ``definition``'s game reads while a step of ``kind`` runs: the game's
    words for it if it has some, else the shared ones."""
    text = definition.game_type.step_words.get(kind) or STEP_WORDS.get(kind, kind)
    return text.format(things=things)


class DecisionWithdrawn(RattusNetError):
    """Our decision is no longer awaited: the game stopped (or the decision was taken) while
    the player was choosing. A dialog says it instead of playing the move."""


class NetworkGame:
    """One seat of a network game, for the table screen and the dialogs."""

    network = True

    def __init__(
        self,
        node: PeerNode,
        listener: Listener | None = None,
        cleanup: Cleanup | None = None,
        *,
        runner: LoopThread | None = None,
        owns_runner: bool = False,
    ) -> None:
        """``cleanup(bots=...)`` (a lobby's close) is awaited on the front end's loop when
        the game is over or left; ``runner``: the network thread the node runs on (the
        program's, handed down; given at :meth:`start`, or a new one of the game's own if
        none); ``owns_runner``: the game ends that thread when it is over (a lobby's own)."""
        self.node = node
        self.listener = listener
        self.cleanup = cleanup
        self.runner = runner
        self._owns_runner = owns_runner
        self.seat = node.seat
        self.game_name: str = node.setup.params.game
        self.definition = get_game(self.game_name)
        self.secure = self.definition.secure()
        node.choose_async = self._choose
        node.on_event = self._event
        self.words: TableWords = table_words(self.game_name, self.names, self.seat)
        self.chat = ChatFeed(node.chat)  # (not the game)
        self._read = 0
        self._lock = threading.Lock()
        self._net_lines: list[str] = []
        self.listeners: list[Notify] = []
        self.outcome: Outcome | None = None
        self.error: str | None = None
        self.verdict: Verdict | None = None
        self.task: concurrent.futures.Future[None] | None = None
        self._ui: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._wound_up = False
        self._winding: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._quiet = QuietCollector()  # short collector pauses while we play
        # the node's side (its thread only)
        self._news = LinkNews.for_node(node)
        self._pending: asyncio.Future[Move] | None = None
        self._asked = 0
        self._published: tuple[object, ...] | None = None
        # the front end's side
        self._answered = 0  # the decision our player has answered (by its number)
        self._view: tuple[TableSnapshot, Any] | None = None
        self._timeout_asked = 0.0
        if cleanup is None and getattr(node, "resumed", False):  # a host back: its bots too
            bots = HostedBots.resume(node, limits=node.limits, stall_timeout=node.stall_timeout)
            self.cleanup = bots.close if bots is not None else None
        self.wait = self._wait_info()
        self.snapshot = self._snapshot()  # (the node does not run yet, or not for us yet)

    # -- the node's thread -----------------------------------------------------------------

    def _snapshot(self) -> TableSnapshot:
        session = self.node.session
        turn = self.node.turn
        game = turn.shown(session.game)  # (with our steps held, which the session lacks)
        step = session.step
        abort = session.abort
        return TableSnapshot(
            None if game is None else game.clone(),
            None if step is None else step.kind,
            self._asked,
            self._pending is not None and not self._pending.done(),
            session.finished,
            None if abort is None else safetext(abort.describe(self.names, self.seat)),
            self.outcome is not None or self.error is not None,
            turn.steps.moves,
            turn.steps.why,
        )

    def _signature(self) -> tuple[object, ...]:
        """What the table shows changes only with one of these."""
        session = self.node.session
        game = self.node.turn.shown(session.game)
        return (
            -1 if game is None else len(game.log),
            len(self.node.turn.steps.moves),
            len(session.public.log),
            self._asked,
            self._pending is not None,
            game is not None and (game.decision is not None or game.is_over),
            session.finished or session.abort is not None,
            self.outcome is not None or self.error is not None,
        )

    def _publish(self) -> None:
        """A new snapshot for the front end, which is told on its own loop."""
        self._published = self._signature()
        self.snapshot = self._snapshot()
        hand_to(self._ui, self._tell)

    def _event(self, kind: str, seat: int | None, detail: str) -> None:
        """The node's ``on_event``: a line for the log, perhaps a new snapshot."""
        if kind == "over":  # the record is written: the end screen, while the node answers on
            self.outcome = self.node.outcome
        line = self._news(kind, seat, detail)
        self.wait = self._wait_info()
        if line is not None:
            with self._lock:
                self._net_lines.append(line)
        elif self._signature() == self._published:
            # the node says "progress" twice a second while a player thinks: redrawing the
            # whole table for it kept an idle game at 5-10% of a core
            return
        self._publish()

    def _wait_info(self) -> WaitInfo:
        """What the table waits for (words without the clock: the front end adds it)."""
        node = self.node
        s = node.session
        timeout = float(getattr(s, "timeout", node.stall_timeout))
        links, comeback = node.mesh.links, node.comeback
        away = any(p not in links for p in range(self.n) if p != self.seat)
        if comeback.resumed and not comeback.reached():  # nobody of the game yet
            return WaitInfo(None, away=away, timeout=timeout, nobody_until=comeback.since + timeout)
        st = s.step
        if st is None:
            return WaitInfo(None, away=away, timeout=timeout)
        missing = [p for p in st.senders if p != self.seat and not s._has_message(p, st.index)]
        gone = [p for p in missing if p not in links]
        if st.kind == SHUFFLE:
            stage = int(st.info["stage"]) if isinstance(st.info, dict) else 0
            who = self.names[st.senders[0]]
            text = f"Shuffling: {stage} of {self.n} peers done ({who} is shuffling)"
        elif missing:
            text = f"{self._step_words(st.kind)}: waiting for " + ", ".join(
                self.names[p] for p in missing
            )
        else:
            text = self._step_words(st.kind)
        stall_at = None
        if gone:
            text += " (" + ", ".join(self.names[p] for p in gone) + " not connected)"
            now = time.monotonic()
            lefts = [getattr(node, "stall_left", lambda p: None)(p) for p in gone]
            left = min((x for x in lefts if x is not None), default=None)
            stall_at = None if left is None else now + left
        return WaitInfo(text, st.started, stall_at, away, timeout)

    def _step_words(self, kind: str) -> str:
        return step_text(self.definition, kind, self.words.things)

    async def _choose(self, view: Any) -> Move:
        """The node's ``choose_async``: wait for the front end's :meth:`play`."""
        self._pending = asyncio.get_running_loop().create_future()
        self._asked += 1
        self._publish()
        try:
            return await self._pending
        finally:
            self._pending = None

    def _answer(self, asked: int, move: Move) -> None:
        pending = self._pending
        if pending is not None and not pending.done() and asked == self._asked:
            pending.set_result(move)

    async def _run(self) -> None:
        try:
            self.outcome = await self.node.run(self.listener)
            abort = self.node.session.abort
            if abort is not None:
                with self._lock:
                    self._net_lines.append(safetext(abort.describe(self.names, self.seat)) + ".")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.error = problem_text(exc)
        finally:
            self.wait = self._wait_info()
            self._publish()
            ended = False
            if self._ui is not None:
                with contextlib.suppress(RuntimeError):
                    self._ui.call_soon_threadsafe(self._ended)
                    ended = True
            if not ended and self.runner is not None and self._owns_runner:
                self.runner.stop_soon()  # (nobody is left to wind up: the thread ends)

    # -- the front end's loop --------------------------------------------------------------

    def start(self, network: LoopThread | None = None) -> None:
        """Play: the node runs on the network thread from now on (``network``, the
        program's, unless the game has one already; a thread of its own if neither)."""
        self._ui = asyncio.get_running_loop()
        if self.runner is None:
            self.runner = network
        if self.runner is None:
            self.runner = LoopThread(NETWORK_THREAD)
            self._owns_runner = True
        self.task = self.runner.submit(self._run())
        self.chat.attach(self.runner)
        self._watch = self._ui.create_task(self._watch_front_end())
        self._quiet.start()

    async def _watch_front_end(self) -> None:
        """Cancelled with the front end's loop (the program quits at the table): the node
        stops too, and closes its journal and links, as it did on that loop before."""
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self._quiet.stop()
            task = self.task
            if not self._stopping and task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(asyncio.wrap_future(task), 5)
            raise

    def _tell(self) -> None:
        for hook in list(self.listeners):
            hook()

    def _ended(self) -> None:
        if not self._stopping:
            self._spawn_wind_up(bots=False)

    def _spawn_wind_up(self, *, bots: bool) -> None:
        """The wind-up, started on the front end's loop once the game is over; owned here
        and awaited by :meth:`stop` (or :meth:`wound_up`)."""
        self._winding = asyncio.get_running_loop().create_task(self._wind_up(bots=bots))
        self._winding.add_done_callback(_said_if_failed)

    async def wound_up(self) -> None:
        """Wait for the wind-up started when the game ended, if any (its failure raised)."""
        winding = self._winding
        if winding is not None and winding is not asyncio.current_task():
            await winding

    async def _wind_up(self, *, bots: bool) -> None:
        """The lobby's cleanup (its table, its bots), then the end of the network thread if
        it is the game's own (the program's outlives the game)."""
        if self._wound_up:
            return
        self._wound_up = True
        watch, self._watch = self._watch, None
        if watch is not asyncio.current_task():
            await cancel_and_wait([watch])
        self._quiet.stop()
        if self.cleanup is not None:
            result = self.cleanup(bots=bots)
            if asyncio.iscoroutine(result):
                with contextlib.suppress(Exception):
                    await result
        if self.runner is not None and self._owns_runner:
            await self.runner.stop()

    async def stop(self) -> None:
        """Leave the game (the others will see us stall)."""
        self._stopping = True
        task = self.task
        if task is not None and not task.done():
            task.cancel()  # (cancels the node's run on its thread)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.wrap_future(task), 15)
        await self._wind_up(bots=True)
        await self.wound_up()

    # -- the controller interface ----------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, made safe to show (they came from other peers)."""
        return tuple(safetext(n) for n in self.node.names)

    @property
    def game_id(self) -> str:
        return self.node.setup.game_id

    @property
    def n(self) -> int:
        return self.node.n

    @property
    def view(self) -> Any:
        """What our seat may know of the snapshot's game (the game's own view object)."""
        return self._snap_view()[1]

    def _snap_view(self) -> tuple[TableSnapshot, Any]:
        """The latest snapshot and our view of it (cached: one view per snapshot)."""
        snap = self.snapshot
        cached = self._view
        if cached is not None and cached[0] is snap:
            return cached
        assert snap.game is not None
        self._view = (snap, self.definition.view(snap.game, self.seat))
        return self._view

    @property
    def has_game(self) -> bool:
        return self.snapshot.game is not None

    @property
    def stable(self) -> bool:
        """The game waits for a decision or is over, so every card we hold is known (while
        the table works, a dealt card's face may still be on its way)."""
        return self.snapshot.stable

    @property
    def my_turn(self) -> bool:
        snap = self.snapshot
        return snap.asking and snap.asked != self._answered and not snap.over

    @property
    def undoable(self) -> bool:
        """A step of our player's turn, held on this peer, may be taken back now
        (:meth:`undo`)."""
        return self.my_turn and bool(self.snapshot.held)

    @property
    def is_over(self) -> bool:
        """The node is done (record written) or failed: time for the end screen."""
        return self.snapshot.over

    def advance(self) -> None:
        """Nothing to do here: the node plays the others' part as messages arrive."""

    def play(self, move: Move) -> None:
        """Our decision: checked now against the snapshot (raises the engine's
        ``IllegalMove``), then handed to the node's thread, which journals, signs and sends
        it."""
        snap = self.snapshot
        if not self.my_turn:
            if snap.over or snap.aborted is not None:
                raise DecisionWithdrawn("The game has stopped: Escape shows how it ended.")
            raise DecisionWithdrawn("No decision of yours is awaited now.")
        game = snap.game
        assert game is not None and self.runner is not None
        if snap.step_kind == COMMIT_MOVES:  # a decision the seats commit at once
            self.secure.check_committed(game, self.seat, move)
        else:
            game.clone().apply(self.seat, move)
        self._answered = snap.asked
        self.runner.call(self._answer, snap.asked, move)

    def apply(self, move: Move) -> None:
        self.play(move)

    def undo(self) -> str:
        """Take back our player's last step of his turn, held on this peer and never sent
        (``rattus_net/net/heldsteps.py``): the node asks the decision before it again.
        Returns the line that says so (the log's next one too); ``UndoRefused`` if no step
        may be taken back, ``DecisionWithdrawn`` if no decision of ours is awaited."""
        snap = self.snapshot
        if not self.my_turn:
            raise DecisionWithdrawn("Nothing to take back: no decision of yours is awaited now.")
        if not snap.held:
            raise UndoRefused(f"Nothing to take back: {snap.why_final}.")
        assert self.runner is not None
        self._answered = snap.asked
        self.runner.call(self._answer, snap.asked, TAKE_BACK)
        line = f"Step taken back: {self.definition.format_move(snap.held[-1])}."
        with self._lock:
            self._net_lines.append(line)
        return line

    def new_log_lines(self) -> list[str]:
        with self._lock:
            lines, self._net_lines = self._net_lines, []
        if self.snapshot.game is None:
            return lines
        snap, view = self._snap_view()
        if not snap.stable:  # (a face may still be on its way)
            return lines
        start = self._read
        self._read = len(snap.game.log)
        return lines + self.words.lines(view, start)

    def waiting(self) -> Waiting:
        """What the table waits for, with how long it has waited."""
        snap = self.snapshot
        if self.error is not None:
            return Waiting(f"The game stopped: {self.error}")
        if snap.aborted is not None:
            return Waiting(f"The game was {snap.aborted}")
        if snap.finished:
            return Waiting("Game over: making sure every peer has every message...")
        w = self.wait
        if w.nobody_until is not None:
            keep = max(0.0, w.nobody_until - time.monotonic())
            return Waiting(
                "Nobody else of this game is online yet (they may have ended it while you were "
                f"away); kept for later in {int(keep) // 60}:{int(keep) % 60:02d} unless one "
                "comes, w: wait longer"
            )
        if w.text is None:
            return Waiting("Connecting to the other peers...")
        now = time.monotonic()
        text = w.text
        if w.stall_at is not None:
            left = max(0.0, w.stall_at - now)
            text += f"; ends in {int(left) // 60}:{int(left) % 60:02d} unless back, w: wait longer"
        return Waiting(text, max(0.0, now - w.started))

    def wait_longer(self) -> str | None:
        """Give the players who dropped off 5 more minutes (the table's ``w``); the line to
        show, or None if nobody is away."""
        w = self.wait
        if not w.away or self.runner is None:
            return None
        self.runner.call(self.node.wait_longer)
        self._timeout_asked = max(self._timeout_asked, w.timeout) + WAIT_MORE
        minutes = self._timeout_asked / 60
        return f"Waiting longer: {minutes:g} minutes in all for a player who dropped off."

    def awaited(self) -> str:
        if self.my_turn:
            return "Your turn: " + self.words.decision(self.view)
        w = self.waiting()
        return f"{w.text} ({w.seconds:.0f} s)" if w.seconds >= 1 else w.text

    # -- the end ---------------------------------------------------------------------------

    def verify(self) -> Verdict | None:
        """Run ``rattus verify``'s verifier on our record (slow: call it in a thread)."""
        if self.outcome is None or self.outcome.alone:
            return None
        record = self.outcome.record
        data = record.read_bytes()
        self.verdict = verify_record(data)
        # kept in the seat's data folder (<root>/games/<game id>/seat-<n>/record), where the
        # recent games read who won from it
        remember_verdict(data, self.verdict, root=record.parents[3])
        return self.verdict

    def summary(self) -> str:
        """How the game ended, in words (for the end screen)."""
        if self.error is not None:
            return f"The game stopped: {self.error}"
        o = self.outcome
        if o is None:
            return "The game is still running."
        if o.finished:
            return f"Game {o.game_id[:16]} finished.\nRecord: {self.record_line()}"
        if o.alone:
            return (
                f"Nobody else of game {o.game_id[:16]} could be reached (they may have ended "
                "it while you were away). Nothing is recorded and nobody is blamed; the game "
                'is kept: "Back to the network game" (or rattus resume) continues it, or '
                "learns how it ended from the first player it reaches."
            )
        aborted = self.snapshot.aborted
        if aborted is not None:
            return f"Game {aborted}.\nRecord: {self.record_line()}"
        return f"Game aborted: {safetext(o.abort)}.\nRecord: {self.record_line()}"

    def record_line(self) -> str:
        """Where the record is: its file, or, for a served player, the command that fetches
        it (the server's paths are none of his business)."""
        o = self.outcome
        assert o is not None
        return Served.from_environment().record_line(split_game_id(o.game_id)[1][:16], o.record)


def _said_if_failed(task: asyncio.Task[None]) -> None:
    """A wind-up nobody awaits (the program quit meanwhile) still has its failure logged."""
    if not task.cancelled() and task.exception() is not None:
        log.error("winding up the table failed", exc_info=task.exception())


__all__ = [
    "STEP_WORDS",
    "DecisionWithdrawn",
    "NetworkGame",
    "TableSnapshot",
    "WaitInfo",
    "Waiting",
    "problem_text",
    "step_text",
]
