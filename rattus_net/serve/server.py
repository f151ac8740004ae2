"""The SSH server of ``rattus serve``: who may enter, under which name, and what is refused.

Only the game runs here. Sessions get the TUI when they ask for a terminal and a one-line
refusal otherwise; exec requests are answered with a refusal, subsystems (SFTP) and every kind
of forwarding (TCP, agent, X11) are refused by asyncssh's defaults, which this server leaves
off. Abuse is bounded: a client that does not finish the key exchange and log in within the
login timeout is dropped, connections per address per minute are limited, the number of games
running at once is limited, and a session idle too long is closed. asyncssh handles every
connection on its own, so stalled ones do not hold up the others.

Identity: a key-authenticated player owns his name (see :mod:`.identity`) and keeps his saves,
journals and settings in ``<state dir>/players/<name>/``. With ``--open``, a client without an
accepted key may enter by user name alone (keyboard-interactive with no question); nothing is
kept for him (a temporary folder removed at the end), and names owned by a key stay theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import asyncssh

from rattus_net.serve.hostkey import HOST_KEY_FILE, fingerprint, load_or_create_host_key
from rattus_net.serve.identity import (
    NAMES_FILE,
    BadNameError,
    ClaimError,
    NameClaims,
    check_name,
    folder_name,
)
from rattus_net.serve.limits import RateLimiter
from rattus_net.serve.session import GameSession, Player, SessionHost, remove_home

KEEPALIVE_INTERVAL = 30.0
KEEPALIVE_COUNT_MAX = 4
"""A client that answers no keepalive for two minutes is gone: its game is hung up."""


class ServeError(Exception):
    """The server cannot start (bad options, unreadable files, port taken)."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    state_dir: Path
    port: int = 2222
    listen: str = ""  # every address
    authorized_keys: Path | None = None
    max_sessions: int = 16
    per_address: int = 20  # connections per address per minute
    idle_timeout: float = 1800.0
    login_timeout: float = 30.0
    open: bool = False


class GameServer(SessionHost):
    """The running server: its options, the names file, and the games in progress."""

    def __init__(self, options: ServeOptions, out: TextIO) -> None:
        self.options = options
        self.out = out
        self.idle_timeout = options.idle_timeout
        self.claims = NameClaims(options.state_dir / NAMES_FILE)
        self.allowed: asyncssh.SSHAuthorizedKeys | None = None
        if options.authorized_keys is not None:
            try:
                self.allowed = asyncssh.read_authorized_keys(str(options.authorized_keys))
            except (OSError, ValueError) as exc:
                raise ServeError(
                    f"cannot read the authorized keys {options.authorized_keys}: {exc}"
                ) from None
        self.limiter = RateLimiter(options.per_address)
        self.sessions: set[GameSession] = set()
        self.by_name: dict[str, GameSession] = {}
        self.acceptor: asyncssh.SSHAcceptor | None = None

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    # --- starting and stopping ---------------------------------------------------------------

    async def start(self) -> int:
        """Listen; returns the port (useful when the options asked for port 0)."""
        state = self.options.state_dir
        try:
            state.mkdir(parents=True, exist_ok=True, mode=0o700)
            shutil.rmtree(state / "open", ignore_errors=True)  # left by a crash: not kept
            key, made = load_or_create_host_key(state / HOST_KEY_FILE)
        except OSError as exc:
            raise ServeError(str(exc)) from None
        self.say(
            f"rattus serve: host key {fingerprint(key)} (ED25519, "
            f"{'new' if made else 'kept'} in {state / HOST_KEY_FILE})"
        )
        try:
            self.acceptor = await asyncssh.create_server(
                lambda: Gatekeeper(self),
                self.options.listen or None,
                self.options.port,
                server_host_keys=[key],
                login_timeout=self.options.login_timeout,
                keepalive_interval=KEEPALIVE_INTERVAL,
                keepalive_count_max=KEEPALIVE_COUNT_MAX,
                encoding=None,
                line_editor=False,
                allow_scp=False,
                agent_forwarding=False,
                x11_forwarding=False,
                password_auth=False,
                gss_host=None,
                reuse_address=True,
            )
        except OSError as exc:
            raise ServeError(
                f"cannot listen on port {self.options.port}: {exc.strerror or exc}"
            ) from None
        port = self.acceptor.get_port()
        where = self.options.listen or "every address"
        entry = "key, or user name alone (--open)" if self.options.open else "a public key"
        self.say(f"rattus serve: listening on {where} port {port}; players enter with {entry}")
        self.say(f"rattus serve: play with  ssh -p {port} NAME@THIS-HOST")
        return port

    async def close(self) -> None:
        """Stop listening and hang up every game (each is saved or journalled as it goes)."""
        if self.acceptor is not None:
            self.acceptor.close()
            await self.acceptor.wait_closed()
        for s in self.sessions:
            s.close_with("the server is stopping (your game is kept)")
        await asyncio.gather(*(s.end() for s in list(self.sessions)))

    # --- players -----------------------------------------------------------------------------

    def player_for(self, name: str, key: str | None) -> Player:
        """The player who logged in as ``name`` with ``key`` (``None``: let in by --open)."""
        folder = folder_name(name)
        if key is not None:
            return Player(name, key, self.options.state_dir / "players" / folder, kept=True)
        base = self.options.state_dir / "open"
        base.mkdir(mode=0o700, exist_ok=True)
        return Player(name, None, Path(tempfile.mkdtemp(prefix=folder + "-", dir=base)), False)

    async def admit(self, session: GameSession) -> str | None:
        player = session.player
        old = self.by_name.get(folder_name(player.name)) if player.kept else None
        if old is None and len(self.sessions) >= self.options.max_sessions:
            remove_home(player)
            return (
                f"the server is full ({self.options.max_sessions} games running): try again later"
            )
        if old is not None:
            await old.replaced()
            self.leave(old)
        self.sessions.add(session)
        if player.kept:
            self.by_name[folder_name(player.name)] = session
        how = "key " + player.key if player.key else "no key, nothing kept"
        self.say(f"rattus serve: {player.name} is playing ({how})")
        return None

    def leave(self, session: GameSession) -> None:
        if session not in self.sessions:
            remove_home(session.player)
            return
        self.sessions.discard(session)
        name = folder_name(session.player.name)
        if self.by_name.get(name) is session:
            del self.by_name[name]
        remove_home(session.player)
        self.say(f"rattus serve: {session.player.name} has left")


class Gatekeeper(asyncssh.SSHServer):
    """One connection: the address limit, authentication, and the sessions it opens."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.bad_name = False
        self.key: str | None = None  # the fingerprint of the key last found acceptable
        self.banners: set[str] = set()
        self.sessions = 0  # opened on this connection (one is allowed)

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        loop = asyncio.get_running_loop()
        if not self.server.limiter.allow(address, loop.time()):
            loop.call_soon(
                self._disconnect,
                asyncssh.DISC_TOO_MANY_CONNECTIONS,
                "too many connections from your address: try again in a minute",
            )

    def _disconnect(self, code: int, reason: str) -> None:
        if self.conn is not None:
            self.conn.disconnect(code, reason)

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn = None  # nothing more is sent on it

    def banner(self, text: str) -> None:
        """Tell the client why it is refused (ssh prints it), once per reason."""
        if self.conn is not None and text not in self.banners:
            self.banners.add(text)
            with contextlib.suppress(OSError):
                self.conn.send_auth_banner(f"rattus: {text}\r\n")

    def begin_auth(self, username: str) -> bool:
        try:
            check_name(username)
        except BadNameError as exc:
            self.bad_name = True
            self.banner(str(exc))
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.key = None
        if self.bad_name:
            return False
        if self.server.allowed is not None and self.conn is not None:
            peer = self.conn.get_extra_info("peername")
            address = str(peer[0]) if peer else ""
            if self.server.allowed.validate(key, address, address) is None:
                self.banner("this key may not enter here (it is not in the server's list)")
                return False
        print_ = fingerprint(key)
        try:
            if not self.server.claims.may_use(username, print_):
                self.banner(f"the name {username} belongs to another key here: choose another")
                return False
        except ClaimError as exc:
            self.server.say(f"rattus serve: {exc}")
            return False
        self.key = print_
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.server.options.open and self.server.allowed is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key = None
        if self.bad_name:
            return False
        try:
            owner = self.server.claims.owner(username)
        except ClaimError:
            return False
        if owner is not None:
            self.banner(f"the name {username} belongs to a key here: log in with it")
            return False
        return True  # entering by name alone, nothing kept (--open)

    def auth_completed(self) -> None:
        assert self.conn is not None
        username = str(self.conn.get_extra_info("username"))
        # logged in but no game asked for (ssh -N): do not hold the connection for ever
        asyncio.get_running_loop().call_later(
            self.server.options.login_timeout, self._check_session_opened
        )
        if self.key is None:
            return
        try:
            claimed = self.server.claims.claim(username, self.key)
        except ClaimError as exc:
            self.server.say(f"rattus serve: {exc}")
            claimed = False
        if not claimed:  # another key claimed the name a moment before
            self._disconnect(
                asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                f"the name {username} belongs to another key here",
            )

    def _check_session_opened(self) -> None:
        if self.sessions == 0:
            self._disconnect(
                asyncssh.DISC_BY_APPLICATION, "no game was asked for: use ssh -t (no -N)"
            )

    def session_requested(self) -> GameSession | bool:
        assert self.conn is not None
        if self.sessions:  # one game per connection: a player cannot fill the server alone
            return False
        self.sessions += 1
        username = str(self.conn.get_extra_info("username"))
        try:
            player = self.server.player_for(username, self.key)
        except (BadNameError, OSError):
            return False
        return GameSession(self.server, player)


async def serve(options: ServeOptions, out: TextIO = sys.stdout) -> None:
    """Run the server until SIGINT or SIGTERM; then hang up every game and return."""
    server = GameServer(options, out)
    await server.start()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        server.say("rattus serve: stopping")
        await server.close()
