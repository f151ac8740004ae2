"""Web benchmark: `rattus web` seen by a client speaking the browser's protocol over loopback.

Run: ``.venv/bin/python benchmarks/web.py [--starts N] [--levels 1,8,32]
[--modes fresh,preload]``. Prints figures; asserts nothing.

The client does what textual-serve's page does (without drawing): it comes through the door as
a guest, opens the game's websocket with the page's size and waits for the menu's text in what
the game sends. Each mode is a server of its own: ``fresh`` starts every session as a new
Python (``rattus web --no-preload``), ``preload`` forks it from the preloaded parent.

* **Menu sent**: from the door's form being posted to the menu's text arriving on the socket.
* **Memory per extra session**: the growth of the server's whole process tree in proportional
  set size, with 1, 8 and 32 sessions at the menu, divided by the number of sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))

from serving import arguments, settle, start_server, stop, tree

MENU = b"Play against bots"
MODES = {"fresh": ["--no-preload"], "preload": []}


class Visitor:
    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.ws: aiohttp.ClientWebSocketResponse | None = None

    async def open(self) -> float:
        """Through the door to the menu; the seconds it took."""
        t0 = time.perf_counter()
        async with self.http.post(f"{self.url}login", data={"name": self.name}) as r:
            await r.read()
            assert r.status == 200 and str(r.url).endswith("/play"), r.status
        self.ws = await self.http.ws_connect(
            f"{self.url.replace('http', 'ws')}ws?width=100&height=30",
            headers={"Origin": self.url.rstrip("/")},
        )
        seen = b""
        while MENU not in seen:
            msg = await asyncio.wait_for(self.ws.receive(), 60)
            if msg.type == aiohttp.WSMsgType.BINARY:
                seen = (seen + msg.data)[-65536:]
            elif msg.type != aiohttp.WSMsgType.TEXT:
                raise SystemExit(f"the game's socket closed: {msg}")
        return time.perf_counter() - t0

    async def close(self) -> None:
        """Leave the game with q (a guest with nothing saved leaves at once), as a player
        does: a page merely closed would leave it running for the server's grace (a reload
        brings him back), and the figures at rest would count it."""
        if self.ws is not None:
            await self.ws.send_str('["stdin", "q"]')
            with contextlib.suppress(TimeoutError):
                while not self.ws.closed:
                    await asyncio.wait_for(self.ws.receive(), 30)
            await self.ws.close()
        await self.http.close()


async def bench(mode: str, args: argparse.Namespace, tmp: Path) -> None:
    server, port = start_server(
        ["web", "--port", "0", "--state-dir", str(tmp / mode), "--per-address", "1000",
         "--max-sessions", "64", *MODES[mode]]
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}/"
    print(f"== {mode}")
    try:
        starts = []
        for i in range(args.starts):
            v = Visitor(url, f"bench{i}")
            starts.append(await v.open())
            await v.close()
            await asyncio.sleep(0.3)
        print(
            f"door to menu sent: median {statistics.median(starts):.3f} s, "
            f"min {min(starts):.3f} s, max {max(starts):.3f} s ({len(starts)} starts)"
        )
        await asyncio.sleep(1.0)
        base = settle(server.pid)
        print(f"server at rest: {base / 1024:.1f} MiB PSS in {len(tree(server.pid))} processes")
        visitors: list[Visitor] = []
        try:
            for level in args.levels:
                while len(visitors) < level:
                    v = Visitor(url, f"mem{len(visitors)}")
                    await v.open()
                    visitors.append(v)
                total = settle(server.pid)
                print(
                    f"{level:>3} sessions at the menu: total {total / 1024:.1f} MiB PSS, "
                    f"{(total - base) / level / 1024:.1f} MiB per extra session"
                )
        finally:
            for v in visitors:
                await v.close()
    finally:
        stop(server)


def main() -> None:
    args = arguments(argparse.ArgumentParser())
    tmp = Path(tempfile.mkdtemp(prefix="rattus-web-bench-"))
    for mode in args.modes.split(","):
        asyncio.run(bench(mode, args, tmp))


if __name__ == "__main__":
    main()
