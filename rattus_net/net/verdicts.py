"""Verdicts of signed records, kept by the record's hash: what a list may say of a game.

Who won a network game is known only from its verified record: the seat folder's
``meta.json`` is written by the seat itself (or by anyone with the folder), so a list that
said "won by" from it could show a winner the record refutes. Verifying a record takes
seconds, too long for a list: each verification made here (the end of a game, ``rattus
verify``, opening a replay, the verify screen) keeps its verdict in the data folder's
``verdicts/`` under the SHA-256 of the record's bytes, and a list reads it back. A record
not verified yet (or changed since: another hash) is listed as unverified.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from protocol.verdict import FAIR, KINDS, Verdict
from rattus_net.kit.interface import AnyGame
from rattus_net.kit.registry import game_names, get_game
from rattus_net.kit.saves import write_whole
from rattus_net.paths import data_dir

VERDICTS_DIR = "verdicts"
"""The folder (in the data directory) of the kept verdicts, one small file per record."""
MAX_ENTRY_BYTES = 1024
"""A kept verdict is some tens of bytes; a larger file is not ours."""
_MAX_SEATS = 5


@dataclass(frozen=True, slots=True)
class KnownVerdict:
    """What verifying a record found: its kind (``fair``, ``cheater``...) and, for a fair,
    finished game, the winning seats (none: nobody won)."""

    kind: str
    winners: tuple[int, ...] | None = None

    @property
    def fair(self) -> bool:
        return self.kind == FAIR


def record_key(data: bytes) -> str:
    """The name a record's verdict is kept under: the SHA-256 of its bytes."""
    return hashlib.sha256(data).hexdigest()


def _path(data: bytes, root: Path | None) -> Path:
    return (root or data_dir()) / VERDICTS_DIR / f"{record_key(data)}.json"


def _game(verdict: Verdict) -> AnyGame | None:
    """The game the verified record names, if this program plays it."""
    name = verdict.secure.name if verdict.secure is not None else None
    return get_game(name) if name in game_names() else None


def known_of(verdict: Verdict) -> KnownVerdict:
    """What is kept of ``verdict``: the winners of a fair game played to its end, by
    replaying the face-level record the verifier wrote."""
    winners: tuple[int, ...] | None = None
    game = _game(verdict)
    if verdict.fair and verdict.engine_record is not None and game is not None:
        state = verdict.engine_record.replay()[0]
        outcome = game.outcome(state)
        if outcome is not None:
            winners = tuple(outcome.winners)
    return KnownVerdict(verdict.kind, winners)


def remember_verdict(data: bytes, verdict: Verdict, root: Path | None = None) -> KnownVerdict:
    """Keep the verdict on the record ``data`` (a folder that cannot be written keeps
    nothing: the record is listed as unverified, which is true)."""
    known = known_of(verdict)
    entry = {"kind": known.kind, "winners": None if known.winners is None else list(known.winners)}
    with contextlib.suppress(OSError):
        write_whole(_path(data, root), json.dumps(entry))
    return known


def known_verdict(data: bytes, root: Path | None = None) -> KnownVerdict | None:
    """The verdict kept on the record ``data``, if it was verified here (``None`` too for a
    kept file that is damaged, too large or not ours)."""
    path = _path(data, root)
    try:
        if path.stat().st_size > MAX_ENTRY_BYTES:
            return None
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("kind") not in KINDS:
        return None
    winners = entry.get("winners")
    if winners is None:
        return KnownVerdict(str(entry["kind"]))
    if not isinstance(winners, list) or len(winners) > _MAX_SEATS:
        return None
    if not all(isinstance(w, int) and not isinstance(w, bool) and 0 <= w < 5 for w in winners):
        return None
    return KnownVerdict(str(entry["kind"]), tuple(winners))


__all__ = [
    "VERDICTS_DIR",
    "KnownVerdict",
    "known_of",
    "known_verdict",
    "record_key",
    "remember_verdict",
]
