"""Saves written whole or not at all, off the game's thread; and network games left unfinished.

Every offline game saves itself after each turn (Rattus Cartus: :mod:`tui.cartus.saves`,
Rattus: :mod:`tui.rattus.saves`), through what is here: :func:`write_file` writes a temporary
file, flushes it to disk and renames it over the old save, so a crash while saving leaves the
previous save whole.

Writing and flushing take tens of milliseconds, which the next dialog must not wait for: the
game hands each state to a :class:`SaveWriter` (one per save file), whose own thread writes
the newest state handed over, in order, so an older state never overwrites a newer one.
Reading a save first waits for the writes handed over before (:func:`wait_for_writes`).

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

from rattus_net.games import DEFAULT_GAME, get_game
from rattus_net.kit.errors import RattusNetError
from rattus_net.net.node import HUMAN, JOURNAL
from rattus_net.net.persist import game_of, unfinished_games


class SaveError(RattusNetError):
    """A save that cannot be read: the message says why (the game cannot be continued)."""


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


@dataclass(frozen=True, slots=True)
class UnfinishedNetworkGame:
    """A network game this user played in the TUI and that stopped before its end (the
    program was closed or crashed): its journal can bring the seat back."""

    game_id: str
    table: str
    player: str
    players: int
    game: str = DEFAULT_GAME  # the game's name (``rattus_net.games``)

    def describe(self) -> str:
        """``Rattus Cartus at 'Kitchen', you are Gus`` (for the menu)."""
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
            when = (Path(str(meta.get("dir"))) / JOURNAL).stat().st_mtime
        except OSError:
            continue
        table, game = str(meta.get("table", "")), game_of(meta)
        if game is None:  # an older version's folder: it cannot be resumed
            continue
        found.append(
            (when, UnfinishedNetworkGame(game_id, table, str(players[seat]), len(players), game))
        )
    return max(found, key=lambda f: f[0])[1] if found else None


__all__ = [
    "SaveError",
    "SaveWriter",
    "UnfinishedNetworkGame",
    "save_writer",
    "unfinished_network_game",
    "wait_for_writes",
    "write_file",
]
