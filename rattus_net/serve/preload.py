"""Sessions forked from a preloaded parent: the game's modules imported once, shared by all.

A fresh ``python -m rattus_net`` per session spends most of its first half second importing
(Textual, the games, the cryptography) and keeps its own copy of all of it. So a server
starts one *preloaded parent* (``python -m rattus_net.serve.preload``): it imports those
modules, takes them out of the garbage collector's reach (``gc.freeze``: a collection in a
child would otherwise write to, and so copy, every shared page), and waits. For each session
the server sends it the session's descriptors (a pseudo-terminal, or the pipes of a browser
session), its environment and its folder; the parent forks, and the child becomes the
session's program: ``rattus`` with no arguments, the menu, exactly as a fresh start would run
it. The parent tells the server the child's pid at once and its exit status when it ends.

What a fork must redo that a fresh start gets for nothing: a session of its own (the terminal
as its controlling terminal), the standard streams on the session's descriptors, only the
session's environment, default signal handlers, a new seed for :mod:`random`, and Textual's
settings that it reads from the environment once, at import (``textual.constants``: the web
driver, the colour system). Python's hash seed stays the parent's: shared by the sessions of
one server, different from one start to the next.

What a session costs is the parent's pages it writes to, and in CPython a session writes to
every object it so much as uses (its reference count): sharing saves only what a session
never touches, so a session that does less costs less. Hence everything a session imports is
imported here (an import in a session writes all over the shared heap), the menu builds
nothing it does not show (``rattus`` alone builds no command parser), and the warm-up leaves
nothing of the app it drew behind (``tui.app.warm_up``). ``benchmarks/ssh.py`` and
``benchmarks/web.py`` print what a session costs.

The modules are named here, not imported: the server runs the game as a program and does not
depend on its code (``tests/test_layers.py``). Nothing of the server is in the parent: it is a
process of its own, started with the same clean environment a fresh game would get.

Wire, on a ``SOCK_SEQPACKET`` pair (one message, one request): the server sends a JSON request
``{"env": {...}, "cwd": "...", "terminal": bool, "limits": {...}}`` with four descriptors (a
reply socket, then the child's stdin, stdout and stderr); the parent answers on the reply
socket with the line ``{"pid": N}`` (or ``{"error": "..."}``), later ``{"status": S}``, and
closes it.

Every session's program runs with the server's :class:`~rattus_net.serve.limits.ProcessLimits`
(a lower priority, a memory cap), set in the child before the program starts, and in a process
group of its own that the server kills when it stops; should the server go without stopping
them (killed), the parent hangs up and then kills the sessions it started before it leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import importlib
import io
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import termios
import threading
import time
from dataclasses import dataclass
from types import CodeType, ModuleType
from typing import Any

from rattus_net.serve.limits import ProcessLimits

PRELOAD = (
    "rattus_net.cli",
    "tui.app",
    "tui.shell.menu",
    "tui.common.table",
    "tui.common.generic",
    "textual.drivers.linux_driver",
    "textual.drivers.web_driver",
    "textual.scrollbar",
    "textual.widgets._footer",
    "textual.widgets._input",
    "textual.widgets._static",
    "textual.widgets._option_list",
    "textual.widgets._markdown",
    "textual.command",
    "rattus_net.net.node",
    "rattus_net.net.discovery",
    "rattus_net.bots",
    "protocol.record",
    "protocol.verdict",
    "protocol.verify",
)
"""The modules a session's program imports on its way to the menu and into a game; named, so
that this package does not import the TUI (one that fails to import is left out). The games'
own screens are imported by the warm-up, which finds them through the registry."""

WARM_UP = "tui.app:warm_up"
"""Run once in the parent after the imports: the program draws its menu headless, so that
what every session would build the same way on its first screen is built once, and shared."""

PROGRAM = "rattus_net"
"""The module a child runs as ``__main__`` (``python -m rattus_net``: the menu)."""

READY = b"ready"
MAX_REQUEST = 1 << 20
ORPHAN_GRACE = 3.0
"""Seconds the sessions of a server that has gone get to end after their hang-up."""
END_WAIT = 10.0
"""Seconds the server waits for the sessions it kills when it stops."""


class PreloadError(OSError):
    """The preloaded parent cannot be started, or is gone."""


# --- the parent (its own process) ---------------------------------------------------------------


RERUN = ("textual.constants",)
"""Modules that read the environment once, at import: each child runs their code again, in its
own environment. The code is read (and compiled) once, in the parent: a child that reloaded
them through the import system would walk its finders and caches and so copy their pages."""

_RERUN: dict[ModuleType, CodeType | None] = {}


def preload(names: tuple[str, ...] = PRELOAD) -> list[str]:
    """Import ``names``; those that failed (left to the children to import, or fail, alone)."""
    failed = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:
            failed.append(f"{name}: {exc}")
    for name in RERUN:
        module = sys.modules.get(name)
        if module is None:
            continue  # not imported here: a child imports it in its own environment
        get_code = getattr(getattr(module.__spec__, "loader", None), "get_code", None)
        code = get_code(name) if get_code is not None else None
        _RERUN[module] = code if isinstance(code, CodeType) else None
    return failed


def _reset_signals() -> None:
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP, signal.SIGWINCH):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _take_stdio(fds: list[int], terminal: bool) -> None:
    """The session's descriptors become fds 0, 1, 2, and Python's standard streams on them."""
    os.setsid()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in set(fds):
        if fd > 2:
            os.close(fd)
    if terminal:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    streams = [
        io.TextIOWrapper(
            io.FileIO(fd, "r" if fd == 0 else "w", closefd=False),
            encoding="utf-8",
            errors="surrogateescape",
            line_buffering=fd == 2,
            write_through=fd == 2,
        )
        for fd in (0, 1, 2)
    ]
    sys.stdin, sys.stdout, sys.stderr = streams
    setattr(sys, "__stdin__", streams[0])  # (what Textual's drivers use)  # noqa: B010
    setattr(sys, "__stdout__", streams[1])  # noqa: B010
    setattr(sys, "__stderr__", streams[2])  # noqa: B010


def _become(request: dict[str, Any], fds: list[int]) -> None:
    """In the child: become the session's program; leaves by SystemExit, never returns, so
    the interpreter ends as it would after ``python -m rattus_net`` (threads joined, atexit
    run, streams flushed)."""
    _reset_signals()
    ProcessLimits.from_json(request.get("limits")).apply()
    _take_stdio(fds, bool(request.get("terminal")))
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in dict(request["env"]).items()})
    os.chdir(str(request["cwd"]))
    import random

    random.seed()  # the parent's state is every child's: each draws its own
    for module, code in _RERUN.items():
        if code is None:  # (a loader that cannot give its code)
            importlib.reload(module)
        else:
            exec(code, module.__dict__)  # (what importlib.reload runs, without the finding)
    sys.argv = ["rattus"]
    import runpy

    runpy.run_module(str(request.get("program", PROGRAM)), run_name="__main__", alter_sys=True)
    raise SystemExit(0)


@dataclass
class _Parent:
    control: socket.socket
    wake: int
    children: dict[int, socket.socket]

    def serve(self) -> None:
        sel = selectors.DefaultSelector()
        sel.register(self.control, selectors.EVENT_READ)
        sel.register(self.wake, selectors.EVENT_READ)
        while True:
            for key, _ in sel.select():
                if key.fileobj is self.control:
                    if not self._request():
                        self._end_children()
                        return  # the server has gone: so do we
                else:
                    with contextlib.suppress(BlockingIOError):
                        os.read(self.wake, 4096)
                    self._reap()

    def _request(self) -> bool:
        try:
            msg, fds, _, _ = socket.recv_fds(self.control, MAX_REQUEST, 4)
        except ConnectionResetError:
            return False
        if not msg:
            for fd in fds:
                os.close(fd)
            return False
        if len(fds) != 4:
            for fd in fds:
                os.close(fd)
            return True
        reply = socket.socket(fileno=fds[0])
        try:
            request = json.loads(msg)
            pid = os.fork()
        except (OSError, ValueError) as exc:
            with contextlib.suppress(OSError):
                reply.sendall(json.dumps({"error": str(exc)}).encode() + b"\n")
            reply.close()
            for fd in fds[1:]:
                os.close(fd)
            return True
        if pid == 0:  # pragma: no cover - the child (measured by the SSH and web tests)
            self.control.close()
            reply.close()
            for other in self.children.values():
                other.close()
            signal.set_wakeup_fd(-1)
            os.close(self.wake)
            _become(request, fds[1:])
        for fd in fds[1:]:
            os.close(fd)
        # (if the server stopped waiting, it finds the child gone or kills its group)
        with contextlib.suppress(OSError):
            reply.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        self.children[pid] = reply
        return True

    def _end_children(self) -> None:
        """The server has gone without ending its sessions (it was killed): they go with it,
        hung up as a closed terminal would be, then killed if they linger."""
        for sig in (signal.SIGHUP, signal.SIGKILL):
            for pid in self.children:
                for kill in (os.killpg, os.kill):  # (the group, once the child has made it)
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        kill(pid, sig)
            deadline = time.monotonic() + ORPHAN_GRACE
            with selectors.DefaultSelector() as sel:
                sel.register(self.wake, selectors.EVENT_READ)
                while self.children and (left := deadline - time.monotonic()) > 0:
                    sel.select(min(left, 0.5))
                    with contextlib.suppress(BlockingIOError):
                        os.read(self.wake, 4096)
                    self._reap()
            if not self.children:
                return

    def _reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            reply = self.children.pop(pid, None)
            if reply is not None:
                with contextlib.suppress(OSError):
                    code = os.waitstatus_to_exitcode(status)
                    reply.sendall(json.dumps({"status": code}).encode() + b"\n")
                reply.close()


def main(argv: list[str]) -> None:
    control = socket.socket(fileno=int(argv[0]))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C at the server's terminal: its own
    failed = preload()
    module, _, function = WARM_UP.partition(":")
    try:
        getattr(importlib.import_module(module), function)()
    except Exception as exc:
        failed.append(f"{WARM_UP}: {exc}")
    if threading.active_count() > 1:  # a fork copies only the thread that forks
        failed.append(f"{threading.active_count() - 1} threads left running by the warm-up")
    for line in failed:
        print(f"rattus serve: not preloaded: {line}", file=sys.stderr, flush=True)
    gc.collect()
    gc.freeze()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    control.sendall(READY)
    _Parent(control, wake_r, {}).serve()


# --- the server's side --------------------------------------------------------------------------


class Launched:
    """A session's program, however started: its pid (its process group too) and its end.

    Its end is awaited by one task, started with it: any number of callers may ``wait`` at
    once (a game being replaced and its own page closing, the server stopping), each gets the
    status from that one task."""

    pid: int
    _waiter: asyncio.Task[int]

    def watch(self) -> None:
        self._waiter = asyncio.get_running_loop().create_task(self._wait())

    async def wait(self) -> int:
        """The exit status (negative: killed by that signal)."""
        return await asyncio.shield(self._waiter)

    @property
    def ended(self) -> bool:
        return self._waiter.done()

    def kill(self) -> None:
        """Kill its process group (the program and anything it started)."""
        if not self.ended:
            for kill in (os.killpg, os.kill):  # (the group, once the child has made it)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    kill(self.pid, signal.SIGKILL)

    async def _wait(self) -> int:
        raise NotImplementedError


class _Forked(Launched):
    def __init__(self, pid: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.pid = pid
        self._reader = reader
        self._writer = writer

    async def _wait(self) -> int:
        try:
            line = await self._reader.readline()
            status = int(json.loads(line)["status"])
        except (OSError, ValueError, KeyError, TypeError):
            status = -int(signal.SIGKILL)  # the parent went first: status unknown
        self._writer.close()
        return status


class _Exec(Launched):
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.pid = proc.pid
        self._proc = proc

    async def _wait(self) -> int:
        return await self._proc.wait()


def _start_child(terminal: bool, limits: ProcessLimits) -> None:  # pragma: no cover - child
    """Between fork and exec: the limits; a session of its own, with the pseudo-terminal (its
    stdin) as controlling terminal for an SSH session."""
    limits.apply()
    os.setsid()
    if terminal:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Launcher:
    """Starts sessions' programs: forked from the preloaded parent, or (``preload=False``, or
    if the parent cannot be had) as a fresh ``python -m rattus_net``.

    ``env`` is the environment the parent starts with (the clean one a fresh game gets, less
    what is the session's own); ``limits`` are every session's. The launcher keeps the
    sessions it started until they end, and kills those left when it closes."""

    def __init__(
        self,
        env: dict[str, str],
        *,
        preload: bool = True,
        program: str = PROGRAM,
        limits: ProcessLimits | None = None,
    ) -> None:
        self.env = env
        self.preload = preload
        self.program = program
        self.limits = limits or ProcessLimits()
        self.running: set[Launched] = set()
        self._proc: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._lock = asyncio.Lock()

    @property
    def preloaded(self) -> bool:
        return self._control is not None

    async def start(self) -> None:
        """Start the preloaded parent and wait until it has imported everything."""
        if not self.preload:
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-m", "rattus_net.serve.preload", str(theirs.fileno())],
                pass_fds=[theirs.fileno()],
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,  # a Ctrl+C meant for the server is not its
            )
        except OSError as exc:
            ours.close()
            raise PreloadError(f"cannot start the preloaded parent: {exc}") from None
        finally:
            theirs.close()
        ours.setblocking(False)
        loop = asyncio.get_running_loop()
        try:
            ready = await asyncio.wait_for(loop.sock_recv(ours, 64), 120)
        except (TimeoutError, OSError):
            ready = b""
        if ready != READY:
            ours.close()
            self._kill()
            raise PreloadError("the preloaded parent did not start")
        ours.setblocking(True)  # requests are small and it reads them at once
        self._control = ours

    def _kill(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        self._proc = None

    async def close(self) -> None:
        """Kill the sessions still running (a server ends them gently first), wait for them,
        then let the parent go."""
        left = [launched for launched in self.running if not launched.ended]
        for launched in left:
            launched.kill()
        if left:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(s.wait() for s in left)), END_WAIT)
        await self._close_parent()

    async def _close_parent(self) -> None:
        if self._control is not None:
            self._control.close()  # it leaves when it sees the server gone
            self._control = None
        if self._proc is not None:
            proc = self._proc
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.get_running_loop().run_in_executor(None, proc.wait, 5)
            self._kill()

    async def launch(
        self, env: dict[str, str], cwd: str, stdio: tuple[int, int, int], *, terminal: bool
    ) -> Launched:
        """Start the program on ``stdio`` (the caller closes its copies afterwards)."""
        launched = await self._launch(env, cwd, stdio, terminal)
        launched.watch()
        self.running.add(launched)
        launched._waiter.add_done_callback(lambda _: self.running.discard(launched))
        return launched

    async def _launch(
        self, env: dict[str, str], cwd: str, stdio: tuple[int, int, int], terminal: bool
    ) -> Launched:
        if self._control is not None:
            try:
                return await self._fork(env, cwd, stdio, terminal)
            except (OSError, ValueError, KeyError):
                await self._close_parent()  # gone or broken: fresh starts from now on
        limits = self.limits
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.program,
            stdin=stdio[0],
            stdout=stdio[1],
            stderr=stdio[2],
            env=env,
            cwd=cwd,
            preexec_fn=lambda: _start_child(terminal, limits),
        )
        return _Exec(proc)

    async def _fork(
        self, env: dict[str, str], cwd: str, stdio: tuple[int, int, int], terminal: bool
    ) -> Launched:
        assert self._control is not None
        ours, theirs = socket.socketpair()
        try:
            request = json.dumps(
                {
                    "env": env,
                    "cwd": cwd,
                    "terminal": terminal,
                    "program": self.program,
                    "limits": self.limits.to_json(),
                }
            ).encode()
            async with self._lock:
                socket.send_fds(self._control, [request], [theirs.fileno(), *stdio])
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=ours)
        line = await asyncio.wait_for(reader.readline(), 30)
        answer = json.loads(line)
        if "pid" not in answer:
            writer.close()
            raise OSError(str(answer.get("error", "the preloaded parent refused")))
        return _Forked(int(answer["pid"]), reader, writer)


if __name__ == "__main__":
    main(sys.argv[1:])
