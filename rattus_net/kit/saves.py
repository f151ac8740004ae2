"""Saves of offline games, any game: one format, written whole or not at all, off the game's
thread.

A closed terminal, a dropped SSH link or a crash must not cost a game against bots: the
offline table (``offline.py``) saves its game whenever the human is awaited, and the menu
offers to continue it. A save is the game's own record (``GameDefinition.record_of``: every
decision and the order of every hidden piece, so replaying it restores the game exactly) with
what the record does not hold: the game's name and option values, the players' names, the
bots' kind and the human's seat, and a line saying how far the game has come (for the menu,
which must not replay every save to describe it). Each game has its save file
(``offline-<game>.json``), so one game of each can wait to be continued; a finished game's
save is removed. The save holds the hidden order, as the local table does: an offline game is
a person against bots on his own machine, and its secrets live in its memory anyway.

:func:`write_file` writes a temporary file, flushes it to disk and renames it over the old
save, so a crash while saving leaves the previous save whole. Writing and flushing take tens
of milliseconds, which the next dialog must not wait for: the game hands each body to a
:class:`SaveWriter` (one per file), whose own thread writes the newest body handed over, in
order, so an older state never overwrites a newer one. Reading a save first waits for the
writes handed over before (:func:`wait_for_writes`).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.interface import AnyGame, Table
from rattus_net.kit.options import OptionValue
from rattus_net.kit.registry import get_game
from rattus_net.paths import data_dir

KIND = "rattus-net-offline-save"
VERSION = 1


class SaveError(RattusNetError):
    """A save that cannot be read or continued: the message says why, in one line."""


# --- writing, whole or not at all ---------------------------------------------------------------


def write_whole(path: Path, text: str, *, private: bool = False) -> None:
    """Replace ``path`` with ``text`` (UTF-8) whole or not at all: a temporary file beside it,
    flushed to disk, then renamed over it (a crash leaves the old file or the new one, never
    half of one). For the saves, and for every other file replaced now and then (the settings,
    the SSH names, the browser's players). ``private``: readable by its owner only, from the
    first byte on. The temporary file's name is this process's own, so two programs of one
    account may write the same file at once (the last one wins). Raises ``OSError`` when the
    folder cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o666)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_file(path: Path, body: dict[str, Any] | None) -> None:
    """Write ``body`` to ``path`` whole or not at all (:func:`write_whole`); ``None`` removes
    the save."""
    if body is None:
        path.unlink(missing_ok=True)
        return
    write_whole(path, json.dumps(body))


class SaveWriter:
    """Writes one save file on a thread of its own, so the game (and the screen waiting for
    it) goes on meanwhile.

    :meth:`submit` hands over a body and returns at once. The thread writes the newest body
    handed over; bodies handed over while it writes are skipped but the newest, so the file
    only ever moves forward. The thread runs while there is something to write and is not a
    daemon: a program that ends normally first finishes the save."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._cond = threading.Condition()
        self._pending: tuple[dict[str, Any] | None] | None = None  # (body,): not written yet
        self._running = False
        self.submitted = 0  # bodies handed over
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
    """Wait until the bodies handed over to the writer of ``path`` are written."""
    with _writers_lock:
        writer = _writers.get(os.path.abspath(path))
    if writer is not None:
        writer.wait()


# --- the format ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A saved offline game: the game's record so far, and who plays which seat."""

    game: str
    """The registered game's name."""
    names: tuple[str, ...]
    bots: str
    human_seat: int
    record: str
    """The game's own record, as ``GameDefinition.record_of`` writes it."""
    values: Mapping[str, OptionValue] = field(default_factory=dict)
    progress: str = ""
    """How far the game had come (``GameDefinition.progress``'s line)."""

    @property
    def definition(self) -> AnyGame:
        return get_game(self.game)

    def describe(self) -> str:
        """``Rattus Cartus, round 3 of 9, 3 players`` (for the menu)."""
        return f"{self.definition.title}, {self.details()}"

    def details(self) -> str:
        """``round 3 of 9, 3 players``: where the game stopped, without the game's name."""
        return f"{self.progress}, {len(self.names)} players"

    def replay(self) -> tuple[Any, Table]:
        """The game where it stopped, and its local table (``SaveError`` if the record does
        not replay)."""
        try:
            record = self.definition.read_record(self.record, self.values)
            game, table = record.replay()
        except (RattusNetError, ValueError) as exc:  # a record's, or its options' (SetupError)
            raise SaveError(f"the saved game does not replay: {exc}") from None
        if game.is_over:
            raise SaveError("the saved game is over already")
        return game, table


def save_path(game: str, root: Path | None = None) -> Path:
    """The save file of ``game``'s offline game."""
    return (root or data_dir()) / f"offline-{game}.json"


def save_body(
    definition: AnyGame,
    game: Any,
    table: Table,
    *,
    names: Sequence[str],
    bots: str,
    human_seat: int,
    values: Mapping[str, OptionValue],
) -> dict[str, Any] | None:
    """What the save of ``game`` holds (``None`` once the game is over: no save then). The
    dictionary shares nothing with the game, so another thread may write it out."""
    if game.is_over:
        return None
    return {
        "kind": KIND,
        "version": VERSION,
        "game": definition.name,
        "names": list(names),
        "bots": bots,
        "human_seat": human_seat,
        "values": dict(values),
        "progress": definition.progress(game)[1],
        "record": definition.record_of(game, table, values),
    }


def read_save(path: Path) -> SavedGame | None:
    """The save at ``path``; ``None`` if there is none. Raises ``SaveError`` if it is damaged
    or of another version (it cannot be continued then)."""
    wait_for_writes(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(f"the saved game cannot be read: {exc.strerror}") from None
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):
        raise SaveError("the saved game is damaged (not JSON)") from None
    if not isinstance(body, dict) or body.get("kind") != KIND or body.get("version") != VERSION:
        raise SaveError("the saved game was written by another version of Rattus Net")
    return _saved(body)


def _saved(body: dict[str, Any]) -> SavedGame:
    """The fields of a save's body, checked (``SaveError`` saying which is wrong)."""
    name = body.get("game")
    try:
        definition = get_game(str(name))
    except ValueError:
        raise SaveError(f"the saved game is of a game this program lacks ({name!r})") from None
    names, bots, seat = body.get("names"), body.get("bots"), body.get("human_seat")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SaveError("the saved game is damaged (bad names)")
    if bots not in definition.bot_kinds:
        raise SaveError("the saved game is damaged (bad bots)")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(names):
        raise SaveError("the saved game is damaged (bad seat)")
    values, record = body.get("values"), body.get("record")
    if not isinstance(values, dict) or not all(
        type(v) in (bool, int, str) for v in values.values()
    ):
        raise SaveError("the saved game is damaged (bad options)")
    if not isinstance(record, str):
        raise SaveError("the saved game is damaged (no record)")
    progress = body.get("progress")
    return SavedGame(
        definition.name,
        tuple(names),
        str(bots),
        seat,
        record,
        {str(k): v for k, v in values.items()},
        progress if isinstance(progress, str) else "",
    )


__all__ = [
    "KIND",
    "VERSION",
    "SaveError",
    "SaveWriter",
    "SavedGame",
    "read_save",
    "save_body",
    "save_path",
    "save_writer",
    "wait_for_writes",
    "write_file",
]
