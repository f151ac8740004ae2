"""A game read back step by step, any game: what the replay viewer shows.

A :class:`Replay` is a finished (or stopped) game as a sequence of :class:`Step`: the start,
then each move with what the table did after it (cards dealt, tokens turned up: until a
player must decide again), each with a copy of the game after it. Steps are grouped in
turns (a turn starts at a move of another seat than the move before) and rounds (the game's
own ``progress`` number). The game after a step is seen as one seat saw it (``view(i,
seat)``: the game's own seat view) or as everything the game knows (``view(i,
EVERYTHING)``: every face the game or its table knows, shown to the first seat; a face-level
record knows every face, the public engine of a network game that stopped knows only what
was revealed). The log lines of each step are the game's own narration, asked of words made
for the viewpoint (:meth:`Replay.lines`).

Reading a face-level record is here (:func:`replay_record`); a signed network record is read
by the protocol's side (``rattus_net/replays.py``) into the same steps. No I/O: the model
reads the text or bytes it is given, and every problem is a ``RecordError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rattus_net.kit.errors import IllegalMove, RattusNetError, RecordError, SetupError
from rattus_net.kit.interface import AnyGame, GameRecordLike, TableWords
from rattus_net.kit.local import LocalTable
from rattus_net.kit.options import OptionValues

EVERYTHING = -1
"""The viewpoint that sees every face the record knows."""

WordsFor = Callable[[Sequence[str], int], TableWords]
"""Words for a log, from the players' names and the seat whose log it is."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a replay: ``state`` is a copy of the game after it (never played on),
    where a player must decide or the game is over."""

    index: int
    seat: int | None
    """Who moved (``None``: the start)."""
    text: str
    """The move as ``"Name: move"`` (or the moves, if several were played before a
    player had to decide again: a record that stops mid-way)."""
    turn: int
    """The turn it belongs to (0: the setup, before the first move)."""
    round: int
    """How far the game had come (``GameDefinition.progress``'s number)."""
    state: Any


class Replay:
    """The steps of one game (see the module's docstring), built by :class:`StepsBuilder`."""

    def __init__(
        self,
        definition: AnyGame,
        steps: Sequence[Step],
        *,
        note: str | None = None,
        faces: Mapping[int, int] | None = None,
    ) -> None:
        """``faces``: the face of every piece the table knew (a local table knows them all,
        those never turned up too: the nun row, the deck); everything shows them."""
        if not steps:
            raise RecordError("a replay needs at least its start")
        self.definition = definition
        self.steps = tuple(steps)
        self.note = note
        """Why only part of the game is known (a network game that stopped), if so."""
        self.names: tuple[str, ...] = tuple(steps[0].state.config.players)
        self.faces = dict(faces or {})
        self._lines: dict[tuple[int, int], list[list[str]]] = {}
        self._everything: dict[int, Any] = {}

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def turns(self) -> int:
        return self.steps[-1].turn

    @property
    def rounds(self) -> int:
        return self.steps[-1].round

    # --- seeing a step ------------------------------------------------------------------------

    def state(self, index: int, viewpoint: int) -> Any:
        """The game after step ``index`` as ``viewpoint`` sees it (a seat, or everything)."""
        state = self.steps[index].state
        if viewpoint != EVERYTHING:
            return state
        seeing = self._everything.get(index)
        if seeing is None:
            seeing = _all_seen(state, self.faces)
            self._everything[index] = seeing
        return seeing

    def view(self, index: int, viewpoint: int) -> Any:
        """The seat view after step ``index``: ``viewpoint``'s, or for everything the first
        seat's, told every face the game knows."""
        seat = 0 if viewpoint == EVERYTHING else viewpoint
        return self.definition.view(self.state(index, viewpoint), seat)

    def lines(
        self, viewpoint: int, words: WordsFor | None = None, you: int | None = None
    ) -> list[list[str]]:
        """The log lines each step added, as ``viewpoint`` read them (for everything: the
        public log, without any seat's private events), in the game's words (``words``; by
        default its table words). ``you``: the seat the replay's owner played, the only one
        told as "you" whatever the viewpoint (``None``: nobody; seen as another seat, that
        seat's moves are told with its name). Told once, in order, and kept."""
        key = (viewpoint, -1 if you is None else you)
        known = self._lines.get(key)
        if known is not None:
            return known
        narrator = (words or self.definition.table_words)(self.names, key[1])
        out: list[list[str]] = []
        start = 0
        for i in range(len(self.steps)):
            # (everything: the view of no seat (-1), which holds no private event)
            seat = -1 if viewpoint == EVERYTHING else viewpoint
            view = self.definition.view(self.state(i, viewpoint), seat)
            out.append(narrator.lines(view, start))
            start = view.log_size
        self._lines[key] = out
        return out

    def tie_break(self, index: int, names: Sequence[str], you: int | None = None) -> str | None:
        """At a step where the game is over and a tie for the win was broken: the winner, who
        tied and what decided, in the words of the game's report (``names`` as they may be
        shown; ``you``: as in :meth:`lines`); otherwise ``None``."""
        state = self.steps[index].state
        if not state.is_over:
            return None
        return self.definition.tie_break(state, names, you)

    # --- moving -------------------------------------------------------------------------------

    def turn_start(self, index: int) -> int:
        """The first step of the turn of step ``index``."""
        turn = self.steps[index].turn
        while index > 0 and self.steps[index - 1].turn == turn:
            index -= 1
        return index

    def next_turn(self, index: int) -> int:
        """The first step of the next turn (the last step if there is none)."""
        turn = self.steps[index].turn
        for step in self.steps[index + 1 :]:
            if step.turn != turn:
                return step.index
        return self.last

    def previous_turn(self, index: int) -> int:
        """The first step of this turn if ``index`` is past it, else of the turn before."""
        start = self.turn_start(index)
        if start < index:
            return start
        return self.turn_start(start - 1) if start > 0 else 0

    def find_turn(self, turn: int) -> int | None:
        """The first step of turn ``turn`` (``None``: no such turn)."""
        return next((s.index for s in self.steps if s.turn == turn), None)

    def find_round(self, number: int) -> int | None:
        """The first step of round ``number`` (``None``: the game never got there)."""
        return next((s.index for s in self.steps if s.round == number), None)

    def where(self, index: int) -> str:
        """``step 12/340, turn 5/97, round 2`` for the viewer's status line."""
        step = self.steps[index]
        _, line = self.definition.progress(step.state)
        return f"step {index}/{self.last}  turn {step.turn}/{self.turns}  {line}"


class StepsBuilder:
    """Collects a replay's steps as a game is played forward: :meth:`move` after each move,
    :meth:`settled` whenever the table may have answered. A step is taken where a player
    must decide (or the game is over): in between, while the table deals, turns up or mixes
    pieces, the game holds pieces no view is made to show, and what the table did belongs
    to the move that asked for it."""

    def __init__(self, definition: AnyGame, start: Any) -> None:
        self.definition = definition
        self.steps: list[Step] = []
        self._turn = 0
        self._last_seat: int | None = None
        self._moves: list[tuple[int, str]] = []  # played, their step not taken yet
        self._started = False
        self.settled(start)

    def move(self, seat: int, text: str) -> None:
        """A move of ``seat`` (``text``: its ``"Name: move"`` line) was played."""
        self._moves.append((seat, text))

    def settled(self, state: Any) -> None:
        """Take the step of the moves played since the last one, if ``state`` awaits a
        player or is over; else (and before the first move: the setup) the last step
        becomes ``state``."""
        if not (state.is_over or state.to_act()):
            return
        number, _ = self.definition.progress(state)
        if not self._moves:
            if self.steps:
                last = self.steps[-1]
                if last.index == 0:  # (the setup goes on until the first decision)
                    self.steps[0] = Step(0, None, last.text, 0, number, state.clone())
                return
            self.steps.append(Step(0, None, "The game is set up.", 0, number, state.clone()))
            return
        seat = self._moves[-1][0]
        if seat != self._last_seat:
            self._turn += 1
        self._last_seat = seat
        text = "; ".join(t for _, t in self._moves)
        self._moves.clear()
        self.steps.append(Step(len(self.steps), seat, text, self._turn, number, state.clone()))

    def replay(self, note: str | None = None, faces: Mapping[int, int] | None = None) -> Replay:
        return Replay(self.definition, self.steps, note=note, faces=faces)


def play_steps(
    definition: AnyGame, game: Any, table: Any, moves: Sequence[tuple[int, Any]]
) -> Replay:
    """The steps of ``moves`` played on ``game`` (at its start, settled) with its local
    ``table`` answering each request; ``RecordError`` naming a move that does not fit."""
    names = tuple(game.config.players)
    steps = StepsBuilder(definition, game)
    for i, (seat, move) in enumerate(moves, 1):
        text = f"{names[seat]}: {definition.format_move(move)}"
        if game.is_over:
            raise RecordError(f"move {i} comes after the end of the game")
        try:
            game.apply(seat, move)
            steps.move(seat, text)
            while game.pending is not None and not game.to_act():
                table.answer(game)
            steps.settled(game)
        except IllegalMove as exc:
            raise RecordError(f"move {i} ({text}) is illegal: {exc}") from None
        except SetupError as exc:
            raise RecordError(f"after move {i}: {exc}") from None
    return steps.replay(faces=table.face_of if isinstance(table, LocalTable) else None)


def replay_record(definition: AnyGame, text: str, values: OptionValues) -> Replay:
    """The steps of a face-level record (``read_record``'s text) of ``definition``."""
    return replay_of(definition, definition.read_record(text, values))


def replay_of(definition: AnyGame, record: GameRecordLike) -> Replay:
    """The steps of a game's face-level record (read, or written by the verifier)."""
    try:
        end, _ = record.replay()
        game, table = record.replay(0)
    except RecordError:
        raise
    except RattusNetError as exc:
        raise RecordError(f"the record cannot be replayed: {exc}") from None
    return play_steps(definition, game, table, list(end.history))


def _all_seen(state: Any, faces: Mapping[int, int]) -> Any:
    """A copy of ``state`` in which the first seat has seen every piece whose face the game
    or its table knows (what other seats hold in hand, the viewer shows seat by seat)."""
    seeing = state.clone()
    seeing.faces = {**faces, **seeing.faces}
    seeing.seen[0] = set(seeing.seen[0]) | set(seeing.faces)
    return seeing


__all__ = [
    "EVERYTHING",
    "Replay",
    "Step",
    "StepsBuilder",
    "WordsFor",
    "play_steps",
    "replay_of",
    "replay_record",
]
