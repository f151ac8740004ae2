"""Rattus Cartus behind the kit's game interface (``rattus_net/kit/interface.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from rattus_net.games.cartus import report
from rattus_net.games.cartus.bots import make_bot
from rattus_net.games.cartus.choices import ChoiceSpace
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.data import BUILDING_NAMES, SPECIAL_NAMES, Klass
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move, format_move, parse_move
from rattus_net.games.cartus.record import GameRecord
from rattus_net.games.cartus.secure import CartusSecure
from rattus_net.games.cartus.tablewords import CartusWords
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.chance import ChanceSource
from rattus_net.kit.gametype import GameType
from rattus_net.kit.interface import GameDefinition, Outcome, Table
from rattus_net.kit.local import LocalTable
from rattus_net.kit.options import Option, OptionSchema, OptionValue, OptionValues

SELECTIONS = ("first-game", "random-buildings", "random-cards")
_NAMED = (*(k.label for k in Klass), *SPECIAL_NAMES.values(), *BUILDING_NAMES)
WORDS = frozenset(w.lower() for w in (*_NAMED, "Cartus", "supply", "supplies", "nun", "nuns"))
"""The game's own words (its classes, special cards, buildings, supplies and nuns), which
shared code never uses."""


def _selection(text: str) -> str:
    """A building selection's text, checked and in its one form (``SetupError`` if bad)."""
    return BuildingSelection.parse(text).describe()


def building_words(value: OptionValue) -> str:
    """``random cards`` for ``random-cards`` (a list of buildings stays as it is)."""
    return str(value).replace("-", " ")


OPTIONS = OptionSchema(
    (
        Option(
            "buildings",
            str,
            "random-cards",
            help="Rattus Cartus: first-game, random-buildings, random-cards, or six buildings "
            "/ 30 cards (default: first-game to play, random-cards for bots and tables; with 2 "
            "players random-cards leaves out the Guard Tower, as the rulebook advises)",
            label="Buildings",
            values=SELECTIONS,
            check=_selection,
            flag="--buildings",
            lobby_key="buildings",
            play_default="first-game",
            words=building_words,
            key="g",
        ),
        Option(
            "simultaneous_supply",
            bool,
            False,
            help="Rattus Cartus: everyone chooses a supply action at once (default: in turn)",
            label="Supplies",
            flag="--simultaneous-supply",
            commands=frozenset({"selfplay", "host"}),
            lobby_key="simultaneous",
            words=lambda v: "simultaneous" if v else "in turn",
            phrase="supplies {}",
            key="s",
        ),
    )
)


class CartusGame(GameDefinition[GameConfig, Game, Move, PlayerView]):
    """Rattus Cartus, 2 to 5 players. Options: ``buildings`` (a building selection's text)
    and ``simultaneous_supply``."""

    name = "cartus"
    title = "Rattus Cartus"
    min_players = 2
    max_players = 5
    order = 10
    options = OPTIONS
    parse_move = staticmethod(parse_move)
    format_move = staticmethod(format_move)
    make_bot = staticmethod(make_bot)
    game_type = GameType(
        records_named=False,  # (the first game: its face-level records name none)
        network_play=True,
        turns_of_steps=False,  # (every decision is a turn of its own: nothing to undo)
        step_words=MappingProxyType(
            {
                "commit-moves": "Choosing supplies",
                "open-moves": "Showing supply choices",
                "private-mix": "Mixing a hand",
            }
        ),
        words=WORDS,
    )

    def configure(self, players: Sequence[str], values: OptionValues) -> GameConfig:
        v = self.options.complete(values)
        return GameConfig(
            tuple(players),
            BuildingSelection.parse(str(v["buildings"])).for_players(len(players)),
            simultaneous_supply=bool(v["simultaneous_supply"]),
        )

    def new_game(self, config: GameConfig) -> Game:
        return Game(config)

    def local_table(self, seed: int | None, chance: ChanceSource | None = None) -> LocalTable:
        return LocalTable(seed, chance_source=chance)

    def view(self, game: Game, seat: int) -> PlayerView:
        return PlayerView(game, seat)

    def legal(self, game: Game, seat: int) -> ChoiceSpace | list[Move]:
        if seat not in game.to_act():
            return []
        return PlayerView(game, seat).legal()

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

    def tie_break(self, game: Game, names: Sequence[str], seat: int | None) -> str | None:
        r = game.result
        return None if r is None else report.decided_text(r, names)

    def progress(self, game: Game) -> tuple[int, str]:
        """Rattus Cartus plays the rounds of its plan."""
        return game.round, f"round {game.round} of {game.plan.rounds}"

    # --- records and reports ----------------------------------------------------------------

    def record_of(self, game: Game, table: Table, values: OptionValues) -> str:
        assert isinstance(table, LocalTable)
        return GameRecord.from_game(game, table).dumps()

    def read_record(self, text: str, values: OptionValues) -> GameRecord:
        return GameRecord.loads(text)

    def state_text(self, game: Game) -> str:
        return report.state_text(game)

    def state_dict(self, game: Game) -> dict[str, object]:
        return report.state_dict(game)

    def selfplay_words(self, players: int) -> report.CartusSelfplay:
        return report.CartusSelfplay(players)

    # --- the network table ------------------------------------------------------------------

    def secure(self) -> CartusSecure:
        return CartusSecure()

    def network_config(
        self, players: Sequence[str], colours: Sequence[str], values: OptionValues
    ) -> GameConfig:
        v = self.options.complete(values)
        return GameConfig(
            players=tuple(players),
            buildings=BuildingSelection.parse(str(v["buildings"])).for_players(len(players)),
            simultaneous_supply=bool(v["simultaneous_supply"]),
            colours=tuple(colours),
        )

    def table_words(self, names: Sequence[str], seat: int) -> CartusWords:
        return CartusWords(names, seat)
