"""Bot seats a process plays besides its own seat, and bringing them back with it.

A TUI host fills free seats with bots: each is a full peer (its own keys, its own seat folder
in the data directory, its own mesh links), run by :func:`rattus_net.net.play.join_game` on a
separate asyncio loop in a background thread (:class:`BotSeats`), so that its share of the
cryptography never holds up the screen. Its setup records ``hosted_by``: the seat of the
process that runs it.

When that process goes (quit, crash, kill) its bot seats go with it. :class:`HostedBots`
brings them back when the hosting seat is resumed: every unfinished seat of the same game in
the same data directory whose ``hosted_by`` is the resumed seat, and that no process plays
right now, is reloaded from its journal and played on by its bot, exactly like ``rattus
resume`` would.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any

from rattus_net.net.node import PeerNode
from rattus_net.net.persist import is_locked, read_meta
from rattus_net.net.transport import DEFAULT_TRANSPORT, TransportLimits


class BotSeats:
    """A background thread with its own asyncio loop, where a process's bot seats play.

    Each bot seat is a full peer: it checks every shuffle proof and decryption like anybody
    else. Run on a screen's loop, that work blocked it for up to half a second in a
    five-player game; here it only competes for the interpreter."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="rattus-bot-seats", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()

    def start(self, coro: Coroutine[Any, Any, None]) -> concurrent.futures.Future[None]:
        """Run ``coro`` on the bots' loop; cancelling the future cancels it there."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    async def stop(self) -> None:
        """Cancel every bot seat, let each close its node and links, and end the thread."""
        wound_up = self._submit(self._wind_up(0.0, stop_loop=False))
        if wound_up is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.wrap_future(wound_up), 10)
            with contextlib.suppress(RuntimeError):  # already stopped and closed
                self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self._thread.join, 10)

    def retire(self, grace: float = 120.0) -> None:
        """End the thread once the bot seats have finished their game on their own (they are
        cancelled after ``grace`` seconds)."""
        self._submit(self._wind_up(grace, stop_loop=True))

    async def finish(self, grace: float = 120.0) -> None:
        """Wait (up to ``grace`` seconds) for the bot seats to finish, then end the thread."""
        # (not awaiting the wind-up's future: the loop stops before it could complete it)
        if self._submit(self._wind_up(grace, stop_loop=True)) is not None:
            await asyncio.to_thread(self._thread.join, grace + 10)

    def _submit(self, coro: Coroutine[Any, Any, None]) -> concurrent.futures.Future[None] | None:
        try:
            return asyncio.run_coroutine_threadsafe(coro, self.loop)
        except RuntimeError:  # the loop is closed: nothing is left to wind up
            coro.close()
            return None

    @staticmethod
    async def _wind_up(grace: float, *, stop_loop: bool) -> None:
        tasks = {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}
        if tasks and grace > 0:
            _, tasks = await asyncio.wait(tasks, timeout=grace)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if stop_loop:
            asyncio.get_running_loop().stop()


def hosted_seats(node: PeerNode) -> list[int]:
    """The seats of ``node``'s game that its process hosted as bots, unfinished, journaled in
    the same data directory, and played by no process right now."""
    game_folder = node.dir.parent
    seats = []
    for folder in sorted(game_folder.glob("seat-*")):
        if folder == node.dir:
            continue
        meta = read_meta(folder)
        seat = meta.get("seat")
        if (
            isinstance(seat, int)
            and meta.get("hosted_by") == node.seat
            and meta.get("status") == "playing"
            and not is_locked(folder)
        ):
            seats.append(seat)
    return seats


class HostedBots:
    """The bot seats of a resumed hosting seat, played on again in a :class:`BotSeats`
    thread. ``close(bots=...)`` has the shape of a lobby's cleanup hook: ``bots=False`` lets
    them finish their game, ``True`` stops them now."""

    def __init__(self, seats: BotSeats, futures: list[concurrent.futures.Future[None]]) -> None:
        self.seats = seats
        self.futures = futures

    @classmethod
    def resume(
        cls,
        node: PeerNode,
        *,
        limits: TransportLimits = DEFAULT_TRANSPORT,
        stall_timeout: float = 300.0,
    ) -> HostedBots | None:
        """Resume the bot seats ``node``'s process hosted (None if there are none)."""
        seats = hosted_seats(node)
        if not seats:
            return None
        from rattus_net.net import play  # (play imports this module's neighbours)

        root = node.dir.parent.parent.parent
        runner = BotSeats()
        futures = []
        group = frozenset((node.seat, *seats))  # back together: no news of the game for each
        node.together = group - {node.seat}
        for seat in seats:

            async def run(seat: int = seat) -> None:
                with contextlib.suppress(Exception):
                    await play.resume_game(
                        node.setup.game_id,
                        seat=seat,
                        root=root,
                        limits=limits,
                        stall_timeout=stall_timeout,
                        say=lambda line: None,
                        together=group - {seat},
                    )

            futures.append(runner.start(run()))
        return cls(runner, futures)

    async def close(self, *, bots: bool = True) -> None:
        if bots:
            await self.seats.stop()
        else:
            self.seats.retire()

    async def finish(self, grace: float = 120.0) -> None:
        await self.seats.finish(grace)


__all__ = ["BotSeats", "HostedBots", "hosted_seats"]
