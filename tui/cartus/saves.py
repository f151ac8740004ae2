"""The offline game of Rattus Cartus in progress, saved after every turn.

A closed terminal, a dropped SSH link or a crash must not cost a game against bots: whenever
the human is awaited again, :class:`~tui.cartus.controller.OfflineGame` writes its game here,
and the menu offers to continue it. The save is a game record (``docs/record-format.md``: the
card order and every decision so far, so replaying it restores the game exactly) plus the bots'
kind and the human's seat, written whole or not at all by :mod:`tui.saves` (on a thread of its
own: :class:`~tui.saves.SaveWriter`). A finished game's save is removed.

The save holds the card order, as the local table does: an offline game is a person against
bots on their own machine, and its secrets live in that machine's memory anyway.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattus_net.bots import BOT_KINDS
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.record import GameRecord
from rattus_net.kit.errors import RecordError
from rattus_net.kit.local import LocalTable
from rattus_net.paths import data_dir
from tui.saves import SaveError, wait_for_writes, write_file

FILE_NAME = "offline-game.json"
KIND = "rattus-offline-save"
VERSION = 2  # 2: records with optional actions (ruling 17); a version-1 save cannot replay


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A saved offline game: the record so far, and who plays which seat."""

    record: GameRecord
    bots: str
    human_seat: int
    round: int
    rounds: int

    def describe(self) -> str:
        """``round 3 of 9, 3 players`` (for the menu)."""
        return f"round {self.round} of {self.rounds}, {len(self.record.players)} players"


def save_path(root: Path | None = None) -> Path:
    return (root or data_dir()) / FILE_NAME


def save_body(game: Game, table: LocalTable, bots: str, human_seat: int) -> dict[str, Any] | None:
    """What the save of ``game`` holds (``None`` once the game is over: no save then). The
    dictionary shares nothing with the game, so another thread may write it out."""
    if game.is_over:
        return None
    return {
        "kind": KIND,
        "version": VERSION,
        "bots": bots,
        "human_seat": human_seat,
        "round": game.round,
        "rounds": game.plan.rounds,
        "record": GameRecord.from_game(game, table).to_dict(),
    }


def write_save(game: Game, table: LocalTable, bots: str, human_seat: int, path: Path) -> None:
    """Save ``game`` now, on this thread (removing the save instead if the game is over)."""
    write_file(path, save_body(game, table, bots, human_seat))


def read_save(path: Path) -> SavedGame | None:
    """The save at ``path``; ``None`` if there is none. Raises ``SaveError`` if it is damaged."""
    wait_for_writes(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"the saved game cannot be read: {exc.strerror}") from None
    try:
        body = json.loads(text)
    except ValueError:
        raise SaveError("the saved game is damaged (not JSON)") from None
    if not isinstance(body, dict) or body.get("kind") != KIND or body.get("version") != VERSION:
        raise SaveError("the saved game was written by another version of Rattus Net")
    bots, seat = body.get("bots"), body.get("human_seat")
    rnd, rounds = body.get("round"), body.get("rounds")
    if bots not in BOT_KINDS or not all(isinstance(x, int) for x in (seat, rnd, rounds)):
        raise SaveError("the saved game is damaged (bad bots, seat or round)")
    try:
        record = GameRecord.from_dict(body.get("record"))
    except RecordError as exc:
        raise SaveError(f"the saved game is damaged: {exc}") from None
    assert isinstance(seat, int) and isinstance(rnd, int) and isinstance(rounds, int)
    if not 0 <= seat < len(record.players):
        raise SaveError("the saved game is damaged (bad seat)")
    return SavedGame(record, str(bots), seat, rnd, rounds)


def remove_save(path: Path) -> None:
    wait_for_writes(path)
    path.unlink(missing_ok=True)


__all__ = [
    "SaveError",
    "SavedGame",
    "read_save",
    "remove_save",
    "save_body",
    "save_path",
    "write_save",
]
