"""The web server of ``rattus web``: a door, then the whole game in a process of the visitor's
own, drawn in his browser by textual-serve's terminal client.

textual-serve (Textualize's) brings the browser side (an xterm.js client speaking Textual's
web driver protocol over a websocket) and the server side of one session (``AppService``: the
app's pipes, its packets, file downloads). What it lacks for a server others can rely on is
put in front of it here, in a small aiohttp application of our own:

- **Who enters**: a visitor chooses a player name at the door. With a players file
  (``--players``) only the names in it may enter, each with his password, and each keeps his
  folder (``<state>/players/<name>/``, the same as under ``rattus serve``: the two servers may
  share one state directory); without one, visitors are guests in a temporary folder removed
  when their game ends, under a name nobody holds or plays under here right now. The door
  gives the browser a random cookie (HttpOnly, SameSite=Strict, expiring) that the game's
  websocket must bring, from a page of this server (its Origin is checked); a new login under
  a name voids the older ones (:mod:`rattus_net.web.visits`).
- **Its own names only** (:mod:`rattus_net.web.hosts`): a request for another name (Host) is
  refused, and so is a browser's request from another site's page (Origin), so that no site
  can reach this server by DNS rebinding.
- **Limits**, as over SSH: games at once, connections per address per minute (the door's
  answers and the websockets), and a game idle too long is closed. Every refusal is said on
  the door and in one line of the server's log.
- **The session**: started like an SSH session's game (forked from the preloaded parent, or
  a fresh Python) with the player's own folders and the server's limits in its environment
  (:mod:`rattus_net.net.served`), on pipes instead of a terminal, with Textual's web driver.
  One game per name: a listed player logging in again elsewhere closes the older page's game.
  The game outlives its page for :data:`GRACE`: a reload (or a dropped connection) brings the
  same visitor back to the same running game. Each game runs with the server's process
  limits, in a process group of its own; stopping the server ends every game it started.
- **Downloads** (the end screen's record) go only to the browser of the session that offers
  them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from importlib.metadata import version
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TextIO, cast

from aiohttp import web
from textual_serve.app_service import AppService

from rattus_net.net.served import Served
from rattus_net.serve.identity import (
    NAMES_FILE,
    WEB_OWNER,
    BadNameError,
    ClaimError,
    NameClaims,
    check_name,
    folder_name,
)
from rattus_net.serve.limits import ProcessLimits, RateLimiter
from rattus_net.serve.preload import Launched, Launcher
from rattus_net.serve.running import RunningServer, run_until_signal
from rattus_net.serve.session import Player, base_environment, game_environment
from rattus_net.web import pages
from rattus_net.web.downloads import PatientDownloads
from rattus_net.web.games import Games, NameInPlay, Session, terminal_size
from rattus_net.web.hosts import AllowedHosts
from rattus_net.web.players import PlayersFile, PlayersFileError
from rattus_net.web.visits import Visitor, Visitors

COOKIE = "rattus_visitor"
STATIC = Path(sys.modules[AppService.__module__].__file__ or ".").parent / "static"
QUIT_GRACE = 5.0


class WebError(Exception):
    """The web server cannot start (bad options, unreadable files, port taken)."""


@dataclass(frozen=True, slots=True)
class WebOptions:
    state_dir: Path
    port: int = 8000
    listen: str = "127.0.0.1"
    players: Path | None = None
    max_sessions: int = 16
    per_address: int = 20
    idle_timeout: float = 1800.0
    allow_join_address: bool = False
    preload: bool = True
    limits: ProcessLimits = field(default_factory=ProcessLimits)
    allow_hosts: tuple[str, ...] = ()


class GameService(AppService):
    """textual-serve's side of one session, the app started by our launcher (forked from the
    preloaded parent) in the player's folder, with only the environment given here."""

    def __init__(self, launcher: Launcher, env: dict[str, str], home: Path, **kwargs: Any) -> None:
        super().__init__("rattus", **kwargs)
        self.launcher = launcher
        self.env = env
        self.home = home
        self.launched: Launched | None = None
        self._ending: asyncio.Task[None] | None = None
        self.on_end: Callable[[], None] | None = None

    async def run(self) -> None:
        """Pass the app's output on until it ends, then say so (``on_end``): the game is over
        whether or not a page shows it."""
        try:
            await super().run()
        finally:
            if self.on_end is not None:
                self.on_end()

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = dict(self.env)
        env.update(
            TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver",
            TEXTUAL_FPS="60",
            TEXTUAL_COLOR_SYSTEM="truecolor",
            TERM_PROGRAM="textual",
            TERM_PROGRAM_VERSION=version("textual-serve"),
            COLUMNS=str(width),
            ROWS=str(height),
        )
        return env

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        loop = asyncio.get_running_loop()
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        try:
            self.launched = await self.launcher.launch(
                self._build_environment(width, height),
                str(self.home),
                (in_r, out_w, err_w),
                terminal=False,
            )
        except BaseException:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            raise
        finally:
            for fd in (in_r, out_w, err_w):
                os.close(fd)
        stdout, stderr = asyncio.StreamReader(), asyncio.StreamReader()
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stdout), os.fdopen(out_r, "rb", 0)
        )
        await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(stderr), os.fdopen(err_r, "rb", 0)
        )
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(in_w, "wb", 0)
        )
        stdin = asyncio.StreamWriter(transport, protocol, None, loop)
        self._stdin = stdin
        self._process = cast(Any, SimpleNamespace(stdin=stdin, stdout=stdout, stderr=stderr))
        return self._process

    async def end(self) -> None:
        """Ask the app to quit; kill it if it lingers; return once it has ended. Done once,
        however many ask at once (the game's page closing, a new login, the server stopping)."""
        if self._ending is None:
            self._ending = asyncio.get_running_loop().create_task(self._end())
        await asyncio.shield(self._ending)

    async def _end(self) -> None:
        # (not wait_for: textual-serve's reading task swallows its cancellation)
        launched = self.launched
        quitting = asyncio.get_running_loop().create_task(self._quit(launched))
        await asyncio.wait({quitting}, timeout=QUIT_GRACE)
        if launched is not None and not quitting.done():
            launched.kill()
            await launched.wait()
            await asyncio.wait({quitting}, timeout=QUIT_GRACE)  # its output's end
        quitting.cancel()
        if self._stdin is not None:
            self._stdin.close()

    async def _quit(self, launched: Launched | None) -> None:
        with contextlib.suppress(OSError, RuntimeError):
            await self.stop()
        if launched is not None:
            await launched.wait()


class WebServer(RunningServer):
    """The running server: its options, the visitors let in, the games in progress."""

    name = "web"

    def __init__(self, options: WebOptions, out: TextIO) -> None:
        self.options = options
        self.out = out
        self.players = PlayersFile(options.players) if options.players is not None else None
        if self.players is not None:
            try:
                self.players.load()
            except PlayersFileError as exc:
                raise WebError(str(exc)) from None
        self.claims = NameClaims(options.state_dir / NAMES_FILE)
        self.limiter = RateLimiter(options.per_address)
        self.visitors = Visitors()
        self.games = Games(self.say, options.idle_timeout)
        self.sessions = self.games.sessions  # by folder name
        self.downloads = PatientDownloads()
        self.launcher = Launcher(base_environment(), preload=options.preload, limits=options.limits)
        self.hosts = AllowedHosts(options.listen, options.allow_hosts)
        self.tables = options.state_dir / "tables"
        self.guests = options.state_dir / "web-guests"
        self.runner: web.AppRunner | None = None
        self.port = options.port

    # --- starting and stopping ---------------------------------------------------------------

    async def start(self) -> int:
        state = self.options.state_dir
        try:
            state.mkdir(parents=True, exist_ok=True, mode=0o700)
            shutil.rmtree(self.guests, ignore_errors=True)  # left by a crash: not kept
            self.guests.mkdir(mode=0o700)
            self.tables.mkdir(mode=0o700, exist_ok=True)
        except OSError as exc:
            raise WebError(str(exc)) from None
        await self.start_launcher()
        app = web.Application(client_max_size=64 * 1024, middlewares=[self.own_names])
        app.add_routes(
            [
                web.get("/", self.door),
                web.post("/login", self.login),
                web.get("/play", self.play),
                web.get("/ws", self.websocket),
                web.get("/download/{key}", self.download),
                web.static("/static", STATIC),
            ]
        )
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.options.listen, self.options.port)
        try:
            await site.start()
        except OSError as exc:
            await self.runner.cleanup()
            await self.launcher.close()
            raise WebError(
                f"cannot listen on {self.options.listen} port {self.options.port}: "
                f"{exc.strerror or exc}"
            ) from None
        server = cast(Any, site)._server
        self.port = int(server.sockets[0].getsockname()[1])
        listen = self.options.listen
        who = f"the players in {self.options.players}" if self.players else "guests (nothing kept)"
        self.say(f"rattus web: listening on {listen} port {self.port}; {who} may enter")
        host = f"[{listen}]" if ":" in listen else listen
        self.say(f"rattus web: play at  http://{host}:{self.port}/")
        self.say_how_sessions_start()
        return self.port

    async def close(self) -> None:
        await self.games.close(b"the server is stopping")
        if self.runner is not None:
            await self.runner.cleanup()
        await self.launcher.close()
        shutil.rmtree(self.guests, ignore_errors=True)

    # --- the door ------------------------------------------------------------------------------

    @web.middleware
    async def own_names(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Only requests for this server's names, from its own pages (DNS rebinding)."""
        host = request.headers.get("Host")
        if host is not None and not self.hosts.allows(host):
            self.refused(self.address(request), host, "a request for another name")
            raise web.HTTPMisdirectedRequest(text="this server does not answer to that name")
        origin = request.headers.get("Origin")
        if origin is not None and not self.hosts.allows_origin(origin):
            self.refused(self.address(request), origin, "a request from another site's page")
            raise web.HTTPForbidden(text="not from a page of this server")
        return await handler(request)

    @staticmethod
    def address(request: web.Request) -> str:
        return request.remote or "?"

    def _page(self, why: str = "", name: str = "", status: int = 200) -> web.Response:
        html = pages.door(passwords=self.players is not None, why=why, name=name)
        return web.Response(text=html, content_type="text/html", status=status)

    async def door(self, request: web.Request) -> web.Response:
        return self._page()

    def full(self, name: str) -> str | None:
        if folder_name(name) not in self.sessions and (
            len(self.sessions) >= self.options.max_sessions
        ):
            return (
                f"the server is full ({self.options.max_sessions} games running): try again later"
            )
        return None

    async def login(self, request: web.Request) -> web.Response:
        address = self.address(request)
        loop = asyncio.get_running_loop()
        try:
            form = await request.post()
        except ValueError:
            form = cast(Any, {})
        name = str(form.get("name", ""))[:64].strip()
        if not self.limiter.allow(address, loop.time()):
            busy = "too many connections from your address: try again in a minute"
            self.refused(address, name, busy)
            return self._page(busy, name, status=429)
        why: str | None = None
        try:
            check_name(name)
        except BadNameError as exc:
            why = str(exc).replace(" (ssh -p PORT NAME@HOST)", "")
        if why is None and self.players is not None:
            password = str(form.get("password", ""))[:1024]
            try:
                known = await loop.run_in_executor(None, self.players.check, name, password)
            except PlayersFileError as exc:
                self.say(f"rattus web: {exc}")
                known = None
            if known is None:
                why = "that name is not a player's here, or the password is not his"
            else:
                name = known
        elif why is None:
            back = self.visitor(request)
            if back is not None and back.key == folder_name(name):
                raise web.HTTPSeeOther("/play")  # his own login: to his game, if it waits
            why = self._guest_refusal(name)
        why = why or self.full(name)
        if why is not None:
            self.refused(address, name, why)
            return self._page(why, name, status=403)
        visitor = Visitor(name, self.players is not None, address)
        token = self.visitors.login(visitor, loop.time())
        self.say(f"rattus web: {name} came in from {address}")
        response = web.HTTPSeeOther("/play")
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="Strict",
            path="/",
            max_age=int(self.visitors.seconds),
        )
        raise response

    def _guest_refusal(self, name: str) -> str | None:
        """Why a guest may not take ``name`` (held by a player here, or in play), or None."""
        try:
            owner = self.claims.owner(name)
        except ClaimError as exc:
            self.say(f"rattus web: {exc}")
            return "the server cannot check names just now: try again later"
        if owner is not None:
            return f"the name {name} belongs to a player here: choose another"
        if folder_name(name) in self.sessions:
            return f"someone plays as {name} here now: choose another"
        return None

    def visitor(self, request: web.Request) -> Visitor | None:
        """The visitor whose login the request's cookie is, while it holds."""
        token = request.cookies.get(COOKIE, "")
        return self.visitors.get(token, asyncio.get_running_loop().time())

    async def play(self, request: web.Request) -> web.Response:
        visitor = self.visitor(request)
        if visitor is None:
            raise web.HTTPSeeOther("/")
        why = self.full(visitor.name)
        if why is not None:
            self.refused(self.address(request), visitor.name, why)
            return self._page(why, visitor.name, status=503)
        scheme = "wss" if request.secure else "ws"
        html = pages.game(f"{scheme}://{request.host}/ws", "/static/")
        return web.Response(text=html, content_type="text/html")

    # --- a game --------------------------------------------------------------------------------

    def _same_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        scheme = "https" if request.secure else "http"
        return origin is None or origin == f"{scheme}://{request.host}"

    def _home(self, visitor: Visitor) -> Path:
        if visitor.kept:
            return self.options.state_dir / "players" / folder_name(visitor.name)
        prefix = folder_name(visitor.name) + "-"
        return Path(tempfile.mkdtemp(prefix=prefix, dir=self.guests))

    def environment(self, visitor: Visitor, home: Path) -> dict[str, str]:
        player = Player(visitor.name, None, home, kept=visitor.kept)
        served = Served(
            player=visitor.name,
            listen=self.options.listen if self.options.listen not in ("", "0.0.0.0") else None,
            join_by_address=self.options.allow_join_address,
            tables=self.tables.absolute(),
            record_command="d on this screen downloads it (game {id})",
            in_browser=True,
            kept=visitor.kept,
        )
        return {**game_environment(player, "xterm-256color"), **served.environment()}

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        address = self.address(request)
        visitor = self.visitor(request)
        loop = asyncio.get_running_loop()
        if visitor is None or not self._same_origin(request):
            self.refused(address, visitor.name if visitor else "", "no login for this page")
            raise web.HTTPForbidden(text="log in first: go to /")
        if not self.limiter.allow(address, loop.time()):
            self.refused(address, visitor.name, "too many connections from your address")
            raise web.HTTPTooManyRequests(text="too many connections: try again in a minute")
        try:
            session = await self.games.running(visitor)
        except NameInPlay as exc:
            self.refused(address, visitor.name, str(exc))
            raise web.HTTPForbidden(text=str(exc)) from None
        if session is None:
            why = self.full(visitor.name)
            if why is None and visitor.kept:
                why = self._claim(visitor.name)
            if why is not None:
                self.refused(address, visitor.name, why)
                raise web.HTTPServiceUnavailable(text=why)
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=64 * 1024)
        await ws.prepare(request)
        width = terminal_size(request.query.get("width"), 80)
        height = terminal_size(request.query.get("height"), 24)
        try:
            if session is None:
                session = Session(visitor, self._home(visitor), ws)
                self.games.add(session)
                if await self._start(session, width, height):
                    await self.games.read(session, ws)
            else:
                await self.games.attach(session, ws, width, height)
                await self.games.read(session, ws)
        finally:
            if session is not None:
                self.games.detach(session, ws)
        return ws

    def _claim(self, name: str) -> str | None:
        """A listed player's name is his (and his folder) from his first game on; a name an
        SSH key holds is shared only because the keeper listed it for the web too."""
        try:
            if self.claims.owner(name) is None:
                self.claims.claim(name, WEB_OWNER)
        except ClaimError as exc:
            self.say(f"rattus web: {exc}")
            return "the server cannot keep names just now: try again later"
        return None

    async def _start(self, session: Session, width: int, height: int) -> bool:
        """Start the game in its folder; ``False`` (the game ended, its page told) if it
        cannot start."""
        home = session.home
        try:
            (home / "data").mkdir(parents=True, exist_ok=True)
            (home / "config").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            await self.games.end(session, f"the game could not start ({exc.strerror})".encode())
            return False
        service = GameService(
            self.launcher,
            self.environment(session.visitor, home),
            home,
            write_bytes=session.send_bytes,
            write_str=session.send_str,
            close=partial(self.games.app_closed, session),
            download_manager=self.downloads,
        )
        service.owner = session  # type: ignore[attr-defined]
        service.on_end = partial(self.games.schedule_end, session)
        session.service = service
        try:
            await service.start(width, height)
        except Exception:
            await self.games.end(session, b"the game could not start")
            raise
        self.games.touch(session)
        return True

    async def download(self, request: web.Request) -> web.StreamResponse:
        """A file the visitor's own game offers (the record on the end screen)."""
        visitor = self.visitor(request)
        key = request.match_info["key"]
        try:
            meta = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="no such download (it may be over)") from None
        owner = getattr(meta.app_service, "owner", None)
        if visitor is None or owner is None or owner.visitor is not visitor:
            self.refused(self.address(request), visitor.name if visitor else "", "a download")
            raise web.HTTPForbidden(text="this download is another player's")
        self.say(f"rattus web: {visitor.name} downloads {meta.file_name}")
        response = web.StreamResponse()
        content_type = meta.mime_type + (f"; charset={meta.encoding}" if meta.encoding else "")
        response.headers["Content-Type"] = content_type
        safe = "".join(c for c in meta.file_name if c.isalnum() or c in "-_.") or "download"
        response.headers["Content-Disposition"] = f'attachment; filename="{safe}"'
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response


async def serve(options: WebOptions, out: TextIO = sys.stdout) -> None:
    """Run the server until SIGINT or SIGTERM; then close every game and return."""
    await run_until_signal(WebServer(options, out))
