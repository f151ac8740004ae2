"""Rattus Cartus behind the game interface: a thin adapter over ``rattus_net.engine``.

The Cartus engine stays where it is (``rattus_net/engine``); this module only forwards to it,
so Rattus Cartus behaves exactly as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rattus_net.engine.errors import RattusError, SetupError
from rattus_net.games.base import GameDefinition, Outcome, TableOptionError
from rattus_net.games.cartus.choices import ChoiceSpace
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.local import LocalTable
from rattus_net.games.cartus.moves import Move, format_move, parse_move
from rattus_net.games.cartus.secure import CartusSecure
from rattus_net.games.cartus.tablewords import CartusWords
from rattus_net.games.cartus.view import PlayerView


class CartusGame(GameDefinition):
    """Rattus Cartus, 2 to 5 players. Options: ``buildings`` (a ``BuildingSelection`` or its
    text), ``simultaneous_supply``, ``plague_survivors``."""

    name = "cartus"
    title = "Rattus Cartus"
    min_players = 2
    max_players = 5
    network_play = True
    table_options = frozenset({"buildings", "simultaneous_supply"})
    """At a network table: the building selection (its text) and the simultaneous supply."""

    def new_game(self, players: Sequence[str], options: Mapping[str, Any] | None = None) -> Game:
        opts = dict(options or {})
        selection = opts.pop("buildings", BuildingSelection.first_game())
        if isinstance(selection, str):
            selection = BuildingSelection.parse(selection)
        try:
            return Game(GameConfig(tuple(players), selection, **opts))
        except TypeError:
            raise SetupError(
                f"unknown Rattus Cartus option(s): {', '.join(sorted(opts))}"
            ) from None

    def local_table(self, seed: int | None) -> LocalTable:
        return LocalTable(seed)

    def view(self, game: Game, seat: int) -> PlayerView:
        return PlayerView(game, seat)

    def legal(self, game: Game, seat: int) -> ChoiceSpace | list[Move]:
        if seat not in game.to_act():
            return []
        return PlayerView(game, seat).legal()

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def secure(self) -> CartusSecure:
        return CartusSecure()

    def check_table_options(self, options: Mapping[str, Any]) -> None:
        try:
            BuildingSelection.parse(options["buildings"])
        except (RattusError, ValueError) as exc:
            raise TableOptionError(f"bad building selection: {exc}") from None

    def network_config(
        self, players: Sequence[str], colours: Sequence[str], options: Mapping[str, Any]
    ) -> GameConfig:
        return GameConfig(
            players=tuple(players),
            buildings=BuildingSelection.parse(options["buildings"]),
            simultaneous_supply=bool(options["simultaneous_supply"]),
            colours=tuple(colours),
        )

    def progress(self, game: Game) -> tuple[int, str]:
        """Rattus Cartus plays the rounds of its plan."""
        return game.round, f"round {game.round} of {game.plan.rounds}"

    def table_words(self, names: Sequence[str], seat: int) -> CartusWords:
        return CartusWords(names, seat)

    def outcome(self, game: Game) -> Outcome | None:
        r = game.result
        if r is None:
            return None
        names = game.config.players
        lines = tuple(
            f"{names[s]}: {r.totals[s]} VP, {r.rats[s]} rats" + (" (dead)" if r.dead[s] else "")
            for s in range(game.n)
        )
        return Outcome(tuple(r.winners), tuple(r.totals), lines)
