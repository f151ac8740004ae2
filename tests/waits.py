"""The one way tests wait: on a condition, with a deadline that guards against a hang (never a
speed test, never a fixed sleep). ``wait_until`` blocks (threads, processes); ``until`` and
``waiting`` wait on the test's event loop, so the app or the peers go on meanwhile."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

Why = str | Callable[[], str]
"""What a timeout says: a text, or a function that says it then (e.g. what the screen shows)."""

Until = Callable[[Callable[[], object]], Awaitable[None]]
"""Waits until a condition holds (see :func:`waiting`)."""


def _said(why: Why) -> str:
    return why if isinstance(why, str) else why()


def wait_until(
    cond: Callable[[], object], seconds: float = 30.0, why: Why = "timed out", step: float = 0.05
) -> None:
    """Block until ``cond()`` holds; fail with ``why`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not cond():
        if time.monotonic() >= deadline:
            raise AssertionError(f"{_said(why)} (waited {seconds} s)")
        time.sleep(step)


def waiting(
    seconds: float,
    pause: Callable[[], Awaitable[object]] | None = None,
    watch: Callable[[], None] | None = None,
    why: Why = "timed out",
) -> Until:
    """One deadline for several waits: an ``until(cond)`` that waits (on the test's event loop;
    with ``pause``, e.g. the Pilot's, else a short sleep) until ``cond()`` holds, calls
    ``watch()`` between looks (it may assert: a helper process still alive), and fails with
    ``why`` once ``seconds`` have passed since this call."""
    deadline = time.monotonic() + seconds

    async def until(cond: Callable[[], object]) -> None:
        while not cond():
            if time.monotonic() >= deadline:
                raise AssertionError(f"{_said(why)} (waited {seconds} s)")
            if watch is not None:
                watch()
            await (asyncio.sleep(0.05) if pause is None else pause())

    return until


async def until(
    cond: Callable[[], object],
    seconds: float = 60.0,
    why: Why = "timed out",
    pause: Callable[[], Awaitable[object]] | None = None,
) -> None:
    """Wait on the test's event loop until ``cond()`` holds; fail with ``why`` after
    ``seconds``."""
    await waiting(seconds, pause=pause, why=why)(cond)
