"""What a network seat's front end reads of the table, as of one moment of the node's thread:
plain values the two threads share without a lock (``netgame.py``: the node's thread makes
them, the front end only reads them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the table waits for right now, for the "awaited" line."""

    text: str
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class WaitInfo:
    """What the node's thread last saw the table wait for (refreshed at every tick)."""

    text: str | None  # None: not connected to the others yet
    started: float = 0.0  # (monotonic) when the step began
    stall_at: float | None = None  # (monotonic) when the first player away gets blamed
    away: bool = False  # some other player is not connected
    timeout: float = 0.0  # the session's stall timeout now
    # (monotonic) a resumed peer that has reached nobody of its game yet: when it gives up
    nobody_until: float | None = None


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """What a front end shows of the game, as of one moment of the node's thread. ``game``
    is a copy that thread no longer touches: read it freely, never change it."""

    game: Any  # the game's own engine (``None`` before the session has one)
    step_kind: str | None  # the protocol step under way (a supply choice is checked apart)
    asked: int  # decisions asked of our player so far
    asking: bool  # the node awaits our player's decision (the ``asked``-th)
    finished: bool
    aborted: str | None  # how the game was stopped, in words (safe to show)
    over: bool  # the node is done (outcome or error set)
    held: tuple[Any, ...] = ()  # our steps of this turn not sent yet (``u`` takes them back)
    why_final: str = ""  # why none may be taken back, if none is held

    @property
    def stable(self) -> bool:
        """The game waits for a decision or is over, so every card we hold is known."""
        g = self.game
        return g is not None and (g.decision is not None or g.is_over)


__all__ = ["TableSnapshot", "WaitInfo", "Waiting"]
