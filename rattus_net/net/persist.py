"""Crash-safe persistence: an append-only journal per game, fsynced record by record.

A peer may be killed at any instant (kill -9, power cut), so everything it will need to carry
on (its secret keys, every signed message of the transcript, its own secrets of the deck) is
appended to a journal and fsynced *before* the peer acts on it or sends anything that depends
on it. Appending never rewrites old bytes, so a crash can only damage the record being written:
on reload a torn or half-written last record is detected (length and CRC-32 per record) and cut
off, and the peer carries on from the last complete one. Damage anywhere else is not a crash
artefact, and reload refuses the file rather than guess.

A journal is never trusted past damage: a cut tail is said (:attr:`Journal.damage`, one line
naming the file), and the node treats every resumed journal as possibly behind what the peer
had sent (it asks the other peers before its player decides anything: see
:mod:`rattus_net.net.node`), since a journal cut exactly between two records looks whole.

Game ids are shown with their game's name in front (``cartus-1f2e...``): every command takes
them so or bare; the folders are named by the bare hex digits. Layout under the data directory
(``RATTUS_DATA_DIR``, else platformdirs' user data dir)::

    games/<game id>/seat-<n>/journal.bin    the records, each: u32 length | u32 crc32 | payload
    games/<game id>/seat-<n>/meta.json      small summary for listing (written atomically)
    games/<game id>/seat-<n>/record.rattusnet  the signed record, at the end

Every seat has a folder of its own, whatever the data directory: several peers of one game
started from one account (three terminals, a TUI host and its bot seats) never share a file.
A seat's journal is locked (``flock``) while a process plays it, so a second process cannot
play the same seat at once. A game folder that holds a journal itself (one folder for every
seat, ``games/<game id>/journal.bin``) is of a layout this version never wrote: it is not
listed, and resuming it is refused in one line.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from protocol.errors import DecodeError
from protocol.wire import DEFAULT_LIMITS, Limits, WireValue, decode_value, encode_value
from rattus_net.kit.registry import game_names
from rattus_net.paths import ENV_DATA_DIR, GAMES_DIR, JOURNAL_FILE, data_dir

_RECORD = struct.Struct(">II")
MAX_RECORD = 4 << 20
"""Upper bound of one record; a larger length field can only be damage."""

_LIMITS = Limits(max_size=MAX_RECORD, max_bin_len=DEFAULT_LIMITS.max_size)
_GAME_ID = re.compile(r"[0-9a-f]{8,64}")


class JournalError(OSError):
    """A journal is damaged beyond a torn last record, or a game directory is unusable."""


class SeatBusy(JournalError):
    """Another process is playing this seat right now (its journal is locked)."""


class StorageError(JournalError):
    """The data directory cannot hold a game (not writable, full): said before sitting down,
    or, during a game, naming the file that could not be written and the way back."""


MIN_FREE = 8 << 20
"""Bytes a network game needs free before a player sits down: a five-player game's journal
and record take about 2 MB; the rest is margin for meta files and other programs."""


def check_storage(root: Path | None = None, need: int = MIN_FREE) -> Path:
    """The games folder, once it is known to be writable and to have ``need`` bytes free;
    StorageError saying what is wrong otherwise (call it before taking a seat)."""
    base = (root or data_dir()) / GAMES_DIR
    try:
        base.mkdir(parents=True, exist_ok=True)
        probe = base / f".probe-{os.getpid()}"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, b"rattus")
            os.fsync(fd)
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)
    except OSError as exc:
        raise StorageError(
            f"cannot save network games in {base}: {exc.strerror or exc} "
            f"(set {ENV_DATA_DIR} to a writable folder)"
        ) from None
    free = shutil.disk_usage(base).free
    if free < need:
        raise StorageError(
            f"only {free / 2**20:.1f} MB free in {base}; a network game needs "
            f"{need / 2**20:.0f} MB for its journal and record: free some space first"
        )
    return base


def split_game_id(text: str) -> tuple[str | None, str]:
    """The game a game id names, if it is written with its game's prefix (``cartus-1f2e...``,
    as listings show it), and the id itself (the hex digits the folders are named by)."""
    game, dash, rest = text.partition("-")
    if dash and game in game_names():
        return game, rest
    return None, text


def check_game_id(game_id: str) -> str:
    """Game ids are lowercase hex, optionally after their game's prefix (``cartus-``); the
    hex digits are returned. Anything else could escape the games directory."""
    _, digits = split_game_id(game_id)
    if not _GAME_ID.fullmatch(digits):
        raise JournalError(
            f"{game_id!r} is not a game id (8 to 64 lowercase hex digits, after the game's "
            f"name and a dash if you like: {game_names()[0]}-...)"
        )
    return digits


def game_of(meta: dict[str, Any]) -> str | None:
    """The game a seat's meta.json names; ``None`` if it names none this program plays (it
    cannot be resumed: listings say so, or skip it)."""
    game = meta.get("game")
    return game if isinstance(game, str) and game in game_names() else None


def shown_game_id(game_id: str, game: str) -> str:
    """A game id as listings show it, its game first: ``cartus-1f2e...`` (``rattus resume``
    takes it so, or without the prefix)."""
    return f"{game}-{split_game_id(game_id)[1]}"


def game_dir(game_id: str, root: Path | None = None) -> Path:
    """The folder of one game: it holds one folder per seat played from this data directory."""
    return (root or data_dir()) / GAMES_DIR / check_game_id(game_id)


def seat_dir(game_id: str, seat: int, root: Path | None = None) -> Path:
    """The folder of one seat (``seat`` counts from 0; the folder is ``seat-<seat + 1>``)."""
    if not 0 <= seat < 5:
        raise JournalError(f"no seat {seat + 1} in a game of at most 5 players")
    return game_dir(game_id, root) / f"seat-{seat + 1}"


_SEAT_DIR = re.compile(r"seat-([1-5])")


def seat_dirs(game_id: str, root: Path | None = None) -> list[Path]:
    """The folders of this game's seats that hold a journal here. JournalError, in one line,
    for a game folder that holds a journal itself (a layout this version does not read)."""
    base = game_dir(game_id, root)
    if (base / JOURNAL_FILE).is_file():
        raise JournalError(
            f"game {game_id} is journaled in one folder for every seat, a layout this version "
            "of Rattus Net does not read: it cannot be resumed"
        )
    found = []
    if base.is_dir():
        found += sorted(
            d
            for d in base.iterdir()
            if _SEAT_DIR.fullmatch(d.name) and (d / JOURNAL_FILE).is_file()
        )
    return found


def _fsync_dir(path: Path) -> None:
    """Make a new directory entry durable (the file's own fsync does not cover its name)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Journal:
    """An append-only file of wire values. Open with :meth:`open`; it reloads what is there."""

    def __init__(
        self, path: Path, records: list[WireValue], fd: int, damage: str | None = None
    ) -> None:
        self.path = path
        self.records = records
        self._fd = fd
        self.damage = damage
        """One line for the player when :meth:`open` cut a torn or damaged last record off
        (``None`` when the file was whole)."""

    @classmethod
    def open(cls, path: Path, *, lock: bool = True) -> Journal:
        """Open (creating) the journal at ``path``; load its records, cutting a torn tail.

        With ``lock`` the file stays locked until :meth:`close` (or the process ends, however
        it ends): a second opener gets :class:`SeatBusy` instead of mixing its records in."""
        path.parent.mkdir(parents=True, exist_ok=True)
        existed = path.exists()
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
        if lock:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise SeatBusy(
                    f"{path.parent} is in use: another rattus process is playing this seat "
                    "right now (end it first, or wait for its game to end)"
                ) from None
        try:
            with open(fd, "rb", closefd=False) as f:
                data = f.read()
            records, good = _parse(data, path)
            damage = None
            if good < len(data):
                damage = (
                    f"{path}: its last record was cut or damaged (bytes {good} to {len(data)}); "
                    f"it is used up to its last whole record ({len(records)} records)"
                )
            if good < len(data) and lock:  # (unlocked: a reader, maybe of a journal in use)
                os.ftruncate(fd, good)
                os.fsync(fd)
        except BaseException:
            os.close(fd)
            raise
        if not existed:
            _fsync_dir(path.parent)
        return cls(path, records, fd, damage)

    def append(self, value: WireValue, *, sync: bool = True) -> None:
        """Append one record and fsync it: when this returns, the record survives a crash.

        ``sync=False`` defers the fsync to :meth:`sync`, for a batch of records that must be
        durable before the next thing is sent (one fsync instead of one per record)."""
        payload = encode_value(value, _LIMITS)
        data = _RECORD.pack(len(payload), zlib.crc32(payload)) + payload
        written = 0
        try:
            while written < len(data):
                written += os.write(self._fd, data[written:])
            if sync:
                os.fsync(self._fd)
        except OSError as exc:
            raise self._write_error(exc) from None
        self.records.append(value)

    def sync(self) -> None:
        try:
            os.fsync(self._fd)
        except OSError as exc:
            raise self._write_error(exc) from None

    def _write_error(self, exc: OSError) -> StorageError:
        return StorageError(
            f"cannot write {self.path}: {exc.strerror or exc}; the game is saved up to the "
            "last move: free some space (or fix the folder), then `rattus resume` continues it"
        )

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:  # a journal dropped unclosed must not keep its seat locked
        self.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[WireValue]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)


def _parse(data: bytes, path: Path) -> tuple[list[WireValue], int]:
    """Records of ``data`` and the length of its good prefix (a torn tail is not included)."""
    records: list[WireValue] = []
    pos = 0
    while pos < len(data):
        if len(data) - pos < _RECORD.size:
            break  # torn header
        size, crc = _RECORD.unpack_from(data, pos)
        end = pos + _RECORD.size + size
        if size > MAX_RECORD:
            raise JournalError(f"{path}: damaged record at byte {pos} (length {size})")
        if end > len(data):
            break  # torn payload
        payload = data[pos + _RECORD.size : end]
        if zlib.crc32(payload) != crc:
            if end == len(data):
                break  # the last record was being written when we died
            raise JournalError(f"{path}: damaged record at byte {pos} (checksum)")
        try:
            records.append(decode_value(payload, _LIMITS))
        except DecodeError as exc:
            raise JournalError(f"{path}: unreadable record at byte {pos}: {exc.reason}") from None
        pos = end
    return records, pos


def write_json_atomic(path: Path, obj: Any) -> None:
    """Replace ``path`` with ``obj`` as JSON so that a crash leaves the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


MAX_META_BYTES = 64 << 10
"""A seat's meta.json is a few hundred bytes; a larger one is not ours."""
MAX_META_DEPTH = 8
"""Nesting a seat's meta.json never reaches (it is two levels deep): a deeper one is not
ours, and parsing it whole could exhaust the interpreter's recursion."""
REFUSED = "refused"
"""The key :func:`list_games` sets, with the one-line reason, on a meta.json it refused."""


class MetaRefused(JournalError):
    """A seat's meta.json that is too large, nested too deeply or not a JSON object."""


def _depth(text: str) -> int:
    """How deeply the arrays and objects of JSON ``text`` nest (strings skipped), counted
    without parsing it: no recursion, whatever the text."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_meta(directory: Path) -> dict[str, Any]:
    """A seat folder's meta.json (empty dict when missing or unreadable); MetaRefused, in
    one line (``its meta.json ...``, naming no folder: a listing names it), when it is too
    large, nested too deeply, not JSON or not an object."""
    path = directory / "meta.json"
    try:
        if path.stat().st_size > MAX_META_BYTES:
            raise MetaRefused(f"its meta.json is larger than {MAX_META_BYTES} bytes")
        text = path.read_text(encoding="utf-8")
    except MetaRefused:
        raise
    except (OSError, ValueError):
        return {}
    if _depth(text) > MAX_META_DEPTH:
        raise MetaRefused(f"its meta.json nests more than {MAX_META_DEPTH} levels deep")
    try:
        meta = json.loads(text)
    except (ValueError, RecursionError):
        raise MetaRefused("its meta.json is not JSON") from None
    if not isinstance(meta, dict):
        raise MetaRefused("its meta.json is not a JSON object")
    return meta


def read_meta(directory: Path) -> dict[str, Any]:
    """A seat folder's meta.json (empty dict when missing, unreadable or refused)."""
    try:
        return load_meta(directory)
    except MetaRefused:
        return {}


def is_locked(directory: Path) -> bool:
    """Whether a process is playing the seat whose folder this is, right now."""
    try:
        fd = os.open(directory / JOURNAL_FILE, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)  # (closing drops the probe's lock, if it got one)
    return False


def list_games(root: Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Seats of games in the data directory with their meta.json (one entry per seat folder
    that holds a meta.json or a journal; an empty dict when unreadable, and only
    :data:`REFUSED` with the reason when refused). Each meta gets ``dir``: the seat's
    folder."""
    base = (root or data_dir()) / GAMES_DIR
    if not base.is_dir():
        return []
    games = []
    for d in sorted(base.iterdir()):
        if not (d.is_dir() and _GAME_ID.fullmatch(d.name)):
            continue
        folders = sorted(s for s in d.iterdir() if _SEAT_DIR.fullmatch(s.name) and s.is_dir())
        for folder in folders:
            try:
                meta = load_meta(folder)
            except MetaRefused as exc:
                meta = {REFUSED: str(exc)}
            games.append((d.name, {**meta, "dir": str(folder)}))
    return games


def unfinished_games(root: Path | None = None) -> list[tuple[str, dict[str, Any]]]:
    """The games in the data directory still under way here (stopped by a crash or a kill,
    or being played right now), with their meta.json; and those whose meta.json was refused
    (:data:`REFUSED` says why): they may be, and cannot be resumed."""
    return [
        (gid, meta)
        for gid, meta in list_games(root)
        if meta.get("status") == "playing" or REFUSED in meta
    ]
