"""Rattus Cartus as the network table plays it (``rattus_net.kit.interface.SecureGame``).

Its hidden parts: the population deck and the nun row (masked and shuffled), the hands (mixed
after they gain cards: ``GameConfig.mix_hands``), the cards laid face down when entering a
building (a move with a hidden part: committed, opened at the ``Open`` request) and the
simultaneous supply choice (a committed decision). The building pile is drawn by commit-reveal
(``drawn_piles``): its faces are public once turned up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus import moves as mv
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.record import CardOrder, GameRecord, result_summary
from rattus_net.kit.errors import IllegalMove, RattusNetError
from rattus_net.kit.interface import OpenedGame, SecureGame, WireError, WireValue

_CONFIG_KEYS = frozenset(
    {"players", "buildings", "simultaneous_supply", "first_player", "plague_survivors"}
)
_MOVE_KEYS = {
    "supply": {"t", "c", "l"},
    "enter": {"t", "b", "n", "c"},
    "pass": {"t", "h"},
    "give": {"t", "h"},
    "discard": {"t", "h"},
    "look": {"t", "p"},
    "choose": {"t", "p"},
    "take": {"t"},
    "decline": {"t"},
}


def _int(value: WireValue, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WireError(f"{what} must be an integer in [{low}, {high}]")
    return value


def _ints(value: WireValue, what: str, limit: int = 64) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > limit:
        raise WireError(f"{what} must be a short list of integers")
    return tuple(_int(v, what, 0, 1 << 20) for v in value)


class CartusSecure(SecureGame[GameConfig, Game, mv.Move]):
    """Rattus Cartus behind the network table's interface (see the module docstring)."""

    name = "cartus"
    drawn_piles = frozenset({"buildings"})

    def face_codes(self) -> Sequence[int]:
        # Population cards, and building cards (a card taken openly from a supply pile is
        # masked when its hand is mixed).
        return [*range(D.FACE_COUNT), *(c for b in D.Building for c in D.building_cards(b))]

    # --- parameters ---------------------------------------------------------------------------

    def config_to_wire(self, config: GameConfig) -> dict[str, WireValue]:
        wire: dict[str, WireValue] = {
            "players": list(config.players),
            "buildings": config.buildings.describe(),
            "simultaneous_supply": config.simultaneous_supply,
            "first_player": config.first_player,
            "plague_survivors": config.plague_survivors,
        }
        if config.colours:
            wire["colours"] = list(config.colours)
        return wire

    def config_from_wire(self, value: Mapping[str, WireValue]) -> GameConfig:
        if set(value) - {"colours"} != _CONFIG_KEYS:
            raise WireError("the Rattus Cartus options are not the agreed keys")
        colours = value.get("colours", [])
        if not isinstance(colours, list) or not all(isinstance(c, str) for c in colours):
            raise WireError("colours must be a list of colour names")
        players = value["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise WireError("players must be a list of names")
        sel, first = value["buildings"], value["first_player"]
        simult, plague = value["simultaneous_supply"], value["plague_survivors"]
        if not isinstance(sel, str) or not isinstance(simult, bool):
            raise WireError("bad building selection or options")
        if not isinstance(plague, bool):
            raise WireError("bad plague option")
        if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
            raise WireError("first player must be a seat or nil")
        try:
            return GameConfig(
                players=tuple(str(p) for p in players),
                buildings=BuildingSelection.parse(sel),
                simultaneous_supply=simult,
                first_player=first,
                plague_survivors=plague,
                mix_hands=True,  # every secure game mixes hands (docs/protocol.md section 4)
                colours=tuple(str(c) for c in colours if isinstance(c, str)),
            )
        except RattusNetError as exc:
            raise WireError(f"bad game configuration: {exc}") from None

    def secure_config(self, config: GameConfig) -> GameConfig:
        """Hands are mixed after they gain cards, so that no handle tells where a card
        came from (``GameConfig.mix_hands``)."""
        return config if config.mix_hands else replace(config, mix_hands=True)

    def new_game(self, config: GameConfig) -> Game:
        return Game(config)

    # --- moves --------------------------------------------------------------------------------

    def public_move(
        self, game: Game, seat: int, move: mv.Move
    ) -> tuple[mv.Move | mv.HandleMove, tuple[int, ...] | None]:
        public, handles = game.to_handles(seat, move)
        return public, (handles if isinstance(move, mv.Enter) else None)

    def move_to_wire(
        self, move: mv.Move | mv.HandleMove, commitment: bytes | None = None
    ) -> dict[str, WireValue]:
        match move:
            case mv.Supply(card, looks):
                return {"t": "supply", "c": card, "l": list(looks)}
            case mv.EnterHidden(building, count):
                if commitment is None:
                    raise ValueError("entering needs the commitment to the laid handles")
                return {"t": "enter", "b": building, "n": count, "c": commitment}
            case mv.PassHandle(handle):
                return {"t": "pass", "h": handle}
            case mv.GiveHandles(handles):
                return {"t": "give", "h": list(handles)}
            case mv.DiscardHandles(handles):
                return {"t": "discard", "h": list(handles)}
            case mv.Look(positions):
                return {"t": "look", "p": list(positions)}
            case mv.ChoosePlayer(player):
                return {"t": "choose", "p": player}
            case mv.TakeAction():
                return {"t": "take"}
            case mv.DeclineAction():
                return {"t": "decline"}
        raise ValueError(f"this move has no wire form: {move!r}")

    def move_from_wire(self, value: WireValue) -> tuple[mv.Move | mv.HandleMove, bytes | None]:
        if not isinstance(value, dict) or not isinstance(value.get("t"), str):
            raise WireError("a move is a map with a type")
        t = value["t"]
        keys = _MOVE_KEYS.get(str(t))
        if keys is None or set(value) != keys:
            raise WireError(f"malformed {t!r} move")
        if t == "supply":
            return mv.Supply(_int(value["c"], "card", 0, 64), _ints(value["l"], "looks")), None
        if t == "enter":
            move = mv.EnterHidden(
                _int(value["b"], "building", 0, 64), _int(value["n"], "count", 0, 200)
            )
            c = value["c"]
            if not isinstance(c, bytes) or len(c) != 32:
                raise WireError("commitment must be 32 bytes")
            return move, c
        if t == "pass":
            return mv.PassHandle(_int(value["h"], "handle", 0, 1 << 20)), None
        if t == "give":
            return mv.GiveHandles(_ints(value["h"], "handles", 200)), None
        if t == "discard":
            return mv.DiscardHandles(_ints(value["h"], "handles", 200)), None
        if t == "look":
            return mv.Look(_ints(value["p"], "positions")), None
        if t == "take":
            return mv.TakeAction(), None
        if t == "decline":
            return mv.DeclineAction(), None
        return mv.ChoosePlayer(_int(value["p"], "player", 0, 64)), None

    def committed(self, game: Game) -> bool:
        d = game.decision
        return (
            d is not None and d.kind is mv.DecisionKind.SUPPLY and game.config.simultaneous_supply
        )

    def check_committed(self, game: Game, seat: int, move: mv.Move) -> None:
        if not isinstance(move, mv.Supply):
            raise IllegalMove("a supply choice is expected")
        game.check_supply(seat, move)

    def hand_handles(self, move: Any, opened: tuple[int, ...]) -> tuple[int, ...]:
        if isinstance(move, mv.GiveHandles | mv.DiscardHandles):
            return tuple(move.handles)
        if isinstance(move, mv.PassHandle):
            return (move.handle,)
        if isinstance(move, mv.EnterHidden):
            return opened
        return ()

    # --- the result ---------------------------------------------------------------------------

    def result_summary(self, game: Game) -> dict[str, Any]:
        return result_summary(game)

    def face_record(self, opened: OpenedGame) -> GameRecord:
        return face_record(opened)

    def verdict_lines(
        self, checks: Mapping[str, int], result: Mapping[str, Any] | None
    ) -> list[str]:
        lines = [
            f"{checks['messages']} signed messages, {checks['shuffles_verified']} shuffle "
            f"proofs, {checks['mixes_verified']} hand-mixing proofs, "
            f"{checks['shares_verified']} decryption-share proofs checked"
        ]
        if checks["draws"]:
            lines.append(f"{checks['draws']} building draws (commit-reveal rounds) checked")
        if result is not None:
            lines.append(f"result: {result_sentence(result)}")
        return lines


def result_sentence(result: Mapping[str, Any]) -> str:
    """A record's result (``result_summary``) as a sentence: ``Ann 47 VP, Bob 25 VP; Ann
    wins`` (most victory points first; a shared win, or nobody's, said so)."""
    vp = sorted(result["vp"].items(), key=lambda item: -int(item[1]))
    points = ", ".join(f"{name} {total} VP" for name, total in vp)
    winners = [str(w) for w in result["winners"]]
    if not winners:
        return f"{points}; nobody wins"
    if len(winners) == 1:
        return f"{points}; {winners[0]} wins"
    return f"{points}; {', '.join(winners[:-1])} and {winners[-1]} share the win"


def face_record(opened: OpenedGame) -> GameRecord:
    """The face-level engine record of a finished, verified secure game."""
    g: Game = opened.public
    faces = opened.faces
    n = g.n
    orders = list(opened.shuffles)
    population = next(o for pile, o in orders if pile == "population")
    buildings = next(o for pile, o in orders if pile == "buildings")
    per, r = D.START_HAND, g.plan.replacement
    order = CardOrder(
        nun_row=list(population[: D.NUN_ROW]),
        hands=[list(population[D.NUN_ROW + s * per : D.NUN_ROW + (s + 1) * per]) for s in range(n)],
        deck=list(population[D.NUN_ROW + n * per :]),
        replacement=list(buildings[:r]),
        building_deck=list(buildings[r:]),
        reshuffles=[list(o) for pile, o in orders if pile == "discard"],
    )

    def face(h: int) -> int:
        # From its ciphertext, or public (supply cards) in the public engine.
        return faces[h] if h in faces else int(g.faces[h])

    moves: list[tuple[int, mv.Move]] = []
    for i, (seat, move) in enumerate(g.history):
        face_move: mv.Move
        if isinstance(move, mv.EnterHidden):
            handles = opened.openings.get(i, ())
            face_move = mv.Enter(move.building, tuple(sorted(face(h) for h in handles)))
        elif isinstance(move, mv.PassHandle):
            face_move = mv.PlayPass()
        elif isinstance(move, mv.GiveHandles):
            face_move = mv.Give(tuple(sorted(face(h) for h in move.handles)))
        elif isinstance(move, mv.DiscardHandles):
            face_move = mv.Discard(tuple(sorted(face(h) for h in move.handles)))
        else:
            face_move = move
        moves.append((seat, face_move))
    c: GameConfig = opened.config
    return GameRecord(
        players=c.players,
        buildings=g.buildings_in_game,
        first_player=g.first_player,
        selection=c.buildings.method.value,
        simultaneous_supply=c.simultaneous_supply,
        plague_survivors=c.plague_survivors,
        order=order,
        moves=moves,
        result=result_summary(g),
    )
