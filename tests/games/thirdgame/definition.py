"""Nibble behind the kit's game interface (``rattus_net/kit/interface.py``): what the shared
commands, records, bots, network table and TUI use of it."""

from __future__ import annotations

from collections.abc import Sequence

from games.thirdgame.bots import make_bot
from games.thirdgame.game import Move, NibbleConfig, NibbleGame, format_move, parse_move
from games.thirdgame.record import NibbleRecord
from games.thirdgame.secure import NibbleSecure
from games.thirdgame.view import NibbleView
from games.thirdgame.words import (
    NibbleSelfplay,
    NibbleWords,
    outcome_lines,
    state_dict,
    state_text,
)
from rattus_net.kit.chance import ChanceSource
from rattus_net.kit.gametype import GameType
from rattus_net.kit.interface import GameDefinition, Outcome, Table
from rattus_net.kit.local import LocalTable
from rattus_net.kit.options import OptionValues


class NibbleDefinition(GameDefinition[NibbleConfig, NibbleGame, Move, NibbleView]):
    """Nibble, 2 or 3 players, no options; played offline, by bots and on the network."""

    name = "nibble"
    title = "Nibble"
    min_players = 2
    max_players = 3
    order = 90
    game_type = GameType(network_play=True, turns_of_steps=False)  # (a turn: one decision)
    parse_move = staticmethod(parse_move)
    format_move = staticmethod(format_move)
    make_bot = staticmethod(make_bot)

    def configure(self, players: Sequence[str], values: OptionValues) -> NibbleConfig:
        self.options.complete(values)  # (refuses any option: Nibble has none)
        return NibbleConfig(tuple(players))

    def new_game(self, config: NibbleConfig) -> NibbleGame:
        return NibbleGame(config)

    def local_table(self, seed: int | None, chance: ChanceSource | None = None) -> LocalTable:
        return LocalTable(seed, chance_source=chance)

    def view(self, game: NibbleGame, seat: int) -> NibbleView:
        return NibbleView(game, seat)

    def legal(self, game: NibbleGame, seat: int) -> list[Move]:
        return game.legal(seat)

    def outcome(self, game: NibbleGame) -> Outcome | None:
        r = game.result
        if r is None:
            return None
        return Outcome(r.winners, r.scores, tuple(outcome_lines(game)))

    def progress(self, game: NibbleGame) -> tuple[int, str]:
        return game.round, f"round {game.round} of 3"

    def record_of(self, game: NibbleGame, table: Table, values: OptionValues) -> str:
        assert isinstance(table, LocalTable)
        return NibbleRecord.from_game(game, table).dumps()

    def read_record(self, text: str, values: OptionValues) -> NibbleRecord:
        return NibbleRecord.loads(text)

    def state_text(self, game: NibbleGame) -> str:
        return state_text(game)

    def state_dict(self, game: NibbleGame) -> dict[str, object]:
        return state_dict(game)

    def selfplay_words(self, players: int) -> NibbleSelfplay:
        return NibbleSelfplay(players)

    def secure(self) -> NibbleSecure:
        return NibbleSecure()

    def network_config(
        self, players: Sequence[str], colours: Sequence[str], values: OptionValues
    ) -> NibbleConfig:
        return self.configure(players, values)

    def table_words(self, names: Sequence[str], seat: int) -> NibbleWords:
        return NibbleWords(names, seat)
