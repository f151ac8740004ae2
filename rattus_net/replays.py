"""Games to replay: any record file read into a replay's steps, and the player's recent games.

A file may be a game's face-level record (JSON, ``rattus replay``'s), an offline game's save
(an unfinished game against bots, or the record of a finished one kept for replays), or the
signed record of a network game. A finished, fair network game is replayed face by face: the
peers published their keys after the game, so the verifier opens every card and writes the
game's face-level record (``Verdict.engine_record``). A network game that stopped (aborted,
unfinished, or a record that does not check) is replayed as every seat saw it, its public
engine frame by frame up to where it stops: what was revealed, nothing more (the seats' own
secrets are in their journals, not in the record).

The steps themselves are the kit's (:mod:`rattus_net.kit.replay`). Here is the I/O: files and
the data folder, and the protocol for signed records. Every problem is a ``RecordError``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from protocol.verdict import ABORTED, CHEATER, DAMAGED, DISPUTED
from rattus_net.kit.errors import RattusNetError, RecordError
from rattus_net.kit.interface import AnyGame
from rattus_net.kit.options import OptionValues
from rattus_net.kit.registry import games, get_game, unnamed_game
from rattus_net.kit.replay import Replay, StepsBuilder, replay_of, replay_record
from rattus_net.kit.saves import KIND as SAVE_KIND
from rattus_net.kit.saves import SaveError, read_save, save_path, write_whole
from rattus_net.net.verdicts import known_verdict, remember_verdict
from rattus_net.paths import GAMES_DIR, RECORD_FILE, data_dir

MAX_GAME_RECORD_BYTES = 2 << 20
"""A face-level game record (JSON) of the longest game is some tens of KiB."""
MAX_SIGNED_BYTES = 64 << 20
"""More than the signed record of any game (``protocol.record.MAX_RECORD_BYTES`` checks
exactly; this only refuses a file before it is read whole)."""
REPLAYS_DIR = "replays"
"""The folder (in the data directory) where finished offline games are kept for replays."""
RECENT = 30
"""How many recent games the menu lists."""


def record_game(text: str) -> AnyGame:
    """The game a face-level record names (``"game"``; none: the game whose records carry
    no name). Not JSON at all: that game too, whose reader says what is wrong."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return unnamed_game()
    name = obj.get("game") if isinstance(obj, dict) else None
    if name is None:
        return unnamed_game()
    try:
        return get_game(str(name))
    except ValueError:
        raise RecordError(f"the record names an unknown game {str(name)[:40]!r}") from None


def read_bytes(path: Path, limit: int = MAX_SIGNED_BYTES) -> bytes:
    """A record file's bytes (``RecordError`` in one line for a missing file, a folder, one
    too large or unreadable)."""
    try:
        if path.is_dir():
            raise RecordError(f"{path}: is a directory, not a game record")
        size = path.stat().st_size
        if size > limit:
            raise RecordError(f"{path}: {size} bytes, more than any game record needs")
        return path.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except OSError as exc:
        raise RecordError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def open_replay(path: Path, values: OptionValues | None = None) -> Replay:
    """The replay of the record, save or signed record at ``path`` (``values``: the options
    given with a face-level record, as ``rattus replay`` takes them)."""
    data = read_bytes(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return signed_replay(data)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None
    if len(data) > MAX_GAME_RECORD_BYTES:
        raise RecordError(f"{path}: {len(data)} bytes, more than any game record needs")
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):
        raise RecordError(f"{path}: not a game record (not JSON)") from None
    try:
        if isinstance(body, dict) and body.get("kind") == SAVE_KIND:
            saved = read_save(path)
            if saved is None:
                raise RecordError(f"{path}: no such file")
            return replay_record(saved.definition, saved.record, saved.values)
        return replay_record(record_game(text), text, values or {})
    except SaveError as exc:
        raise RecordError(f"{path}: {exc}") from None
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    except (RattusNetError, ValueError) as exc:  # options the game cannot start with
        raise RecordError(f"{path}: not a game record ({exc})") from None


def signed_replay(data: bytes) -> Replay:
    """The replay of a network game's signed record (see the module's docstring)."""
    from protocol.errors import ProtocolError
    from protocol.record import decode_record
    from protocol.verify import verify_record

    try:
        verdict = verify_record(data)
        game = get_game(decode_record(data)[0].game)
        remember_verdict(data, verdict)  # (the recent games say who won from it)
        if verdict.engine_record is not None:  # finished and fair: every face is known
            return replay_of(game, verdict.engine_record)
        return public_steps(game, data, verdict.reason)
    except ProtocolError as exc:
        raise RecordError(f"not a game record ({exc})") from None


def public_steps(game: AnyGame, data: bytes, why: str | None) -> Replay:
    """The public engine of a signed record, step by step up to where it stops."""
    from protocol.errors import RemoteProtocolError
    from protocol.record import decode_record
    from protocol.session import Session

    params, messages, _ = decode_record(data)
    session = Session(params, None)
    public = session.public
    names = tuple(params.players)
    steps = StepsBuilder(game, public)
    for frame in messages:
        moves = len(public.history)
        try:
            session.receive(frame, 0.0)
        except RemoteProtocolError:
            break
        for seat, move in public.history[moves:]:
            steps.move(seat, f"{names[seat]}: {_move_text(game, move)}")
        steps.settled(public)
    note = (
        f"This network game did not end fairly ({why or 'it stopped before its end'}). "
        "Replayed as every seat saw it, up to where it stopped: what was never revealed "
        "stays hidden."
    )
    return steps.replay(note)


def _move_text(game: AnyGame, move: Any) -> str:
    """A public move's text (a move with a hidden part has handles where its cards are)."""
    try:
        return str(game.format_move(move))
    except (KeyError, ValueError, TypeError, AttributeError, IndexError):
        return "a move with a hidden part"


# --- the player's recent games ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecentGame:
    """A game the menu lists for replays."""

    path: Path
    when: float
    """When its file was last written (seconds since the epoch)."""
    title: str
    players: tuple[str, ...]
    result: str
    """Who won, or where the game stands."""
    seat: int | None = None
    """The player's own seat, where the file says it (a save, a network game's folder)."""

    @property
    def date(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.when))


def keep_finished(game_name: str, record: str, root: Path | None = None) -> Path:
    """Keep the face-level record of a finished offline game for replays (written whole)."""
    folder = (root or data_dir()) / REPLAYS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{game_name}-{stamp}.json"
    suffix = 1
    while path.exists():
        suffix += 1
        path = folder / f"{game_name}-{stamp}-{suffix}.json"
    write_whole(path, record)
    return path


def recent_games(root: Path | None = None, limit: int = RECENT) -> list[RecentGame]:
    """The player's recent games, newest first: finished offline games kept for replays, the
    unfinished offline ones (their saves) and the network games with a signed record."""
    base = root or data_dir()
    files: list[Path] = []
    replays = base / REPLAYS_DIR
    if replays.is_dir():
        files += [p for p in replays.iterdir() if p.suffix == ".json"]
    files += [p for g in games() if (p := save_path(g.name, base)).is_file()]
    network = base / GAMES_DIR
    if network.is_dir():
        files += [p for p in network.glob(f"*/*/{RECORD_FILE}") if p.is_file()]
    dated = []
    for p in files:
        try:
            dated.append((p.stat().st_mtime, p))
        except OSError:
            continue
    dated.sort(reverse=True)
    out = []
    for when, p in dated[:limit]:
        entry = _describe(p, when, root)
        if entry is not None:
            out.append(entry)
    return out


def _describe(path: Path, when: float, root: Path | None = None) -> RecentGame | None:
    """What the menu says of a game's file (``None``: not a game this program reads)."""
    try:
        if path.name == RECORD_FILE:
            return _describe_signed(path, when, root)
        text = read_bytes(path, MAX_GAME_RECORD_BYTES).decode("utf-8")
        body = json.loads(text)
        if isinstance(body, dict) and body.get("kind") == SAVE_KIND:
            saved = read_save(path)
            if saved is None:
                return None
            d = saved.definition
            how = f"unfinished, {saved.progress}"
            return RecentGame(path, when, d.title, saved.names, how, saved.human_seat)
        definition = record_game(text)
        game, _ = definition.read_record(text, {}).replay()
        return RecentGame(path, when, definition.title, _players(game), _result(definition, game))
    except (RattusNetError, ValueError, RecursionError):
        return None


def _describe_signed(path: Path, when: float, root: Path | None) -> RecentGame | None:
    """A network game's record, described by its seat's folder, and who won by the verdict
    kept when the record was verified here (:mod:`rattus_net.net.verdicts`): never by the
    folder's meta.json, which anyone with the folder may have written. A finished game
    whose record was not verified here yet says so."""
    from protocol.errors import ProtocolError
    from protocol.record import decode_record
    from rattus_net.net.persist import read_meta

    try:
        data = read_bytes(path)
        params, _, abort = decode_record(data)
        definition = get_game(params.game)
    except (ProtocolError, RecordError, ValueError):
        return None
    meta = read_meta(path.parent)
    status = meta.get("status")
    if status not in ("finished", "aborted"):
        status = "stopped" if abort is not None else "played"
    seat = meta.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(params.players):
        seat = None
    how = f"network game, {status}"
    known = known_verdict(data, root)
    if known is None:
        if status == "finished":
            how = f"{how}, not verified yet"
    elif not known.fair:
        how = f"network game, {VERDICT_WORDS.get(known.kind, known.kind)}"
    elif known.winners is not None and all(w < len(params.players) for w in known.winners):
        how = f"network game, {_won_by(params.players, known.winners)} (verified)"
    return RecentGame(path, when, definition.title, tuple(params.players), how, seat)


VERDICT_WORDS = {
    CHEATER: "not fair: a player cheated (rattus verify names him)",
    DISPUTED: "disputed (rattus verify says why)",
    ABORTED: "stopped before its end",
    DAMAGED: "record damaged or incomplete",
}
"""What the list says of a record verified as anything but fair."""


def _players(game: Any) -> tuple[str, ...]:
    return tuple(game.config.players)


def _result(definition: AnyGame, game: Any) -> str:
    outcome = definition.outcome(game)
    if outcome is None:
        return f"unfinished, {definition.progress(game)[1]}"
    return _won_by(_players(game), outcome.winners)


def _won_by(names: Sequence[str], winners: Sequence[int]) -> str:
    if not winners:  # (Rattus Cartus: the plague took every player)
        return "nobody won"
    return "won by " + ", ".join(names[s] for s in winners)


__all__ = [
    "MAX_GAME_RECORD_BYTES",
    "REPLAYS_DIR",
    "RecentGame",
    "keep_finished",
    "open_replay",
    "recent_games",
    "record_game",
    "signed_replay",
]
