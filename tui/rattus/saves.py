"""The offline Rattus game in progress, saved whenever the human is awaited.

The same machinery as the Rattus Cartus save (:mod:`tui.saves`): a game record plus the bots'
kind and the human's seat, written to a temporary file, flushed and renamed over the old
save, removed once the game is over; the save's own writer thread
(:class:`tui.saves.SaveWriter`) writes it, so the next dialog does not wait for the disk. The
record is a Rattus record (:class:`~rattus_net.games.rattus.record.RattusRecord`, which holds
the token order and every decision, and embeds a user's components file); the save lives in a
file of its own beside the Cartus one, so one game of each can wait to be continued.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattus_net.bots.rattus import RATTUS_BOTS
from rattus_net.engine.errors import RattusError, RecordError
from rattus_net.games.rattus.game import RattusGame
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.local import RattusTable
from rattus_net.games.rattus.record import OldRulesRecord, RattusRecord
from rattus_net.net.persist import data_dir
from tui.saves import SaveError, wait_for_writes, write_file

FILE_NAME = "offline-rattus-game.json"
KIND = "rattus-board-offline-save"
VERSION = 1


@dataclass(frozen=True, slots=True)
class SavedRattusGame:
    record: RattusRecord
    bots: str
    human_seat: int
    moves: int

    def describe(self) -> str:
        return f"Rattus, {len(self.record.players)} players, {self.moves} moves in"

    def replay(self) -> tuple[RattusGame, RattusTable]:
        """The game where it stopped (raises ``SaveError`` if the record does not replay)."""
        try:
            return self.record.replay()
        except RattusError as exc:
            raise SaveError(f"the saved Rattus game does not replay: {exc}") from None


def rattus_save_path(root: Path | None = None) -> Path:
    return (root or data_dir()) / FILE_NAME


def rattus_save_body(
    game: RattusGame,
    table: RattusTable,
    bots: str,
    human_seat: int,
    custom_components: Any = None,
) -> dict[str, Any] | None:
    """What the save of ``game`` holds (``None`` once the game is over: no save then);
    ``custom_components``: the content of a user's components file the game was played with,
    embedded in the record. The dictionary shares nothing with the game (another thread may
    write it out)."""
    if game.is_over:
        return None
    return {
        "kind": KIND,
        "version": VERSION,
        "bots": bots,
        "human_seat": human_seat,
        "record": RattusRecord.from_game(game, table, custom_components).to_dict(),
    }


def write_rattus_save(
    game: RattusGame,
    table: RattusTable,
    bots: str,
    human_seat: int,
    path: Path,
    custom_components: Any = None,
) -> None:
    """Save ``game`` now, on this thread (removing the save instead if the game is over)."""
    write_file(path, rattus_save_body(game, table, bots, human_seat, custom_components))


def read_rattus_save(path: Path) -> SavedRattusGame | None:
    """The save at ``path``; ``None`` if there is none. Raises ``SaveError`` if damaged."""
    wait_for_writes(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"the saved Rattus game cannot be read: {exc.strerror}") from None
    try:
        body = json.loads(text)
    except ValueError:
        raise SaveError("the saved Rattus game is damaged (not JSON)") from None
    if not isinstance(body, dict) or body.get("kind") != KIND or body.get("version") != VERSION:
        raise SaveError("the saved Rattus game was written by another version of Rattus Net")
    bots, seat = body.get("bots"), body.get("human_seat")
    if bots not in RATTUS_BOTS or not isinstance(seat, int):
        raise SaveError("the saved Rattus game is damaged (bad bots or seat)")
    try:
        record = RattusRecord.from_dict(body.get("record"), default_components())
    except OldRulesRecord:
        raise SaveError(
            "the saved Rattus game was played under the old rules (struck cubes left the "
            "game): this version cannot continue it"
        ) from None
    except (RecordError, RattusError) as exc:
        raise SaveError(f"the saved Rattus game is damaged: {exc}") from None
    if not 0 <= seat < len(record.players):
        raise SaveError("the saved Rattus game is damaged (bad seat)")
    return SavedRattusGame(record, str(bots), seat, len(record.moves))
