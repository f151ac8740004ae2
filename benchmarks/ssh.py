"""SSH benchmark: `rattus serve` seen through the real OpenSSH client over loopback.

Run: ``.venv/bin/python benchmarks/ssh.py [--starts N] [--keys K] [--sessions S]``.
Prints figures; asserts nothing. Needs ``ssh`` and ``ssh-keygen``.

* **Menu drawn**: from starting ``ssh -tt`` to the moment the main menu's footer has reached
  the client's terminal (key exchange, login, the TUI process starting, its first paint).
* **Keystroke to screen**: in an open session at the menu, Down/Up alternately; from writing
  the key into the client's terminal to the first byte of the repaint coming back (through
  ssh, the server, the TUI's pseudo-terminal, and back).
* **Memory per session**: with S sessions at the menu, the server process's growth in RSS
  plus the proportional set size (PSS, shared pages split between sharers) of each session's
  TUI process, divided by S.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

FOOTER = b"Quit"
MENU = b"Play against bots"


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
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.master)


def ssh_argv(port: int, key: Path, user: str) -> list[str]:
    return [
        "ssh", "-tt", "-p", str(port), "-i", str(key), "-o", "IdentitiesOnly=yes",
        "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-F", "/dev/null", f"{user}@127.0.0.1",
    ]  # fmt: skip


def start_server(state: Path) -> tuple[subprocess.Popen[str], int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "rattus_net", "serve", "--listen", "127.0.0.1", "--port", "0",
         "--state-dir", str(state), "--per-address", "1000", "--max-sessions", "64"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"listening on \S+ port (\d+)", line)
        if m:
            return proc, int(m.group(1))
    raise SystemExit("the server did not start")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pss_kib(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return rss_kib(pid)
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry.name))
    return kids


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=5, help="sessions timed to the menu")
    parser.add_argument("--keys", type=int, default=100, help="keystrokes timed")
    parser.add_argument("--sessions", type=int, default=8, help="sessions open for memory")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="rattus-ssh-bench-"))
    key = tmp / "key"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    server, port = start_server(tmp / "state")
    try:
        starts = []
        for i in range(args.starts):
            t0 = time.perf_counter()
            c = Client(ssh_argv(port, key, f"bench{i}"))
            c.wait_for([MENU, FOOTER])
            starts.append(time.perf_counter() - t0)
            c.close()
        print(
            f"ssh start to menu drawn: median {statistics.median(starts):.2f} s, "
            f"min {min(starts):.2f} s, max {max(starts):.2f} s ({len(starts)} starts)"
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
        base = rss_kib(server.pid)
        clients = [Client(ssh_argv(port, key, f"mem{i}")) for i in range(args.sessions)]
        for c in clients:
            c.wait_for([MENU, FOOTER])
        time.sleep(1.0)
        server_growth = rss_kib(server.pid) - base
        games = children(server.pid)
        game_pss = [pss_kib(pid) for pid in games]
        total = server_growth + sum(game_pss)
        print(
            f"memory with {args.sessions} sessions open: server process +{server_growth / 1024:.1f}"
            f" MiB over {base / 1024:.1f} MiB; {len(games)} game processes, PSS median "
            f"{statistics.median(game_pss) / 1024:.1f} MiB; per session "
            f"{total / args.sessions / 1024:.1f} MiB"
        )
        for c in clients:
            c.close()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
