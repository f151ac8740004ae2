"""The browser server's downloads: every chunk the game sends, and a clean end when the game
is silent or gone (textual-serve's own loop fails on a late chunk)."""

from __future__ import annotations

import asyncio
from typing import Any

from rattus_net.web.downloads import PatientDownloads


class FakeApp:
    """A game's process as the download manager sees it: it answers chunk requests (or not)."""

    def __init__(self, manager: PatientDownloads, chunks: list[bytes] | None, alive: bool = True):
        self.manager, self.chunks, self.alive = manager, chunks, alive
        self.asked: list[dict[str, Any]] = []

    async def send_meta(self, data: dict[str, Any]) -> bool:
        self.asked.append(data)
        if self.alive and self.chunks is not None:  # (None: a game too busy to answer)
            chunk = self.chunks.pop(0) if self.chunks else b""
            await self.manager.chunk_received(data["key"], chunk)
        return self.alive


async def fetch(manager: PatientDownloads, app: FakeApp) -> list[bytes]:
    await manager.create_download(
        app_service=app,
        delivery_key="k1",
        file_name="game.rattusnet",
        open_method="download",
        mime_type="application/json",
    )
    return [chunk async for chunk in manager.download("k1")]


def test_every_chunk_arrives_and_the_download_is_forgotten() -> None:
    manager = PatientDownloads()
    app = FakeApp(manager, [b"ab", b"cd"])
    assert asyncio.run(fetch(manager, app)) == [b"ab", b"cd"]
    assert len(app.asked) == 3 and app.asked[0]["type"] == "deliver_chunk_request"
    assert "k1" not in manager._active_downloads


def test_a_silent_game_ends_the_download_cleanly() -> None:
    manager = PatientDownloads(patience=0.05)
    assert asyncio.run(fetch(manager, FakeApp(manager, None))) == []
    assert "k1" not in manager._active_downloads


def test_a_game_that_is_gone_ends_the_download() -> None:
    manager = PatientDownloads()
    assert asyncio.run(fetch(manager, FakeApp(manager, [b"ab"], alive=False))) == []
