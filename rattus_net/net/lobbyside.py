"""What a host's and a guest's lobby share (:mod:`rattus_net.net.tables`): the network
thread, the front end's loop, the listeners, the lobby's log, and the seat's game once the
table has started.

Two loops meet here: the front end's (the screen) and the program's network thread
(:class:`~rattus_net.net.loopthread.LoopThread`), which the program owns and hands down
(``network``, :meth:`LobbySide.adopt`): every table of the process, its lobby, its game and
its advert run there. The lobby owns only the work it submits there (:meth:`LobbySide._run`)
and cancels and awaits it when it closes; the thread outlives it. A lobby that was handed no
thread (a test, a script) starts one of its own and ends it with its game. The lobby's log
(``news``) and the listeners belong to the front end's loop; the network thread hands its
lines there (:meth:`LobbySide._say_soon`) and never waits for it, nor it for the network
thread.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from protocol.chat import HISTORY, ChatMisuse
from protocol.crypto.identity import Identity
from protocol.params import PeerSecrets
from rattus_net.net.chat import Said, send_line
from rattus_net.net.lobby import LobbyRefusal, LobbyState
from rattus_net.net.loopthread import NETWORK_THREAD, LoopClosed, LoopThread
from rattus_net.net.netgame import Cleanup, NetworkGame
from rattus_net.net.node import PeerNode
from rattus_net.net.seats import new_master
from rattus_net.net.transport import Listener

Notify = Callable[[], None]
T = TypeVar("T")


class LobbyChatFeed:
    """The lobby's chat for the front end (its loop): ``lines`` as they stand, ``listeners``
    told when they change, :meth:`say` for our player's line (see
    :mod:`rattus_net.net.lobby.chat`); ``send`` sends our player's line on the table's
    thread (a host's lobby and a guest's send it their own way)."""

    def __init__(self, side: LobbySide, send: Callable[[str], None]) -> None:
        self.lines: tuple[Said, ...] = ()
        self.listeners: list[Notify] = []
        self._side = side
        self._send = send

    def add(self, said: Said) -> None:
        self.lines = (*self.lines, said)[-HISTORY:]
        for hook in list(self.listeners):
            hook()

    async def say(self, text: str) -> str | None:
        """Send our player's line; None once it is out, or one line saying why not."""
        runner = self._side.runner
        if runner is None:
            return "Not sent: the table is not open yet."
        return await send_line(runner, lambda: self._send(text), (ChatMisuse, LobbyRefusal))


class LobbySide:
    """What both lobbies share: the table's thread, the front end's loop, the listeners, and
    the seat's game once the table has started."""

    is_host: bool

    def __init__(
        self,
        player: str,
        colour: str | None,
        root: Path | None,
        network: LoopThread | None = None,
        *,
        chat_here: Callable[[str], None],
        close: Cleanup,
    ) -> None:
        """``network``: the program's network thread (None: the lobby starts its own);
        ``chat_here(text)``: on the table's thread, our player's chat line, sent
        (:class:`ChatMisuse` if it cannot be); ``close(bots=...)``: the lobby's close,
        awaited once the seat's game is over."""
        self.player = player
        self.colour = colour
        self.root = root
        self.master = new_master()
        self.identity: Identity = PeerSecrets(self.master).identity()
        self.listeners: list[Notify] = []
        self.news: list[str] = []
        """Lines for the lobby's log: appended on the front end's loop only (the table's
        thread hands its lines there: :meth:`_say_soon`)."""
        self.closed = False
        self.runner: LoopThread | None = network
        """The program's network thread (or the lobby's own: :attr:`_owns_runner`)."""
        self._owns_runner = False
        self._work: set[concurrent.futures.Future[Any]] = set()  # (ours, on the runner)
        self._ui: asyncio.AbstractEventLoop | None = None  # the front end's loop
        self._game: NetworkGame | None = None
        self._game_error: BaseException | None = None
        self._handed = False  # the table's thread belongs to the game now
        self.chat = LobbyChatFeed(self, chat_here)
        self._close = close

    def _chat_said(self, said: Said) -> None:
        """From the table's thread: a chat line (or note) for the screen."""
        self._on_ui(self.chat.add, said)

    @property
    def fingerprint(self) -> str:
        return self.identity.fingerprint

    def adopt(self, network: LoopThread) -> None:
        """Run on the program's network thread ``network`` (a front end hands it down before
        the table opens; a lobby already running somewhere stays there)."""
        if self.runner is None:
            self.runner = network
        if self._ui is None:  # (the front end's loop, for what the thread hands back)
            with contextlib.suppress(RuntimeError):
                self._ui = asyncio.get_running_loop()

    def _table(self) -> LoopThread:
        """The network thread (a thread of the lobby's own, started at the first need, if it
        was handed none), seen from the front end."""
        if self._ui is None:
            self._ui = asyncio.get_running_loop()
        if self.runner is None:
            self.runner = LoopThread(NETWORK_THREAD)
            self._owns_runner = True
        return self.runner

    async def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` run on the network thread: work of this lobby's, cancelled (and
        awaited) when it closes, whoever owns the thread."""
        work = self._table().submit(coro)
        self._work = {w for w in self._work if not w.done()} | {work}  # (this loop's only)
        return await asyncio.wrap_future(work)

    def _on_ui(self, fn: Callable[..., object], *args: object) -> None:
        """Call ``fn(*args)`` on the front end's loop (from the table's thread)."""
        ui = self._ui
        if ui is None:
            fn(*args)
            return
        with contextlib.suppress(RuntimeError):  # (the front end is gone)
            ui.call_soon_threadsafe(fn, *args)

    def _tell(self) -> None:
        """On the front end's loop: something changed."""
        for hook in list(self.listeners):
            hook()

    def _say(self, *lines: str) -> None:
        """On the front end's loop: lines for the lobby's log."""
        self.news.extend(lines)

    def _say_soon(self, *lines: str) -> None:
        """From the table's thread: lines for the lobby's log, said on the front end's loop
        (in order with everything else handed there)."""
        if lines:
            self._on_ui(self._say, *lines)

    def _start_game(self, node_of: Callable[[], tuple[PeerNode, Listener]]) -> None:
        """On the table's thread, as the start is heard: the seat's node and game (or why
        they could not be made, said by :meth:`game`)."""
        try:
            node, listener = node_of()
            self._game = NetworkGame(
                node,
                listener,
                cleanup=self._close,
                runner=self.runner,
                owns_runner=self._owns_runner,  # (a thread of the lobby's own: the game's now)
            )
        except Exception as exc:
            self._game_error = exc

    def game(self, state: LobbyState) -> NetworkGame:
        """The seat's game, once :meth:`wait_start` has returned ``state``; ``start()`` it."""
        if self._game_error is not None:
            raise self._game_error
        assert self._game is not None, "the table has not started"
        self._handed = True
        return self._game

    async def _close_table(self) -> None:
        """On the table's thread: close what listens there."""

    async def _close_thread(self) -> None:
        """Cancel (and await) the lobby's work on the network thread and close what listens
        there; end the thread only if it is the lobby's own and no game runs on it (the game
        ends it then)."""
        runner = self.runner
        if runner is None:
            return
        work = [w for w in self._work if not w.done()]
        for w in work:
            w.cancel()  # (cancels its task on the network thread)
        if work:
            await asyncio.wait([asyncio.wrap_future(w) for w in work], timeout=10)
        with contextlib.suppress(LoopClosed, concurrent.futures.CancelledError):
            await runner.run(self._close_table())
        if self._owns_runner and not self._handed:
            await runner.stop()


__all__ = ["LobbyChatFeed", "LobbySide", "Notify"]
