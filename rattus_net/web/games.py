"""The games running under ``rattus web``, and the pages that show them.

A game lives in its own process, not in its page: the page (a websocket) may go and come back.
When it goes (a reload, a dropped connection, a closed tab), the game goes on unseen for
:data:`GRACE`; the same visitor (the same login's cookie, :mod:`rattus_net.web.visits`) who
opens the game's page within it is shown the same game, drawn afresh; past it, the game ends
as if he had left. A game ends once, whatever ends it first (its app quitting, the grace
running out, idleness, a newer login of a listed player, the server stopping): its page is
told why, its app stopped, its name freed, a guest's folder removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from aiohttp import WSMsgType, web

from rattus_net.web.visits import Visitor

GRACE = 180.0
"""How long a game outlives its page (seconds). A reload (F5), a dropped connection or a lid
closed for a moment brings the same visitor back to the same running game within it; past it
the game ends as if he had left, and a guest's folder goes with it."""
TERMINAL_MODES = "\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?25l\x1b[?2004h"
"""What Textual's web driver sets in the page's terminal when the app starts (alternate
screen, mouse reports, hidden cursor, bracketed paste): said again to a page that comes back,
whose terminal is new."""
MAX_TERMINAL = 500
"""The largest terminal side (columns or rows) a page may ask for."""


class NameInPlay(Exception):
    """A guest's name is someone else's game now (a stale login under it)."""


class Game(Protocol):
    """What a page drives of a running game (textual-serve's side of its app)."""

    async def send_bytes(self, data: bytes) -> bool: ...
    async def set_terminal_size(self, width: int, height: int) -> None: ...
    async def blur(self) -> None: ...
    async def focus(self) -> None: ...
    async def end(self) -> None: ...


@dataclass(eq=False)
class Session:
    """One visitor's game: its app, and the websocket of the page that shows it (``None``
    while no page does)."""

    visitor: Visitor
    home: Path
    websocket: web.WebSocketResponse | None = None
    service: Game | None = None
    last_input: float = 0.0
    ending: bool = False
    done: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    idle: asyncio.TimerHandle | None = field(default=None, repr=False)
    grace: asyncio.TimerHandle | None = field(default=None, repr=False)

    async def send_bytes(self, data: bytes) -> None:
        """The game's output, to the page showing it (dropped while none does: the page that
        comes back is drawn afresh)."""
        ws = self.websocket
        if ws is not None and not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_bytes(data)

    async def send_str(self, data: str) -> None:
        ws = self.websocket
        if ws is not None and not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_str(data)


def terminal_size(value: object, default: int) -> int:
    """A side of the terminal a page asks for, kept within 1..MAX_TERMINAL."""
    try:
        number = int(str(value))
    except ValueError:
        return default
    return min(max(number, 1), MAX_TERMINAL) if number > 0 else default


@dataclass
class Games:
    """The running games by folder name (one per name), each with the page showing it."""

    say: Callable[[str], None]
    idle_timeout: float
    grace: float = GRACE
    sessions: dict[str, Session] = field(default_factory=dict)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)  # kept: not collected

    async def running(self, visitor: Visitor) -> Session | None:
        """The game ``visitor`` comes back to, or ``None`` for a new one. A game under his
        name that is not his is ended first (he is the newest login under it: a listed player
        who logged in again elsewhere); a guest's is not his to end (:class:`NameInPlay`)."""
        session = self.sessions.get(visitor.key)
        while session is not None and session.ending:
            await session.done.wait()
            session = self.sessions.get(visitor.key)
        if session is None or session.visitor is visitor:
            return session
        if not visitor.kept:
            raise NameInPlay(f"someone plays as {visitor.name} here now")
        await self.end(session, b"you logged in again elsewhere")
        return None

    def add(self, session: Session) -> None:
        self.sessions[session.visitor.key] = session
        kind = "kept" if session.visitor.kept else "guest"
        self.say(f"rattus web: {session.visitor.name} is playing ({kind})")

    async def attach(self, session: Session, ws: web.WebSocketResponse, w: int, h: int) -> None:
        """The same visitor is back (a reload, another page of his): this page shows his game
        now, drawn afresh; a page that still showed it is told where it went."""
        old, session.websocket = session.websocket, ws
        if session.grace is not None:
            session.grace.cancel()
            session.grace = None
        if old is not None:
            with contextlib.suppress(Exception):
                await old.close(message=b"this game is shown in another page now")
        self.say(f"rattus web: {session.visitor.name} is back")
        service = session.service
        if service is None:  # still starting, for the page before: it goes on here
            return
        await session.send_bytes(TERMINAL_MODES.encode())
        # another size, then the page's: the app draws the whole screen again (a resize to
        # the size it has already changes nothing)
        await service.set_terminal_size(w, h + 1 if h < MAX_TERMINAL else h - 1)
        await service.set_terminal_size(w, h)
        self.touch(session)

    def detach(self, session: Session, ws: web.WebSocketResponse) -> None:
        """The page ``ws`` has gone: if it showed the game, the game goes on without a page
        for :attr:`grace`, then ends."""
        if session.websocket is not ws or session.ending:
            return
        session.websocket = None
        if session.service is None:  # it never started
            self.schedule_end(session)
            return
        loop = asyncio.get_running_loop()
        session.grace = loop.call_later(self.grace, self.schedule_end, session)
        name = session.visitor.name
        self.say(f"rattus web: {name} left the page: the game waits {self.grace:.0f} s")

    async def app_closed(self, session: Session) -> None:
        """The app has quit (its last packet): the game is over."""
        self.schedule_end(session)

    def schedule_end(self, session: Session, why: bytes = b"") -> None:
        if not session.ending:
            task = asyncio.get_running_loop().create_task(self.end(session, why))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def end(self, session: Session, why: bytes = b"") -> None:
        """End the game: its page told ``why`` (and shown the way back to the door), its app
        stopped, its name free, a guest's folder removed. Once, whoever asks first."""
        if session.ending:
            await session.done.wait()
            return
        session.ending = True
        for timer in (session.idle, session.grace):
            if timer is not None:
                timer.cancel()
        ws, session.websocket = session.websocket, None
        try:
            if ws is not None:
                with contextlib.suppress(Exception):
                    await ws.close(message=why)
            if session.service is not None:
                await session.service.end()
        finally:
            visitor = session.visitor
            if self.sessions.get(visitor.key) is session:
                del self.sessions[visitor.key]
            if not visitor.kept:
                shutil.rmtree(session.home, ignore_errors=True)
            session.done.set()
            self.say(f"rattus web: {visitor.name} has left")

    async def close(self, why: bytes) -> None:
        """End every game (the server is stopping)."""
        await asyncio.gather(*(self.end(s, why) for s in list(self.sessions.values())))

    async def read(self, session: Session, ws: web.WebSocketResponse) -> None:
        """The page's messages (keys, its size, focus) to the game, until the page goes."""
        async for message in ws:
            service = session.service
            if message.type != WSMsgType.TEXT or service is None:
                continue
            try:
                kind, *rest = json.loads(message.data)
            except (ValueError, TypeError):
                continue
            if kind == "stdin" and rest and isinstance(rest[0], str):
                await service.send_bytes(rest[0].encode("utf-8", "surrogateescape"))
                self.touch(session)
            elif kind == "resize" and rest and isinstance(rest[0], dict):
                w = terminal_size(rest[0].get("width"), 80)
                h = terminal_size(rest[0].get("height"), 24)
                await service.set_terminal_size(w, h)
            elif kind == "ping" and rest:
                await ws.send_json(["pong", str(rest[0])[:32]])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

    def touch(self, session: Session) -> None:
        """The player did something: his game is not idle."""
        loop = asyncio.get_running_loop()
        session.last_input = loop.time()
        if session.idle is None:
            session.idle = loop.call_later(self.idle_timeout, self._check_idle, session)

    def _check_idle(self, session: Session) -> None:
        session.idle = None
        loop = asyncio.get_running_loop()
        left = session.last_input + self.idle_timeout - loop.time()
        if left > 0:
            session.idle = loop.call_later(left, self._check_idle, session)
            return
        self.say(f"rattus web: {session.visitor.name} was idle: disconnected")
        self.schedule_end(session, b"idle too long: disconnected")
