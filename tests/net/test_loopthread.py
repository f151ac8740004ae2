"""The table's thread: work handed to it runs on its loop, answers and errors come back, and
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
            assert runner.ask(lambda: threading.current_thread()) is runner.thread

            def refuse() -> None:
                raise ValueError("no")

            with pytest.raises(ValueError, match="no"):
                runner.ask(refuse)
            seen: list[threading.Thread] = []
            runner.call(lambda: seen.append(threading.current_thread()))
            await asyncio.to_thread(runner.ask, lambda: None)  # (after the call)
            assert seen == [runner.thread]
        finally:
            await runner.stop()

    asyncio.run(main())


def test_stopping_cancels_what_is_left_and_ends_the_thread() -> None:
    async def main() -> None:
        runner = LoopThread("test-loop")
        cancelled = threading.Event()

        async def forever() -> None:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise

        runner.submit(forever())
        await runner.stop()
        assert not runner.thread.is_alive() and cancelled.is_set()
        assert not runner.alive
        coro = forever()
        with pytest.raises(LoopClosed):
            runner.submit(coro)
        runner.call(print)  # (nothing, and no error, once stopped)

    asyncio.run(main())
