"""What every game's face-level record shares: its moves as ``"Name: move"`` lines, read back
and replayed move by move, and the stable JSON text it is written in.

A game's record (``rattus_net/games/<game>/record.py``) holds its own setup and the order of
its hidden pieces; its moves are the game's move texts (``format_move``/``parse_move``) after
the name of the seat that made them. Every problem is a ``RecordError`` that says where.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rattus_net.kit.errors import IllegalMove, MoveSyntaxError, RecordError, SetupError
from rattus_net.kit.interface import GameState, Table
from rattus_net.kit.play import settle

M = TypeVar("M")


def move_lines(
    players: Sequence[str], moves: Sequence[tuple[int, M]], format_move: Callable[[M], str]
) -> list[str]:
    """The moves as ``"Name: move"`` lines."""
    return [f"{players[s]}: {format_move(m)}" for s, m in moves]


def parse_move_lines(
    lines: object, players: Sequence[str], parse_move: Callable[[str], M]
) -> list[tuple[int, M]]:
    """The ``(seat, move)`` pairs of ``"Name: move"`` lines (``RecordError`` naming the line
    that is not one)."""
    if not isinstance(lines, list):
        raise RecordError('"moves" must be a list of "Name: move" lines')
    names = {p: i for i, p in enumerate(players)}
    moves: list[tuple[int, M]] = []
    for i, line in enumerate(lines, 1):
        if not isinstance(line, str) or ": " not in line:
            raise RecordError(f'move {i} must read "Name: move", got {line!r}')
        who, text = line.split(": ", 1)
        if who not in names:
            raise RecordError(f"move {i}: {who!r} is not one of the players")
        try:
            moves.append((names[who], parse_move(text)))
        except MoveSyntaxError as exc:
            raise RecordError(f"move {i}: {exc}") from None
    return moves


def replay_moves(
    game: GameState[M],
    table: Table,
    players: Sequence[str],
    moves: Sequence[tuple[int, M]],
    format_move: Callable[[M], str],
) -> None:
    """Play ``moves`` in ``game``, the table answering after each; ``RecordError`` naming
    the move that does not fit (illegal, after the end, or leaving the table without the
    order it needs)."""
    for i, (seat, move) in enumerate(moves, 1):
        if game.is_over:
            raise RecordError(f"move {i} comes after the end of the game")
        try:
            game.apply(seat, move)
            settle(game, table)
        except IllegalMove as exc:
            text = f"{players[seat]}: {format_move(move)}"
            raise RecordError(f"move {i} ({text}) is illegal: {exc}") from None
        except SetupError as exc:
            raise RecordError(f"after move {i}: {exc}") from None


def pretty(value: Any, depth: int = 0, one_per_line: bool = False) -> str:
    """Stable JSON text: one key per line, short lists on one line, the moves (and any list
    of maps or lists) one item per line."""
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(value, dict) and value:
        items = [
            f"{inner}{json.dumps(k)}: {pretty(v, depth + 1, k == 'moves')}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if (
        isinstance(value, list)
        and value
        and (one_per_line or not all(isinstance(v, str | int | bool) for v in value))
    ):
        items = [inner + pretty(v, depth + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def loads_json(text: str) -> Any:
    """The JSON value of a record's text (``RecordError`` if it is not JSON)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not a game record: not JSON ({exc.msg} at line {exc.lineno})") from None
    except ValueError as exc:
        raise RecordError(f"not a game record: {exc}") from None
