"""An asyncio loop on a thread of its own, for work that must never hold up the caller's loop.

A user interface runs its screen on one asyncio loop; the network (every table's lobby
listener and advert, the peer node that checks every shuffle proof and decryption) runs on
one :class:`LoopThread` per process, the network thread (:data:`NETWORK_THREAD`): the program
makes it (the TUI app: ``RattusNetApp.network``), hands it down to each table, and ends it when
it ends (:meth:`LoopThread.stop` cancels and awaits the tasks left there). A table owns only
the work it submits there. The screen's loop then only renders: the node's cryptography
competes with it for the interpreter, never for its loop. Everything handed between the two
goes through the thread-safe calls here (:meth:`LoopThread.run`, :meth:`LoopThread.submit`,
:meth:`LoopThread.call`), and the network's news reaches the screen through :func:`hand_to`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

NETWORK_THREAD = "rattus-net"
"""The name of the program's network thread (tests look for it)."""


def hand_to(ui: asyncio.AbstractEventLoop | None, tell: Callable[[], None]) -> None:
    """Run ``tell`` on the front end's loop ``ui`` (from another thread), or at once when
    there is no such loop (a headless caller); nothing once that loop is gone."""
    if ui is None:
        tell()
        return
    with contextlib.suppress(RuntimeError):  # (the front end's loop is gone)
        ui.call_soon_threadsafe(tell)


class LoopClosed(RuntimeError):
    """The thread's loop has stopped: nothing more can run there."""


class LoopThread:
    """A daemon thread running its own asyncio loop until :meth:`stop`."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.ended: concurrent.futures.Future[None] = concurrent.futures.Future()
        """Done once the thread's loop is closed (awaited by :meth:`stop` without a thread
        of the caller's: no executor, which may be shut down already when a program ends)."""
        self._lock = threading.Lock()
        self._closing = False
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            with self._lock:  # (no submit from now on: LoopClosed)
                self._closing = True
            with contextlib.suppress(Exception):
                self.loop.run_until_complete(self._cancel_all())
            self.loop.close()
            if not self.ended.done():  # (never cancelled by a waiter: see stop)
                self.ended.set_result(None)

    @staticmethod
    async def _cancel_all() -> None:
        """Cancel and await every task left, until none is: a coroutine submitted just
        before the loop stopped gets its task only now, and a cancelled task may start
        another on its way out; each is cancelled and awaited, so every waiter hears."""
        while True:
            await asyncio.sleep(0)  # (the callbacks already handed in make their tasks)
            tasks = {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}
            if not tasks:
                return
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    @property
    def here(self) -> bool:
        """The caller runs on this thread."""
        return threading.current_thread() is self.thread

    @property
    def alive(self) -> bool:
        return self.thread.is_alive() and not self.loop.is_closed()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Run ``coro`` on this thread's loop (from any thread); cancelling the future cancels
        it there. Raises :class:`LoopClosed` once the loop has stopped."""
        with self._lock:
            if not self._closing:
                with contextlib.suppress(RuntimeError):  # (closed: said below)
                    return asyncio.run_coroutine_threadsafe(coro, self.loop)
        coro.close()
        raise LoopClosed("the network thread has stopped")

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Await ``coro`` run on this thread's loop, from another loop."""
        return await asyncio.wrap_future(self.submit(coro))

    def call(self, fn: Callable[..., object], *args: object) -> None:
        """Call ``fn(*args)`` soon on this thread's loop (from any thread); nothing if the
        loop has stopped."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(fn, *args)

    def ask(self, fn: Callable[[], T]) -> concurrent.futures.Future[T]:
        """``fn()`` run on this thread's loop; its result (or exception) comes in the future
        returned at once. The caller never waits here: a screen's loop awaits it
        (``asyncio.wrap_future``) or looks at it later, and goes on drawing meanwhile, however
        long the table's loop is held up."""
        if self.here:
            done: concurrent.futures.Future[T] = concurrent.futures.Future()
            try:
                done.set_result(fn())
            except Exception as exc:
                done.set_exception(exc)
            return done

        async def call() -> T:
            return fn()

        return self.submit(call())

    def stop_soon(self) -> None:
        """Stop the loop once what is running now yields (from any thread): the tasks left
        are cancelled and the thread ends."""
        self.call(self.loop.stop)

    async def stop(self, timeout: float = 10.0) -> None:
        """Stop the loop and wait (without blocking the caller's loop) for the thread to
        close it. A wait that times out (or is cancelled) leaves :attr:`ended` as it is: a
        waiter's future cancelled with it would cancel ``ended`` too (``wrap_future``), and
        the thread could no longer say that it ended."""
        self.stop_soon()
        if not self.here:
            with contextlib.suppress(TimeoutError):
                ended = asyncio.shield(asyncio.wrap_future(self.ended))
                await asyncio.wait_for(ended, timeout)
                self.thread.join(1.0)  # (past its last statement now: returns at once)


__all__ = ["NETWORK_THREAD", "LoopClosed", "LoopThread", "hand_to"]
