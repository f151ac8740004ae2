"""The game record: setup, card order and every decision, as stable, human-readable JSON.

A record is to a game what a PGN is to a chess game. It holds the players and options, the 30
building cards, the starting player, the card order as far as it is fixed (nun row, starting
hands, deck, replacement deck, building deck and every reshuffle of the discard pile), and each
decision as ``"Name: move"`` text (see ``moves.py``). Replaying it reproduces the game and its
scoring exactly. Anyone may write one by hand to set up a situation: card-order fields left out
are filled from the remaining cards in an order fixed by ``seed``. ``docs/record-format.md``
describes every field.

This module parses and checks text; it does no file I/O (the CLI reads and writes the files).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import BuildingSelection, GameConfig, SelectionMethod
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move, format_move, parse_move
from rattus_net.kit.errors import RecordError, SetupError
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import settle
from rattus_net.kit.record import loads_json, move_lines, parse_move_lines, pretty, replay_moves

FORMAT = "rattus-record"
VERSION = 2


@dataclass
class CardOrder:
    """The card order a record fixes; ``None`` fields are not fixed (filled by ``seed``)."""

    nun_row: list[int] | None = None
    hands: list[list[int]] | None = None
    deck: list[int] | None = None
    replacement: list[int] | None = None
    building_deck: list[int] | None = None
    reshuffles: list[list[int]] = field(default_factory=list)


@dataclass
class GameRecord:
    """A game's setup and decisions. ``moves`` are ``(seat, move)`` in the order made."""

    players: tuple[str, ...]
    buildings: tuple[int, ...]
    first_player: int
    selection: str = "list"
    simultaneous_supply: bool = False
    plague_survivors: bool = False
    seed: int = 0
    order: CardOrder = field(default_factory=CardOrder)
    moves: list[tuple[int, Move]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    # --- building from a game -----------------------------------------------------------------

    @staticmethod
    def from_game(game: Game, table: LocalTable) -> GameRecord:
        """The record of a game played on a local table (the table knows the card order)."""
        n = game.n
        shuffles = table.chance.shuffles
        population = next(o for pile, o in shuffles if pile == "population")
        buildings = next(o for pile, o in shuffles if pile == "buildings")
        per = D.START_HAND
        r = game.plan.replacement
        order = CardOrder(
            nun_row=list(population[: D.NUN_ROW]),
            hands=[
                list(population[D.NUN_ROW + s * per : D.NUN_ROW + (s + 1) * per]) for s in range(n)
            ],
            deck=list(population[D.NUN_ROW + n * per :]),
            replacement=list(buildings[:r]),
            building_deck=list(buildings[r:]),
            reshuffles=[list(o) for pile, o in shuffles if pile == "discard"],
        )
        rec = GameRecord(
            players=game.config.players,
            buildings=game.buildings_in_game,
            first_player=game.first_player,
            selection=game.config.buildings.method.value,
            simultaneous_supply=game.config.simultaneous_supply,
            plague_survivors=game.config.plague_survivors,
            order=order,
            moves=_face_moves(game),
        )
        if game.is_over:
            rec.result = result_summary(game)
        return rec

    # --- replay -------------------------------------------------------------------------------

    def config(self) -> GameConfig:
        try:
            return GameConfig(
                players=self.players,
                buildings=BuildingSelection.of_cards(list(self.buildings)),
                simultaneous_supply=self.simultaneous_supply,
                first_player=self.first_player,
                plague_survivors=self.plague_survivors,
            )
        except SetupError as exc:
            raise RecordError(f"bad setup: {exc}") from None

    def table(self) -> LocalTable:
        """A local table that deals the record's card order."""
        n = len(self.players)
        rng = random.Random(self.seed)
        o = self.order
        population = _complete_population(o, n, rng)
        plan = D.ROUND_PLAN[n]
        buildings = _complete_buildings(o, list(self.buildings), plan.replacement, rng)
        return LocalTable(
            seed=self.seed,
            script_shuffles={
                "population": [tuple(population)],
                "buildings": [tuple(buildings)],
                "discard": [tuple(x) for x in o.reshuffles],
            },
        )

    def replay(self, upto: int | None = None) -> tuple[Game, LocalTable]:
        """Play the record's moves (the first ``upto`` of them) and return the game where it
        stops. Raises ``RecordError`` naming the move that does not fit."""
        game = Game(self.config())
        table = self.table()
        try:
            settle(game, table)
        except SetupError as exc:
            raise RecordError(str(exc)) from None
        moves = self.moves if upto is None else self.moves[:upto]
        replay_moves(game, table, self.players, moves, format_move)
        if upto is None and self.result is not None:
            if not game.is_over:
                raise RecordError(f"the record states a result but stops in round {game.round}")
            _compare_results(self.result, result_summary(game))
        if upto is None and game.is_over:
            used = sum(1 for pile, _ in table.chance.shuffles if pile == "discard")
            if len(self.order.reshuffles) > used:
                raise RecordError(
                    f"cards.reshuffles[{used}] is never used: the game reshuffles the discard "
                    f"pile {used} time(s)"
                )
        return game, table

    # --- text ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        o = self.order
        cards: dict[str, Any] = {}
        if o.nun_row is not None:
            cards["nun_row"] = _codes(o.nun_row)
        if o.hands is not None:
            cards["hands"] = {self.players[s]: _codes(h) for s, h in enumerate(o.hands)}
        if o.deck is not None:
            cards["deck"] = _codes(o.deck)
        if o.replacement is not None:
            cards["replacement_deck"] = [D.building_card_code(c) for c in o.replacement]
        if o.building_deck is not None:
            cards["building_deck"] = [D.building_card_code(c) for c in o.building_deck]
        if o.reshuffles:
            cards["reshuffles"] = [_codes(r) for r in o.reshuffles]
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "players": list(self.players),
            "options": {
                "building_selection": self.selection,
                "simultaneous_supply": self.simultaneous_supply,
                "plague_survivors": self.plague_survivors,
            },
            "buildings": [D.building_card_code(c) for c in sorted(self.buildings)],
            "first_player": self.players[self.first_player],
            "seed": self.seed,
            "cards": cards,
            "moves": move_lines(self.players, self.moves, format_move),
        }
        if self.result is not None:
            out["result"] = self.result
        return out

    def dumps(self) -> str:
        """Stable text: one key per line, short lists on one line, one move per line."""
        return pretty(self.to_dict()) + "\n"

    @staticmethod
    def loads(text: str) -> GameRecord:
        return GameRecord.from_dict(loads_json(text))

    @staticmethod
    def from_dict(obj: Any) -> GameRecord:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f'not a game record: "format" must be "{FORMAT}"')
        version = obj.get("version")
        if version == 1:
            raise RecordError(
                "record version 1 was written before actions became optional (ruling 17) "
                "and cannot be replayed by this program (it reads version 2)"
            )
        if isinstance(version, bool) or version != VERSION:
            raise RecordError(f"unsupported record version {version!r}")
        players = obj.get("players")
        if (
            not isinstance(players, list)
            or not all(isinstance(p, str) for p in players)
            or not D.MIN_PLAYERS <= len(players) <= D.MAX_PLAYERS
            or len(set(players)) != len(players)
        ):
            raise RecordError('"players" must list 2 to 5 different names')
        names = {p: i for i, p in enumerate(players)}
        opts = _field(obj, "options", dict, {})
        selection = opts.get("building_selection", "first-game")
        buildings_text = _field(obj, "buildings", list, None)
        if buildings_text is not None:
            buildings = tuple(_building_cards(buildings_text, "buildings"))
        elif selection == SelectionMethod.FIRST_GAME.value:
            buildings = tuple(sorted(c for b in D.FIRST_GAME for c in D.building_cards(b)))
        else:
            raise RecordError('"buildings" must list the 30 building cards of the game')
        first = obj.get("first_player", players[0])
        if first not in names:
            raise RecordError(f'"first_player" {first!r} is not one of the players')
        seed = obj.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RecordError(f'"seed" must be an integer, not {json.dumps(seed)}')
        cards = _field(obj, "cards", dict, {})
        unknown = sorted(set(cards) - _CARD_KEYS)
        if unknown:
            raise RecordError(
                f"cards.{unknown[0]} is not a card list of this format "
                f"(known: {', '.join(sorted(_CARD_KEYS))})"
            )
        order = CardOrder()
        if "nun_row" in cards:
            order.nun_row = _faces(cards["nun_row"], "cards.nun_row")
            if len(order.nun_row) != D.NUN_ROW:
                raise RecordError("cards.nun_row must hold 5 cards")
        if "hands" in cards:
            hands = cards["hands"]
            if not isinstance(hands, dict) or set(hands) != set(players):
                raise RecordError("cards.hands must give a hand for every player, by name")
            order.hands = [_faces(hands[p], f"cards.hands.{p}") for p in players]
            if any(len(h) != D.START_HAND for h in order.hands):
                raise RecordError("each starting hand in cards.hands must hold 5 cards")
        if "deck" in cards:
            order.deck = _faces(cards["deck"], "cards.deck")
        if "replacement_deck" in cards:
            order.replacement = _building_cards(cards["replacement_deck"], "cards.replacement_deck")
        if "building_deck" in cards:
            order.building_deck = _building_cards(cards["building_deck"], "cards.building_deck")
        if "reshuffles" in cards:
            if not isinstance(cards["reshuffles"], list):
                raise RecordError("cards.reshuffles must be a list of card lists")
            order.reshuffles = [
                _faces(r, f"cards.reshuffles[{i}]") for i, r in enumerate(cards["reshuffles"])
            ]
            _check_reshuffles(order)
        moves = parse_move_lines(obj.get("moves", []), players, parse_move)
        result = obj.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError('"result" must be an object')
        return GameRecord(
            players=tuple(players),
            buildings=buildings,
            first_player=names[first],
            selection=str(selection),
            simultaneous_supply=bool(opts.get("simultaneous_supply", False)),
            plague_survivors=bool(opts.get("plague_survivors", False)),
            seed=seed,
            order=order,
            moves=moves,
            result=result,
        )


_CARD_KEYS = frozenset(
    {"nun_row", "hands", "deck", "replacement_deck", "building_deck", "reshuffles"}
)
_RESULT_KEYS = ("vp", "rats", "nuns", "dead", "winners")


def _check_reshuffles(order: CardOrder) -> None:
    """Each reshuffle, used by the game or not, must be a possible discard pile: some cards,
    none of them more often than the population minus the nun row (which is never
    discarded) holds."""
    pool = Counter(D.population_faces())
    if order.nun_row is not None:
        pool.subtract(order.nun_row)
    for i, faces in enumerate(order.reshuffles):
        where = f"cards.reshuffles[{i}]"
        if not faces:
            raise RecordError(f"{where} is empty: only a discard pile with cards is reshuffled")
        for f, k in Counter(faces).items():
            if k > pool[f]:
                raise RecordError(f"{where}: more {D.face_code(f)} cards than can be discarded")


def _compare_results(stated: dict[str, Any], actual: dict[str, Any]) -> None:
    """Refuse a stated result that differs from the replayed one, naming the field and both
    values."""
    for key in sorted(set(stated) - set(actual)):
        raise RecordError(f'"result.{key}" is not a field of a result')
    for key in _RESULT_KEYS:
        if key not in stated:
            raise RecordError(f'"result" lacks "{key}" (the moves give {json.dumps(actual[key])})')
        if stated[key] != actual[key]:
            raise RecordError(
                f'"result.{key}" says {json.dumps(stated[key], ensure_ascii=False)} but the '
                f"moves give {json.dumps(actual[key], ensure_ascii=False)}"
            )


def result_summary(game: Game) -> dict[str, Any]:
    """The result as stored in a record: VP, rats, deaths and winners by name."""
    r = game.result
    assert r is not None
    names = game.config.players
    return {
        "vp": dict(zip(names, r.totals, strict=True)),
        "rats": dict(zip(names, r.rats, strict=True)),
        "nuns": r.nuns,
        "dead": [names[s] for s in range(game.n) if r.dead[s]],
        "winners": [names[s] for s in r.winners],
    }


def _face_moves(game: Game) -> list[tuple[int, Move]]:
    """The game's moves by face. A peer that received other players' moves as handles must
    first learn those faces (see the protocol's transcript) before it can write a record."""
    out: list[tuple[int, Move]] = []
    for seat, move in game.history:
        if not isinstance(move, Move):
            raise RecordError("this game's history has moves whose cards this peer never saw")
        out.append((seat, move))
    return out


def _codes(faces: list[int]) -> list[str]:
    return [D.face_code(f) for f in faces]


def _field(obj: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    value = obj.get(key, default)
    if value is not default and not isinstance(value, kind):
        raise RecordError(f'"{key}" must be a {kind.__name__}')
    return value


def _parsed(
    items: Any, where: str, what: str, parse: Callable[[Any], int], hint: str = ""
) -> list[int]:
    """``items``, a list of ``what`` by name, parsed one by one with ``parse``."""
    if not isinstance(items, list):
        raise RecordError(f"{where} must be a list of {what}s")
    out = []
    for item in items:
        try:
            out.append(parse(item))
        except (KeyError, TypeError):
            raise RecordError(f"{where}: unknown {what} {item!r}{hint}") from None
    return out


def _faces(items: Any, where: str) -> list[int]:
    out = _parsed(items, where, "card", D.parse_face)
    for item, face in zip(items, out, strict=True):
        if face >= D.JOKER:
            raise RecordError(f"{where}: {item} is not a population card")
    return out


def _building_cards(items: Any, where: str) -> list[int]:
    return _parsed(items, where, "building card", D.parse_building_card, " (e.g. Farm/A)")


def _take(pool: Counter[int], faces: list[int], where: str) -> None:
    for f in faces:
        if pool[f] <= 0:
            raise RecordError(f"{where}: more {D.face_code(f)} cards than the game has")
        pool[f] -= 1


def _complete_population(order: CardOrder, n: int, rng: random.Random) -> list[int]:
    """The 84-card population order (nun row, hands in seat order, deck), filling what the
    record leaves open from the remaining cards in ``rng`` order."""
    pool = Counter(D.population_faces())
    fixed = [order.nun_row, *(order.hands or []), order.deck]
    for part, where in zip(
        fixed, ["nun row", *[f"hand {s + 1}" for s in range(n)], "deck"], strict=False
    ):
        if part is not None:
            _take(pool, part, f"cards.{where}")
    rest = sorted(pool.elements())
    rng.shuffle(rest)
    nun_row = order.nun_row if order.nun_row is not None else [rest.pop() for _ in range(D.NUN_ROW)]
    hands = order.hands or [[rest.pop() for _ in range(D.START_HAND)] for _ in range(n)]
    deck = (order.deck or []) + rest
    return nun_row + [f for h in hands for f in h] + deck


def _complete_buildings(
    order: CardOrder, chosen: list[int], replacement: int, rng: random.Random
) -> list[int]:
    pool = Counter(chosen)
    for part, where in (
        (order.replacement, "replacement_deck"),
        (order.building_deck, "building_deck"),
    ):
        if part is not None:
            for c in part:
                if pool[c] <= 0:
                    raise RecordError(
                        f"cards.{where}: {D.building_card_code(c)} is not among the game's "
                        "buildings, or is listed twice"
                    )
                pool[c] -= 1
    rest = sorted(pool.elements())
    rng.shuffle(rest)
    repl = (
        order.replacement
        if order.replacement is not None
        else [rest.pop() for _ in range(min(replacement, len(rest)))]
    )
    if len(repl) != replacement:
        raise RecordError(
            f"cards.replacement_deck must hold {replacement} cards for this player count"
        )
    deck = (order.building_deck or []) + rest
    return repl + deck
