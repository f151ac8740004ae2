"""The task-stack machine every game's rules run on: driven from outside, one step at a time.

At every moment a game's ``pending`` is one of

- a decision (the game's own class): one or more players must choose (``apply``);
- a table request (``table.py``): the table must shuffle, turn up a face or draw a public
  random number (``answer``);
- ``None``: the game is over and ``result`` holds how it ended.

Pieces (cards, tokens) are *handles*: integers that stand for a physical piece whose face
this engine may or may not know (``faces``). The same rules therefore run on a peer that knows
only its own secrets. The flow of a game is a stack of small tasks (plain functions and their
arguments), which keeps the state copyable for search bots and cheap to advance.

Every public method either succeeds or raises and leaves the state unchanged: a game checks a
move completely before its first change (``_apply``). What the kit does for every game is
here: the stack, answering requests (and keeping the faces a reveal gives), the checks every
move goes through, the log of events, the history of moves and the copy for search.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, Protocol, Self, TypeVar

from rattus_net.kit.errors import GameOver, NotYourTurn, TableMisuse
from rattus_net.kit.table import Open, PublicRandom, Rehandle, TableRequest


class Decided(Protocol):
    """What the kit needs of a game's decision: who may take it now."""

    @property
    def players(self) -> tuple[int, ...]: ...


class Seated(Protocol):
    """What the kit needs of a game's configuration: the players' names, in seat order."""

    @property
    def players(self) -> tuple[str, ...]: ...


class Event(NamedTuple):
    """Something that happened, for logs, narration and bots. ``private_to`` is the only seat
    that may read it (``None``: everybody); ``data`` holds the details in the game's terms."""

    kind: str
    player: int | None
    data: dict[str, Any]
    private_to: int | None = None


Task = tuple[Callable[..., None], tuple[Any, ...]]
"""One step of a game's flow: a function of the game and its arguments."""

ConfigT = TypeVar("ConfigT", bound=Seated)
DecisionT = TypeVar("DecisionT", bound=Decided)
ResultT = TypeVar("ResultT")
MoveT = TypeVar("MoveT")


class InlineTable(Protocol):
    """A table that answers any request at once (see :meth:`Machine.attach`)."""

    def value_for(self, game: Any) -> object:
        """The answer to ``game.pending``."""
        ...


class Machine(ABC, Generic[ConfigT, DecisionT, ResultT, MoveT]):
    """A game's state machine. A game subclasses it, calls ``super().__init__(config)``
    before setting up its own state and :meth:`_start` with its first tasks at the end of its
    ``__init__``; it implements ``is_over`` and :meth:`_apply`.

    ``pending`` tells a table request from a decision by its type: a request is a
    :class:`~rattus_net.kit.table.TableRequest`, a decision is anything else (one check of a
    plain class, quick: a game is driven millions of times in a search)."""

    face_range: range | None = None
    """The faces a reveal may give, when the game checks them (``None``: not checked)."""

    def __init__(self, config: ConfigT) -> None:
        n = len(config.players)
        self.config = config
        self.n = n
        self.faces: dict[int, int] = {}
        """Faces this engine knows, by handle."""
        self.public: set[int] = set()
        """Handles whose face everybody has seen."""
        self.seen: list[set[int]] = [set() for _ in range(n)]
        """Per seat, the handles whose face it was shown privately."""
        self.log: list[Event] = []
        self.history: list[tuple[int, MoveT]] = []
        self.result: ResultT | None = None
        self.pending: DecisionT | TableRequest | None = None
        self._stack: list[Task] = []
        self._inline: InlineTable | None = None
        self._next_handle = 0
        self._random = 0

    def _start(self, *tasks: Task) -> None:
        """Run the game's first ``tasks`` until the first decision or request."""
        self._then(*tasks)
        self._advance()

    # --- driving ----------------------------------------------------------------------------

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended (``result`` is set)."""

    @property
    def decision(self) -> DecisionT | None:
        """The pending decision, or ``None`` when the game waits for the table or is over."""
        p = self.pending
        return None if p is None or isinstance(p, TableRequest) else p

    def to_act(self) -> tuple[int, ...]:
        """The seats that may decide now (empty while the table must answer)."""
        p = self.pending
        return () if p is None or isinstance(p, TableRequest) else p.players

    def name(self, seat: int) -> str:
        return self.config.players[seat]

    def attach(self, table: InlineTable | None) -> None:
        """Let a table that can answer at once (the local table) answer every request inside
        the game's own loop, so that ``pending`` is only ever a decision or ``None``. Saves a
        round trip per piece turned up; a network table, which must wait for peers, is never
        attached."""
        self._inline = table
        self._advance()

    def answer(self, value: object) -> None:
        """Answer the pending table request (``table.py`` says what each one expects)."""
        self._accept(value)
        self._advance()

    def apply(self, player: int, move: MoveT) -> None:
        """Apply a player's decision; raises an ``IllegalMove`` and changes nothing if the
        rules forbid it."""
        d = self.pending
        if d is None or isinstance(d, TableRequest):
            if self.is_over:
                raise GameOver("the game is over")
            raise NotYourTurn("the game is waiting for the table, not for a player")
        if player not in d.players:
            raise NotYourTurn(f"{self.name(player)} is not to decide now")
        self.history.append((player, self._apply(d, player, move)))
        self._advance()

    @abstractmethod
    def _apply(self, d: DecisionT, player: int, move: MoveT) -> MoveT:
        """Check ``move`` against ``d`` (raise ``IllegalMove`` before any change), perform it
        and return the move as the history keeps it."""

    # --- the task stack ---------------------------------------------------------------------

    def _then(self, *tasks: Task) -> None:
        """Schedule tasks to run in the given order, before anything scheduled earlier."""
        if len(tasks) == 1:
            self._stack.append(tasks[0])
        else:
            self._stack.extend(reversed(tasks))

    def _advance(self) -> None:
        stack = self._stack
        inline = self._inline
        while True:
            while self.pending is None and stack:
                fn, args = stack.pop()
                fn(self, *args)
            if inline is None or not isinstance(self.pending, TableRequest):
                return
            self._accept(inline.value_for(self))

    def _t_ask_random(self, bound: int, purpose: str) -> None:
        self.pending = PublicRandom(bound, purpose)

    # --- answers ----------------------------------------------------------------------------

    def _accept(self, value: object) -> None:
        req = self.pending
        if not isinstance(req, TableRequest):
            raise TableMisuse("no table request is pending")
        req.take(self, value)  # (each kind checks and keeps its answer: ``table.py``)
        self.pending = None

    def _open_hidden(self, req: Open, value: object) -> None:
        """Answer an ``Open`` request (a game with face-down plays overrides it)."""
        raise TableMisuse("this game opens no face-down play")

    def _mixed(self, req: Rehandle, value: object) -> None:
        """Answer a ``Rehandle`` request (a game that mixes hands overrides it)."""
        raise TableMisuse("this game mixes no hand")

    # --- helpers ----------------------------------------------------------------------------

    def new_handles(self, count: int) -> tuple[int, ...]:
        start = self._next_handle
        self._next_handle += count
        return tuple(range(start, start + count))

    def emit(
        self, kind: str, player: int | None, private_to: int | None = None, **data: Any
    ) -> None:
        """Log an event (``data`` holds its details)."""
        # tuple.__new__ skips the NamedTuple constructor's keyword handling: events are many.
        self.log.append(tuple.__new__(Event, (kind, player, data, private_to)))

    def clone(self) -> Self:
        """An independent copy (for search): the same state and pending request. Every list,
        set or dict of the state is copied, and so are the lists, sets and dicts it holds
        (a state holds no deeper mutable nesting); the rest (numbers, tuples, frozen values)
        is shared. The copy has no attached table: the table belongs to the real game."""
        g = type(self).__new__(type(self))
        copied = g.__dict__
        for name, value in self.__dict__.items():
            kind = type(value)
            if kind is list:
                if value and type(value[0]) in _CONTAINERS:
                    value = [x.copy() for x in value]
                else:
                    value = value.copy()
            elif kind is dict:
                if value and type(next(iter(value.values()))) in _CONTAINERS:
                    value = {k: v.copy() for k, v in value.items()}
                else:
                    value = value.copy()
            elif kind is set:
                value = value.copy()
            copied[name] = value
        g._inline = None
        return g


_CONTAINERS = (list, set, dict)
