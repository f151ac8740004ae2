"""Files a visitor's game offers (its record), fetched from the game's process with patience.

textual-serve's download manager asks the game's process for the file chunk by chunk and
waits 4 seconds for each; when a chunk is late it then fails on its own queue ("task_done()
called too many times", Textualize/textual-serve#29) and the browser gets a broken file. A
game at its end screen may well be slower than that on a busy machine (its process is still
checking the record and closing its links). :class:`PatientDownloads` fetches the same way
but waits :data:`PATIENCE` seconds for each chunk and ends a download that gets nothing in
that time cleanly, with the reason in the server's log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator

from textual_serve.download_manager import DownloadManager

log = logging.getLogger(__name__)

CHUNK = 64 * 1024
"""Bytes asked of the game's process at a time (as textual-serve asks)."""
PATIENCE = 30.0
"""Seconds to wait for one chunk before the download is given up."""


class PatientDownloads(DownloadManager):
    """textual-serve's download manager with a patient, clean chunk loop."""

    def __init__(self, patience: float = PATIENCE) -> None:
        super().__init__()
        self.patience = patience

    async def download(self, delivery_key: str) -> AsyncGenerator[bytes, None]:
        """The chunks of the file ``delivery_key``, until the game's process says it is all
        (an empty chunk); nothing more when it is gone or silent for ``patience`` seconds."""
        download = await self.get_download_metadata(delivery_key)
        try:
            while True:
                asked = await download.app_service.send_meta(
                    {
                        "type": "deliver_chunk_request",
                        "key": delivery_key,
                        "size": CHUNK,
                        "name": download.name,
                    }
                )
                if not asked:
                    log.warning("download %s: the game's process is gone", delivery_key)
                    return
                try:
                    chunk = await asyncio.wait_for(download.incoming_chunks.get(), self.patience)
                except TimeoutError:
                    log.warning(
                        "download %s: nothing from the game for %.0f s", delivery_key, self.patience
                    )
                    return
                if not chunk:  # all of it sent, or the download cancelled
                    return
                yield chunk
        finally:
            self._active_downloads.pop(delivery_key, None)
