"""One small interface for every game of the Rattus family (OpenSpiel is the model).

A game is a :class:`GameDefinition`: it sets up a :class:`GameState` from players and options;
the state's ``pending`` is a decision (who acts, ``legal`` lists the choices), a table request
from ``rattus_net.engine.table`` (answered by a table: chance and hidden faces) or ``None``
when the game is over; ``apply`` plays a move; ``view`` is what one seat may know; moves have
a text form (``parse_move``/``format_move``, a parse/print pair) and the end an
:class:`Outcome` with a scoring breakdown. The shared machinery (records, bots' plumbing,
commands) takes a game through this interface; ``rattus_net.games`` maps names to games.

The network table (``protocol/``) needs more of a game than the local stack does: how its
configuration and moves travel as plain values, which face codes a masked card or token may
hold, which moves hide a part until later and how to replay a finished game face by face for
the verifier. That is :class:`SecureGame`, reached through ``GameDefinition.secure()``.

The network stack (``rattus_net/net/``: the lobby, the table, its words) names no game either:
what it needs of one beside :class:`SecureGame` is here too: which of the lobby's options the
game plays and whether their values are good (``table_options``, ``check_table_options``), the
configuration a started lobby agrees on (``network_config``), a progress line for the headless
commands (``progress``) and the table's words for a seat (``table_words``: :class:`TableWords`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

WireValue: TypeAlias = (
    bool
    | int
    | str
    | bytes
    | list["WireValue"]
    | tuple["WireValue", ...]
    | dict[str, "WireValue"]
    | None
)
"""A value msgpack carries (the same shape as ``protocol.wire.WireValue``)."""


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


class TableOptionError(ValueError):
    """A table option's value that the game refuses (the message says which and why)."""


class TableWords(Protocol):
    """What a network table says of one game, for one seat."""

    things: str
    """What the table masks, shuffles and reveals ("cards", "tokens")."""

    def lines(self, view: Any, start: int) -> list[str]:
        """The view's log from event ``start`` on, in sentences (called in order, once per
        event: a narrator may keep what it needs across calls)."""
        ...

    def decision(self, view: Any) -> str:
        """The decision the view's seat must take, as a short sentence ("place 2 start
        cubes.")."""
        ...


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
    table_options: frozenset[str] = frozenset()
    """The lobby's options this game plays (by their names in ``check_table_options``); the
    lobby sets every other option back to its default at a table of this game."""

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

    def secure(self) -> SecureGame:
        """The game as the network table plays it (see :class:`SecureGame`)."""
        raise NotImplementedError(f"{self.title} cannot be played over the network yet")

    def check_table_options(self, options: Mapping[str, Any]) -> None:
        """Raise :class:`TableOptionError` if one of this game's options (``table_options``)
        has a value it cannot play; ``options`` maps the lobby's option names to values."""
        return None  # (a game without options of its own has none to refuse)

    def network_config(
        self, players: Sequence[str], colours: Sequence[str], options: Mapping[str, Any]
    ) -> Any:
        """The configuration of a network table of this game, agreed by every seat from the
        started lobby: the players and their colours in seat order and the lobby's options
        (checked by ``check_table_options``). The ``secure()`` game plays it."""
        raise NotImplementedError(f"{self.title} cannot be played over the network yet")

    def progress(self, game: Any) -> tuple[int, str]:
        """How far ``game`` has come: a number that grows with each round (0 before the
        first) and the line that says so ("round 2 of 6"), for the headless commands."""
        raise NotImplementedError

    def table_words(self, names: Sequence[str], seat: int) -> TableWords:
        """The default words of a network table of this game for ``seat`` (``names``
        already safe to show)."""
        raise NotImplementedError(f"{self.title} cannot be played over the network yet")

    def settle(self, game: Any, table: Any) -> None:
        """Let ``table`` answer requests until a player must act or the game is over."""
        while game.pending is not None and not game.to_act():
            table.answer(game)


class WireError(ValueError):
    """A configuration or move received from another peer is malformed."""


@dataclass(frozen=True)
class OpenedGame:
    """A finished secure game with every face known (the peers published their keys): what
    a game needs to write and replay its face-level record for the verifier.

    ``public`` is the public engine at the end; ``faces`` the face of every masked handle;
    ``shuffles`` each shuffled pile in order with the faces of its handles (top first);
    ``openings`` the handles opened for each move with a hidden part, by move index;
    ``randoms`` the public random numbers, in order."""

    config: Any
    public: Any
    faces: Mapping[int, int]
    shuffles: Sequence[tuple[str, tuple[int, ...]]]
    openings: Mapping[int, tuple[int, ...]]
    randoms: Sequence[int] = ()


class SecureGame(ABC):
    """What the network table needs of a game (``protocol/`` uses nothing else of it).

    * **Parameters.** The agreed configuration (players and options) travels as a map of plain
      values (``config_to_wire``/``config_from_wire``, a parse/print pair); the game it names
      is built by ``new_game`` for the public engine and for each peer's own engine.
      ``secure_config`` adjusts a configuration for secure play (Rattus Cartus mixes hands).
    * **Faces.** Every card or token face is an int; ``face_codes`` lists those a masked
      handle may hold, each gets a group point, so a handle decrypts to exactly one face.
    * **Moves.** The public form of a move (``public_move``: the move every peer may see, with
      handles for the cards it names, and its hidden handles if it has a hidden part) and its
      wire form (``move_to_wire``/``move_from_wire``, a parse/print pair of the public move).
      A move with a **hidden part** (Rattus Cartus's face-down plays) is sent with a salted
      commitment to the hidden handles and opened when the game asks ``Open(seat, n)``.
    * **Committed decisions.** A decision several seats take at once (``committed``: Rattus
      Cartus's simultaneous supply choice) is committed by each first, then all are opened,
      so nobody chooses knowing another's choice; ``check_committed`` checks one alone.
    * **Result.** ``result_summary`` of a finished game (what records store and the verifier
      compares); ``face_replay`` writes and replays the face-level record of a finished game.
    """

    name: str
    drawn_piles: frozenset[str] = frozenset()
    """Piles whose faces are public once turned up: drawn by commit-reveal, never masked."""

    def players(self, config: Any) -> tuple[str, ...]:
        return tuple(config.players)

    @abstractmethod
    def face_codes(self) -> Sequence[int]:
        """Every face code a masked card or token may hold (each gets a group point)."""

    @abstractmethod
    def config_to_wire(self, config: Any) -> dict[str, WireValue]:
        """The configuration as plain values (players included)."""

    @abstractmethod
    def config_from_wire(self, value: Mapping[str, WireValue]) -> Any:
        """The configuration ``value`` names, for secure play; ``WireError`` if malformed."""

    def secure_config(self, config: Any) -> Any:
        """``config`` as a secure game plays it (unchanged by default)."""
        return config

    @abstractmethod
    def new_game(self, config: Any) -> Any:
        """A new game (public or own engine) for ``config``."""

    def public_move(self, game: Any, seat: int, move: Any) -> tuple[Any, tuple[int, ...] | None]:
        """The public form of ``seat``'s ``move`` in ``game`` (its own engine) and the handles
        of its hidden part (``None``: the move hides nothing). By default moves are public."""
        return move, None

    @abstractmethod
    def move_to_wire(self, move: Any, commitment: bytes | None = None) -> dict[str, WireValue]:
        """The wire form of a public move (with the commitment of its hidden part, if any)."""

    @abstractmethod
    def move_from_wire(self, value: WireValue) -> tuple[Any, bytes | None]:
        """The public move (and its commitment) ``value`` names; ``WireError`` if malformed.
        A move with a hidden part must carry a commitment, any other none."""

    def committed(self, game: Any) -> bool:
        """True if the pending decision is taken by its seats at once (commit, then open)."""
        return False

    def check_committed(self, game: Any, seat: int, move: Any) -> None:
        """Raise ``IllegalMove`` if ``seat`` may not commit ``move`` now."""
        raise NotImplementedError

    def hand_handles(self, move: Any, opened: tuple[int, ...]) -> tuple[int, ...]:
        """The handles a public move takes from its player's hand (``opened``: those of its
        hidden part), for the linkage audit; none by default."""
        return ()

    @abstractmethod
    def result_summary(self, game: Any) -> dict[str, Any]:
        """The result of a finished game, as records store it."""

    @abstractmethod
    def face_replay(self, opened: OpenedGame) -> tuple[Any, dict[str, Any]]:
        """The face-level record of a finished secure game (it has ``replay(upto)`` and
        ``dumps()``) and the result of replaying it."""

    @abstractmethod
    def verdict_lines(
        self, checks: Mapping[str, int], result: Mapping[str, Any] | None
    ) -> list[str]:
        """What ``rattus verify`` says of a record of this game below its headline and seats:
        the proofs it checked, only the counts that apply to this game (``checks``: the
        verifier's counts by name: ``messages``, ``shuffles_verified``, ``mixes_verified``,
        ``shares_verified``, ``draws``, ``randoms``), and, for a fair finished game, its
        ``result`` (as ``result_summary`` gives it) in words a player reads. Plain lines,
        names from the record as they are: the verifier makes every line safe to print."""
