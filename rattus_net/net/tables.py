"""The lobby of a network table as a player's program sees it: hosting one, or joining one.

Shared by every front end that seats a person (the TUI today, the SSH server later); the
headless commands (:mod:`rattus_net.net.play`) share its helpers. Nothing here draws: a front
end reads plain values (:attr:`HostLobby.state`, the ``news`` lines, :func:`problem_text`...)
and asks (``set_ready``, ``add_bot``...); ``listeners`` are called on the front end's own
loop whenever something changed.

The table's network side runs on the program's network thread (:class:`~rattus_net.net.
loopthread.LoopThread`, handed down: :meth:`LobbySide.adopt`): the lobby's listener, its
zeroconf advert and, once the game starts, the seat's peer node, which checks every shuffle
and decryption (that work on a screen's loop held it up for half a second at a time).

* :class:`HostLobby` opens a table (:class:`~rattus_net.net.lobby.HostedTable`), seats the
  player, advertises the table and fills seats with bots on request. A bot seat is a second
  peer *in this process*: :func:`rattus_net.net.play.join_game`, joining the table over
  loopback like any guest, with its own seat folder in the data directory (its setup says
  ``hosted_by``: resuming the host's seat brings it back), run by a
  :class:`~rattus_net.net.botseats.BotSeats` thread.
* :class:`GuestLobby` joins a table by address or by its zeroconf advert; the player's "ready"
  is an event handed to :func:`~rattus_net.net.lobby.join_table` (taken back before the start
  with a second event that says the player changed his mind).

Once the table has started, ``lobby.game(state)`` gives the seat's
:class:`~rattus_net.net.netgame.NetworkGame`, built on the table's thread the moment the
start was heard (so no link of the game mesh arrives before its node is there).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from protocol.chat import ChatMisuse
from rattus_net.bots import BOT_LEVELS, BOT_NAMES
from rattus_net.kit.numbers import ascii_int
from rattus_net.net import play
from rattus_net.net.botseats import BotSeats
from rattus_net.net.discovery import Announcement, TableAdvert, local_addresses
from rattus_net.net.handshake import Handshake
from rattus_net.net.lobby import (
    JOIN_RETRY,
    HostedTable,
    LobbyRefusal,
    LobbyState,
    TableOptions,
    colour_message,
    join_table,
)
from rattus_net.net.lobby.chat import BadLobbyLine, LobbyChat, seat_keys
from rattus_net.net.lobbyside import LobbySide
from rattus_net.net.loopthread import LoopThread
from rattus_net.net.node import STALL_TIMEOUT, PeerNode
from rattus_net.net.persist import check_storage
from rattus_net.net.problems import problem_text
from rattus_net.net.seats import HUMAN, Setup
from rattus_net.net.servertables import server_tables
from rattus_net.net.transport import (
    DEFAULT_TRANSPORT,
    Connection,
    Listener,
    PeerFault,
    TransportLimits,
)

log = logging.getLogger(__name__)


def address_text(text: str) -> tuple[str, int]:
    """``HOST:PORT`` typed by the player; BadAddress saying why otherwise."""
    if not text.strip():
        raise BadAddress("the address is empty: type the host's HOST:PORT (e.g. 192.168.1.5:7000)")
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host:
        raise BadAddress(f"{text.strip()!r} is not HOST:PORT (e.g. 192.168.1.5:7000)")
    value = ascii_int(port)
    if value is None:
        raise BadAddress(f"{port!r} is not a port number")
    if not 0 < value < 65536:
        raise BadAddress("a port is 1 to 65535")
    return host, value


def options_words(options: TableOptions) -> str:
    """``4 players, random cards, supplies in turn``: the table in the game's words;
    ``3 players`` for a game without table options."""
    return options.words()


class BadAddress(ValueError):
    """An address typed by the player that is not HOST:PORT (its text says why)."""


class HostLobby(LobbySide):
    """A table this player hosts (seat 1), with its advert and its in-process bot seats."""

    is_host = True

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
        network: LoopThread | None = None,
    ) -> None:
        super().__init__(player, colour, root, network, chat_here=self._chat_here, close=self.close)
        self.table = table
        self.options = options.check()
        self.port = port
        self.advertise = advertise
        self.limits = limits
        self.stall_timeout = stall_timeout
        self.hosted: HostedTable | None = None
        self._announcement: Announcement | None = None  # (the network thread's: open())
        self.bot_tasks: list[concurrent.futures.Future[None]] = []
        self._bots: BotSeats | None = None
        self._known: set[str] = set()
        self._listing = server_tables()  # a server's own list of its players' tables

    @property
    def state(self) -> LobbyState:
        assert self.hosted is not None
        return self.hosted.core.state

    async def open(self) -> None:
        """Open the port, take seat 1 (not ready yet) and announce the table."""
        check_storage(self.root)  # (a full or read-only disk: said before anybody sits)
        await self._run(self._open_here())
        self._list_here()
        if self.advertise and not self.closed:
            problem = await self._run(self._announce_here())
            if problem is not None:  # no multicast here: the table is still open by address
                self._say(f"Not announced on the LAN ({problem}).")

    async def _announce_here(self) -> str | None:
        """On the network thread, where the advert lives and is updated and withdrawn: the
        table announced on the LAN (None), or why not."""
        self._announcement = Announcement()
        try:
            await self._announcement.start(
                play.table_advert(self.table, self.fingerprint, self.state), self.port
            )
        except Exception as exc:
            return problem_text(exc)
        return None

    async def _open_here(self) -> None:
        """On the table's thread: the listener and our seat."""
        hosted = HostedTable(self.identity, self.table, self.options, self.limits)
        hosted.listener.refusals = self._refused_soon  # (another protocol version)
        self.port = await hosted.open(None, self.port)
        hosted.core.sit(self.identity.public, self.player, "", self.port, colour=self.colour)
        self._known = {self.identity.fingerprint}
        hosted.core.on_change.append(self._changed)
        hosted.core.on_chat.append(lambda data, said: self._chat_said(said))
        self.hosted = hosted  # (last: whoever sees it sees our seat and the port)

    def _refused_soon(self, line: str) -> None:
        """From the table's thread: a player of another protocol version was refused."""
        self._say_soon(f"{line[:1].upper()}{line[1:]}.")

    def _chat_here(self, text: str) -> None:
        assert self.hosted is not None
        self.hosted.core.say(self.identity, text)

    def _changed(self, state: LobbyState) -> None:
        """On the table's thread: the lobby changed (the news is said here, in order)."""
        now = {s.fingerprint: s for s in state.seats}
        lines = []
        for fp, seat in now.items():
            if fp not in self._known:
                what = f"a bot, {BOT_LEVELS.get(seat.bot, seat.bot)}" if seat.bot else "a player"
                lines.append(f"{seat.name} ({what}) sat down in {seat.colour}.")
        for _fp in self._known - set(now):
            lines.append("A player left the table; everyone must get ready again.")
        self._say_soon(*lines)
        self._known = set(now)
        if state.phase == "playing" and self._game is None and self._game_error is None:
            self._start_game(lambda: self._node(state))
        if self._announcement is not None:
            self._announcement.update(**play.advert_changes(state))
        self._on_ui(self._changed_ui, state)

    def _changed_ui(self, state: LobbyState) -> None:
        self._list_here()
        self._tell()

    def _list_here(self) -> None:
        """On the server this game runs on (if any): list the table for its other players,
        at the address it listens on, while seats are free."""
        if self._listing is None or self.hosted is None:
            return
        state = self.state
        if self.closed or state.phase != "open" or state.free == 0:
            self._listing.withdraw(self.fingerprint)
            return
        advert = play.table_advert(self.table, self.fingerprint, state)
        self._listing.publish(replace(advert, host=local_addresses()[0], port=self.port))

    def _ask(
        self, fn: Callable[[], object], then: Callable[[], None] | None = None
    ) -> asyncio.Future[object]:
        """Run a quick lobby change on the table's thread, from the front end's loop, without
        waiting for it: that loop goes on drawing however long the table's thread is busy.
        ``then`` runs on the front end's loop once the change is made; a refusal (a
        LobbyRefusal, say) becomes a line of the lobby's log. The future returned is done
        when either has happened."""
        assert self.runner is not None and self.hosted is not None, "the table is not open"
        answer = asyncio.wrap_future(self.runner.ask(fn))

        def answered(future: asyncio.Future[object]) -> None:
            if future.cancelled():
                return
            exc = future.exception()
            if exc is not None:
                self._say(problem_text(exc))
            elif then is not None:
                then()
            self._tell()

        answer.add_done_callback(answered)
        return answer

    def set_ready(self, ready: bool) -> asyncio.Future[object]:
        hosted = self.hosted
        assert hosted is not None
        return self._ask(lambda: hosted.core.set_ready(self.fingerprint, ready))

    def set_colour(self, colour: str) -> asyncio.Future[object]:
        hosted = self.hosted
        assert hosted is not None
        return self._ask(lambda: hosted.core.set_colour(self.fingerprint, colour))

    def set_options(self, options: TableOptions) -> asyncio.Future[object]:
        """Change the table's options; every seat must get ready again (bots do so at once).
        A refusal (more players seated than the new count, the game started) is said in the
        lobby's log."""
        hosted = self.hosted
        assert hosted is not None
        checked = options.check()

        def changed() -> None:
            self.options = checked
            self._say(f"Options: {options_words(checked)}; all get ready again.")

        return self._ask(lambda: hosted.core.set_options(options), changed)

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

        def stopped(problem: str) -> None:  # on the front end's loop
            self._say(f"The bot {name} stopped: {problem}")
            game = self._game
            seat = next((i for i, s in enumerate(self.state.seats) if s.name == name), None)
            if game is not None and seat is not None:
                game.node.bot_failed(seat, problem)  # (its game is told, not left waiting)
            self._tell()

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
                log.exception("the bot seat %s failed", name)
                self._on_ui(stopped, problem_text(exc))

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
        hosted = self.hosted
        assert hosted is not None

        async def started() -> LobbyState:
            return await hosted.started

        return await self._run(started())

    def _node(self, state: LobbyState) -> tuple[PeerNode, Listener]:
        """On the table's thread: the node of our seat; mesh links share our port."""
        hosted = self.hosted
        assert hosted is not None
        addresses = play.seat_addresses(state, "", self.port)
        setup = Setup(play.game_params(state), 0, self.master, addresses, self.table, HUMAN)
        node = PeerNode.create(
            setup, self.root, limits=self.limits, stall_timeout=self.stall_timeout
        )

        async def game_link(conn: Connection, hs: Handshake) -> None:
            await node.accept(conn, hs)

        hosted.game_links = game_link
        return node, hosted.listener

    async def close(self, *, bots: bool = True) -> None:
        """Close the table; ``bots=False`` lets the bot seats finish their game first (our own
        game is over, theirs ends with it)."""
        if self._bots is not None:
            if bots:
                await self._bots.stop()
            else:
                self._bots.retire()
        if self._listing is not None:
            self._listing.withdraw(self.fingerprint)
        if self.closed:
            return
        self.closed = True
        await self._close_thread()

    async def _close_table(self) -> None:
        """On the network thread: the advert withdrawn (a goodbye), then the listener."""
        if self._announcement is not None:
            await self._announcement.withdraw()
        if self.hosted is not None:
            await self.hosted.close()


class GuestLobby(LobbySide):
    """A seat at somebody else's table: joined by address, or by its zeroconf advert."""

    is_host = False

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
        network: LoopThread | None = None,
    ) -> None:
        super().__init__(player, colour, root, network, chat_here=self._chat_here, close=self.close)
        self.address = address
        self.expect = expect_fingerprint
        self.limits = limits
        self.stall_timeout = stall_timeout
        # (created here, bound to the table's loop where join_table first waits on them)
        self.ready = asyncio.Event()
        self.ready_changed = asyncio.Event()
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._want_ready = False  # what the player said last (the event follows it there)
        self.state: LobbyState | None = None
        self._node_now: PeerNode | None = None
        self.listener: Listener | None = None
        self._seated: dict[str, str] = {}  # fingerprint -> name
        self._lobby_chat: LobbyChat | None = None  # (the table's thread; once we know it)

    @property
    def table(self) -> str:
        return self.state.table if self.state else f"{self.address[0]}:{self.address[1]}"

    def _there(self, fn: Callable[..., object], *args: object) -> None:
        """``fn(*args)`` on the table's thread (here and now while it has not started)."""
        if self.runner is None:
            fn(*args)
        else:
            self.runner.call(fn, *args)

    def set_ready(self, ready: bool) -> None:
        """Get ready, or take it back (until the game starts)."""
        self._want_ready = ready
        self._there(self._set_ready_here, ready)

    def _set_ready_here(self, ready: bool) -> None:
        if ready:
            self.ready.set()
        else:
            self.ready.clear()
        self.ready_changed.set()

    def wants_ready(self) -> bool:
        return self._want_ready

    def set_colour(self, colour: str) -> None:
        """Ask the host for another (free) disc colour; the next lobby state shows it."""
        self._there(self.outbox.put_nowait, colour_message(colour))

    def my_ready(self) -> bool:
        state = self.state
        if state is None:
            return False
        i = state.seat_of(self.fingerprint)
        return i is not None and state.seats[i].ready

    def _say_line(self, line: str) -> None:
        """On the table's thread: a line for the lobby's log (trying the table again)."""
        self._say_soon(line[:1].upper() + line[1:] + ".")
        self._on_ui(self._tell)

    def _on_state(self, state: LobbyState) -> None:
        """On the table's thread: a new lobby state from the host."""
        seated = {s.fingerprint: s for s in state.seats}
        lines = []
        if self.state is not None:
            for fp, seat in seated.items():
                if fp in self._seated:
                    continue
                if fp == self.fingerprint:
                    lines.append(f"You sat down in {seat.colour}.")
                else:
                    lines.append(f"{seat.name} sat down in {seat.colour}.")
            for fp, name in self._seated.items():
                if fp not in seated:
                    lines.append(f"{name} left the table.")
            if state.options != self.state.options:
                # the host un-readied every seat: our player confirms the new options himself
                self.ready.clear()
                self._want_ready = False
                lines.append(
                    f"The host changed the options: {options_words(state.options)}. "
                    "Space: get ready again."
                )
        self._say_soon(*lines)
        self._seated = {fp: seat.name for fp, seat in seated.items()}
        self.state = state
        if self._lobby_chat is None:
            self._lobby_chat = LobbyChat(state.host_fingerprint)
        self._on_ui(self._tell)

    def _chat_here(self, text: str) -> None:
        state, chat = self.state, self._lobby_chat
        i = state.seat_of(self.fingerprint) if state is not None else None
        if state is None or chat is None or i is None:
            raise ChatMisuse("take a seat before chatting")
        seat = state.seats[i]
        self.outbox.put_nowait(chat.say(self.identity, i, seat.name, seat.colour, text))
        self._chat_said(chat.lines[-1])

    def _chat_heard(self, data: bytes) -> None:
        """On the table's thread: a chat line the host handed on (a bad one: a note)."""
        state, chat = self.state, self._lobby_chat
        if state is None or chat is None:
            return
        try:
            got = chat.receive(data, seat_keys(state))
        except BadLobbyLine as exc:
            chat.note(f"A chat line is not shown ({exc.reason})")
            got = None
        for note in chat.fresh:
            self._chat_said(note)
        chat.fresh.clear()
        if got is not None:
            self._chat_said(got[0])

    async def _accept(self, conn: Connection) -> None:
        node = self._node_now
        if node is None:
            raise PeerFault("game not started yet", conn.peer)
        await node.accept(conn)

    async def wait_start(self) -> LobbyState:
        """Connect, sit, and wait for the start (raises LobbyRefusal or TransportError)."""
        check_storage(self.root)  # (a full or read-only disk: said before sitting down)
        return await self._run(self._join_here())

    async def _join_here(self) -> LobbyState:
        """On the table's thread: sit, wait for the start, make our seat's node."""
        self.listener = Listener(self._accept, self.limits, max_connections=20)
        listen_port = await self.listener.start(None, 0)
        state = await join_table(
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
            retry_for=JOIN_RETRY,
            say=self._say_line,
            on_chat=self._chat_heard,
        )
        self._start_game(lambda: self._node(state))
        return state

    def _node(self, state: LobbyState) -> tuple[PeerNode, Listener]:
        me = state.seat_of(self.fingerprint)
        assert me is not None and self.listener is not None
        setup = Setup(
            play.game_params(state),
            me,
            self.master,
            play.seat_addresses(state, self.address[0], self.address[1]),
            state.table,
            HUMAN,
        )
        node = PeerNode.create(
            setup, self.root, limits=self.limits, stall_timeout=self.stall_timeout
        )
        self._node_now = node
        return node, self.listener

    async def close(self, *, bots: bool = True) -> None:
        if self.closed:
            return
        self.closed = True
        await self._close_thread()

    async def _close_table(self) -> None:
        if self.listener is not None:
            await self.listener.close()


Lobby = HostLobby | GuestLobby


def join_by_advert(
    advert: TableAdvert,
    player: str,
    colour: str | None = None,
    network: LoopThread | None = None,
) -> GuestLobby:
    """A guest lobby for a table seen on the LAN (its host must prove the advertised key)."""
    address, fingerprint = play.advert_address(advert)
    return GuestLobby(
        address, player, colour=colour, expect_fingerprint=fingerprint, network=network
    )


__all__ = [
    "BadAddress",
    "GuestLobby",
    "HostLobby",
    "Lobby",
    "address_text",
    "join_by_advert",
    "options_words",
    "problem_text",
]
