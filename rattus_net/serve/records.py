"""Records leave the server: the only two commands a served player may run.

``ssh -p 2222 alice@host records`` lists the games in Alice's own folder that have a signed
record; ``ssh -p 2222 alice@host record ID > game.rattusnet`` writes one to her terminal (its id
as listed, or its first 8 or more hex digits). ``record ID journal`` writes that seat's
journal instead (its secrets are hers). Nothing else is a command: the text must match one of
these forms as a whole, and the files are looked up by the game folder's name (checked hex
digits) inside her folder, never by a path she types.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from rattus_net.net.persist import REFUSED, game_of, list_games, shown_game_id
from rattus_net.paths import JOURNAL_FILE, RECORD_FILE, RECORD_SUFFIX

COMMAND = re.compile(r"records|record (?:[a-z][a-z0-9_]{0,31}-)?([0-9a-f]{8,64})( journal)?")
ASKED = re.compile(r"record +(\S+)(?: journal)?")
"""``record`` with something that is no game id: that record is not here (it is no command
either: nothing of it is looked up)."""
_PLAIN = re.compile(r"[!-~]{1,40}")
"""What of the asked for id is said back: printable ASCII, short (no terminal control)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a command writes (to stdout, or a line to stderr) and its exit status."""

    out: bytes = b""
    err: str = ""
    status: int = 0


@dataclass(frozen=True, slots=True)
class Kept:
    """One seat's files in the player's folder."""

    shown: str  # cartus-1f2e...
    digits: str
    folder: Path
    meta: dict[str, object]


def is_command(text: str) -> bool:
    return COMMAND.fullmatch(text) is not None


def _kept(data: Path) -> tuple[list[Kept], list[str]]:
    """The seats with a record or a journal; and a line for each seat whose meta.json was
    refused (too large, too deep: its files are not offered)."""
    seats = []
    refused = []
    for digits, meta in list_games(data):
        folder = Path(str(meta["dir"]))
        if REFUSED in meta:
            refused.append(f"{digits[:23]:<24} {folder.name}: {meta[REFUSED]}, left alone")
            continue
        game = game_of(meta)
        if game is not None and (
            (folder / RECORD_FILE).is_file() or (folder / JOURNAL_FILE).is_file()
        ):
            seats.append(Kept(shown_game_id(digits, game), digits, folder, meta))
    return seats, refused


def _when(path: Path) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    except OSError:
        return "?"


def answer(command: str, data: Path | None, how: str) -> Answer:
    """Run ``command`` on the player's data folder (``None``: nothing is kept for him);
    ``how`` is the command line that fetches one record (``ssh -p P alice@host``)."""
    m = COMMAND.fullmatch(command)
    asked = ASKED.fullmatch(command)
    if m is None and asked is not None:
        word = asked.group(1)
        what = f"record '{word}'" if _PLAIN.fullmatch(word) else "such record"
        return Answer(err=f"there is no {what} here (records lists yours)", status=1)
    if m is None:
        return Answer(
            err="this server runs the game and two commands: records, record ID", status=1
        )
    if data is None:
        return Answer(err="nothing is kept for you here (you entered without a key)", status=1)
    seats, refused = _kept(data)
    if m.group(1) is None:
        if not seats and not refused:
            return Answer(b"No game records here yet.\n")
        lines = list(refused)
        for k in sorted(seats, key=lambda k: _when(k.folder / RECORD_FILE), reverse=True):
            record = k.folder / RECORD_FILE
            state = "record" if record.is_file() else "journal only (unfinished)"
            lines.append(f"{k.shown[:23]:<24} {_when(k.folder)}  {k.folder.name}  {state}")
        lines.append(f"Fetch one: {how} record ID > game{RECORD_SUFFIX}")
        return Answer(("\n".join(lines) + "\n").encode())
    digits, journal = m.group(1), m.group(2) is not None
    found = [k for k in seats if k.digits.startswith(digits)]
    if len({k.digits for k in found}) > 1:
        return Answer(err=f"{digits} is the start of several games: give more of it", status=1)
    wanted = JOURNAL_FILE if journal else RECORD_FILE
    for k in found:
        path = k.folder / wanted
        if path.is_file():
            try:
                return Answer(path.read_bytes())
            except OSError as exc:
                return Answer(err=f"cannot read it: {exc.strerror or exc}", status=1)
    what = "journal" if journal else "record"
    return Answer(err=f"no {what} of a game {digits} here (records lists them)", status=1)
