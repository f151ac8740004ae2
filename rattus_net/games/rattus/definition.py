"""Rattus (the board game) behind the game interface (``rattus_net/games/base.py``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rattus_net.games.base import GameDefinition, Outcome
from rattus_net.games.rattus.components import Components
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.local import RattusTable
from rattus_net.games.rattus.moves import Move, format_move, parse_move
from rattus_net.games.rattus.person import Persons
from rattus_net.games.rattus.report import result_text
from rattus_net.games.rattus.rules import legal
from rattus_net.games.rattus.secure import RULES, RattusSecure
from rattus_net.games.rattus.tablewords import RattusWords
from rattus_net.games.rattus.view import RattusView


class RattusDefinition(GameDefinition):
    """Rattus, 2 to 4 players. Option ``components``: a checked :class:`Components` (the
    caller loads a user's file; without it the shipped components are used)."""

    name = "rattus"
    title = "Rattus"
    min_players = 2
    max_players = 4
    network_play = True
    network_version = RULES
    """2: struck cubes go back to the supply, the new end of the game and tie-break (issue
    19); a table of version 1 plays other rules, so it is refused (the game parameters carry
    the same number: ``secure.RULES``)."""

    def new_game(
        self, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> RattusGame:
        comps = (options or {}).get("components")
        if comps is None:
            from rattus_net.games.rattus.loader import default_components

            comps = default_components()
        assert isinstance(comps, Components)
        return RattusGame(RattusConfig(tuple(players), comps))

    def local_table(self, seed: int | None) -> RattusTable:
        return RattusTable(seed)

    def view(self, game: RattusGame, seat: int) -> RattusView:
        return RattusView(game, seat)

    def legal(self, game: RattusGame, seat: int) -> list[Move]:
        return legal(game, seat)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def secure(self) -> RattusSecure:
        return RattusSecure()

    def network_config(
        self, players: Sequence[str], colours: Sequence[str], options: Mapping[str, Any]
    ) -> RattusConfig:
        """A network table plays the shipped components (the game parameters carry their
        fingerprint); Rattus has no table option, and its seats no colour of their own."""
        from rattus_net.games.rattus.loader import default_components

        return RattusConfig(tuple(players), default_components())

    def progress(self, game: RattusGame) -> tuple[int, str]:
        """A round begins with each turn of the starting player (the game ends when the rat
        supply runs out, so the line says how many tokens it has left)."""
        first = game.first_player
        rounds = sum(1 for e in game.log if e.kind == "turn" and e.player == first)
        return rounds, f"round {rounds} (rat supply: {len(game.rat_supply)} tokens)"

    def table_words(self, names: Sequence[str], seat: int) -> RattusWords:
        return RattusWords(names, seat)

    def outcome(self, game: RattusGame) -> Outcome | None:
        r = game.result
        if r is None:
            return None
        lines = result_text(r, Persons(game.config.players))
        return Outcome(r.winners, r.totals, tuple(line.strip() for line in lines))
