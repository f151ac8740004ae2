"""The interface every game of Rattus Net plugs into (OpenSpiel is the model).

A game is a :class:`GameDefinition`, typed by its configuration, state, move and seat view.
It sets up a configuration from players and option values (``configure``; the options are
declared once, ``options``) and a state from it (``new_game``); the state's ``pending`` is a
decision (who acts, ``legal`` lists the choices), a table request (``table.py``: answered by
a table, which holds chance and hidden faces) or ``None`` when the game is over; ``apply``
plays a move; ``view`` is what one seat may know; moves have a text form
(``parse_move``/``format_move``, a parse/print pair); the end an :class:`Outcome`. A game
registers itself (``registry.py``); the shared machinery (the commands, records, bots'
plumbing, self-play, the network table, the lobby) takes every game through this interface
and names none.

The network table (``protocol/``) needs more of a game: how its configuration and moves travel
as plain values, which face codes a masked piece may hold, which moves hide a part until later
and how to replay a finished game face by face for the verifier. That is :class:`SecureGame`,
reached through ``GameDefinition.secure()``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Generic, Protocol, TypeAlias, TypeVar

from rattus_net.kit.chance import Chance, ChanceSource
from rattus_net.kit.errors import RecordError
from rattus_net.kit.gametype import GameType
from rattus_net.kit.options import OptionSchema, OptionValue, OptionValues

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
"""A value msgpack carries: what can travel on the wire (``protocol.wire`` takes it from here)."""

BOT_KINDS = ("random", "heuristic", "search")
"""The bots every game offers, weakest first (the TUI calls them easy, normal and hard)."""

BOT_NAMES = ("Agnes", "Bertram", "Cecily", "Dietrich", "Elsbeth")
"""The names bots sit down with (offline seats, and bot seats a host adds to a network table)."""

ConfigT = TypeVar("ConfigT")
StateT = TypeVar("StateT", bound="GameState[Any]")
MoveT = TypeVar("MoveT")
MoveT_contra = TypeVar("MoveT_contra", contravariant=True)
ViewT = TypeVar("ViewT", bound="SeatViewLike")
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
MoveT_co = TypeVar("MoveT_co", covariant=True)
StateT_contra = TypeVar("StateT_contra", contravariant=True)


class GameState(Protocol[MoveT_contra]):
    """A game in progress, driven from outside (``machine.Machine`` is the kit's)."""

    n: int

    @property
    def pending(self) -> object:
        """A decision, a table request or ``None`` (over)."""
        ...

    @property
    def is_over(self) -> bool: ...

    def to_act(self) -> tuple[int, ...]:
        """The seats that may decide now (empty while the table must answer)."""
        ...

    def apply(self, player: int, move: MoveT_contra) -> None:
        """Play a move; raises an ``IllegalMove`` and changes nothing if it is not legal."""
        ...

    def answer(self, value: object) -> None:
        """Answer the pending table request."""
        ...


class SeatViewLike(Protocol):
    """What the kit needs of a seat's view (``view.SeatView`` is the kit's)."""

    @property
    def seat(self) -> int: ...


class Bot(Protocol[ViewT_contra, MoveT_co]):
    """A player that decides from its seat's view only."""

    kind: str

    def choose(self, view: ViewT_contra) -> MoveT_co:
        """A legal move for ``view.seat``, which must act now."""
        ...


class Table(Protocol):
    """Answers table requests; a local table knows every face and keeps what it decided."""

    chance: Chance

    def answer(self, game: Any) -> None: ...


class GameRecordLike(Protocol):
    """A game's face-level record (its ``"Name: move"`` lines and what it fixes)."""

    def replay(self, upto: int | None = None) -> tuple[Any, Any]:
        """The game where the record (its first ``upto`` moves) stops, and its table."""
        ...

    def dumps(self) -> str: ...


@dataclass(frozen=True)
class Budget:
    """How long a searching bot may think per decision: ``seconds`` (wall time) and/or
    ``iterations`` (deterministic, for tests); neither: the bot's default time."""

    seconds: float | None = None
    iterations: int | None = None


NO_BUDGET = Budget()
"""A searching bot's default time."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winners, each seat's score and a readable breakdown."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    breakdown: tuple[str, ...]


class TableWords(Protocol):
    """What a network table says of one game, for one seat."""

    things: str
    """What the table masks, shuffles and reveals ("cards", "tokens")."""

    def lines(self, view: Any, start: int) -> list[str]:
        """The view's log from event ``start`` on, in sentences (called in order, once per
        event: a narrator may keep what it needs across calls)."""
        ...

    def decision(self, view: Any) -> str:
        """The decision the view's seat must take, as a short sentence."""
        ...


class SelfplayWords(Protocol[StateT_contra]):
    """How ``rattus selfplay`` reports a game's results (``rattus_net/selfplay.py`` plays,
    times and writes the records; the game says what its results were and adds them up)."""

    def add(self, game: StateT_contra) -> dict[str, object]:
        """Count a finished game in the summary; its result as the JSON output lists it
        (names, not seats)."""
        ...

    def line(self, entry: Mapping[str, Any]) -> str:
        """The end of a game's line, from its result (``VP  3 12 ...  winner: ...``)."""
        ...

    def summary(self, labels: Sequence[str]) -> dict[str, Any]:
        """What the games added up to, per seat (``labels``: ``seat 1 (random)``...)."""
        ...

    def summary_lines(self, labels: Sequence[str]) -> list[str]:
        """The summary for people, below the throughput line."""
        ...


class GameDefinition(ABC, Generic[ConfigT, StateT, MoveT, ViewT]):
    """A game of Rattus Net, behind the interface the shared stack uses."""

    name: str
    """Its name on the command line, in records, parameters and adverts (``cartus``)."""
    title: str
    min_players: int
    max_players: int
    order: int = 100
    """Where the menu lists it (smallest first); the first is the default game."""
    options: OptionSchema = OptionSchema()
    """The game's own options (``options.py``)."""
    bot_kinds: tuple[str, ...] = BOT_KINDS
    game_type: GameType = GameType()
    """What the game is, as data (``gametype.py``); the properties below read it."""

    @property
    def named_in_formats(self) -> bool:
        """Whether its face-level records carry its name (``GameType.records_named``)."""
        return self.game_type.records_named

    @property
    def network_play(self) -> bool:
        """Whether its tables can be played on the network (``GameType.network_play``)."""
        return self.game_type.network_play

    @property
    def network_version(self) -> int:
        """The version of its moves at a network table (``GameType.network_version``)."""
        return self.game_type.network_version

    @property
    def turns_of_steps(self) -> bool:
        """Whether a turn can be several decisions (``GameType.turns_of_steps``)."""
        return self.game_type.turns_of_steps

    # --- setting up and playing -------------------------------------------------------------

    @abstractmethod
    def configure(self, players: Sequence[str], values: OptionValues) -> ConfigT:
        """The configuration of a game for ``players`` (seat order) with the option values
        ``values`` (checked by ``options``; missing ones at their defaults). ``SetupError``
        if the game cannot start so."""

    @abstractmethod
    def new_game(self, config: ConfigT) -> StateT:
        """A new game (a :class:`GameState`) of ``config``."""

    @abstractmethod
    def local_table(self, seed: int | None, chance: ChanceSource | None = None) -> Table:
        """A table that knows every face, its chance seeded by ``seed`` (or ``chance``)."""

    @abstractmethod
    def view(self, game: StateT, seat: int) -> ViewT:
        """What ``seat`` may know."""

    @abstractmethod
    def legal(self, game: StateT, seat: int) -> Sequence[MoveT]:
        """The legal moves of ``seat`` now (empty if it is not to act)."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """The move ``text`` names (``MoveSyntaxError`` on text that names none)."""

    @abstractmethod
    def format_move(self, move: MoveT) -> str:
        """The text form of ``move``: ``parse_move(format_move(m)) == m``."""

    @abstractmethod
    def outcome(self, game: StateT) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""

    @abstractmethod
    def make_bot(
        self, kind: str, seed: int | None, budget: Budget = NO_BUDGET
    ) -> Bot[ViewT, MoveT]:
        """A bot of ``kind`` (one of ``bot_kinds``) with its own seeded randomness; the
        ``budget`` bounds a searching bot's thinking per decision."""

    @abstractmethod
    def progress(self, game: StateT) -> tuple[int, str]:
        """How far ``game`` has come: a number that grows with each round (0 before the
        first) and the line that says so ("round 2 of 6"), for the headless commands."""

    # --- records and reports (``rattus replay``, ``rattus selfplay``) -----------------------

    @abstractmethod
    def record_of(self, game: StateT, table: Table, values: OptionValues) -> str:
        """The face-level record (text) of ``game`` played on the local ``table`` with the
        option values ``values``."""

    @abstractmethod
    def read_record(self, text: str, values: OptionValues) -> GameRecordLike:
        """The face-level record ``text`` holds (``RecordError`` saying what is wrong);
        ``values``: the options given with it (Rattus: the components it was played with)."""

    @abstractmethod
    def state_text(self, game: StateT) -> str:
        """Where ``game`` stands, for people (a game replayed from a network record that did
        not end fairly knows only what every seat saw: the text says no more)."""

    @abstractmethod
    def state_dict(self, game: StateT) -> dict[str, Any]:
        """Where ``game`` stands, as JSON-ready values."""

    @abstractmethod
    def selfplay_words(self, players: int) -> SelfplayWords[StateT]:
        """How ``rattus selfplay`` reports this game's results, for games of ``players``."""

    def play_text(
        self, players: int, bots: str, seed: int | None, values: OptionValues,
        stdin: IO[str], out: IO[str],
    ) -> StateT | None:  # fmt: skip
        """A game against bots on a plain-text table (``rattus play`` outside a terminal, or
        when ``plain_table`` says its options ask for it), if the game has one
        (``GameType.text_table``); ``None`` if it has none. ``EOFError`` when ``stdin`` ends
        first."""
        return None

    def plain_table(self, values: OptionValues) -> bool:
        """Whether these option values ask ``rattus play`` for the plain-text table even in a
        terminal."""
        return False

    # --- the network table ------------------------------------------------------------------

    def secure(self) -> SecureGame[ConfigT, StateT, MoveT]:
        """The game as the network table plays it (see :class:`SecureGame`)."""
        raise NotImplementedError(f"{self.title} cannot be played over the network yet")

    def network_config(
        self, players: Sequence[str], colours: Sequence[str], values: OptionValues
    ) -> ConfigT:
        """The configuration of a network table of this game, agreed by every seat from the
        started lobby: the players and their colours in seat order and the table's option
        values (checked by ``options``). The ``secure()`` game plays it."""
        raise NotImplementedError(f"{self.title} cannot be played over the network yet")

    def table_words(self, names: Sequence[str], seat: int) -> TableWords:
        """The default words of a network table of this game for ``seat`` (``names``
        already safe to show)."""
        raise NotImplementedError(f"{self.title} cannot be played over the network yet")

    def tie_break(self, game: StateT, names: Sequence[str], seat: int | None) -> str | None:
        """A finished game whose winner a tie-break decided: the winner, who tied and what
        decided, in the words of the game's report (``names`` as they may be shown; ``seat``:
        who is "you", if anybody); ``None`` otherwise, and for a game without tie-breaks."""
        return None

    def settle(self, game: StateT, table: Table) -> None:
        """Let ``table`` answer requests until a player must act or the game is over."""
        while game.pending is not None and not game.to_act():
            table.answer(game)


AnyGame: TypeAlias = GameDefinition[Any, Any, Any, Any]
"""A game of any kind (the registry holds games of every configuration, state and move)."""


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


class SecureGame(ABC, Generic[ConfigT, StateT, MoveT]):
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

    def players(self, config: ConfigT) -> tuple[str, ...]:
        return tuple(getattr(config, "players"))  # noqa: B009 (every configuration has them)

    @abstractmethod
    def face_codes(self) -> Sequence[int]:
        """Every face code a masked card or token may hold (each gets a group point)."""

    @abstractmethod
    def config_to_wire(self, config: ConfigT) -> dict[str, WireValue]:
        """The configuration as plain values (players included)."""

    @abstractmethod
    def config_from_wire(self, value: Mapping[str, WireValue]) -> ConfigT:
        """The configuration ``value`` names, for secure play; ``WireError`` if malformed."""

    def secure_config(self, config: ConfigT) -> ConfigT:
        """``config`` as a secure game plays it (unchanged by default)."""
        return config

    @abstractmethod
    def new_game(self, config: ConfigT) -> StateT:
        """A new game (public or own engine) for ``config``."""

    def public_move(
        self, game: StateT, seat: int, move: MoveT
    ) -> tuple[Any, tuple[int, ...] | None]:
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

    def committed(self, game: StateT) -> bool:
        """True if the pending decision is taken by its seats at once (commit, then open)."""
        return False

    def check_committed(self, game: StateT, seat: int, move: MoveT) -> None:
        """Raise ``IllegalMove`` if ``seat`` may not commit ``move`` now."""
        raise NotImplementedError

    def hand_handles(self, move: Any, opened: tuple[int, ...]) -> tuple[int, ...]:
        """The handles a public move takes from its player's hand (``opened``: those of its
        hidden part), for the linkage audit; none by default."""
        return ()

    @abstractmethod
    def result_summary(self, game: StateT) -> dict[str, Any]:
        """The result of a finished game, as records store it."""

    @abstractmethod
    def face_record(self, opened: OpenedGame) -> GameRecordLike:
        """The face-level record of a finished secure game (``replay(upto)``, ``dumps()``)."""

    def face_replay(self, opened: OpenedGame) -> tuple[GameRecordLike, dict[str, Any]]:
        """The face-level record of a finished secure game and the result of replaying it."""
        record = self.face_record(opened)
        game, _ = record.replay()
        return record, self.result_summary(game)

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


AnySecureGame: TypeAlias = SecureGame[Any, Any, Any]
"""A secure game of any kind (the protocol plays every game through this interface)."""

__all__ = [
    "BOT_KINDS",
    "BOT_NAMES",
    "NO_BUDGET",
    "AnyGame",
    "AnySecureGame",
    "Bot",
    "Budget",
    "GameDefinition",
    "GameRecordLike",
    "GameState",
    "OpenedGame",
    "OptionValue",
    "Outcome",
    "RecordError",
    "SeatViewLike",
    "SecureGame",
    "SelfplayWords",
    "Table",
    "TableWords",
    "WireError",
    "WireValue",
]
