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

Open registration (no ``--authorized-keys``: any key may enter) has limits per address as well
as per key, since fresh keys cost nothing: games running at once from one address
(``--sessions-per-address``) and new names claimed from one address per day
(``--claims-per-address``). Names of keys not seen for ``--names-lapse`` days lapse; the first
key to claim such a name again gets an empty folder (the old one is moved to
``<state dir>/lapsed/``, never handed to the newcomer).
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import asyncssh

from rattus_net.net.served import Served
from rattus_net.paths import RECORD_SUFFIX
from rattus_net.serve.hostkey import HOST_KEY_FILE, fingerprint, load_or_create_host_key
from rattus_net.serve.identity import (
    DAY,
    NAMES_FILE,
    WEB_OWNER,
    BadNameError,
    ClaimError,
    NameClaims,
    check_name,
    folder_name,
)
from rattus_net.serve.limits import ClaimsPerAddress, ProcessLimits, RateLimiter
from rattus_net.serve.preload import Launcher
from rattus_net.serve.records import Answer, answer
from rattus_net.serve.running import RunningServer, run_until_signal
from rattus_net.serve.session import (
    GameSession,
    Player,
    SessionHost,
    base_environment,
    game_environment,
    remove_home,
)

KEEPALIVE_INTERVAL = 30.0
KEEPALIVE_COUNT_MAX = 4
"""A client that answers no keepalive for two minutes is gone: its game is hung up."""


TOO_MANY = "too many connections from your address: try again in a minute"
LIMITED_GRACE = 3.0
"""Seconds a connection over its address's limit gets to reach the login, where it is told
why it is refused (a flood of them is dropped at once)."""


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
    names_per_key: int = 3
    sessions_per_key: int = 2
    sessions_per_address: int = 3  # games at once from one address (open registration only)
    claims_per_address: int = 3  # new names per address per day (open registration only)
    names_lapse: float | None = None  # days a key may be away before its names lapse (None: never)
    allow_join_address: bool = False
    preload: bool = True  # sessions forked from a preloaded parent (False: a fresh Python each)
    limits: ProcessLimits = field(default_factory=ProcessLimits)  # each game process's


class GameServer(SessionHost, RunningServer):
    """The running server: its options, the names file, and the games in progress."""

    name = "serve"

    def __init__(self, options: ServeOptions, out: TextIO) -> None:
        self.options = options
        self.out = out
        self.idle_timeout = options.idle_timeout
        lapse = options.names_lapse * DAY if options.names_lapse else None
        self.claims = NameClaims(options.state_dir / NAMES_FILE, lapse)
        self.allowed: asyncssh.SSHAuthorizedKeys | None = None
        if options.authorized_keys is not None:
            try:
                self.allowed = asyncssh.read_authorized_keys(str(options.authorized_keys))
            except (OSError, ValueError) as exc:
                raise ServeError(
                    f"cannot read the authorized keys {options.authorized_keys}: {exc}"
                ) from None
        self.limiter = RateLimiter(options.per_address)
        self.new_claims = ClaimsPerAddress(options.claims_per_address)
        self.sessions: set[GameSession] = set()
        self.by_name: dict[str, GameSession] = {}
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.launcher = Launcher(base_environment(), preload=options.preload, limits=options.limits)
        self.tables = options.state_dir / "tables"
        self.port = options.port

    # --- starting and stopping ---------------------------------------------------------------

    async def start(self) -> int:
        state = self.options.state_dir
        try:
            state.mkdir(parents=True, exist_ok=True, mode=0o700)
            shutil.rmtree(state / "open", ignore_errors=True)  # left by a crash: not kept
            self.tables.mkdir(mode=0o700, exist_ok=True)
            key, made = load_or_create_host_key(state / HOST_KEY_FILE)
        except OSError as exc:
            raise ServeError(str(exc)) from None
        await self.start_launcher()
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
        port = self.port = self.acceptor.get_port()
        where = self.options.listen or "every address"
        entry = "key, or user name alone (--open)" if self.options.open else "a public key"
        self.say(f"rattus serve: listening on {where} port {port}; players enter with {entry}")
        self.say(f"rattus serve: play with  ssh -p {port} NAME@THIS-HOST")
        self.say_how_sessions_start()
        return port

    async def close(self) -> None:
        if self.acceptor is not None:
            self.acceptor.close()
            await self.acceptor.wait_closed()
        said = list(self.sessions)  # (end() makes the server forget them)
        for s in said:
            s.close_with("the server is stopping (your game is kept)")
        await asyncio.gather(*(s.end() for s in list(self.sessions)))
        await asyncio.gather(*(s.last_words_sent() for s in said))
        await self.launcher.close()

    # --- players -----------------------------------------------------------------------------

    def player_for(self, name: str, key: str | None) -> Player:
        """The player who logged in as ``name`` with ``key`` (``None``: let in by --open)."""
        folder = folder_name(name)
        if key is not None:
            return Player(name, key, self.options.state_dir / "players" / folder, kept=True)
        base = self.options.state_dir / "open"
        base.mkdir(mode=0o700, exist_ok=True)
        return Player(name, None, Path(tempfile.mkdtemp(prefix=folder + "-", dir=base)), False)

    def running(self, name: str) -> bool:
        return folder_name(name) in self.by_name

    def full(self, name: str) -> str | None:
        """Why a game of ``name`` cannot start for lack of room (his own game, replaced, takes
        no more room), or ``None``."""
        if not self.running(name) and len(self.sessions) >= self.options.max_sessions:
            return (
                f"the server is full ({self.options.max_sessions} games running): try again later"
            )
        return None

    def key_share(self, name: str, key: str) -> str | None:
        """Why the key may not open a game as ``name`` (its fair share), or ``None``."""
        most = self.options.sessions_per_key
        if not self.running(name) and sum(s.player.key == key for s in self.sessions) >= most:
            return (
                f"this key has {most} games running here already (the most one key may): "
                "close one first"
            )
        owner = self.claims.owner(name)
        if owner is None:
            held = self.claims.names_of(key)
            if len(held) >= self.options.names_per_key:
                return (
                    f"this key holds {len(held)} names here already ({', '.join(held)}), the "
                    "most one key may: log in as one of them"
                )
        elif owner != key:
            whose = "web player" if owner == WEB_OWNER else "key"
            return f"the name {name} belongs to another {whose} here: choose another"
        return None

    @property
    def open_registration(self) -> bool:
        """Any key may enter (no list of keys): fresh keys cost nothing, so addresses count."""
        return self.allowed is None

    def address_share(self, name: str, address: str, key: str | None) -> str | None:
        """Why a game of ``name`` from ``address`` may not start under open registration (the
        address's fair share: games at once, new names a day), or ``None``."""
        if not self.open_registration:
            return None
        most = self.options.sessions_per_address
        mine = self.by_name.get(folder_name(name))  # his own game, replaced: no more room
        running = sum(s.address == address and s is not mine for s in self.sessions)
        if running >= most:
            return (
                f"{running} games from your address are running here already (the most one "
                "address may): close one first"
            )
        new_claim = key is not None and self.claims.owner(name) is None
        if new_claim and not self.new_claims.allowed(address, time.time()):
            return (
                f"your address has claimed {self.options.claims_per_address} new names "
                "here today (the most one address may): log in as a name you hold"
            )
        return None

    def key_seen(self, key: str) -> None:
        """A key has logged in: its names do not lapse yet."""
        try:
            self.claims.seen(key)
        except ClaimError as exc:
            self.say(f"rattus serve: {exc}")

    def _claim(self, player: Player, address: str) -> str | None:
        """Claim the player's name for his key (noted against his address if new); a name
        whose old key lapsed has its folder moved aside first. Why not, or ``None``."""
        assert player.key is not None
        key = player.key
        new = self.claims.owner(player.name) is None
        lapsed = self.claims.lapsed_owner(player.name)
        if lapsed is not None and lapsed != key and player.home.exists():
            # moved aside before the claim: the old player's folder is never handed on
            aside = self.options.state_dir / "lapsed"
            try:
                aside.mkdir(mode=0o700, exist_ok=True)
                stamp = time.strftime("%Y%m%d-%H%M%S")
                player.home.rename(aside / f"{player.home.name}-{stamp}")
            except OSError as exc:
                raise ClaimError(f"cannot move aside the folder of a lapsed name: {exc}") from None
            self.say(f"rattus serve: the name {player.name} lapsed; its old folder is in {aside}")
        if not self.claims.claim(player.name, key, self.options.names_per_key):
            return f"the name {player.name} belongs to another key here"  # a moment before
        if new:
            self.new_claims.note(address, time.time())
        return None

    async def admit(self, session: GameSession) -> str | None:
        player = session.player
        why = self.full(player.name) or self.address_share(player.name, session.address, player.key)
        if why is None and player.key is not None:
            try:
                why = self.key_share(player.name, player.key) or self._claim(
                    player, session.address
                )
            except ClaimError as exc:
                self.say(f"rattus serve: {exc}")
                why = "the server cannot keep names just now: try again later"
        old = self.by_name.get(folder_name(player.name))
        if why is None and old is not None and player.key is None:
            why = f"someone plays as {player.name} here now: choose another name"
        if why is not None:
            remove_home(player)
            self.refused(session.address, player.name, why)
            return why
        if old is not None:
            await old.replaced()
            self.leave(old)
        self.sessions.add(session)
        self.by_name[folder_name(player.name)] = session
        how = "key " + player.key if player.key else "no key, nothing kept"
        self.say(f"rattus serve: {player.name} is playing ({how})")
        return None

    def environment(self, session: GameSession) -> dict[str, str]:
        """What the session's game is given: the player's own folders, and the server's limits
        (his name fixed, tables on the server's address, joins only of listed tables, and how
        he fetches a record)."""
        player = session.player
        served = Served(
            player=player.name,
            listen=self.options.listen or None,
            join_by_address=self.options.allow_join_address,
            tables=self.tables.absolute(),
            record_command=(
                f"{self.ssh_command(session)} record {{id}} > game{RECORD_SUFFIX}"
                if player.kept
                else None
            ),
            kept=player.kept,
        )
        return {**game_environment(player, session.term or ""), **served.environment()}

    def ssh_command(self, session: GameSession) -> str:
        """``ssh -p PORT NAME@ADDRESS``: this server as the player reached it."""
        host, port = session.local
        host = f"[{host}]" if ":" in host else host
        return f"ssh -p {port} {session.player.name}@{host}"

    def command(self, session: GameSession, text: str) -> Answer:
        player = session.player
        result = answer(text, player.data_dir if player.kept else None, self.ssh_command(session))
        if result.status:
            self.refused(session.address, player.name, f"command {text[:60]!r}: {result.err}")
        else:
            self.say(f"rattus serve: {player.name} ran {text[:60]!r}")
        return result

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
    """One connection: the address limit, authentication, and the sessions it opens.

    Every refusal is said to the client in words its ssh shows (an authentication banner,
    or the reason of a disconnect) and in one line of the server's log."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.bad_name = False
        self.key: str | None = None  # the fingerprint of the key last found acceptable
        self.banners: set[str] = set()
        self.sessions = 0  # opened on this connection (one is allowed)
        self.limited = False  # one connection too many from its address: refused at login

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        loop = asyncio.get_running_loop()
        limiter = self.server.limiter
        if limiter.allow(self.address, loop.time()):
            return
        # said in words (a banner at login) to the first few refused; a flood is dropped
        self.limited = True
        if limiter.refused(self.address) > limiter.per_minute:
            loop.call_soon(self._disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, TOO_MANY)
        else:
            loop.call_later(
                LIMITED_GRACE, self._disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, TOO_MANY
            )

    def _disconnect(self, code: int, reason: str) -> None:
        if self.conn is not None:
            self.conn.disconnect(code, reason)

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn = None  # nothing more is sent on it

    def refuse(self, name: str, text: str) -> None:
        """Tell the client why it is refused (ssh prints the banner) and log it, once per
        reason."""
        if text in self.banners:
            return
        self.banners.add(text)
        self.server.refused(self.address, name, text)
        if self.conn is not None:
            with contextlib.suppress(OSError):
                self.conn.send_auth_banner(f"rattus: {text}\r\n")

    def begin_auth(self, username: str) -> bool:
        if self.limited:
            self.refuse(username, TOO_MANY)
            return True
        try:
            check_name(username)
        except BadNameError as exc:
            self.bad_name = True
            self.refuse(username, str(exc))
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self.key = None
        if self.bad_name or self.limited:
            return False
        server = self.server
        if (
            server.allowed is not None
            and server.allowed.validate(key, self.address, self.address) is None
        ):
            self.refuse(username, "this key may not enter here (it is not in the server's list)")
            return False
        print_ = fingerprint(key)
        try:
            why = (
                server.full(username)
                or server.key_share(username, print_)
                or server.address_share(username, self.address, print_)
            )
        except ClaimError as exc:
            server.say(f"rattus serve: {exc}")
            return False
        if why is not None:
            self.refuse(username, why)
            return False
        self.key = print_
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.server.options.open and self.server.allowed is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key = None
        if self.bad_name or self.limited:
            return False
        try:
            owner = self.server.claims.owner(username)
        except ClaimError:
            return False
        if owner is not None:
            self.refuse(
                username,
                f"the name {username} belongs to "
                f"{'a web player' if owner == WEB_OWNER else 'a key'} here: log in with it",
            )
            return False
        why = self.server.full(username) or self.server.address_share(username, self.address, None)
        if why is not None:
            self.refuse(username, why)
            return False
        return True  # entering by name alone, nothing kept (--open)

    def auth_completed(self) -> None:
        if self.key is not None:
            self.server.key_seen(self.key)
        # logged in but no game asked for (ssh -N): do not hold the connection for ever
        asyncio.get_running_loop().call_later(
            self.server.options.login_timeout, self._check_session_opened
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
        local = self.conn.get_extra_info("sockname")
        where = (str(local[0]), int(local[1])) if local else ("THIS-HOST", self.server.port)
        return GameSession(self.server, player, self.address, where)


async def serve(options: ServeOptions, out: TextIO = sys.stdout) -> None:
    """Run the server until SIGINT or SIGTERM; then hang up every game and return."""
    await run_until_signal(GameServer(options, out))
