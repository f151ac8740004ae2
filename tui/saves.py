"""The offline game in progress, saved after every turn; and network games left unfinished.

A closed terminal, a dropped SSH link or a crash must not cost a game against bots: whenever
the human is awaited again, :class:`~tui.controller.OfflineGame` writes its game here, and the
menu offers to continue it. The save is a game record (``docs/record-format.md``: the card order
and every decision so far, so replaying it restores the game exactly) plus the bots' kind and
the human's seat, written to a temporary file, flushed to disk and renamed over the old save,
so a crash while saving leaves the previous save whole. A finished game's save is removed.

Writing and flushing take tens of milliseconds, which the next dialog must not wait for: the
game hands each state to a :class:`SaveWriter` (one per save file), whose own thread writes
the newest state handed over, in order, so an older state never overwrites a newer one.
Reading a save (:func:`read_save`) first waits for the writes handed over before.

The save holds the card order, as the local table does: an offline game is a person against
bots on their own machine, and its secrets live in that machine's memory anyway.

A network game needs no save: every peer journals it as it goes (``rattus_net/net/node.py``).
:func:`unfinished_network_game` finds the one a person was playing here when the program
stopped, for the menu to offer it.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rattus_net.bots import BOT_KINDS
from rattus_net.engine.errors import RattusError, RecordError
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.local import LocalTable
from rattus_net.games.cartus.record import GameRecord
from rattus_net.net.node import HUMAN, JOURNAL
from rattus_net.net.persist import data_dir, unfinished_games

FILE_NAME = "offline-game.json"
KIND = "rattus-offline-save"
VERSION = 2  # 2: records with optional actions (ruling 17); a version-1 save cannot replay


class SaveError(RattusError):
    """A save that cannot be read: the message says why (the game cannot be continued)."""


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


def write_file(path: Path, body: dict[str, Any] | None) -> None:
    """Write ``body`` to ``path`` whole or not at all: a temporary file, flushed to disk, then
    renamed over the old save (a crash leaves the old save or the new one, never half of one).
    ``None`` removes the save."""
    if body is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(body, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_save(game: Game, table: LocalTable, bots: str, human_seat: int, path: Path) -> None:
    """Save ``game`` now, on this thread (removing the save instead if the game is over)."""
    write_file(path, save_body(game, table, bots, human_seat))


class SaveWriter:
    """Writes one save file on a thread of its own, so the game (and the screen waiting for
    it) goes on meanwhile.

    :meth:`submit` hands over a state and returns at once. The thread writes the newest state
    handed over; states handed over while it writes are skipped but the newest, so the file
    only ever moves forward. The thread runs while there is something to write and is not a
    daemon: a program that ends normally first finishes the save."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cond = threading.Condition()
        self._pending: tuple[dict[str, Any] | None] | None = None  # (body,): not written yet
        self._running = False
        self.submitted = 0  # states handed over
        self.writes = 0  # files written or removed
        self.problem: str | None = None  # why the last write failed, if it did

    def submit(self, body: dict[str, Any] | None) -> None:
        """Write ``body`` (``None``: remove the save) soon, after what was handed over before."""
        with self._cond:
            self._pending = (body,)
            self.submitted += 1
            if not self._running:
                self._running = True
                threading.Thread(target=self._run, name="rattus-save-writer").start()

    def wait(self) -> None:
        """Return once everything handed over so far is on disk (or failed)."""
        with self._cond:
            while self._running:
                self._cond.wait()

    def _run(self) -> None:
        while True:
            with self._cond:
                if self._pending is None:
                    self._running = False
                    self._cond.notify_all()
                    return
                (body,), self._pending = self._pending, None
            problem = None
            try:
                write_file(self.path, body)
            except OSError as exc:  # a full or read-only disk must not stop the game
                problem = f"The game cannot be saved ({exc.strerror or exc})."
            except Exception as exc:  # the thread must not die silently: say why
                problem = f"The game cannot be saved ({exc})."
            with self._cond:
                self.writes += 1
                self.problem = problem


_writers: dict[str, SaveWriter] = {}
_writers_lock = threading.Lock()


def save_writer(path: Path) -> SaveWriter:
    """The one writer of the save file at ``path`` (shared, so that two games saving to the
    same file, one after the other, keep their order)."""
    key = os.path.abspath(path)
    with _writers_lock:
        writer = _writers.get(key)
        if writer is None:
            writer = _writers[key] = SaveWriter(path)
        return writer


def wait_for_writes(path: Path) -> None:
    """Wait until the states handed over to the writer of ``path`` are written."""
    with _writers_lock:
        writer = _writers.get(os.path.abspath(path))
    if writer is not None:
        writer.wait()


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


@dataclass(frozen=True, slots=True)
class UnfinishedNetworkGame:
    """A network game this user played in the TUI and that stopped before its end (the
    program was closed or crashed): its journal can bring the seat back."""

    game_id: str
    table: str
    player: str
    players: int

    def describe(self) -> str:
        return f"at {self.table!r}, you are {self.player}"


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
            when = (Path(str(meta.get("dir"))) / JOURNAL).stat().st_mtime
        except OSError:
            continue
        table = str(meta.get("table", ""))
        found.append(
            (when, UnfinishedNetworkGame(game_id, table, str(players[seat]), len(players)))
        )
    return max(found, key=lambda f: f[0])[1] if found else None


__all__ = [
    "SaveError",
    "SaveWriter",
    "SavedGame",
    "UnfinishedNetworkGame",
    "read_save",
    "remove_save",
    "save_body",
    "save_path",
    "save_writer",
    "unfinished_network_game",
    "wait_for_writes",
    "write_file",
    "write_save",
]
