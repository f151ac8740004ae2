"""Nibble's face-level record: players, the deck's order, the public random numbers, every
move as a ``"Name: move"`` line and the result. Replaying it gives the same game and result
(``rattus replay``); the deck's order and the numbers may be left out (then the seed draws
them), so a record can be written by hand."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from games.thirdgame.game import CARDS, Move, NibbleConfig, NibbleGame, format_move, parse_move
from games.thirdgame.words import result_summary
from rattus_net.kit.errors import RattusNetError, RecordError
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import settle
from rattus_net.kit.record import loads_json, move_lines, parse_move_lines, pretty, replay_moves

FORMAT = "nibble-record"
VERSION = 1
GAME = "nibble"
PILE = "deck"


@dataclass
class NibbleRecord:
    """A game of Nibble's setup and moves (``(seat, move)`` in order)."""

    players: tuple[str, ...]
    seed: int = 0
    deck: tuple[int, ...] | None = None  # faces, top first
    randoms: list[int] | None = None
    moves: list[tuple[int, Move]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    @staticmethod
    def from_game(game: NibbleGame, table: LocalTable) -> NibbleRecord:
        """The record of a game played on a local table (which knows the deck's order)."""
        order = dict(table.chance.shuffles)
        return NibbleRecord(
            players=game.config.players,
            deck=order.get(PILE),
            randoms=list(table.chance.randoms),
            moves=list(game.history),
            result=result_summary(game) if game.is_over else None,
        )

    def replay(self, upto: int | None = None) -> tuple[NibbleGame, LocalTable]:
        """The game where the record (its first ``upto`` moves) stops; checks the result."""
        script = {PILE: [self.deck]} if self.deck is not None else {}
        table = LocalTable(self.seed, script, self.randoms or ())
        moves = self.moves if upto is None else self.moves[:upto]
        try:
            game = NibbleGame(NibbleConfig(self.players))
            settle(game, table)
            replay_moves(game, table, self.players, moves, format_move)
        except RecordError:
            raise
        except RattusNetError as exc:
            raise RecordError(f"the record cannot be replayed: {exc}") from None
        done = upto is None and self.result is not None and game.is_over
        if done and result_summary(game) != self.result:
            raise RecordError("replaying the record does not give its stored result")
        return game, table

    def to_dict(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": GAME,
            "players": list(self.players),
            "seed": self.seed,
        }
        if self.deck is not None:
            obj["deck"] = list(self.deck)
        if self.randoms is not None:
            obj["randoms"] = list(self.randoms)
        obj["moves"] = move_lines(self.players, self.moves, format_move)
        if self.result is not None:
            obj["result"] = self.result
        return obj

    def dumps(self) -> str:
        return pretty(self.to_dict()) + "\n"

    @staticmethod
    def loads(text: str) -> NibbleRecord:
        """The record ``text`` holds; ``RecordError`` saying what is wrong."""
        obj = loads_json(text)
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f'not a Nibble record: "format" must be "{FORMAT}"')
        if obj.get("version") != VERSION or isinstance(obj.get("version"), bool):
            raise RecordError(f"unsupported record version (this program reads {VERSION})")
        players = obj.get("players")
        if (
            not isinstance(players, list)
            or not all(isinstance(p, str) and p for p in players)
            or not 2 <= len(players) <= 3
            or len(set(players)) != len(players)
        ):
            raise RecordError('"players" must list 2 or 3 different names')
        seed = obj.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError('"seed" must be an integer')
        deck = obj.get("deck")
        if deck is not None and (
            not isinstance(deck, list)
            or not all(type(c) is int for c in deck)
            or Counter(deck) != Counter(CARDS)
        ):
            raise RecordError('"deck" must list the cards 1 to 9, each once')
        randoms = obj.get("randoms")
        if randoms is not None and (
            not isinstance(randoms, list) or not all(type(x) is int for x in randoms)
        ):
            raise RecordError('"randoms" must be a list of whole numbers')
        result = obj.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError('"result" must be an object')
        return NibbleRecord(
            players=tuple(players),
            seed=seed,
            deck=None if deck is None else tuple(deck),
            randoms=randoms,
            moves=parse_move_lines(obj.get("moves", []), players, parse_move),
            result=result,
        )
