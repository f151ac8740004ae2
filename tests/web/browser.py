"""Debian's headless Chromium driven over the DevTools protocol (a websocket, with aiohttp), and
the screen a page's terminal shows, read back as text.

The page's terminal (xterm.js, drawn on a canvas) has no text to read in the page, so a small
script added to every page before its own keeps a copy of the bytes the game sends to it;
those bytes are fed to pyte (a terminal emulator) of the size the page asked the game for, and
its screen is what the tests read. Keys are real key events sent to the browser, so they go
through xterm.js and textual-serve's client as a person's would.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import aiohttp
import pyte
from ssh.sshlib import terminate

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1200,860",
)

RECORDER = """
(() => {
  const Real = window.WebSocket;
  window.__rattus = {chunks: [], size: null};
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    ws.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        const bytes = new Uint8Array(event.data);
        let text = "";
        for (let i = 0; i < bytes.length; i += 8192) {
          text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
        }
        window.__rattus.chunks.push(btoa(text));
      }
    });
    const send = ws.send.bind(ws);
    ws.send = (data) => {
      try {
        const msg = JSON.parse(data);
        if (msg[0] === "resize") window.__rattus.size = msg[1];
      } catch (e) {}
      return send(data);
    };
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
})();
"""

KEYS = {
    "Enter": ("Enter", "Enter", 13, "\r"),
    "Escape": ("Escape", "Escape", 27, ""),
    "Down": ("ArrowDown", "ArrowDown", 40, ""),
    "Up": ("ArrowUp", "ArrowUp", 38, ""),
    "Left": ("ArrowLeft", "ArrowLeft", 37, ""),
    "Right": ("ArrowRight", "ArrowRight", 39, ""),
    "Space": (" ", "Space", 32, " "),
    "Tab": ("Tab", "Tab", 9, "\t"),
}


def have_chromium() -> bool:
    return Path(CHROMIUM).exists()


class Browser:
    """One headless Chromium with a fresh profile; pages are its tabs."""

    def __init__(self, profile: Path) -> None:
        self.profile = profile
        self.proc: subprocess.Popen[bytes] | None = None
        self.http: aiohttp.ClientSession | None = None
        self.port = 0

    async def __aenter__(self) -> Browser:
        self.proc = subprocess.Popen(
            [CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
             "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        active = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (active.exists() and active.read_text().strip()):
            assert self.proc.poll() is None, "chromium did not start"
            assert time.monotonic() < deadline, "chromium gave no DevTools port"
            await asyncio.sleep(0.05)
        self.port = int(active.read_text().split()[0])
        self.http = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.http is not None:
            await self.http.close()
        if self.proc is not None:
            terminate(self.proc, 10)

    async def page(self) -> Page:
        assert self.http is not None
        async with self.http.put(f"http://127.0.0.1:{self.port}/json/new?about:blank") as r:
            target = await r.json()
        ws = await self.http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        page = Page(ws)
        page.start()
        await page.call("Page.enable")
        await page.call("Page.addScriptToEvaluateOnNewDocument", source=RECORDER)
        return page


class Page:
    """One tab: DevTools calls, the terminal's screen as text, keys, screenshots."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = 0
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None
        self._reader: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            future = self.waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                if "error" in data:
                    future.set_exception(AssertionError(f"DevTools: {data['error']}"))
                else:
                    future.set_result(data.get("result", {}))

    async def call(self, method: str, **params: Any) -> Any:
        self.ids += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[self.ids] = future
        await self.ws.send_json({"id": self.ids, "method": method, "params": params})
        return await asyncio.wait_for(future, 30)

    async def evaluate(self, expression: str) -> Any:
        result = await self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        return result.get("result", {}).get("value")

    async def goto(self, url: str) -> None:
        await self.call("Page.navigate", url=url)
        await self.wait_js("document.readyState === 'complete'")
        self.screen = self.stream = None  # a new page, and its terminal new

    async def reload(self) -> None:
        """What F5 does: the page loaded again (its terminal new, read from scratch)."""
        await self.evaluate("window.__rattus_before_reload = true")
        await self.call("Page.reload")
        await self.wait_js("!window.__rattus_before_reload && document.readyState === 'complete'")
        self.screen = self.stream = None

    async def wait_js(self, condition: str, seconds: float = 30) -> Any:
        deadline = time.monotonic() + seconds
        while True:
            value = await self.evaluate(condition)
            if value:
                return value
            assert time.monotonic() < deadline, f"never true in the page: {condition}"
            await asyncio.sleep(0.05)

    async def text(self) -> str:
        """What the page's terminal shows now (or the page's own text, before a game)."""
        state = await self.evaluate(
            "(() => { const r = window.__rattus; if (!r) return null;"
            " return {chunks: r.chunks.splice(0), size: r.size}; })()"
        )
        if not state or not state["size"]:
            return str(await self.evaluate("document.body ? document.body.innerText : ''"))
        cols, rows = int(state["size"]["width"]), int(state["size"]["height"])
        if self.screen is None:
            self.screen = pyte.Screen(cols, rows)
            self.stream = pyte.ByteStream(self.screen)
        elif (self.screen.columns, self.screen.lines) != (cols, rows):
            self.screen.resize(rows, cols)
        assert self.stream is not None
        for chunk in state["chunks"]:
            self.stream.feed(base64.b64decode(chunk))
        return "\n".join(self.screen.display)

    async def wait_for(self, pattern: str, seconds: float = 30) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        rx = re.compile(pattern)
        while True:
            screen = await self.text()
            m = rx.search(screen)
            if m:
                return m
            assert time.monotonic() < deadline, f"{pattern!r} never appeared:\n{screen}"
            await asyncio.sleep(0.05)

    async def press(self, *keys: str, focus: bool = True, modifiers: int = 0) -> None:
        """Keys by name (``Enter``, ``Down``...) or single characters, to the terminal (given
        the focus first unless ``focus`` is false: then to whatever has it); ``modifiers`` as
        DevTools counts them (2: Ctrl)."""
        if focus:
            await self.evaluate(
                "(() => { const t = document.querySelector('.xterm-helper-textarea');"
                " if (t) t.focus(); })()"
            )
        for key in keys:
            if key in KEYS:
                name, code, vk, text = KEYS[key]
            else:
                name, text = key, key
                code = f"Key{key.upper()}" if key.isalpha() else ""
                vk = ord(key.upper()) if key.isalnum() else 0
            down = {"key": name, "code": code, "windowsVirtualKeyCode": vk, "modifiers": modifiers}
            if modifiers:
                text = ""  # (a key with Ctrl types nothing)
            if text:
                await self.call("Input.dispatchKeyEvent", type="keyDown", text=text, **down)
            else:
                await self.call("Input.dispatchKeyEvent", type="rawKeyDown", **down)
            await self.call("Input.dispatchKeyEvent", type="keyUp", **down)

    async def select(self, row: int, first: int, end: int) -> None:
        """Select the terminal's cells ``first`` to ``end`` (not included) of ``row`` as a
        person does, with the mouse and Shift held (the game has the plain mouse)."""
        box = await self.evaluate(
            "(() => { const r = document.querySelector('.xterm-screen').getBoundingClientRect();"
            " return {x: r.left, y: r.top, w: r.width, h: r.height}; })()"
        )
        assert self.screen is not None, "read the screen first (text())"
        cell_w = box["w"] / self.screen.columns
        cell_h = box["h"] / self.screen.lines
        y = box["y"] + (row + 0.5) * cell_h
        points = [box["x"] + (col + 0.5) * cell_w for col in (first, (first + end) / 2, end)]
        shift = {"modifiers": 8, "button": "left", "clickCount": 1}
        await self.call("Input.dispatchMouseEvent", type="mousePressed", x=points[0], y=y, **shift)
        for x in points[1:]:
            await self.call(
                "Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, buttons=1, **shift
            )
        await self.call(
            "Input.dispatchMouseEvent", type="mouseReleased", x=points[-1], y=y, **shift
        )

    async def type(self, text: str) -> None:
        """Text into the focused field of the page (the door's form)."""
        await self.call("Input.insertText", text=text)

    async def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        shot = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self.ws.close()
