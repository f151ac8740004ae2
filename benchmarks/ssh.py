"""SSH benchmark: `rattus serve` seen through the real OpenSSH client over loopback.

Run: ``.venv/bin/python benchmarks/ssh.py [--starts N] [--keys K] [--levels 1,8,32]
[--modes fresh,preload]``. Prints figures; asserts nothing. Needs ``ssh`` and ``ssh-keygen``.

Each mode is a server of its own: ``fresh`` starts every session as a new Python process
(``rattus serve --no-preload``, as before the preloaded parent), ``preload`` forks it from a
parent that has imported the game once (the default).

* **Menu drawn**: from starting ``ssh -tt`` to the moment the main menu's footer has reached
  the client's terminal (key exchange, login, the game's process starting, its first paint).
* **Keystroke to screen**: in an open session at the menu, Down/Up alternately; from writing
  the key into the client's terminal to the first byte of the repaint coming back.
* **Memory per extra session**: the growth of the server's whole process tree (the server, the
  preloaded parent, every game process), in proportional set size (shared pages split between
  the processes sharing them), with 1, 8 and 32 sessions at the menu, divided by the number of
  sessions.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import arguments, settle, start_server, stop, tree

from tests.ssh.sshlib import ssh_command, terminate

FOOTER = b"Quit"
MENU = b"Play against bots"
MODES = {"fresh": ["--no-preload"], "preload": [], "current": []}


class Client:
    """``ssh -tt`` in a pseudo-terminal of 100x30; keeps what it has drawn."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True
        )
        os.close(slave)
        self.output = b""

    def read(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b""
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return b""
        self.output += data
        return data

    def wait_for(self, needles: list[bytes], seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not all(n in self.output for n in needles):
            if time.monotonic() > deadline:
                raise SystemExit(f"not drawn: {needles}; got {self.output[-300:]!r}")
            self.read(0.05)

    def drain(self, quiet: float = 0.15) -> None:
        while self.read(quiet):
            pass

    def close(self) -> None:
        terminate(self.proc, 5)
        os.close(self.master)


def ssh_argv(port: int, key: Path, user: str) -> list[str]:
    return ssh_command(port, key, user, "-tt")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def pss_levels(port: int, key: Path, server: int, levels: list[int]) -> list[str]:
    base = settle(server)
    lines = [f"server at rest: {base / 1024:.1f} MiB PSS in {len(tree(server))} processes"]
    clients: list[Client] = []
    try:
        for level in levels:
            while len(clients) < level:
                c = Client(ssh_argv(port, key, f"mem{len(clients)}"))
                c.wait_for([MENU, FOOTER], 120)
                clients.append(c)
            total = settle(server)
            lines.append(
                f"{level:>3} sessions at the menu: total {total / 1024:.1f} MiB PSS, "
                f"{(total - base) / level / 1024:.1f} MiB per extra session"
            )
    finally:
        for c in clients:
            c.close()
    return lines


def bench(mode: str, args: argparse.Namespace, key: Path, tmp: Path) -> None:
    server, port = start_server(
        ["serve", "--listen", "127.0.0.1", "--port", "0", "--state-dir", str(tmp / mode),
         "--per-address", "1000", "--max-sessions", "64", "--sessions-per-key", "64",
         "--names-per-key", "64", *MODES[mode]]
        if mode != "current"
        else ["serve", "--listen", "127.0.0.1", "--port", "0", "--state-dir", str(tmp / mode),
              "--per-address", "1000", "--max-sessions", "64"]
    )  # fmt: skip
    print(f"== {mode}")
    try:
        starts = []
        for i in range(args.starts):
            t0 = time.perf_counter()
            c = Client(ssh_argv(port, key, f"bench{i % 4}"))
            c.wait_for([MENU, FOOTER])
            starts.append(time.perf_counter() - t0)
            c.close()
            time.sleep(0.3)
        print(
            f"ssh start to menu drawn: median {statistics.median(starts):.3f} s, "
            f"min {min(starts):.3f} s, max {max(starts):.3f} s ({len(starts)} starts)"
        )

        c = Client(ssh_argv(port, key, "typist"))
        c.wait_for([MENU, FOOTER])
        c.drain(0.5)
        lags = []
        for i in range(args.keys):
            os.write(c.master, b"\x1b[B" if i % 2 == 0 else b"\x1b[A")  # Down, Up
            t0 = time.perf_counter()
            if c.read(5.0):
                lags.append((time.perf_counter() - t0) * 1000)
            c.drain(0.05)
        c.close()
        print(
            f"keystroke to screen over ssh: median {statistics.median(lags):.1f} ms, "
            f"p99 {pct(lags, 99):.1f} ms ({len(lags)} keys)"
        )
        time.sleep(1.0)
        for line in pss_levels(port, key, server.pid, args.levels):
            print(line)
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keys", type=int, default=50, help="keystrokes timed")
    args = arguments(parser)
    tmp = Path(tempfile.mkdtemp(prefix="rattus-ssh-bench-"))
    key = tmp / "key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    for mode in args.modes.split(","):
        bench(mode, args, key, tmp)


if __name__ == "__main__":
    main()
