"""A seat at a Rattus network table behind the map screen: the same interface as
:class:`~tui.rattus.controller.RattusOffline`, over a
:class:`~rattus_net.net.netgame.NetworkGame`.

The node plays on the table's own thread; the map reads the latest snapshot's view (the
seat's own engine: the Witch's looks are known to her holder only, as the protocol's private
reveal leaves them) and hands the human's move back with :meth:`RattusNetwork.play`. The log
is told by the offline map's narrator (outbreaks step by step), the lines of the network
("Bob dropped off the table") in between. No Textual here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from protocol.record import Verdict
from rattus_net.games.rattus.moves import Move
from rattus_net.games.rattus.view import RattusView
from rattus_net.net.netgame import NetworkGame, Notify
from rattus_net.net.node import Outcome
from tui.rattus.narrate import Narrator, decision_words


class NarratedWords:
    """The network table's words for Rattus (``rattus_net.net.tablewords.TableWords``), told
    as the offline map tells them."""

    things = "tokens"

    def __init__(self, names: Sequence[str], seat: int) -> None:
        self.narrator = Narrator(names, seat)

    def lines(self, view: RattusView, start: int) -> list[str]:
        return self.narrator.lines(view.events(start))

    def decision(self, view: RattusView) -> str:
        return decision_words(view)


class RattusNetwork:
    """One seat of a Rattus network game, for the map screen and its dialogs."""

    network = True
    game_name = "rattus"
    save_to: Path | None = None  # (the node journals every move: nothing to save here)
    save_problem: str | None = None

    def __init__(self, net: NetworkGame) -> None:
        if net.game_name != "rattus":
            raise ValueError(f"a {net.game_name} table is not a Rattus table")
        self.net = net
        net.words = NarratedWords(net.names, net.seat)

    # -- what the map reads --------------------------------------------------------------------

    @property
    def view(self) -> RattusView:
        view = self.net.view
        assert isinstance(view, RattusView)
        return view

    @property
    def names(self) -> tuple[str, ...]:
        return self.net.names

    @property
    def seat(self) -> int:
        return self.net.seat

    @property
    def listeners(self) -> list[Notify]:
        """Called on the app's loop after each change the node publishes."""
        return self.net.listeners

    @property
    def my_turn(self) -> bool:
        return self.net.my_turn

    @property
    def is_over(self) -> bool:
        return self.net.is_over

    @property
    def stable(self) -> bool:
        return self.net.stable

    def new_log_lines(self) -> list[str]:
        return self.net.new_log_lines()

    def awaited(self) -> str:
        return self.net.awaited()

    # -- the human's part ----------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Checked against the snapshot (``IllegalMove``; ``DecisionWithdrawn`` if the game
        stopped meanwhile), then handed to the node's thread."""
        self.net.play(move)

    def advance(self) -> None:
        """Nothing to do: the node plays the others' part as their messages arrive."""

    def wait_longer(self) -> str | None:
        return self.net.wait_longer()

    async def stop(self) -> None:
        await self.net.stop()

    # -- the end -------------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        return self.net.outcome

    @property
    def verdict(self) -> Verdict | None:
        return self.net.verdict

    def verify(self) -> Verdict | None:
        return self.net.verify()

    def summary(self) -> str:
        return self.net.summary()

    @property
    def game_over(self) -> bool:
        """The game itself ended (rather than stopped): the result can be shown."""
        return self.net.has_game and self.net.stable and self.view.is_over


__all__ = ["NarratedWords", "RattusNetwork"]
