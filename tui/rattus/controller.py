"""The offline Rattus game behind the map screen: a game, a local table and bots, one human.

No Textual here, so it is tested on its own. The screens read ``controller.view`` (the
human's :class:`~rattus_net.games.rattus.view.RattusView`) and nothing else of the game, and
send the human's moves with :meth:`RattusOffline.play` then :meth:`RattusOffline.advance`
(which the map screen runs in a worker thread while the bots think).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from rattus_net.games.rattus.bots import RattusBot, make_bot
from rattus_net.games.rattus.components import Components
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.moves import Move
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.interface import BOT_KINDS, Budget
from rattus_net.kit.local import LocalTable
from tui.offline import BOT_NAMES, CHECKPOINT_SECONDS, HUMAN_NAME
from tui.rattus.narrate import Narrator, clean, decision_words
from tui.rattus.saves import SavedRattusGame, rattus_save_body
from tui.saves import SaveError, SaveWriter, save_writer

SEARCH_SECONDS = 0.5  # how long the "hard" bot thinks per decision


@dataclass(frozen=True, slots=True)
class RattusOptions:
    """What the menu (or ``rattus play --game rattus``) chose for an offline Rattus game."""

    players: int = 3
    bots: str = "heuristic"
    seed: int | None = None
    human_name: str = HUMAN_NAME
    human_seat: int = 0
    components: Components | None = None  # None: the shipped map and tokens
    custom_components: Any = None  # a user's components file content (embedded in saves)


class RattusController(Protocol):
    """What the map screen and its dialogs need of a game: :class:`RattusOffline`, or a seat
    at a network table (:class:`tui.rattus.netcontroller.RattusNetwork`)."""

    network: bool
    save_to: Path | None

    @property
    def view(self) -> RattusView: ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def my_turn(self) -> bool: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def save_problem(self) -> str | None: ...

    def play(self, move: Move) -> None: ...

    def advance(self) -> None: ...

    def new_log_lines(self) -> list[str]: ...

    def awaited(self) -> str: ...


class RattusOffline:
    """One offline Rattus game: the human at ``options.human_seat``, bots elsewhere."""

    network = False
    game_name = "rattus"

    def __init__(
        self,
        options: RattusOptions,
        advance: bool = True,
        *,
        save_to: Path | None = None,
        start: tuple[RattusGame, LocalTable] | None = None,
    ) -> None:
        """``advance=False`` leaves the first bot and table steps to a later :meth:`advance`.
        With ``save_to`` the game is saved there whenever the human is awaited
        (:mod:`tui.rattus.saves`, by the save's own writer thread); ``start``: a game under
        way and its table, to continue."""
        n = options.players
        if not 2 <= n <= 4:
            raise ValueError("Rattus is for 2 to 4 players")
        if options.bots not in BOT_KINDS:
            raise ValueError(f"unknown bot {options.bots!r}; choose one of {', '.join(BOT_KINDS)}")
        if not 0 <= options.human_seat < n:
            raise ValueError("the human's seat is not at the table")
        self.options = options
        self.seat = options.human_seat
        self.save_to = save_to
        self.saver: SaveWriter | None = None if save_to is None else save_writer(save_to)
        self.clock: Callable[[], float] = time.monotonic
        self.bots: dict[int, RattusBot] = {}
        for s in range(n):
            if s != self.seat:
                bot_seed = None if options.seed is None else options.seed * 101 + s
                self.bots[s] = make_bot(options.bots, bot_seed, Budget(seconds=SEARCH_SECONDS))
        if start is not None:
            self.game, self.table = start
        else:
            bot_names = iter(BOT_NAMES)
            names = tuple(
                options.human_name if s == self.seat else next(bot_names) for s in range(n)
            )
            comps = options.components or default_components()
            self.game = RattusGame(RattusConfig(names, comps))
            self.table = LocalTable(options.seed)
        self.view = RattusView(self.game, self.seat)
        self.narrator = Narrator(self.names, self.seat)
        self._read = 0
        self._said_problem: str | None = None
        if advance:
            self.advance()
            self.wait_saved()

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names as shown (``clean``: a saved game may name anybody)."""
        return tuple(clean(n) for n in self.game.config.players)

    @property
    def my_turn(self) -> bool:
        d = self.game.decision
        return d is not None and d.player == self.seat

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def save_problem(self) -> str | None:
        """Why the last save failed, if it did."""
        return None if self.saver is None else self.saver.problem

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
            if d.player == self.seat:
                break
            game.apply(d.player, self.bots[d.player].choose(RattusView(game, d.player)))
            if self.clock() - since >= CHECKPOINT_SECONDS:  # slow bots: keep what was played
                self._save()
                since = self.clock()
        self._save()

    def play(self, move: Move) -> None:
        """Only the human's move (raises ``IllegalMove`` and changes nothing if illegal); call
        :meth:`advance` next."""
        self.game.apply(self.seat, move)

    def apply(self, move: Move) -> None:
        """:meth:`play` and :meth:`advance`, and the game is saved before this returns."""
        self.play(move)
        self.advance()
        self.wait_saved()

    def _save(self) -> None:
        """Hand the game to the save's writer (it writes on its own thread)."""
        if self.saver is not None:
            self.saver.submit(
                rattus_save_body(
                    self.game,
                    self.table,
                    self.options.bots,
                    self.seat,
                    self.options.custom_components,
                )
            )

    def wait_saved(self) -> None:
        """Return once the game's last state handed over is saved (or could not be)."""
        if self.saver is not None:
            self.saver.wait()

    def new_log_lines(self) -> list[str]:
        """What happened since the last call, in words, as the human may know it."""
        events = self.view.events(self._read)
        self._read = len(self.game.log)
        lines = self.narrator.lines(events)
        if self.save_problem is not None and self.save_problem != self._said_problem:
            lines.append(self.save_problem)
        self._said_problem = self.save_problem
        return lines

    def awaited(self) -> str:
        """Who must do what now, in words."""
        if self.is_over:
            return "The game is over."
        d = self.game.decision
        if d is None:
            return "The table is working."
        if d.player == self.seat:
            return "Your turn: " + decision_words(self.view)
        return f"Waiting for {self.names[d.player]}."


def continued(saved: SavedRattusGame, save_to: Path | None = None) -> RattusOffline:
    """An offline game taken up from a save, replayed to where it stopped (raises
    ``SaveError`` if its record does not replay)."""
    game, table = saved.replay()
    seat = saved.human_seat
    options = RattusOptions(
        players=game.n,
        bots=saved.bots,
        human_name=game.config.players[seat],
        human_seat=seat,
        components=game.config.components,
        custom_components=saved.record.custom_components,
    )
    try:
        return RattusOffline(options, advance=False, save_to=save_to, start=(game, table))
    except ValueError as exc:
        raise SaveError(f"the saved Rattus game cannot be continued: {exc}") from None
