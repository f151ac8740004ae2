"""One small interface for every game of the Rattus family (OpenSpiel is the model).

A game is a :class:`GameDefinition`: it sets up a :class:`GameState` from players and options;
the state's ``pending`` is a decision (who acts, ``legal`` lists the choices), a table request
from ``rattus_net.engine.table`` (answered by a table: chance and hidden faces) or ``None``
when the game is over; ``apply`` plays a move; ``view`` is what one seat may know; moves have
a text form (``parse_move``/``format_move``, a parse/print pair) and the end an
:class:`Outcome` with a scoring breakdown. The shared machinery (records, bots' plumbing,
commands) takes a game through this interface; ``rattus_net.games`` maps names to games.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class GameState(Protocol):
    """A game in progress, driven from outside."""

    n: int
    pending: Any  # a decision, a table request or None

    @property
    def is_over(self) -> bool: ...

    def to_act(self) -> tuple[int, ...]:
        """The seats that may decide now (empty while the table must answer)."""
        ...

    def apply(self, player: int, move: Any) -> None:
        """Play a move; raises an ``IllegalMove`` and changes nothing if it is not legal."""
        ...

    def answer(self, value: Any) -> None:
        """Answer the pending table request."""
        ...


class Table(Protocol):
    """Answers table requests (the local table knows every face)."""

    def answer(self, game: Any) -> None: ...


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winners, each seat's score and a readable breakdown."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    breakdown: tuple[str, ...]


class GameDefinition(ABC):
    """A game of the family, behind the interface the shared stack uses."""

    name: str
    title: str
    min_players: int
    max_players: int
    network_play: bool = False
    """Whether tables of this game can be hosted and joined on the network. The one switch
    for it: ``rattus host``/``join``, the lobby, the adverts and the TUI's forms and menu all
    ask this flag (a game turns it on once its network play exists)."""
    network_version: int = 1
    """The version of the game's moves and records at a network table: peers of the same
    game but another version cannot share a table (adverts and the lobby say so)."""

    @abstractmethod
    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Any:
        """A new game (a :class:`GameState`) for ``players`` in seat order."""

    @abstractmethod
    def local_table(self, seed: int | None) -> Any:
        """A table that knows every face, its chance seeded by ``seed``."""

    @abstractmethod
    def view(self, game: Any, seat: int) -> Any:
        """What ``seat`` may know."""

    @abstractmethod
    def legal(self, game: Any, seat: int) -> Sequence[Any]:
        """The legal moves of ``seat`` now (empty if it is not to act)."""

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """The move ``text`` names (raises a ``ValueError`` subclass on bad text)."""

    @abstractmethod
    def format_move(self, move: Any) -> str:
        """The text form of ``move``: ``parse_move(format_move(m)) == m``."""

    @abstractmethod
    def outcome(self, game: Any) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""

    def settle(self, game: Any, table: Any) -> None:
        """Let ``table`` answer requests until a player must act or the game is over."""
        while game.pending is not None and not game.to_act():
            table.answer(game)
