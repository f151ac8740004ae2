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
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from rattus_net.net.loopthread import LoopThread
from rattus_net.net.node import PeerNode
from rattus_net.net.persist import is_locked, read_meta
from rattus_net.net.seats import Outcome
from rattus_net.net.transport import DEFAULT_TRANSPORT, TransportLimits

log = logging.getLogger(__name__)

BOT_THREAD = "rattus-bot-seats"


class BotSeats(LoopThread):
    """A background thread with its own asyncio loop, where a process's bot seats play.

    Each bot seat is a full peer: it checks every shuffle proof and decryption like anybody
    else. Run on a screen's loop, that work blocked it for up to half a second in a
    five-player game; here it only competes for the interpreter. Stopping the thread
    (:meth:`stop`) cancels every bot seat and awaits it, so each closes its node and links."""

    def __init__(self) -> None:
        super().__init__(BOT_THREAD)

    def start(self, coro: Coroutine[Any, Any, None]) -> concurrent.futures.Future[None]:
        """Run ``coro`` (a bot seat) on the bots' loop; cancelling the future cancels it."""
        return self.submit(coro)

    def retire(self, grace: float = 120.0) -> None:
        """End the thread once the bot seats have finished their game on their own (they are
        cancelled after ``grace`` seconds)."""
        self._submit_wind_up(grace)

    async def finish(self, grace: float = 120.0) -> None:
        """Wait (up to ``grace`` seconds) for the bot seats to finish, then end the thread."""
        # (not awaiting the wind-up's future: the loop stops before it could complete it)
        if self._submit_wind_up(grace):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.wrap_future(self.ended), grace + 10)

    def _submit_wind_up(self, grace: float) -> bool:
        try:
            self.submit(self._wind_up(grace))
        except RuntimeError:  # the loop is closed: nothing is left to wind up
            return False
        return True

    @staticmethod
    async def _wind_up(grace: float) -> None:
        """Let every bot seat end on its own for ``grace`` seconds, cancel (and await) the
        rest, then stop the loop."""
        tasks = {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}
        if tasks and grace > 0:
            _, tasks = await asyncio.wait(tasks, timeout=grace)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
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


async def play_bot_seat(
    game_id: str,
    seat: int,
    root: Path,
    *,
    limits: TransportLimits,
    stall_timeout: float,
    together: frozenset[int],
) -> Outcome:
    """Reload a bot seat from its journal and let its bot play on (``rattus resume`` for a
    seat nobody watches: nothing is said)."""
    node = PeerNode.load(
        game_id, root, seat=seat, limits=limits, stall_timeout=stall_timeout, together=together
    )
    return await node.run()


def bot_problem(exc: BaseException) -> str:
    """What stopped a bot seat, in one line."""
    text = str(exc) or type(exc).__name__
    return text[:1].lower() + text[1:]


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
        say: Callable[[str], None] | None = None,
    ) -> HostedBots | None:
        """Resume the bot seats ``node``'s process hosted (None if there are none).

        A bot seat that fails (its journal unreadable, its bot broken) is never passed over
        in silence: it is logged, said (``say``, from the bots' thread) and its game told
        (:meth:`PeerNode.bot_failed`: the game is stopped naming why, rather than the others
        waiting for a seat that will not come and blaming it as stalled)."""
        seats = hosted_seats(node)
        if not seats:
            return None
        root = node.dir.parent.parent.parent
        runner = BotSeats()
        futures = []
        group = frozenset((node.seat, *seats))  # back together: no news of the game for each
        node.comeback.together = group - {node.seat}
        game_id = node.setup.game_id
        for seat in seats:

            async def run(seat: int = seat) -> None:
                try:
                    await play_bot_seat(
                        game_id,
                        seat,
                        root,
                        limits=limits,
                        stall_timeout=stall_timeout,
                        together=group - {seat},
                    )
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.exception("the bot seat %d of game %s failed", seat + 1, game_id)
                    problem = bot_problem(exc)
                    if say is not None:
                        say(f"the bot of seat {seat + 1} stopped: {problem}")
                    node.bot_failed(seat, problem)

            futures.append(runner.start(run()))
        return cls(runner, futures)

    async def close(self, *, bots: bool = True) -> None:
        if bots:
            await self.seats.stop()
        else:
            self.seats.retire()

    async def finish(self, grace: float = 120.0) -> None:
        await self.seats.finish(grace)


__all__ = ["BOT_THREAD", "BotSeats", "HostedBots", "bot_problem", "hosted_seats", "play_bot_seat"]
