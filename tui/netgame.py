"""Network play behind the TUI: hosting or joining a lobby, and the game at a network table.

No Textual here (everything runs on the app's asyncio loop, which is Textual's own):

* :class:`HostLobby` opens a table (:class:`~rattus_net.net.lobby.HostedTable`), seats the
  player, advertises the table with zeroconf and fills seats with bots on request. A bot seat
  is a second peer *in this process*: :func:`rattus_net.net.play.join_game`, joining the table
  over loopback like any guest, with its own seat folder in the data directory (its setup
  says ``hosted_by``: resuming the host's seat brings it back). Bot seats run on their own
  asyncio loop in a background thread (:class:`~rattus_net.net.botseats.BotSeats`): each peer
  checks every shuffle and decryption, and four bots' share of that work on the screen's loop
  would freeze it for half a second at a time.
* :class:`GuestLobby` joins a table by address or by its zeroconf advert; the player's "ready"
  is an event handed to :func:`~rattus_net.net.lobby.join_table` (taken back before the start
  with a second event that says the player changed his mind).
* :class:`NetworkGame` drives one :class:`~rattus_net.net.node.PeerNode` and offers the table
  screen and the dialogs the same interface as the offline game
  (:class:`tui.controller.GameController`): the node awaits the player's decision through
  ``choose_async`` (a future the dialog resolves), and reports links, faults and progress
  through ``on_event``; those become lines of the log ("Bob dropped off the table", ...) and
  the "waiting" line ("Shuffling: 3 of 5 peers done", "Waiting for Bob (12 s)").
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.crypto.identity import Identity
from protocol.messages import (
    HELLO,
    KEYS,
    MIX,
    MOVE,
    OPEN,
    RAND_COMMIT,
    RAND_REVEAL,
    SHARES,
    SHUFFLE,
    SUPPLY_COMMIT,
    SUPPLY_OPEN,
)
from protocol.params import PeerSecrets
from protocol.record import Verdict, verify_record
from protocol.safetext import safetext
from rattus_net.bots import BOT_LEVELS
from rattus_net.games.cartus.moves import Move, Supply
from rattus_net.games.cartus.narrate import Narrator, decision_words
from rattus_net.games.cartus.view import PlayerView
from rattus_net.net import play
from rattus_net.net.botseats import BotSeats, HostedBots
from rattus_net.net.discovery import (
    Advertiser,
    TableAdvert,
    new_zeroconf,
    withdraw_on_signals,
)
from rattus_net.net.handshake import Handshake
from rattus_net.net.lobby import (
    HostedTable,
    LobbyRefusal,
    LobbyState,
    TableOptions,
    colour_message,
    join_table,
)
from rattus_net.net.news import LinkNews
from rattus_net.net.node import HUMAN, STALL_TIMEOUT, Outcome, PeerNode, Setup, new_master
from rattus_net.net.persist import check_storage
from rattus_net.net.transport import (
    DEFAULT_TRANSPORT,
    Connection,
    Listener,
    PeerFault,
    TransportError,
    TransportLimits,
)
from tui.controller import BOT_NAMES, narrate

Notify = Callable[[], None]

STEP_WORDS = {
    HELLO: "Greeting the peers",
    RAND_COMMIT: "Drawing shared random numbers",
    RAND_REVEAL: "Drawing shared random numbers",
    SHARES: "Revealing cards",
    OPEN: "Opening cards",
    MIX: "Mixing a hand",
    MOVE: "Waiting for a move",
    SUPPLY_COMMIT: "Choosing supplies",
    SUPPLY_OPEN: "Showing supply choices",
    KEYS: "Publishing keys for the final check",
}


def address_text(text: str) -> tuple[str, int]:
    """``HOST:PORT`` typed by the player; ValueError with a plain message otherwise."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host:
        raise ValueError(f"{text.strip() or 'nothing'!r} is not HOST:PORT (e.g. 192.168.1.5:7000)")
    try:
        value = int(port)
    except ValueError:
        raise ValueError(f"{port!r} is not a port number") from None
    if not 0 < value < 65536:
        raise ValueError("a port is 1 to 65535")
    return host, value


def problem_text(exc: BaseException) -> str:
    """One plain line for a failure of the network (no traceback for the player)."""
    if isinstance(exc, LobbyRefusal):
        return exc.reason
    if isinstance(exc, ConnectionRefusedError):
        return "nobody answers at that address (is the table open?)"
    if isinstance(exc, OSError) and exc.strerror:
        return f"network error: {exc.strerror}"
    text = str(exc) or type(exc).__name__
    if "nobody answers there" in text:  # the transport's words for a refused connection
        where = text.split(": ", 1)[0].removeprefix("cannot connect to ")
        return f"nobody answers at {where} (is the table open?)"
    return text[0].upper() + text[1:] if text else text


def seat_root(setup: Setup, root: Path | None) -> Path | None:
    """The data directory for our seat's journal: every seat has its own folder in it
    (``games/<id>/seat-<n>/``), so two seats of one game played from one account never share a
    file."""
    return root


def building_words(selection: str) -> str:
    """``random cards`` for ``random-cards`` (a list of buildings stays as it is)."""
    return selection.replace("-", " ")


def options_words(options: TableOptions) -> str:
    """``4 players, random cards, supplies in turn``."""
    buildings = building_words(options.buildings)
    simultaneous = "simultaneous" if options.simultaneous_supply else "in turn"
    return f"{options.players} players, {buildings}, supplies {simultaneous}"


def _addresses(state: LobbyState, host: str, port: int) -> tuple[tuple[str, int], ...]:
    return tuple((s.host or host, s.port if s.host else port) for s in state.seats)


# --- lobbies ----------------------------------------------------------------------------------


class HostLobby:
    """A table this player hosts (seat 1), with its advert and its in-process bot seats."""

    def __init__(
        self,
        table: str,
        options: TableOptions,
        player: str,
        *,
        colour: str | None = None,
        port: int = 0,
        advertise: bool = True,
        limits: TransportLimits = DEFAULT_TRANSPORT,
        stall_timeout: float = STALL_TIMEOUT,
        root: Path | None = None,
    ) -> None:
        self.table = table
        self.options = options.check()
        self.player = player
        self.colour = colour
        self.port = port
        self.advertise = advertise
        self.limits = limits
        self.stall_timeout = stall_timeout
        self.root = root
        self.master = new_master()
        self.identity: Identity = PeerSecrets(self.master).identity()
        self.hosted: HostedTable | None = None
        self.listeners: list[Notify] = []
        self.news: list[str] = []
        self._aiozc = new_zeroconf() if advertise else None
        self._advertiser: Advertiser | None = None
        self._unsignal: Callable[[], None] = lambda: None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.bot_tasks: list[concurrent.futures.Future[None]] = []
        self._bots: BotSeats | None = None
        self._known: set[str] = set()
        self.closed = False

    is_host = True

    @property
    def state(self) -> LobbyState:
        assert self.hosted is not None
        return self.hosted.core.state

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint

    async def open(self) -> None:
        """Open the port, take seat 1 (not ready yet) and announce the table."""
        check_storage(self.root)  # (a full or read-only disk: said before anybody sits)
        hosted = HostedTable(self.identity, self.table, self.options, self.limits)
        self.hosted = hosted
        self.port = await hosted.open("0.0.0.0", self.port)
        hosted.core.sit(self.identity.public, self.player, "", self.port, colour=self.colour)
        self._known = {self.identity.fingerprint}
        hosted.core.on_change.append(self._changed)
        if self._aiozc is not None:
            st = hosted.core.state
            self._advertiser = Advertiser(
                self._aiozc,
                TableAdvert(self.table, self.fingerprint, len(st.seats), st.free, st.phase),
                self.port,
            )
            try:
                await self._advertiser.start()
                self._unsignal = withdraw_on_signals(self._advertiser)  # SIGTERM, SIGHUP
            except Exception as exc:  # no multicast here: the table is still open by address
                self._advertiser = None
                self.news.append(f"Not announced on the LAN ({problem_text(exc)}).")

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _changed(self, state: LobbyState) -> None:
        now = {s.fingerprint: s for s in state.seats}
        for fp, seat in now.items():
            if fp not in self._known:
                what = f"a bot, {BOT_LEVELS.get(seat.bot, seat.bot)}" if seat.bot else "a player"
                self.news.append(f"{seat.name} ({what}) sat down in {seat.colour}.")
        for _fp in self._known - set(now):
            self.news.append("A player left the table; everyone must get ready again.")
        self._known = set(now)
        if self._advertiser is not None:
            self._spawn(
                self._advertiser.update(
                    seats_taken=len(state.seats), seats_free=state.free, state=state.phase
                )
            )
        for hook in list(self.listeners):
            hook()

    def set_ready(self, ready: bool) -> None:
        assert self.hosted is not None
        self.hosted.core.set_ready(self.fingerprint, ready)

    def set_colour(self, colour: str) -> None:
        assert self.hosted is not None
        self.hosted.core.set_colour(self.fingerprint, colour)

    def set_options(self, options: TableOptions) -> None:
        """Change the table's options; every seat must get ready again (bots do so at once).
        Raises LobbyRefusal (more players seated than the new count, the game started)."""
        assert self.hosted is not None
        self.hosted.core.set_options(options)
        self.options = options
        self.news.append(f"Options: {options_words(options)}; all get ready again.")

    def my_ready(self) -> bool:
        i = self.state.seat_of(self.fingerprint)
        return i is not None and self.state.seats[i].ready

    def wants_ready(self) -> bool:
        return self.my_ready()

    def add_bot(self, kind: str) -> str:
        """Seat a bot (an in-process guest over loopback); returns its name."""
        if self.state.free <= 0:
            raise LobbyRefusal("the table is full")
        taken = {s.name for s in self.state.seats}
        name = next((b for b in BOT_NAMES if b not in taken), "Bot")
        root = self.root  # (its own seat folder there; resumed with ours: hosted_by=0)

        screen_loop = asyncio.get_running_loop()

        def stopped(problem: str) -> None:  # on the screen's loop
            self.news.append(f"The bot {name} stopped: {problem}")
            for hook in list(self.listeners):
                hook()

        async def run() -> None:  # on the bots' loop
            try:
                await play.join_game(
                    ("127.0.0.1", self.port),
                    bot=kind,
                    name=name,
                    limits=self.limits,
                    stall_timeout=self.stall_timeout,
                    say=lambda line: None,
                    root=root,
                    hosted_by=0,
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                screen_loop.call_soon_threadsafe(stopped, problem_text(exc))

        if self._bots is None:
            self._bots = BotSeats()
        self.bot_tasks.append(self._bots.start(run()))
        return name

    def remove_bot(self) -> bool:
        """Take the last bot added off the table (before the start)."""
        while self.bot_tasks:
            task = self.bot_tasks.pop()
            if not task.done():
                task.cancel()
                return True
        return False

    async def wait_start(self) -> LobbyState:
        assert self.hosted is not None
        return await self.hosted.started

    def game(self, state: LobbyState) -> NetworkGame:
        """The node of our seat, once the lobby has started; mesh links share our port."""
        assert self.hosted is not None
        addresses = _addresses(state, "", self.port)
        setup = Setup(play.game_params(state), 0, self.master, addresses, self.table, HUMAN)
        node = PeerNode.create(
            setup,
            seat_root(setup, self.root),
            limits=self.limits,
            stall_timeout=self.stall_timeout,
        )

        async def game_link(conn: Connection, hs: Handshake) -> None:
            await node.accept(conn, hs)

        self.hosted.game_links = game_link
        return NetworkGame(node, self.hosted.listener, cleanup=self.close)

    async def close(self, *, bots: bool = True) -> None:
        """Close the table; ``bots=False`` lets the bot seats finish their game first (our own
        game is over, theirs ends with it)."""
        if self._bots is not None:
            if bots:
                await self._bots.stop()
            else:
                self._bots.retire()
        if self.closed:
            return
        self.closed = True
        for t in list(self._tasks):
            t.cancel()
        self._unsignal()
        if self._advertiser is not None:
            with contextlib.suppress(Exception):
                await self._advertiser.stop()
        if self._aiozc is not None:
            with contextlib.suppress(Exception):
                await self._aiozc.async_close()
        if self.hosted is not None:
            await self.hosted.close()


class GuestLobby:
    """A seat at somebody else's table: joined by address, or by its zeroconf advert."""

    def __init__(
        self,
        address: tuple[str, int],
        player: str,
        *,
        colour: str | None = None,
        expect_fingerprint: str | None = None,
        limits: TransportLimits = DEFAULT_TRANSPORT,
        stall_timeout: float = STALL_TIMEOUT,
        root: Path | None = None,
    ) -> None:
        self.address = address
        self.root = root
        self.player = player
        self.colour = colour
        self.expect = expect_fingerprint
        self.limits = limits
        self.stall_timeout = stall_timeout
        self.master = new_master()
        self.identity: Identity = PeerSecrets(self.master).identity()
        self.ready = asyncio.Event()
        self.ready_changed = asyncio.Event()
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.state: LobbyState | None = None
        self.listeners: list[Notify] = []
        self.news: list[str] = []
        self._holder: dict[str, PeerNode] = {}
        self.listener: Listener | None = None
        self.closed = False
        self._seated: dict[str, str] = {}  # fingerprint -> name

    is_host = False

    @property
    def table(self) -> str:
        return self.state.table if self.state else f"{self.address[0]}:{self.address[1]}"

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint

    def set_ready(self, ready: bool) -> None:
        """Get ready, or take it back (until the game starts)."""
        if ready:
            self.ready.set()
        else:
            self.ready.clear()
        self.ready_changed.set()

    def wants_ready(self) -> bool:
        return self.ready.is_set()

    def set_colour(self, colour: str) -> None:
        """Ask the host for another (free) disc colour; the next lobby state shows it."""
        self.outbox.put_nowait(colour_message(colour))

    def my_ready(self) -> bool:
        if self.state is None:
            return False
        i = self.state.seat_of(self.fingerprint)
        return i is not None and self.state.seats[i].ready

    def _on_state(self, state: LobbyState) -> None:
        seated = {s.fingerprint: s for s in state.seats}
        if self.state is not None:
            for fp, seat in seated.items():
                if fp in self._seated:
                    continue
                if fp == self.fingerprint:
                    self.news.append(f"You sat down in {seat.colour}.")
                else:
                    self.news.append(f"{seat.name} sat down in {seat.colour}.")
            for fp, name in self._seated.items():
                if fp not in seated:
                    self.news.append(f"{name} left the table.")
            if state.options != self.state.options:
                # the host un-readied every seat: our player confirms the new options himself
                self.ready.clear()
                self.news.append(
                    f"The host changed the options: {options_words(state.options)}. "
                    "Space: get ready again."
                )
        self._seated = {fp: seat.name for fp, seat in seated.items()}
        self.state = state
        for hook in list(self.listeners):
            hook()

    async def _accept(self, conn: Connection) -> None:
        node = self._holder.get("node")
        if node is None:
            raise PeerFault("game not started yet", conn.peer)
        await node.accept(conn)

    async def wait_start(self) -> LobbyState:
        """Connect, sit, and wait for the start (raises LobbyRefusal or TransportError)."""
        check_storage(self.root)  # (a full or read-only disk: said before sitting down)
        self.listener = Listener(self._accept, self.limits, max_connections=20)
        listen_port = await self.listener.start("0.0.0.0", 0)
        return await join_table(
            self.address[0],
            self.address[1],
            self.identity,
            self.player,
            listen_port,
            colour=self.colour,
            expect_fingerprint=self.expect,
            limits=self.limits,
            on_state=self._on_state,
            ready=self.ready,
            ready_changed=self.ready_changed,
            outbox=self.outbox,
        )

    def game(self, state: LobbyState) -> NetworkGame:
        me = state.seat_of(self.fingerprint)
        assert me is not None and self.listener is not None
        setup = Setup(
            play.game_params(state),
            me,
            self.master,
            _addresses(state, self.address[0], self.address[1]),
            state.table,
            HUMAN,
        )
        node = PeerNode.create(
            setup,
            seat_root(setup, self.root),
            limits=self.limits,
            stall_timeout=self.stall_timeout,
        )
        self._holder["node"] = node
        return NetworkGame(node, self.listener, cleanup=self.close)

    async def close(self, *, bots: bool = True) -> None:
        if self.closed:
            return
        self.closed = True
        if self.listener is not None:
            await self.listener.close()


Lobby = HostLobby | GuestLobby


# --- the game ---------------------------------------------------------------------------------


@dataclass
class Waiting:
    """What the table waits for right now, for the "awaited" line."""

    text: str
    seconds: float = 0.0


class NetworkGame:
    """One seat of a network game, for the table screen and the dialogs."""

    network = True

    def __init__(
        self,
        node: PeerNode,
        listener: Listener | None = None,
        cleanup: Callable[..., object] | None = None,
    ) -> None:
        self.node = node
        self.listener = listener
        self.cleanup = cleanup
        self.seat = node.seat
        node.choose_async = self._choose
        node.on_event = self._event
        self._narrator = Narrator(self.names, self.seat)
        self._read = 0
        self._net_lines: list[str] = []
        self._pending: asyncio.Future[Move] | None = None
        self.listeners: list[Notify] = []
        self.outcome: Outcome | None = None
        self.error: str | None = None
        self.verdict: Verdict | None = None
        self._task: asyncio.Task[None] | None = None
        self._news = LinkNews.for_node(node)
        self._notified: tuple[int, int, int, bool, bool, bool] | None = None  # see _event
        if cleanup is None and getattr(node, "resumed", False):  # a host back: its bots too
            bots = HostedBots.resume(node, limits=node.limits, stall_timeout=node.stall_timeout)
            self.cleanup = bots.close if bots is not None else None

    # -- running ---------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            self.outcome = await self.node.run(self.listener)
            abort = self.node.session.abort
            if abort is not None:
                self._net_lines.append(safetext(abort.describe(self.names, self.seat)) + ".")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.error = problem_text(exc)
        finally:
            if self.cleanup is not None:
                result = self.cleanup(bots=False)
                if asyncio.iscoroutine(result):
                    with contextlib.suppress(Exception):
                        await result
        self._notify()

    async def stop(self) -> None:
        """Leave the game (the others will see us stall)."""
        if self._pending is not None and not self._pending.done():
            self._pending.cancel()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self.cleanup is not None:
            result = self.cleanup(bots=True)
            if asyncio.iscoroutine(result):
                with contextlib.suppress(Exception):
                    await result

    def _notify(self) -> None:
        self._notified = self._signature()
        for hook in list(self.listeners):
            hook()

    async def _choose(self, view: PlayerView) -> Move:
        self._pending = asyncio.get_running_loop().create_future()
        self._notify()
        try:
            return await self._pending
        finally:
            self._pending = None

    def _event(self, kind: str, seat: int | None, detail: str) -> None:
        if kind == "over":  # the record is written: the end screen, while the node answers on
            self.outcome = self.node.outcome
        line = self._news(kind, seat, detail)
        if line is not None:
            self._net_lines.append(line)
        elif kind == "progress" and self._signature() == self._notified:
            # the node says "progress" twice a second while a player thinks: redrawing the
            # whole table for it kept an idle game at 5-10% of a core
            return
        self._notify()

    def _signature(self) -> tuple[int, int, int, bool, bool, bool]:
        """What the table shows changes only with one of these."""
        session = self.node.session
        game = session.game
        return (
            -1 if game is None else len(game.log),
            len(session.public.log),
            len(self._net_lines),
            self._pending is not None,
            self.stable,
            session.finished or session.abort is not None,
        )

    # -- the controller interface ----------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names, made safe to show (they came from other peers)."""
        return tuple(safetext(n) for n in self.node.names)

    @property
    def game_id(self) -> str:
        return self.node.setup.game_id

    @property
    def view(self) -> PlayerView:
        game = self.node.session.game
        assert game is not None
        return PlayerView(game, self.seat)

    @property
    def stable(self) -> bool:
        """The game waits for a decision or is over, so every card we hold is known (while
        the table works, a dealt card's face may still be on its way)."""
        game = self.node.session.game
        return game is not None and (game.decision is not None or game.is_over)

    @property
    def my_turn(self) -> bool:
        return self._pending is not None and not self._pending.done()

    @property
    def is_over(self) -> bool:
        """The node is done (record written) or failed: time for the end screen."""
        return self.outcome is not None or self.error is not None

    def advance(self) -> None:
        """Nothing to do here: the node plays the others' part as messages arrive."""

    def play(self, move: Move) -> None:
        """Our decision: checked now (raises the engine's ``IllegalMove``), then handed to
        the node, which journals, signs and sends it."""
        if not self.my_turn:
            raise RuntimeError("no decision of ours is awaited")
        game = self.node.session.game
        assert game is not None and self._pending is not None
        step = self.node.session.step
        if step is not None and step.kind == SUPPLY_COMMIT:
            if not isinstance(move, Supply):
                from rattus_net.engine.errors import IllegalMove

                raise IllegalMove("a supply choice is expected")
            game.check_supply(self.seat, move)
        else:
            game.clone().apply(self.seat, move)
        self._pending.set_result(move)

    def apply(self, move: Move) -> None:
        self.play(move)

    def new_log_lines(self) -> list[str]:
        lines, self._net_lines = self._net_lines, []
        if not self.stable:
            return lines
        view = self.view
        start = self._read
        self._read = view.log_size
        return lines + narrate(view, self._narrator, start)

    def waiting(self) -> Waiting:
        """What the table waits for, with how long it has waited."""
        s = self.node.session
        if self.error is not None:
            return Waiting(f"The game stopped: {self.error}")
        if s.abort is not None:
            return Waiting(f"The game was {safetext(s.abort.describe(self.names, self.seat))}")
        if s.finished:
            return Waiting("Game over: making sure every peer has every message...")
        if getattr(self.node, "resumed", False) and not self.node._reached():  # nobody yet
            keep = max(0.0, s.timeout - (time.monotonic() - self.node._since))
            return Waiting(
                "Nobody else of this game is online yet (they may have ended it while you were "
                f"away); kept for later in {int(keep) // 60}:{int(keep) % 60:02d} unless one "
                "comes, w: wait longer"
            )
        st = s.step
        if st is None:
            return Waiting("Connecting to the other peers...")
        waited = max(0.0, time.monotonic() - st.started)
        missing = [p for p in st.senders if p != self.seat and not s._has_message(p, st.index)]
        gone = [p for p in missing if p not in self.node.links]
        if st.kind == SHUFFLE:
            stage = int(st.info["stage"]) if isinstance(st.info, dict) else 0
            who = self.names[st.senders[0]]
            text = f"Shuffling: {stage} of {self.n} peers done ({who} is shuffling)"
        elif missing:
            text = f"{STEP_WORDS.get(st.kind, st.kind)}: waiting for " + ", ".join(
                self.names[p] for p in missing
            )
        else:
            text = STEP_WORDS.get(st.kind, st.kind)
        if gone:
            text += " (" + ", ".join(self.names[p] for p in gone) + " not connected)"
            lefts = [getattr(self.node, "stall_left", lambda p: None)(p) for p in gone]
            left = min((x for x in lefts if x is not None), default=None)
            if left is not None:
                text += (
                    f"; ends in {int(left) // 60}:{int(left) % 60:02d} unless back, w: wait longer"
                )
        return Waiting(text, waited)

    def wait_longer(self) -> str | None:
        """Give the players who dropped off 5 more minutes (the table's ``w``); the line to
        show, or None if nobody is away."""
        if not any(p not in self.node.links for p in range(self.n) if p != self.seat):
            return None
        self.node.wait_longer()
        minutes = self.node.stall_timeout / 60
        return f"Waiting longer: {minutes:g} minutes in all for a player who dropped off."

    @property
    def n(self) -> int:
        return self.node.n

    def awaited(self) -> str:
        if self.my_turn:
            view = self.view
            d = view.decision
            return "Your turn: " + (decision_words(d, self.names, view.row) if d else "decide.")
        w = self.waiting()
        return f"{w.text} ({w.seconds:.0f} s)" if w.seconds >= 1 else w.text

    # -- the end ---------------------------------------------------------------------------

    def verify(self) -> Verdict | None:
        """Run ``rattus verify``'s verifier on our record (slow: call it in a thread)."""
        if self.outcome is None or self.outcome.alone:
            return None
        self.verdict = verify_record(self.outcome.record.read_bytes())
        return self.verdict

    def summary(self) -> str:
        """How the game ended, in words (for the end screen)."""
        if self.error is not None:
            return f"The game stopped: {self.error}"
        o = self.outcome
        if o is None:
            return "The game is still running."
        if o.finished:
            return f"Game {o.game_id[:16]} finished. Record: {o.record}"
        if o.alone:
            return (
                f"Nobody else of game {o.game_id[:16]} could be reached (they may have ended "
                "it while you were away). Nothing is recorded and nobody is blamed; the game "
                'is kept: "Back to the network game" (or rattus resume) continues it, or '
                "learns how it ended from the first player it reaches."
            )
        abort = self.node.session.abort
        if abort is not None:
            return f"Game {safetext(abort.describe(self.names, self.seat))}. Record: {o.record}"
        return f"Game aborted: {safetext(o.abort)}. Record: {o.record}"


def join_by_advert(advert: TableAdvert, player: str, colour: str | None = None) -> GuestLobby:
    """A guest lobby for a table seen on the LAN (its host must prove the advertised key)."""
    if not advert.compatible:
        raise LobbyRefusal(
            f"table {advert.name!r} speaks protocol version {advert.version}, this program "
            "another: update one of them"
        )
    return GuestLobby(
        (advert.host, advert.port), player, colour=colour, expect_fingerprint=advert.fingerprint
    )


__all__ = [
    "GuestLobby",
    "HostLobby",
    "NetworkGame",
    "TransportError",
    "address_text",
    "building_words",
    "options_words",
    "problem_text",
]
