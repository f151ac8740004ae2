"""A seat's folder besides its journal: the summary that lists the game, and its record.

The summary (``meta.json``) is what the list of games reads without replaying a journal; the
record is the game's signed transcript, written once the game is over (and again when claims
meet). Both are written atomically, so a crash leaves the old file or the new one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from rattus_net.kit.interface import GameDefinition
from rattus_net.net.persist import StorageError, write_json_atomic
from rattus_net.net.seats import Setup
from rattus_net.paths import RECORD_FILE


class SeatFiles:
    """The summary and the record of one seat of a game, in its folder ``directory``."""

    def __init__(
        self, directory: Path, setup: Setup, definition: GameDefinition[Any, Any, Any, Any]
    ) -> None:
        self.dir = directory
        self.setup = setup
        self.definition = definition
        self.record = directory / RECORD_FILE

    def write_meta(self, status: str, listen: tuple[str, int], game: Any) -> None:
        """The summary: ``status`` (playing, finished, aborted), the port we listen on, and
        the winners of a finished ``game``."""
        setup = self.setup
        write_json_atomic(
            self.dir / "meta.json",
            {
                "table": setup.table,
                "seat": setup.seat,
                "players": list(setup.params.config.players),
                "game": setup.params.game,  # (persist.game_of reads it)
                "status": status,
                "listen": list(listen),
                "bot": setup.bot,  # who plays the seat: a bot kind, or HUMAN
                "hosted_by": setup.hosted_by,  # a bot seat run by that seat's process
                "winners": self._winners(game) if status == "finished" else None,
            },
        )

    def _winners(self, game: Any) -> list[int] | None:
        """The seats that won a finished game, for the list of recent games (which cannot
        verify every record it lists: that takes seconds); ``None`` if the game has no
        outcome yet."""
        outcome = None if game is None else self.definition.outcome(game)
        return None if outcome is None else list(outcome.winners)

    def write_record(self, data: bytes, status: str, listen: tuple[str, int], game: Any) -> None:
        """The record ``data``, fsynced, then the summary says how the game ended; a full
        disk is a :class:`StorageError` that says how to write it again."""
        record = self.record
        tmp = record.with_name(RECORD_FILE + ".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, record)
            self.write_meta(status, listen, game)
        except OSError as exc:
            raise StorageError(
                f"cannot write {record}: {exc.strerror or exc}; free some space, then "
                f"`rattus resume {self.setup.game_id}` writes it again"
            ) from None


__all__ = ["SeatFiles"]
