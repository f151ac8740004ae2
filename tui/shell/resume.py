"""A network game a person played here that stopped before its end (the program was closed or
crashed): the menu offers to sit back down at its table ("Back to the network game").

A network game needs no save: every peer journals it as it goes (``rattus_net/net/node.py``);
the journal brings the seat back.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rattus_net.kit.registry import get_game
from rattus_net.net.persist import game_of, unfinished_games
from rattus_net.net.seats import HUMAN
from rattus_net.paths import JOURNAL_FILE


@dataclass(frozen=True, slots=True)
class UnfinishedNetworkGame:
    """A network game this user played in the TUI and that stopped before its end (the
    program was closed or crashed): its journal can bring the seat back."""

    game_id: str
    table: str
    player: str
    players: int
    game: str  # the registered game's name

    def describe(self) -> str:
        """``<the game's title> at 'Kitchen', you are Gus`` (for the menu)."""
        return f"{get_game(self.game).title} at {self.table!r}, you are {self.player}"


def unfinished_network_game(root: Path | None = None) -> UnfinishedNetworkGame | None:
    """The most recent network game in the data directory that a person played here and that
    is still under way, if any."""
    found: list[tuple[float, UnfinishedNetworkGame]] = []
    for game_id, meta in unfinished_games(root):
        players, seat = meta.get("players"), meta.get("seat")
        if meta.get("bot") != HUMAN:
            continue
        if not isinstance(players, list) or not isinstance(seat, int):
            continue
        if not 0 <= seat < len(players):
            continue
        try:
            when = (Path(str(meta.get("dir"))) / JOURNAL_FILE).stat().st_mtime
        except OSError:
            continue
        table, game = str(meta.get("table", "")), game_of(meta)
        if game is None:  # a seat of no game this program plays: it cannot be resumed
            continue
        found.append(
            (when, UnfinishedNetworkGame(game_id, table, str(players[seat]), len(players), game))
        )
    return max(found, key=lambda f: f[0])[1] if found else None


__all__ = ["UnfinishedNetworkGame", "unfinished_network_game"]
