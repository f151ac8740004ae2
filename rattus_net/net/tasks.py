"""Ending tasks properly: a task that is cancelled is also awaited, so it has run its
``finally`` (closed its connection, its journal) before its owner goes on, and no error of
it is left unretrieved."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any


async def cancel_and_wait(tasks: Iterable[asyncio.Future[Any] | None]) -> None:
    """Cancel ``tasks`` (``None`` ignored) and wait until each has ended; what they return or
    raise is dropped (they were told to stop), but a cancellation of the caller still
    reaches the caller."""
    pending = [t for t in tasks if t is not None]
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)


__all__ = ["cancel_and_wait"]
