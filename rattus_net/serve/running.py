"""What the two servers of sessions (``rattus serve`` over SSH, ``rattus web`` in a browser)
do alike once they run: their log of one line a thing, the preloaded parent their sessions
start from, and running until SIGINT or SIGTERM."""

from __future__ import annotations

import asyncio
import signal
from typing import TextIO

from rattus_net.serve.preload import Launcher, PreloadError


class RunningServer:
    """The part of a server its log and its sessions' start share: ``name`` is the command
    (``serve``, ``web``) every line of the log begins with."""

    name: str
    out: TextIO
    launcher: Launcher

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def refused(self, address: str, name: str, why: str) -> None:
        """One line in the server's log for every refusal (the client is told in words too);
        the name as typed, cut and made printable."""
        shown = name.encode("ascii", "backslashreplace").decode()[:40]
        self.say(f"rattus {self.name}: refused {shown!r} from {address}: {why}")

    async def start_launcher(self) -> None:
        """Start the preloaded parent; a server whose parent cannot start still serves, each
        session in a fresh Python."""
        try:
            await self.launcher.start()
        except PreloadError as exc:
            self.say(f"rattus {self.name}: {exc}; every session starts a fresh Python instead")

    def say_how_sessions_start(self) -> None:
        self.say(
            f"rattus {self.name}: sessions start from a preloaded parent"
            if self.launcher.preloaded
            else f"rattus {self.name}: every session starts a fresh Python"
        )

    async def start(self) -> int:
        """Listen; returns the port (useful when the options asked for port 0)."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop listening and end every session (each game is saved or journalled as it
        goes)."""
        raise NotImplementedError


async def run_until_signal(server: RunningServer) -> None:
    """Start ``server`` and run it until SIGINT or SIGTERM; then close it and return."""
    await server.start()
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        server.say(f"rattus {server.name}: stopping")
        await server.close()
