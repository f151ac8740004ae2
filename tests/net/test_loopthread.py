"""The network thread: work handed to it runs on its loop, answers and errors come back, and
stopping it cancels what is left and ends the thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from rattus_net.net.loopthread import LoopClosed, LoopThread


def test_work_runs_on_the_threads_loop_and_comes_back() -> None:
    async def main() -> None:
        runner = LoopThread("test-loop")
        try:

            async def where() -> tuple[threading.Thread, asyncio.AbstractEventLoop]:
                return threading.current_thread(), asyncio.get_running_loop()

            thread, loop = await runner.run(where())
            assert thread is runner.thread and loop is runner.loop
            assert loop is not asyncio.get_running_loop()
            asked = runner.ask(lambda: threading.current_thread())
            assert await asyncio.wrap_future(asked) is runner.thread

            def refuse() -> None:
                raise ValueError("no")

            with pytest.raises(ValueError, match="no"):
                await asyncio.wrap_future(runner.ask(refuse))
            seen: list[threading.Thread] = []
            runner.call(lambda: seen.append(threading.current_thread()))
            await asyncio.wrap_future(runner.ask(lambda: None))  # (after the call)
            assert seen == [runner.thread]
        finally:
            await runner.stop()

    asyncio.run(main())


def test_stopping_cancels_what_is_left_and_ends_the_thread() -> None:
    async def main() -> None:
        runner = LoopThread("test-loop")
        started = threading.Event()
        cancelled = threading.Event()

        async def forever() -> None:
            started.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise

        runner.submit(forever())
        # (it must have started: a task cancelled before its first step never runs, and
        # would never see its cancellation)
        await asyncio.wrap_future(runner.ask(lambda: None))
        assert started.is_set()
        await runner.stop()
        assert not runner.thread.is_alive() and cancelled.is_set()
        assert not runner.alive
        coro = forever()
        with pytest.raises(LoopClosed):
            runner.submit(coro)
        runner.call(print)  # (nothing, and no error, once stopped)
        with pytest.raises(LoopClosed):
            runner.ask(lambda: None)

    asyncio.run(main())


def test_a_stop_that_waits_too_little_leaves_the_thread_to_say_it_ended() -> None:
    """A stop whose wait times out while the thread's loop is busy must not cancel
    ``ended``: the thread sets it once its loop is closed (it once raised there, as the
    waiter's timeout had cancelled it)."""
    import time

    async def main() -> None:
        runner = LoopThread("test-loop")
        errors: list[BaseException] = []
        hook = threading.excepthook
        threading.excepthook = lambda args: errors.append(args.exc_value)  # type: ignore[assignment]
        try:
            runner.call(lambda: time.sleep(0.5))  # the thread's loop busy for a while
            await runner.stop(timeout=0.05)  # gives up waiting
            assert runner.thread.is_alive() and not runner.ended.done()
            runner.thread.join(5.0)
        finally:
            threading.excepthook = hook
        assert not runner.thread.is_alive()
        assert runner.ended.done() and not runner.ended.cancelled()
        assert errors == []

    asyncio.run(main())


def test_work_handed_in_while_the_loop_winds_down_is_refused_never_lost() -> None:
    """The program's thread outlives its tables, so a table may hand work in just as the
    program ends it: refused at once (LoopClosed), never queued on a loop that will not run
    it (its waiter would wait for ever)."""
    runner = LoopThread("wind-down")
    started, holding, release = threading.Event(), threading.Event(), threading.Event()

    async def stubborn() -> None:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            holding.set()
            release.wait(10)  # (holds the wind-down: the loop is stopping, not closed)
            raise

    runner.submit(stubborn())
    assert started.wait(10)
    runner.stop_soon()
    try:
        assert holding.wait(10)
        with pytest.raises(LoopClosed):
            runner.submit(asyncio.sleep(0))
    finally:
        release.set()
    runner.thread.join(10)
    assert not runner.thread.is_alive()
