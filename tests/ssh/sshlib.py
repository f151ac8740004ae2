"""Helpers of the SSH tests: a `rattus serve` process, generated keys, and the real OpenSSH
client driven in a tmux pane (a terminal emulator whose screen we read as text)."""

from __future__ import annotations

import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SSH = shutil.which("ssh") or "/usr/bin/ssh"
LISTENING = re.compile(r"listening on \S+ port (\d+)")
FINGERPRINT = re.compile(r"host key (SHA256:\S+)")
_tmux_ids = itertools.count()


def have_tools() -> bool:
    return bool(shutil.which("ssh") and shutil.which("ssh-keygen") and shutil.which("tmux"))


def keygen(path: Path) -> Path:
    """A new Ed25519 key pair without passphrase at ``path`` (and ``path.pub``)."""
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
        check=True,
        stdin=subprocess.DEVNULL,
    )
    return path


def ssh_command(
    port: int, key: Path | None, user: str, *extra: str, command: Sequence[str] = ()
) -> list[str]:
    """The ssh command line for a server on loopback at ``port`` (no host key checks: the key
    is new; ``key`` ``None``: by name alone, as ``--open`` lets in). Options in ``extra``
    come first: for ssh, the first value of an option wins."""
    ident = ["-i", str(key), "-o", "IdentitiesOnly=yes"]
    if key is None:  # by name alone (--open): keyboard-interactive with no question,
        # which BatchMode would not even try
        ident = ["-o", "IdentityFile=none", "-o", "BatchMode=no",
                 "-o", "PreferredAuthentications=keyboard-interactive"]  # fmt: skip
    return [
        SSH, *extra, "-p", str(port), *ident,
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-F", "/dev/null",
        f"{user}@127.0.0.1", *command,
    ]  # fmt: skip


def terminate(proc: subprocess.Popen[Any], seconds: float) -> None:
    """Ask ``proc`` to stop (SIGTERM) and wait for it; killed after ``seconds``."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def parents() -> dict[int, int]:
    """Every process's parent (read from ``/proc``; a process gone meanwhile is left out)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def descendants(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs (read from ``/proc``)."""
    tree = parents()
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, its_parent in tree.items():
            if its_parent == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def limits_of(pid: int) -> tuple[str, int]:
    """A process's data-size limit (soft and hard, in bytes) and its nice value, as the kernel
    has them."""
    [data] = [
        " ".join(line.split()[3:5])
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines()
        if line.startswith("Max data size")
    ]
    nice = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    return data, nice


class Server:
    """`rattus serve` on loopback, port chosen by the system; its output kept for checks."""

    def __init__(self, state: Path, *args: str) -> None:
        self.state = state
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rattus_net", "serve", "--listen", "127.0.0.1",
             "--port", "0", "--state-dir", str(state), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        self.lines: list[str] = []  # everything it printed so far (a thread reads it)
        self._seen = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.port = int(self.wait_line(LISTENING.pattern, 30).split(" port ")[1].split(";")[0])

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def wait_line(self, pattern: str, seconds: float = 20) -> str:
        """The next line of the server's output (after those matched before) that matches."""
        deadline = time.monotonic() + seconds
        rx = re.compile(pattern)
        while time.monotonic() < deadline:
            while self._seen < len(self.lines):
                line = self.lines[self._seen]
                self._seen += 1
                if rx.search(line):
                    return line
            if self.proc.poll() is not None and self._seen == len(self.lines):
                break
            time.sleep(0.02)
        raise AssertionError(f"no line {pattern!r} from the server: {self.lines[-5:]}")

    @property
    def fingerprint(self) -> str:
        m = FINGERPRINT.search("".join(self.lines))
        assert m
        return m.group(1)

    def stop(self) -> str:
        """SIGTERM, wait, and return everything it printed."""
        terminate(self.proc, 20)
        time.sleep(0.1)  # the reader thread takes the last lines
        return "".join(self.lines)

    def login(
        self, key: Path | None, user: str, *extra: str, command: Sequence[str] = ()
    ) -> subprocess.CompletedProcess[str]:
        """ssh to this server without a terminal of ours (a login the test expects to be
        refused or to end at once), its output kept."""
        return subprocess.run(
            self.ssh(key, user, *extra, command=command),
            capture_output=True,
            text=True,
            timeout=30,
        )

    def ssh(
        self, key: Path | None, user: str, *extra: str, command: Sequence[str] = ()
    ) -> list[str]:
        """The ssh command line for this server: :func:`ssh_command`."""
        return ssh_command(self.port, key, user, *extra, command=command)


class Servers(list[Server]):
    """The servers a test runs, all with their state in ``state`` (the ``serve`` fixture
    stops them at the end)."""

    def __init__(self, state: Path) -> None:
        super().__init__()
        self.state = state

    def start(self, *args: str) -> Server:
        """A new server with these options of ``rattus serve``."""
        server = Server(self.state, *args)
        self.append(server)
        return server


class Pane:
    """A command in a tmux pane of its own (its own tmux server, so tests run in parallel)."""

    def __init__(self, argv: Sequence[str], cols: int = 100, rows: int = 30) -> None:
        self.socket = f"rattus-ssh-{os.getpid()}-{next(_tmux_ids)}"
        self.tmux("-f", "/dev/null", "new-session", "-d", "-x", str(cols), "-y", str(rows),
                  "exec " + shlex.join(argv))  # fmt: skip
        self.tmux("set-option", "-g", "remain-on-exit", "on")
        self.pid = int(self.tmux("display-message", "-p", "#{pane_pid}").strip())
        self.socket_path = Path(self.tmux("display-message", "-p", "#{socket_path}").strip())

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise AssertionError(f"tmux {args[0]} failed: {done.stderr}")
        return done.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def send(self, *keys: str) -> None:
        """tmux key names (Enter, Escape, Down, Space, C-c) or single characters."""
        self.tmux("send-keys", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-l", text)

    def wait_for(self, pattern: str, seconds: float = 30) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        rx = re.compile(pattern)
        while True:
            screen = self.screen()
            m = rx.search(screen)
            if m:
                return m
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} never appeared; the screen:\n{screen}")
            time.sleep(0.05)

    def wait_change(self, before: str, seconds: float = 10) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            screen = self.screen()
            if screen != before:
                return screen
            time.sleep(0.03)
        return before

    def resize(self, cols: int, rows: int) -> None:
        self.tmux("resize-window", "-x", str(cols), "-y", str(rows))

    @property
    def dead(self) -> bool:
        return self.tmux("display-message", "-p", "#{pane_dead}").strip() == "1"

    def kill_client(self) -> None:
        """The ssh client dies at once (as when a laptop's lid shuts or the link drops)."""
        os.kill(self.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not self.dead:
            assert time.monotonic() < deadline, "ssh did not die"
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)
        self.socket_path.unlink(missing_ok=True)  # tmux leaves it behind


CHOSEN = re.compile(r"Chosen (\d+) of (\d+)\.")


def keys_for_screen(screen: str) -> list[str] | None:
    """Keys that take a simple legal decision in the dialog on ``screen`` (read by its help
    line), ``["Enter"]`` to open the decision from the table, or ``None``: nothing to do."""
    if "Enter lay, Esc back" in screen:  # how many cards to lay: one of the first kind
        return ["1", "Enter"]
    if "how many, Enter confirm" in screen:  # give (exactly N) or discard (up to N)
        if CHOSEN.search(screen):
            rows = sum(1 for line in screen.splitlines() if " held " in line)
            return [*(["9", "Down"] * rows), "Enter"]
        return ["Enter"]  # discard nothing
    if "toggle, Enter confirm" in screen:  # nun-row positions: chosen already
        return ["Enter"]
    if "1-9 choose" in screen:  # a supply card, a building, or a player: the first one
        return ["Enter"]
    if "Enter go on" in screen:  # what happened since the last decision: read, go on
        return ["Enter"]
    if "YOUR TURN" in screen:
        return ["Enter"]
    return None


def keys_until(screen: str, until: str, seat: int, done: set[int]) -> list[str] | None:
    """For the players' screens driven to the end of a game: the keys that decide what the
    screen of player ``seat`` shows (:func:`keys_for_screen`), or ``None`` once it shows
    ``until`` (``seat`` is then put in ``done``, for good) or has nothing to decide. A game
    that stopped fails the test."""
    assert "THE GAME STOPPED" not in screen, screen
    if until in screen or seat in done:
        done.add(seat)
        return None
    return keys_for_screen(screen)


def take_a_decision(pane: Pane, seconds: float = 30) -> str:
    """Wait for something to decide, decide it, and return the screen it was decided on."""
    deadline = time.monotonic() + seconds
    while True:
        screen = pane.screen()
        keys = keys_for_screen(screen)
        if keys is not None:
            pane.send(*keys)
            pane.wait_change(screen, 5)
            return screen
        assert time.monotonic() < deadline, f"nothing to decide; the screen:\n{screen}"
        time.sleep(0.05)
