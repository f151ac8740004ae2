"""What one seat may know of a game: the base of every game's seat view.

Bots and screens read a seat's view, never the game. A view is a thin, read-only window on
the live game: each property computes its answer when asked, from public state plus this
seat's own secrets. What every game's view shares is here (the names, whose decision it is,
the end, the log without other seats' private events); a game's view adds its own public
state and this seat's secrets, and lists the seat's legal moves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from rattus_net.kit.machine import Decided, Event, Machine

DecisionT = TypeVar("DecisionT", bound=Decided)
ResultT = TypeVar("ResultT")


class SeatView(ABC, Generic[DecisionT, ResultT]):
    """The game as seen from ``seat``."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Machine[Any, DecisionT, ResultT, Any], seat: int) -> None:
        self._game = game
        self.seat = seat

    @property
    def names(self) -> tuple[str, ...]:
        names: tuple[str, ...] = self._game.config.players
        return names

    @property
    def n(self) -> int:
        return self._game.n

    @property
    def decision(self) -> DecisionT | None:
        """The pending decision (whoever must take it); ``None`` while the table works."""
        return self._game.decision

    @property
    def my_turn(self) -> bool:
        """Whether this seat is among those the game waits for."""
        return self.seat in self._game.to_act()

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def result(self) -> ResultT | None:
        return self._game.result

    def events(self, start: int = 0) -> list[Event]:
        """The log from ``start`` on, without other seats' private events."""
        seat = self.seat
        return [e for e in self._game.log[start:] if e.private_to is None or e.private_to == seat]

    @property
    def log_size(self) -> int:
        return len(self._game.log)

    @abstractmethod
    def legal(self) -> Sequence[Any]:
        """This seat's legal moves now (empty if it need not act)."""
