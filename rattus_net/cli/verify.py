"""``rattus verify``: was a network game's signed record played fairly; and reading signed
records for ``rattus replay``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rattus_net.kit.errors import RecordError
from rattus_net.kit.interface import AnyGame
from rattus_net.kit.registry import get_game


def check_size(path: Path, limit: int) -> None:
    """Refuse a file larger than any record before reading it."""
    try:
        size = path.stat().st_size
    except OSError:
        return  # reading it says what is wrong
    if size > limit and path.is_file():
        raise RecordError(
            f"{path}: {size} bytes, more than any game record needs ({limit} at most)"
        )


def read_record_file(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise RecordError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{path}: is a directory, not a game record") from None


def replay_signed(path: Path, data: bytes, moves: int | None) -> tuple[AnyGame, Any, str | None]:
    """A network game's signed record: its game, the state where it stops, and a note when
    only its public part could be replayed."""
    from protocol.errors import ProtocolError
    from protocol.record import decode_record
    from protocol.verify import public_replay, verify_record

    try:
        verdict = verify_record(data)
        game = get_game(decode_record(data)[0].game)
        if verdict.engine_record is not None:  # finished and fair: every face is known
            return game, verdict.engine_record.replay(moves)[0], None
        state, stopped = public_replay(data, moves)
    except ProtocolError as exc:
        raise RecordError(f"{path}: not a game record ({exc})") from None
    why = stopped or verdict.reason or "the record stops before the end of the game"
    note = (
        f"This network game did not end fairly ({why}). Replayed as every seat saw it, up to "
        "where it stopped: cards or tokens still hidden (hands, the deck, the nun row, "
        "face-down rat tokens) are not shown."
    )
    return game, state, note


def cmd_verify(args: argparse.Namespace) -> int:
    from protocol.errors import ProtocolError
    from protocol.record import MAX_RECORD_BYTES
    from protocol.verify import verify_record
    from rattus_net.net.verdicts import remember_verdict

    check_size(args.record, MAX_RECORD_BYTES)
    data = read_record_file(args.record)
    try:
        verdict = verify_record(data)
    except ProtocolError as exc:
        raise RecordError(f"{args.record}: {exc}") from None
    remember_verdict(data, verdict)  # (the recent games say who won from it)
    if args.export is not None and verdict.engine_record is not None:
        args.export.write_text(verdict.engine_record.dumps())
    if args.json:
        print(json.dumps(verdict.to_dict(), indent=1))
    else:
        print(verdict.text())
    return 0 if verdict.fair else 1
