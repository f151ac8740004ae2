"""`rattus web` run as a user runs it, on loopback, for the HTTP and the browser tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from ssh.sshlib import descendants, terminate
from waits import wait_until


class WebServer:
    """`rattus web` on loopback, port chosen by the system; its log kept for checks. ``url``
    is the server's root without the closing slash (``url + "/login"``); ``page`` with it."""

    def __init__(self, state: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rattus_net", "web", "--port", "0", "--state-dir",
             str(state), *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

        def listening() -> re.Match[str] | None:
            assert self.proc.poll() is None, self.lines  # (it ended: no use waiting)
            return re.search(r"listening on \S+ port (\d+)", self.log())

        wait_until(listening, 60, lambda: "".join(self.lines))
        m = listening()
        assert m is not None
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}"
        self.page = self.url + "/"

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line)

    def log(self) -> str:
        return "".join(self.lines)

    def wait_line(self, pattern: str, seconds: float = 20) -> None:
        wait_until(
            lambda: re.search(pattern, self.log()),
            seconds,
            lambda: f"no line {pattern!r}: {self.lines[-5:]}",
        )

    def games(self) -> set[int]:
        """The game processes running now (children of the preloaded parent)."""
        parent = {p for p in descendants(self.proc.pid) if _parent(p) == self.proc.pid}
        return {p for p in descendants(self.proc.pid) if p not in parent}

    def stop(self) -> None:
        terminate(self.proc, 20)


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0
