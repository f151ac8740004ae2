"""Where a seat's game is kept, and what it is: the setup record, the outcome, finding a seat.

A seat of a network game lives in a folder of its own in the data directory
(:func:`rattus_net.net.persist.seat_dir`): its journal (the :class:`Setup` first), its
``meta.json`` and, once the game is over, its record (their file names are in
:mod:`rattus_net.paths`).
:func:`find_seat` picks the folder ``rattus resume`` means; :func:`read_setup` reads a seat's
setup without replaying its game (:class:`~rattus_net.net.node.PeerNode` does that).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from protocol.errors import DecodeError
from protocol.params import GameParams
from protocol.wire import WireValue
from rattus_net.net.persist import Journal, JournalError, is_locked, read_meta, seat_dirs
from rattus_net.paths import JOURNAL_FILE


class NodeError(Exception):
    """A game cannot be run or resumed (bad journal, no setup); one line for the user."""


HUMAN = "human"  # ``Setup.bot`` of a seat a person plays (through the TUI)


@dataclass(frozen=True)
class Setup:
    """Everything a seat needs to play (and later resume) a game: the first journal record.
    ``bot`` is the bot kind playing the seat, or :data:`HUMAN`."""

    params: GameParams
    seat: int
    master: bytes
    addresses: tuple[tuple[str, int], ...]
    table: str = ""
    bot: str = "random"
    bot_seed: int | None = None
    hosted_by: int | None = None
    """The seat of the process that runs this bot seat beside its own (a TUI host's bots), so
    that resuming that seat brings this one back too (:mod:`rattus_net.net.botseats`)."""

    @property
    def game_id(self) -> str:
        return self.params.game_id().hex()

    def to_wire(self) -> dict[str, WireValue]:
        return {
            "params": self.params.to_wire(),
            "seat": self.seat,
            "master": self.master,
            "addresses": [[h, p] for h, p in self.addresses],
            "table": self.table,
            "bot": self.bot,
            "bot_seed": self.bot_seed,
            "hosted_by": self.hosted_by,
        }

    @classmethod
    def from_wire(cls, value: WireValue) -> Setup:
        try:
            assert isinstance(value, dict)
            seat, master, addrs = value["seat"], value["master"], value["addresses"]
            table, bot, bot_seed = value["table"], value["bot"], value["bot_seed"]
            assert isinstance(seat, int) and isinstance(master, bytes)
            assert isinstance(addrs, list) and isinstance(table, str) and isinstance(bot, str)
            assert bot_seed is None or isinstance(bot_seed, int)
            addresses: list[tuple[str, int]] = []
            for a in addrs:
                assert isinstance(a, list) and len(a) == 2
                h, p = a
                assert isinstance(h, str) and isinstance(p, int)
                addresses.append((h, p))
            params = GameParams.from_wire(value["params"])
            hosted_by = value.get("hosted_by")
            assert hosted_by is None or isinstance(hosted_by, int)
        except (AssertionError, KeyError, DecodeError) as exc:
            raise NodeError(f"the journal's setup record is unreadable ({exc})") from None
        return cls(params, seat, master, tuple(addresses), table, bot, bot_seed, hosted_by)


@dataclass
class Outcome:
    """How the game ended for this node."""

    game_id: str
    record: Path
    finished: bool
    abort: str | None = None
    blamed: str | None = None  # the seat the abort names (proven, or only claimed)
    faults: list[str] = field(default_factory=list)
    proven: bool = False  # the abort's fault is proven by the blamed seat's signed messages
    by: str | None = None  # who stopped the game (whose claim it is, if not proven)
    alone: bool = False
    """A resumed peer reached nobody of its game for its stall timeout: no record is written
    and nobody is blamed (the others may have ended the game); the game stays resumable."""


def _seat_label(directory: Path) -> str:
    meta = read_meta(directory)
    seat, players = meta.get("seat"), meta.get("players")
    if isinstance(seat, int) and isinstance(players, list) and 0 <= seat < len(players):
        return f"seat {seat + 1} ({players[seat]})"
    return directory.name


def find_seat(game_id: str, root: Path | None = None, seat: int | None = None) -> Path:
    """The folder of the seat of ``game_id`` to resume.

    ``seat`` (from 0) names it; without it, the only seat of the game journaled here, else the
    only one of the unfinished seats that no process is playing right now (three terminals on
    one account: the one that was killed), else, when every seat here is over, the first one
    (not a bot seat) whose record says how it ended. Raises NodeError naming the choices
    otherwise."""
    try:
        folders = seat_dirs(game_id, root)
    except JournalError as exc:
        raise NodeError(str(exc)) from None
    if not folders:
        where = root or Path("the data directory")
        raise NodeError(f"no game {game_id} in {where}")
    if seat is not None:
        for folder in folders:
            if folder.name == f"seat-{seat + 1}":
                return folder
        raise NodeError(f"seat {seat + 1} of game {game_id} is not journaled here")
    if len(folders) == 1:
        return folders[0]
    unfinished = [f for f in folders if read_meta(f).get("status") == "playing"]
    if not unfinished:  # every seat here is over: its record says how (as for one seat)
        own = [f for f in folders if read_meta(f).get("hosted_by") is None]
        return (own or folders)[0]
    free = [f for f in unfinished if not is_locked(f)]
    if len(free) == 1:
        return free[0]
    own = [f for f in free if read_meta(f).get("hosted_by") is None]
    if len(own) == 1:
        return own[0]  # (the others are its bot seats: they come back with it)
    if not free and unfinished:
        raise NodeError(
            f"every unfinished seat of game {game_id} here is being played by a process now"
        )
    choices = ", ".join(_seat_label(f) for f in (free or folders))
    raise NodeError(f"game {game_id} has several seats here ({choices}): choose one with --seat N")


def open_journal(directory: Path) -> tuple[Path, Journal, Setup]:
    path = directory / JOURNAL_FILE
    if not path.exists():
        raise NodeError(f"no journal in {directory}")
    journal = Journal.open(path)
    first = journal.records[0] if journal.records else None
    if not isinstance(first, list) or len(first) != 2 or first[0] != "setup":
        journal.close()
        raise NodeError(f"the journal {path} has no setup")
    try:
        return directory, journal, Setup.from_wire(first[1])
    except NodeError:
        journal.close()
        raise


def read_setup(game_id: str, root: Path | None = None, seat: int | None = None) -> Setup:
    """The setup of a journaled game (who plays the seat, say), without replaying it."""
    directory = find_seat(game_id, root, seat)
    path = directory / JOURNAL_FILE
    with Journal.open(path, lock=False) as journal:
        first = journal.records[0] if journal.records else None
    if not isinstance(first, list) or len(first) != 2 or first[0] != "setup":
        raise NodeError(f"the journal {path} has no setup")
    return Setup.from_wire(first[1])


def new_master() -> bytes:
    """A fresh master secret for a real game (every other secret is derived from it)."""
    return os.urandom(32)


__all__ = [
    "HUMAN",
    "NodeError",
    "Outcome",
    "Setup",
    "find_seat",
    "new_master",
    "open_journal",
    "read_setup",
]
