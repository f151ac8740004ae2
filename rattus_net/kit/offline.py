"""A game against bots on this machine, any game: one human seat, bots at the others, saved as
it goes.

:class:`OfflineTable` is what a front end plays an offline game through (the TUI's table
screens; no Textual here, so it is tested on its own). The front end reads ``view`` (the
human's seat view) and nothing else of the game, and sends the human's move with
:meth:`~OfflineTable.play`, then lets the others act with :meth:`~OfflineTable.advance`, which
plays the table and the bots until the human must decide again or the game is over. Slow bots
think there: a front end runs ``advance`` off its screen's loop (a worker thread) unless
``quick_bots`` says a thread would cost more than they do, and must not read the game while it
runs. The game is saved (``saves.py``) whenever the human is awaited, and meanwhile when slow
bots take long, so that a crash costs nothing played.

Each game supplies only its parts through the game interface: its configuration from the
option values, its bots, views, record and words (``GameDefinition.table_words``, or a front
end's own words for the log: ``words``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from rattus_net.kit.errors import RattusNetError, SetupError
from rattus_net.kit.interface import BOT_KINDS, BOT_NAMES, AnyGame, Bot, Table, TableWords
from rattus_net.kit.local import LocalTable
from rattus_net.kit.options import OptionValue
from rattus_net.kit.registry import get_game
from rattus_net.kit.saves import SavedGame, SaveError, SaveWriter, save_body, save_writer
from rattus_net.kit.undo import TurnSteps, UndoRefused

HUMAN_NAME = "You"

CHECKPOINT_SECONDS = 1.0
"""While the bots play after a human move, the game is saved again once they have been at it
this long (slow bots: a crash then does not cost the human's move); otherwise the game is
saved once per human decision, when the human is awaited again."""

QUICK_BOTS = frozenset({"random", "heuristic"})
"""Bots that decide in a few milliseconds (measured for both games: under 1 ms at the median,
under 10 ms at most): a front end may let them play on its own loop, without a thread."""

WordsFactory = Callable[[Sequence[str], int], TableWords]
"""Words for the log of a table: from the players' names (as shown) and the human's seat."""
Shown = Callable[[str], str]
"""How a name from elsewhere (a save, another peer) is shown."""

V = TypeVar("V")
M = TypeVar("M")


def default_bot_kind(kinds: Sequence[str] = BOT_KINDS) -> str:
    """The bots a player gets unless he chooses, among ``kinds`` (a game's ``bot_kinds``):
    the heuristic ones if there are (strong enough, and quick), else the first kind."""
    return "heuristic" if "heuristic" in kinds else kinds[0]


@dataclass(frozen=True, slots=True)
class OfflineSetup:
    """What the menu (or ``rattus play``) chose for a game against bots: the game, the number
    of players, the bots' kind, the seed (``None``: a fresh game each time), the game's option
    values (``rattus play``'s defaults for those left out) and the human's name and seat."""

    game: str
    players: int = 3
    bots: str = "random"
    seed: int | None = None
    values: Mapping[str, OptionValue] = field(default_factory=dict)
    human_name: str = HUMAN_NAME
    human_seat: int = 0


class OfflineTable(Generic[V, M]):
    """One offline game: the human at ``seat``, bots elsewhere (``V`` its views, ``M`` its
    moves). Made by :meth:`new` or :meth:`continued`."""

    network = False

    def __init__(
        self,
        definition: AnyGame,
        names: Sequence[str],
        seat: int,
        bots: str,
        *,
        seed: int | None = None,
        values: Mapping[str, OptionValue],
        start: tuple[Any, Table],
        save_to: Path | None = None,
        words: WordsFactory | None = None,
        shown: Shown = str,
    ) -> None:
        """``start``: the game (a :class:`~rattus_net.kit.interface.GameState`) and its local
        table; ``names`` its players; ``values`` the option values it was set up with (its
        record is written with them). With ``save_to`` the game is saved there (by the save's
        own writer thread). ``shown`` makes a name fit to show (a terminal's front end makes
        control characters visible: a saved game may name anybody)."""
        if bots not in definition.bot_kinds:
            kinds = ", ".join(definition.bot_kinds)
            raise SetupError(f"unknown bot {bots!r}; choose one of {kinds}")
        self.definition = definition
        self.seat = seat
        self.bot_kind = bots
        self.values = dict(values)
        self.game, self.table = start
        self._names = tuple(names)
        self.names = tuple(shown(n) for n in names)
        """The players' names as shown."""
        self.save_to = save_to
        self.saver: SaveWriter | None = None if save_to is None else save_writer(save_to)
        self.clock: Callable[[], float] = time.monotonic
        self.bots: dict[int, Bot[V, M]] = {
            s: definition.make_bot(bots, None if seed is None else seed * 101 + s)
            for s in range(len(names))
            if s != seat
        }
        self.words: TableWords = (words or definition.table_words)(self.names, seat)
        self.steps: TurnSteps[M] = TurnSteps(seat)
        """The human's steps of this turn that ``u`` may take back (``undo.py``)."""
        self._read = 0  # log events already told
        self._notes: list[str] = []  # lines for the log that no event tells (a step undone)
        self._unsaved: str | None = None  # why the game could not be put in a save
        self._said_problem: str | None = None

    # --- making one ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        setup: OfflineSetup,
        *,
        save_to: Path | None = None,
        words: WordsFactory | None = None,
        shown: Shown = str,
        advance: bool = True,
    ) -> OfflineTable[Any, Any]:
        """A new game of ``setup``. Raises ``SetupError`` (a ``ValueError``) for options the
        game cannot start with, before anything is played. ``advance``: let the bots and the
        table play up to the human's first decision now (else leave it to :meth:`advance`,
        which a front end runs off its screen's loop)."""
        definition = get_game(setup.game)
        n = setup.players
        if not definition.min_players <= n <= definition.max_players:
            raise SetupError(
                f"{definition.title} is for {definition.min_players} to "
                f"{definition.max_players} players"
            )
        if not 0 <= setup.human_seat < n:
            raise SetupError("the human's seat is not at the table")
        values = definition.options.complete(setup.values, "play")
        bot_names = iter(BOT_NAMES)
        names = tuple(
            setup.human_name if s == setup.human_seat else next(bot_names) for s in range(n)
        )
        game = definition.new_game(definition.configure(names, values))
        table = definition.local_table(setup.seed)
        offline: OfflineTable[Any, Any] = cls(
            definition,
            names,
            setup.human_seat,
            setup.bots,
            seed=setup.seed,
            values=values,
            start=(game, table),
            save_to=save_to,
            words=words,
            shown=shown,
        )
        if advance:
            offline.advance()
            offline.wait_saved()
        return offline

    @classmethod
    def continued(
        cls,
        saved: SavedGame,
        *,
        save_to: Path | None = None,
        words: WordsFactory | None = None,
        shown: Shown = str,
    ) -> OfflineTable[Any, Any]:
        """The saved game, replayed to where it stopped (``SaveError`` if it cannot be).
        Chance from now on is fresh: the record fixes what was decided, not what comes."""
        game, table = saved.replay()
        if isinstance(table, LocalTable):
            table.rng.seed(random.SystemRandom().randrange(2**63))
        try:
            return cls(
                saved.definition,
                saved.names,
                saved.human_seat,
                saved.bots,
                values=saved.values,
                start=(game, table),
                save_to=save_to,
                words=words,
                shown=shown,
            )
        except RattusNetError as exc:
            raise SaveError(f"the saved game cannot be continued: {exc}") from None

    # --- what the front end reads -------------------------------------------------------------

    @property
    def game_name(self) -> str:
        return self.definition.name

    @property
    def view(self) -> V:
        """What the human's seat may know now (a new view of the game each time)."""
        view: V = self.definition.view(self.game, self.seat)
        return view

    @property
    def my_turn(self) -> bool:
        return self.seat in self.game.to_act()

    @property
    def is_over(self) -> bool:
        return bool(self.game.is_over)

    @property
    def undoable(self) -> bool:
        """A step of the human's turn may be taken back now (:meth:`undo`)."""
        return self.my_turn and bool(self.steps.moves)

    @property
    def quick_bots(self) -> bool:
        """The bots decide in a few milliseconds (no thread needed to keep a screen
        responsive while they play)."""
        return self.bot_kind in QUICK_BOTS

    @property
    def save_problem(self) -> str | None:
        """Why the last save failed, if it did."""
        if self._unsaved is not None:
            return self._unsaved
        return None if self.saver is None else self.saver.problem

    # --- driving ------------------------------------------------------------------------------

    def play(self, move: M) -> None:
        """Only the human's move (raises ``IllegalMove`` and changes nothing if illegal); call
        :meth:`advance` next, for instance in a worker thread while slow bots think."""
        self.steps.play(self.game, move)

    def undo(self) -> str:
        """Take back the human's last step of his turn (see ``undo.py``): the game is as it
        was before it, and saved so. Returns the line that says so; ``UndoRefused`` (nothing
        changed) if no step may be taken back. Bots never undo. The line is also the log's
        next one."""
        if not self.my_turn:
            raise UndoRefused("Nothing to take back: it is not your turn.")
        game, move = self.steps.undo()
        self.game = game
        self._read = min(self._read, len(game.log))  # (the log lost the step's events)
        self._save()  # an undone step must not come back with the save
        self.wait_saved()
        line = f"Step taken back: {self.definition.format_move(move)}."
        self._notes.append(line)
        return line

    def advance(self) -> None:
        """Let the table and the bots act until the human must decide or the game ends; then
        save the game, if it is saved (once; again meanwhile only if the bots take long)."""
        game = self.game
        since = self.clock()
        while not game.is_over:
            acting = game.to_act()
            if not acting:
                self.table.answer(game)
                continue
            bots = [s for s in acting if s != self.seat]
            if not bots:
                break  # only the human is awaited
            seat = bots[0]
            game.apply(seat, self.bots[seat].choose(self.definition.view(game, seat)))
            if self.clock() - since >= CHECKPOINT_SECONDS:  # slow bots: keep what was played
                self._save()
                since = self.clock()
        self._save()

    def apply(self, move: M) -> None:
        """:meth:`play` and :meth:`advance`; the game is saved before this returns."""
        self.play(move)
        self.advance()
        self.wait_saved()

    def _save(self) -> None:
        """Hand the game to the save's writer (it writes on its own thread)."""
        if self.saver is None:
            return
        try:
            body = save_body(
                self.definition,
                self.game,
                self.table,
                names=self._names,
                bots=self.bot_kind,
                human_seat=self.seat,
                values=self.values,
            )
        except (RattusNetError, OSError) as exc:  # (a components file gone meanwhile...)
            self._unsaved = f"The game cannot be saved ({exc})."
            return
        self._unsaved = None
        self.saver.submit(body)

    def wait_saved(self) -> None:
        """Return once the game's last state handed over is saved (or could not be)."""
        if self.saver is not None:
            self.saver.wait()

    # --- words --------------------------------------------------------------------------------

    def new_log_lines(self) -> list[str]:
        """What happened since the last call, in words, as the human may know it (and a
        save that failed, once)."""
        start = self._read
        self._read = len(self.game.log)
        lines, self._notes = self._notes, []
        lines += self.words.lines(self.view, start)
        problem = self.save_problem
        if problem is not None and problem != self._said_problem:
            lines.append(problem)
        self._said_problem = problem
        return lines

    def awaited(self) -> str:
        """Who must do what now, in words."""
        if self.game.is_over:
            return "The game is over."
        acting = self.game.to_act()
        if not acting:
            return "The table is working."
        if self.seat in acting:
            return "Your turn: " + self.words.decision(self.view)
        return f"Waiting for {', '.join(self.names[s] for s in acting)}."


__all__ = [
    "CHECKPOINT_SECONDS",
    "HUMAN_NAME",
    "QUICK_BOTS",
    "OfflineSetup",
    "OfflineTable",
    "Shown",
    "WordsFactory",
    "default_bot_kind",
]
