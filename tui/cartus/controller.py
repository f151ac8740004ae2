"""The offline game behind the TUI: a Game, a local table and bots, with one human seat.

No Textual here, so it can be tested on its own. The TUI reads ``controller.view`` (the human's
:class:`~rattus_net.games.cartus.view.PlayerView`) and nothing else of the game, and sends the
human's moves with :meth:`OfflineGame.apply`, which lets the bots and the table act until the human
must decide again or the game is over.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from protocol.safetext import safetext
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.bots import CartusBot as Bot
from rattus_net.games.cartus.bots import make_bot
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move
from rattus_net.games.cartus.narrate import Narrator, decision_words, narrate_view
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.interface import BOT_KINDS
from rattus_net.kit.local import LocalTable
from tui.cartus.saves import SavedGame, save_body
from tui.offline import BOT_NAMES, CHECKPOINT_SECONDS, HUMAN_NAME
from tui.saves import SaveError, SaveWriter, save_writer

# Bots that decide in a few milliseconds (measured: under 1 ms a human decision at the median,
# 5 ms at most, 5 players): the table screen lets them play on its own loop, without a thread.
QUICK_BOTS = frozenset({"random", "heuristic"})


@dataclass(frozen=True, slots=True)
class OfflineOptions:
    """What the menu (or ``rattus play``) chose for an offline game."""

    players: int = 3
    bots: str = "random"
    seed: int | None = None
    buildings: BuildingSelection = field(default_factory=BuildingSelection.first_game)
    human_name: str = HUMAN_NAME
    human_seat: int = 0


class GameController(Protocol):
    """What the table screen and the dialogs need of a game: :class:`OfflineGame` here, or
    :class:`rattus_net.net.netgame.NetworkGame` for a seat at a network table."""

    network: bool

    @property
    def seat(self) -> int: ...
    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def view(self) -> PlayerView: ...
    @property
    def my_turn(self) -> bool: ...
    @property
    def is_over(self) -> bool: ...
    def play(self, move: Move) -> None: ...
    def advance(self) -> None: ...
    def new_log_lines(self) -> list[str]: ...
    def awaited(self) -> str: ...


class OfflineGame:
    """One offline game: the human at ``options.human_seat``, bots elsewhere."""

    network = False

    def __init__(
        self,
        options: OfflineOptions,
        advance: bool = True,
        *,
        save_to: Path | None = None,
        start: tuple[Game, LocalTable] | None = None,
    ) -> None:
        """``advance=False`` leaves the first bot and table steps to a later :meth:`advance`
        (the TUI runs it in a worker thread). With ``save_to``, the game is saved there
        whenever the human is awaited (see :mod:`tui.saves`; the file is written by the save's
        own thread). ``start``: a game under way and its table, to continue
        (:meth:`continued`)."""
        n = options.players
        if not D.MIN_PLAYERS <= n <= D.MAX_PLAYERS:
            raise ValueError(f"Rattus Cartus is for {D.MIN_PLAYERS} to {D.MAX_PLAYERS} players")
        if options.bots not in BOT_KINDS:
            raise ValueError(f"unknown bot {options.bots!r}; choose one of {', '.join(BOT_KINDS)}")
        self.options = options
        self.seat = options.human_seat
        self.save_to = save_to
        self.saver: SaveWriter | None = None if save_to is None else save_writer(save_to)
        self.clock: Callable[[], float] = time.monotonic
        self.bots: dict[int, Bot] = {}
        for s in range(n):
            if s != self.seat:
                bot_seed = None if options.seed is None else options.seed * 101 + s
                self.bots[s] = make_bot(options.bots, bot_seed)
        if start is not None:
            self.game, self.table = start
            self.config = self.game.config
            names = self.config.players
        else:
            bot_names = iter(BOT_NAMES)
            names = tuple(
                options.human_name if s == self.seat else next(bot_names) for s in range(n)
            )
            self.config = GameConfig(names, buildings=options.buildings)
            self.table = LocalTable(options.seed)
            self.game = Game(self.config)
        self.view = PlayerView(self.game, self.seat)
        self._narrator = Narrator(self.names, self.seat)
        self._read = 0  # log events already narrated
        self._said_problem: str | None = None
        if advance:
            self.advance()
            self.wait_saved()

    # --- driving ------------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names as shown (``safetext``: a saved game may name anybody)."""
        return tuple(safetext(n) for n in self.config.players)

    @property
    def my_turn(self) -> bool:
        return self.view.my_turn

    @property
    def quick_bots(self) -> bool:
        """The bots decide in a few milliseconds (no worker thread needed to keep the screen
        responsive)."""
        return self.options.bots in QUICK_BOTS

    @property
    def save_problem(self) -> str | None:
        """Why the last save failed, if it did."""
        return None if self.saver is None else self.saver.problem

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @classmethod
    def continued(cls, saved: SavedGame, save_to: Path | None = None) -> OfflineGame:
        """The saved game, replayed to where it stopped (raises ``SaveError`` if its record
        does not replay). Discard piles shuffled from now on get fresh chance."""
        record = replace(saved.record, seed=random.SystemRandom().randrange(2**63))
        try:
            game, table = record.replay()
        except RattusNetError as exc:
            raise SaveError(f"the saved game does not replay: {exc}") from None
        options = OfflineOptions(
            players=game.n,
            bots=saved.bots,
            buildings=game.config.buildings,
            human_name=game.config.players[saved.human_seat],
            human_seat=saved.human_seat,
        )
        return cls(options, advance=False, save_to=save_to, start=(game, table))

    def advance(self) -> None:
        """Let the table and the bots act until the human must decide or the game ends; then
        save the game, if it is saved (once; again meanwhile only if the bots take long)."""
        game = self.game
        since = self.clock()
        while not game.is_over:
            d = game.decision
            if d is None:
                self.table.answer(game)
                continue
            bots = [s for s in d.players if s != self.seat]
            if not bots:
                break  # only the human is awaited
            seat = bots[0]
            game.apply(seat, self.bots[seat].choose(PlayerView(game, seat)))
            if self.clock() - since >= CHECKPOINT_SECONDS:  # slow bots: keep what was played
                self._save()
                since = self.clock()
        self._save()

    def _save(self) -> None:
        """Hand the game to the save's writer (it writes on its own thread)."""
        if self.saver is not None:
            self.saver.submit(save_body(self.game, self.table, self.options.bots, self.seat))

    def wait_saved(self) -> None:
        """Return once the game's last state handed over is saved (or could not be)."""
        if self.saver is not None:
            self.saver.wait()

    def apply(self, move: Move) -> None:
        """The human's move; raises the engine's ``IllegalMove`` (nothing changes) if the
        rules forbid it. Then the others play until the human is awaited again, and the game
        is saved before this returns (the TUI calls :meth:`play` and :meth:`advance`, which
        does not wait for the save)."""
        self.play(move)
        self.advance()
        self.wait_saved()

    def play(self, move: Move) -> None:
        """Only the human's move (raises ``IllegalMove`` and changes nothing if illegal); call
        :meth:`advance` next, for instance in a worker thread while slow bots think."""
        self.game.apply(self.seat, move)

    # --- words --------------------------------------------------------------------------------

    def new_log_lines(self) -> list[str]:
        """What happened since the last call, in words, as the human may know it (and a
        save that failed, once)."""
        view = self.view
        start = self._read
        self._read = view.log_size
        lines = narrate_view(view, self._narrator, start)
        if self.save_problem is not None and self.save_problem != self._said_problem:
            lines.append(self.save_problem)
        self._said_problem = self.save_problem
        return lines

    def awaited(self) -> str:
        """Who must do what now, in words."""
        view = self.view
        if view.is_over:
            return "The game is over."
        d = view.decision
        if d is None:
            return "The table is working."
        if view.my_turn:
            return "Your turn: " + decision_words(d, self.names, view.row)
        who = ", ".join(self.names[s] for s in d.players)
        return f"Waiting for {who}."
