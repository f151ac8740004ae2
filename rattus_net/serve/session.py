"""One SSH session = one Rattus Net TUI, a process of its own in a pseudo-terminal made here.

The TUI is the ordinary program (``python -m rattus_net``, the menu), so whatever it offers at a
local terminal it offers over SSH, with no second code path to keep in step. The session gives
it what a local login would: the terminal type and window size the client asked for, the
player's name (``USER``/``LOGNAME``, which the TUI takes as the default player name) and the
player's own folders (``RATTUS_DATA_DIR`` for saves and network journals, ``RATTUS_CONFIG_DIR``
for settings, ``HOME``). Nothing else from the server's environment or the client's reaches it.
Every game runs as the server's account, so ``RATTUS_FILES_ROOT`` (the player's folder) tells
the TUI to open no path a player types (the verify dialog's) outside that folder: not another
player's journals, not the server's host key.

The pseudo-terminal is the process's controlling terminal, so the kernel treats a dropped
connection like a closed terminal window: when the SSH channel goes away the master side is
closed and the TUI gets a hang-up (and a kill if it lingers). Nothing is lost by that: an
offline game is saved after every turn, a network game journals every message before acting on
it, and the menu offers both back on the next login.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import re
import shutil
import signal
import struct
import termios
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import asyncssh

from rattus_net.paths import ENV_CONFIG_DIR, ENV_DATA_DIR, ENV_FILES_ROOT
from rattus_net.serve.preload import Launched, Launcher
from rattus_net.serve.records import Answer

PASSED_ON = ("PATH", "PYTHONPATH", "VIRTUAL_ENV", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
"""The only variables of the server's own environment a game process sees."""

HANGUP_GRACE = 5.0
"""Seconds a hung-up TUI gets to end by itself before it is killed."""

MAX_TERMINAL = 1000
"""Rows or columns beyond this are a client's mistake (or mischief): clamp them."""

LAST_WORDS_SECONDS = 5.0
"""How long a stopping server waits for a closed session's last words to reach its client (a
client that reads nothing is not waited for longer)."""

RESTORE_TERMINAL = "\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?25h\x1b[?1049l"
"""What a closed session writes before its last words: attributes reset, mouse reporting off,
cursor shown, back from the alternate screen (the game's own exit would have done it)."""


@dataclass(frozen=True, slots=True)
class Player:
    """Who a session is for: ``name`` as typed after ``ssh``; ``key`` the fingerprint of the
    key that logged in (``None`` for a session let in by ``--open``); ``home`` the folder his
    data and settings live in; ``kept`` whether it outlives the session."""

    name: str
    key: str | None
    home: Path
    kept: bool

    @property
    def data_dir(self) -> Path:
        return self.home / "data"

    @property
    def config_dir(self) -> Path:
        return self.home / "config"


TERM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,63}")


def base_environment() -> dict[str, str]:
    """The part of the server's environment every game gets (its Python, its locale)."""
    env = {k: os.environ[k] for k in PASSED_ON if k in os.environ}
    env.setdefault("LANG", "C.UTF-8")
    return env


def game_environment(player: Player, term: str) -> dict[str, str]:
    # absolute: the game runs in the player's folder, where a relative --state-dir means nothing
    player = replace(player, home=player.home.absolute())
    env = base_environment()
    env.update(
        TERM=term if TERM_NAME.fullmatch(term) else "xterm-256color",  # the client's, if sane
        USER=player.name,
        LOGNAME=player.name,
        HOME=str(player.home),
        **{
            ENV_DATA_DIR: str(player.data_dir),
            ENV_CONFIG_DIR: str(player.config_dir),
            ENV_FILES_ROOT: str(player.home),
        },
    )
    return env


def _clamp(value: int, default: int) -> int:
    return min(max(value, 1), MAX_TERMINAL) if value > 0 else default


def _set_size(fd: int, cols: int, rows: int) -> None:
    size = struct.pack("HHHH", _clamp(rows, 24), _clamp(cols, 80), 0, 0)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, size)


class GameProcess:
    """The TUI running in a pseudo-terminal; output goes to ``on_output``, and ``on_exit``
    gets the exit status once the program has ended and all it drew has been passed on."""

    def __init__(self, on_output: Callable[[bytes], None], on_exit: Callable[[int], None]) -> None:
        self.on_output = on_output
        self.on_exit = on_exit
        self.master = -1
        self.proc: Launched | None = None
        self._pending = bytearray()
        self._reading = False
        self._ended = asyncio.Event()
        self._drained = asyncio.Event()  # the terminal has nothing more to read

    async def start(
        self, launcher: Launcher, env: dict[str, str], home: Path, cols: int, rows: int
    ) -> None:
        master, slave = os.openpty()
        try:
            _set_size(slave, cols, rows)
            self.proc = await launcher.launch(env, str(home), (slave, slave, slave), terminal=True)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.master = master
        os.set_blocking(master, False)
        self.resume_output()
        self._reaper = asyncio.get_running_loop().create_task(self._reap())

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    # --- from the client ---------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Keystrokes for the TUI (buffered while the pseudo-terminal is full)."""
        if self.master < 0:
            return
        was_empty = not self._pending
        self._pending += data
        if was_empty:
            self._flush()

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending and self.master >= 0:
            try:
                n = os.write(self.master, self._pending)
            except BlockingIOError:
                loop.add_writer(self.master, self._flush)
                return
            except OSError:  # the program has gone: nothing will read it
                self._pending.clear()
                break
            del self._pending[:n]
        if self.master >= 0:
            loop.remove_writer(self.master)

    def resize(self, cols: int, rows: int) -> None:
        """A new window size: set on the terminal (the kernel tells the foreground process)
        and a SIGWINCH to the program's group as well, as sshd does."""
        if self.master < 0:
            return
        with contextlib.suppress(OSError):
            _set_size(self.master, cols, rows)
        self._signal(signal.SIGWINCH)

    # --- to the client -----------------------------------------------------------------------

    def pause_output(self) -> None:
        """The SSH channel is full: stop reading until it drains (the TUI then blocks)."""
        if self._reading and self.master >= 0:
            asyncio.get_running_loop().remove_reader(self.master)
        self._reading = False

    def resume_output(self) -> None:
        if not self._reading and self.master >= 0:
            asyncio.get_running_loop().add_reader(self.master, self._read)
            self._reading = True

    def _read(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError as exc:  # EIO: every holder of the terminal's other side has gone
            if exc.errno != errno.EIO:
                raise
            data = b""
        if data:
            self.on_output(data)
        else:
            self.pause_output()
            self._drained.set()

    # --- ending ------------------------------------------------------------------------------

    async def _reap(self) -> None:
        assert self.proc is not None
        status = await self.proc.wait()
        # what it drew last is still in the terminal: pass it on before saying it ended
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._drained.wait(), 1.0)
        self._close_master()
        self._ended.set()
        self.on_exit(status if status >= 0 else 128 - status)

    def _close_master(self) -> None:
        if self.master >= 0:
            loop = asyncio.get_running_loop()
            loop.remove_reader(self.master)
            loop.remove_writer(self.master)
            os.close(self.master)
            self.master = -1
            self._reading = False

    def _signal(self, sig: signal.Signals) -> None:
        if self.proc is not None and not self._ended.is_set():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, sig)

    async def hang_up(self) -> None:
        """The player has gone: hang up the terminal, kill the program if it lingers, and
        return once it has ended."""
        if self.proc is None:
            return
        self._close_master()  # the kernel hangs up the terminal's session
        self._signal(signal.SIGHUP)
        try:
            await asyncio.wait_for(self._ended.wait(), HANGUP_GRACE)
        except TimeoutError:
            self._signal(signal.SIGKILL)
            await self._ended.wait()

    async def ended(self) -> None:
        await self._ended.wait()


class GameSession(asyncssh.SSHServerSession[bytes]):
    """The SSH side of one session: a terminal gets the game; anything else a refusal."""

    def __init__(
        self, host: SessionHost, player: Player, address: str, local: tuple[str, int]
    ) -> None:
        self.host = host
        self.player = player
        self.address = address  # the client's
        self.local = local  # the server's address and port, as the client reached them
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.command: str | None = None
        self.game: GameProcess | None = None
        self.last_input = 0.0
        self._idle: asyncio.TimerHandle | None = None
        self._closed = False
        self._said_last_words = False  # close_with ran: nothing more goes to the player
        self._tasks: set[asyncio.Task[None]] = set()  # kept, so they are not collected

    # --- requests ----------------------------------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: object
    ) -> bool:
        self.term = term_type
        self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # accepted, to be answered with a clear refusal
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no SFTP, nor any other subsystem

    def session_started(self) -> None:
        if self.command is not None:
            self.run_command(self.command)
        elif self.term is None:
            self.refuse("the game needs a terminal: use ssh -t")
        else:
            self._tasks.add(asyncio.get_running_loop().create_task(self._run()))

    def run_command(self, text: str) -> None:
        """``records`` or ``record ID`` (answered by the server itself); anything else is
        refused in one line."""
        if self.chan is None or self._closed:
            return
        result = self.host.command(self, text)
        if result.out:
            self.chan.write(result.out)
        if result.err:
            end = "\r\n" if self.term is not None else "\n"
            self.chan.write_stderr(f"rattus: {result.err}{end}".encode())
        self.chan.exit(result.status)

    def refuse(self, why: str) -> None:
        if self.chan is not None and not self._closed:
            end = "\r\n" if self.term is not None else "\n"  # a terminal needs the \r
            self.chan.write(f"rattus: {why}{end}".encode())
            self.chan.exit(1)

    async def _run(self) -> None:
        why = await self.host.admit(self)
        if why:
            self.refuse(why)
            return
        if self._closed:  # the client went while waiting to be let in
            await self.end()
            return
        game = GameProcess(self._output, self._exited)
        try:
            self.player.data_dir.mkdir(parents=True, exist_ok=True)
            self.player.config_dir.mkdir(parents=True, exist_ok=True)
            env = self.host.environment(self)
            await game.start(self.host.launcher, env, self.player.home, *self.size)
        except OSError as exc:
            self.refuse(f"the game could not start ({exc.strerror or exc})")
            await self.end()
            return
        self.game = game
        if self._closed:  # the client went while the game was starting
            await self.end()
            return
        self.touch()

    # --- while playing -----------------------------------------------------------------------

    def touch(self) -> None:
        """Input from the player: the idle clock starts again."""
        loop = asyncio.get_running_loop()
        self.last_input = loop.time()
        if self._idle is None and self.host.idle_timeout > 0:
            self._idle = loop.call_later(self.host.idle_timeout, self._check_idle)

    def _check_idle(self) -> None:
        self._idle = None
        loop = asyncio.get_running_loop()
        left = self.last_input + self.host.idle_timeout - loop.time()
        if left > 0:
            self._idle = loop.call_later(left, self._check_idle)
            return
        idle = self.host.idle_timeout
        span = f"{round(idle / 60)} min" if idle >= 60 else f"{idle:g} s"
        self.close_with(f"idle for {span}: disconnected (your game is kept)")

    def close_with(self, why: str) -> None:
        """Say why in the player's terminal, then end the session (the game is hung up).

        The game cannot put the terminal back any more (its output no longer reaches the
        player once the channel closes), so this does: off the alternate screen, cursor
        shown, attributes and mouse reporting reset; then the reason, on the normal screen."""
        if self.chan is not None and not self._closed and not self._said_last_words:
            self._said_last_words = True
            self.chan.write(f"{RESTORE_TERMINAL}\r\nrattus: {why}\r\n".encode())
            self.chan.exit(1)

    async def last_words_sent(self, seconds: float = LAST_WORDS_SECONDS) -> None:
        """Wait (at most ``seconds``) until the channel has closed, so what was written to it
        last has reached the client. The exit status goes out at once, but data may wait for
        the client's window: a server that ended sooner would lose the reason it gave."""
        if self.chan is None or self._closed:
            return
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.chan.wait_closed(), seconds)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self.game is not None:
            self.game.write(data)
            self.touch()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.game is not None:
            self.game.resize(width, height)

    def eof_received(self) -> bool:
        return True  # a terminal session ends when the game ends, not on end of input

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        pass  # signals from the client are not passed on: keys (Ctrl+C) are

    def pause_writing(self) -> None:
        if self.game is not None:
            self.game.pause_output()

    def resume_writing(self) -> None:
        if self.game is not None:
            self.game.resume_output()

    def _output(self, data: bytes) -> None:
        if self.chan is not None and not self._closed and not self._said_last_words:
            self.chan.write(data)

    def _exited(self, status: int) -> None:
        if self.chan is not None and not self._closed and not self._said_last_words:
            self.chan.exit(status & 0xFF)

    # --- ending ------------------------------------------------------------------------------

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self._tasks.add(asyncio.get_running_loop().create_task(self.end()))

    async def end(self) -> None:
        """Hang up the game (if any), then let the server forget this session. Safe to call
        more than once."""
        if self.game is not None:
            await self.game.hang_up()
        self.host.leave(self)

    async def replaced(self) -> None:
        """The same player has logged in again elsewhere: this session makes way."""
        self.close_with("you logged in again elsewhere: this session is closed")
        if self.game is not None:
            await self.game.hang_up()


class SessionHost:
    """What a session needs from the server (the server implements it)."""

    idle_timeout: float = 0.0
    launcher: Launcher

    def environment(self, session: GameSession) -> dict[str, str]:
        """The environment the session's game gets."""
        raise NotImplementedError

    def command(self, session: GameSession, text: str) -> Answer:
        """Answer a command (``ssh host records``)."""
        raise NotImplementedError

    async def admit(self, session: GameSession) -> str | None:
        """Take the session in; or the reason it is refused (the server is full)."""
        raise NotImplementedError

    def leave(self, session: GameSession) -> None:
        """The session has ended (its game too)."""
        raise NotImplementedError


def remove_home(player: Player) -> None:
    """Remove the folder of a player whose data is not kept (``--open`` sessions)."""
    if not player.kept:
        shutil.rmtree(player.home, ignore_errors=True)
