"""The Rattus game record: players, token order, public random numbers and every decision.

The same record format as Rattus Cartus (``docs/record-format.md``), with ``"game":
"rattus"``: replaying a record reproduces the game and its result exactly. The token order and
the random numbers may be left out (they are then drawn from ``seed``), so a record can be
written by hand. A game played with a user's components file embeds that file's content under
``components``; without it the shipped components are meant. No file I/O here: the CLI reads
and writes files and passes the shipped components in.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rattus_net.games.rattus.components import Components, ComponentsError, parse_components
from rattus_net.games.rattus.game import RattusConfig, RattusGame, Result
from rattus_net.games.rattus.moves import Move, format_move, parse_move
from rattus_net.kit.errors import RattusNetError, RecordError
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import settle
from rattus_net.kit.record import loads_json, move_lines, parse_move_lines, replay_moves

FORMAT = "rattus-record"
VERSION = 2
"""2: struck cubes go back to the supply, the game ends on an empty rat supply or all of the
active player's cubes out, ties go from the ender's left (issue 19); the result names the
final round's and the tie-break's orders. A version 1 record was played under other rules:
it is refused, never replayed."""
GAME = "rattus"
PILES = ("start tokens", "rat supply")
PILE_KEYS = {"start tokens": "start", "rat supply": "supply"}


class OldRulesRecord(RecordError):
    """A record of version 1, played under the old rules (struck cubes left the game, the
    other end and tie-break): it would not replay the same, so it is refused."""


@dataclass
class RattusRecord:
    """A Rattus game's setup and decisions; ``moves`` are ``(seat, move)`` in order."""

    players: tuple[str, ...]
    components: Components
    custom_components: Any = None  # the embedded file content, when not the shipped one
    seed: int = 0
    order: dict[str, tuple[int, ...]] = field(default_factory=dict)  # pile -> faces, top first
    randoms: list[int] | None = None
    moves: list[tuple[int, Move]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @staticmethod
    def from_game(
        game: RattusGame, table: LocalTable, custom_components: Any = None
    ) -> RattusRecord:
        """The record of a game played on a local table (which knows the token order)."""
        return RattusRecord(
            players=game.config.players,
            components=game.config.components,
            custom_components=custom_components,
            order={pile: order for pile, order in table.chance.shuffles},
            randoms=list(table.chance.randoms),
            moves=list(game.history),
            result=result_summary(game) if game.is_over else None,
        )

    def replay(self, upto: int | None = None) -> tuple[RattusGame, LocalTable]:
        """Replay the record (its first ``upto`` moves); checks the stored result."""
        game = RattusGame(RattusConfig(self.players, self.components))
        table = LocalTable(
            self.seed,
            {pile: [order] for pile, order in self.order.items()},
            self.randoms or (),
        )
        moves = self.moves if upto is None else self.moves[:upto]
        try:
            settle(game, table)
            replay_moves(game, table, self.players, moves, format_move)
        except RecordError:
            raise
        except RattusNetError as exc:
            raise RecordError(f"the record cannot be replayed: {exc}") from None
        if upto is None and self.result is not None and game.is_over:
            got = result_summary(game)
            if got != self.result:
                raise RecordError("replaying the record does not give its stored result")
        return game, table

    def to_dict(self) -> dict[str, Any]:
        tokens = self.components.tokens
        obj: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": GAME,
            "players": list(self.players),
            "seed": self.seed,
        }
        if self.custom_components is not None:
            obj["components"] = self.custom_components
        if self.order:
            obj["tokens"] = {
                PILE_KEYS[p]: [tokens[f].text() for f in self.order[p]]
                for p in PILES
                if p in self.order
            }
        if self.randoms is not None:
            obj["randoms"] = list(self.randoms)
        obj["moves"] = move_lines(self.players, self.moves, format_move)
        if self.result is not None:
            obj["result"] = self.result
        return obj

    def dumps(self) -> str:
        """Stable text: one key per line, one move per line."""
        obj = self.to_dict()
        lines = []
        for key, value in obj.items():
            if key == "moves" and value:
                inner = ",\n".join(f"  {json.dumps(m, ensure_ascii=False)}" for m in value)
                text = "[\n" + inner + "\n ]"
            elif key in ("tokens", "result"):
                inner = ",\n".join(
                    f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                    for k, v in value.items()
                )
                text = "{\n" + inner + "\n }"
            elif key == "components":
                text = json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n ")
            else:
                text = json.dumps(value, ensure_ascii=False)
            lines.append(f" {json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(lines) + "\n}\n"

    @staticmethod
    def loads(text: str, default: Components) -> RattusRecord:
        return RattusRecord.from_dict(loads_json(text), default)

    @staticmethod
    def from_dict(obj: Any, default: Components) -> RattusRecord:
        """Check a parsed record; ``default``: the shipped components."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f'not a game record: "format" must be "{FORMAT}"')
        if obj.get("game") != GAME:
            raise RecordError(f'not a Rattus record: "game" must be "{GAME}"')
        version = obj.get("version")
        if version == 1 and not isinstance(version, bool):
            raise OldRulesRecord(
                "a Rattus record of version 1 was played under the old rules (struck cubes "
                f"left the game): this program replays version {VERSION} only"
            )
        if isinstance(version, bool) or version != VERSION:
            raise RecordError(
                f"unsupported record version {version!r} (this program reads {VERSION})"
            )
        players = obj.get("players")
        if (
            not isinstance(players, list)
            or not all(isinstance(p, str) and p for p in players)
            or not 2 <= len(players) <= 4
            or len(set(players)) != len(players)
        ):
            raise RecordError('"players" must list 2 to 4 different names')
        custom = obj.get("components")
        comps = default
        if custom is not None:
            try:
                comps = parse_components(custom)
            except ComponentsError as exc:
                raise RecordError(f"components: {exc}") from None
        seed = obj.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError('"seed" must be an integer')
        order: dict[str, tuple[int, ...]] = {}
        tokens = obj.get("tokens", {})
        if not isinstance(tokens, dict):
            raise RecordError('"tokens" must map "start" and "supply" to token lists')
        for pile, key in PILE_KEYS.items():
            if key in tokens:
                order[pile] = _faces(comps, tokens[key], pile, f"tokens.{key}")
        randoms = obj.get("randoms")
        if randoms is not None and (
            not isinstance(randoms, list)
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in randoms)
        ):
            raise RecordError('"randoms" must be a list of whole numbers')
        moves = parse_move_lines(obj.get("moves", []), players, parse_move)
        result = obj.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError('"result" must be an object')
        return RattusRecord(
            players=tuple(players),
            components=comps,
            custom_components=custom,
            seed=seed,
            order=order,
            randoms=randoms,
            moves=moves,
            result=result,
        )


def _faces(comps: Components, items: Any, pile: str, where: str) -> tuple[int, ...]:
    """Token texts to face ids of ``pile`` (identical faces are interchangeable)."""
    start = pile == "start tokens"
    pool = [i for i, t in enumerate(comps.tokens) if t.start == start]
    if not isinstance(items, list) or len(items) != len(pool):
        raise RecordError(f"{where} must list the {len(pool)} tokens of the {pile}")
    by_text: dict[str, list[int]] = {}
    for i in pool:
        by_text.setdefault(comps.tokens[i].text(), []).append(i)
    out = []
    for item in items:
        ids = by_text.get(" ".join(str(item).split()))
        if not ids:
            raise RecordError(f"{where}: {item!r} is not one of the tokens left in the {pile}")
        out.append(ids.pop(0))
    assert Counter(out) == Counter(pool)
    return tuple(out)


def result_summary(game: RattusGame) -> dict[str, Any]:
    """The result as stored in a record, by name."""
    r = game.result
    assert r is not None
    names = game.config.players
    return {
        "cubes": dict(zip(names, r.totals, strict=True)),
        "palace": dict(zip(names, r.palace, strict=True)),
        "struck": dict(zip(names, r.struck, strict=True)),
        "ended_by": names[r.ender],
        "reason": r.reason,
        "final_round": [names[s] for s in r.final_order],
        "tie_order": [names[s] for s in r.tie_order],
        "winner": names[r.winner],
    }


def summary_result(summary: Mapping[str, Any]) -> tuple[Result, tuple[str, ...]]:
    """The :class:`Result` and the players' names (seat order) of a stored result, so that
    one function words every result (``report.result_text``); ``summary`` comes from
    :func:`result_summary` (its ``cubes`` map lists the players in seat order)."""
    names = tuple(summary["cubes"])
    seat = {name: i for i, name in enumerate(names)}

    def per_seat(key: str) -> tuple[int, ...]:
        return tuple(int(summary[key][name]) for name in names)

    totals, palace = per_seat("cubes"), per_seat("palace")
    result = Result(
        board=tuple(t - p for t, p in zip(totals, palace, strict=True)),
        palace=palace,
        struck=per_seat("struck"),
        final_order=tuple(seat[name] for name in summary["final_round"]),
        tie_order=tuple(seat[name] for name in summary["tie_order"]),
        winner=seat[summary["winner"]],
        reason=str(summary["reason"]),
        ender=seat[summary["ended_by"]],
    )
    return result, names
