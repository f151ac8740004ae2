"""Rattus (the board game) behind the kit's game interface (``rattus_net/kit/interface.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from rattus_net.games.rattus.bots import make_bot
from rattus_net.games.rattus.components import CARDS
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.loader import (
    components_path,
    default_components,
    load_components,
    load_custom,
)
from rattus_net.games.rattus.moves import Move, format_move, parse_move
from rattus_net.games.rattus.person import Persons
from rattus_net.games.rattus.record import RattusRecord
from rattus_net.games.rattus.report import (
    RattusSelfplay,
    result_text,
    spectator_view,
    state_dict,
    state_text,
    winner_text,
)
from rattus_net.games.rattus.rules import legal
from rattus_net.games.rattus.secure import RULES, RattusSecure
from rattus_net.games.rattus.tablewords import RattusWords
from rattus_net.games.rattus.view import RattusView
from rattus_net.kit.chance import ChanceSource
from rattus_net.kit.gametype import GameType
from rattus_net.kit.interface import GameDefinition, Outcome, Table
from rattus_net.kit.local import LocalTable
from rattus_net.kit.options import Option, OptionSchema, OptionValues
from rattus_net.kit.record import loads_json

OPTIONS = OptionSchema(
    (
        Option(
            "components",
            str,
            "",
            help="Rattus: a components file (map and tokens) of your own; for replay, the "
            "components a record without its own uses",
            label="Components",
            flag="--components",
            commands=frozenset({"play", "selfplay", "replay"}),
            remember=False,
        ),
        Option(
            "text",
            bool,
            False,
            help="Rattus: the plain-text table instead of the map (also when not in a terminal)",
            label="Plain-text table",
            flag="--text",
            commands=frozenset({"play"}),
            configures=False,
            remember=False,
        ),
    )
)


class RattusDefinition(GameDefinition[RattusConfig, RattusGame, Move, RattusView]):
    """Rattus, 2 to 4 players. Option ``components``: a file of the player's own (the shipped
    components without it); ``text``: ``rattus play`` on the plain-text table."""

    name = "rattus"
    title = "Rattus"
    min_players = 2
    max_players = 4
    order = 20
    options = OPTIONS
    parse_move = staticmethod(parse_move)
    format_move = staticmethod(format_move)
    make_bot = staticmethod(make_bot)
    game_type = GameType(
        network_play=True,
        # 2: struck cubes go back to the supply, the new end of the game and tie-break (issue
        # 19); a table of version 1 plays other rules, so it is refused (the game parameters
        # carry the same number: ``secure.RULES``).
        network_version=RULES,
        text_table=True,
        words=frozenset(w.lower() for w in (*CARDS, *default_components().regions)),
    )

    def configure(self, players: Sequence[str], values: OptionValues) -> RattusConfig:
        v = self.options.complete(values)
        return RattusConfig(tuple(players), load_components(components_path(v)))

    def new_game(self, config: RattusConfig) -> RattusGame:
        return RattusGame(config)

    def local_table(self, seed: int | None, chance: ChanceSource | None = None) -> LocalTable:
        return LocalTable(seed, chance_source=chance)

    def view(self, game: RattusGame, seat: int) -> RattusView:
        return RattusView(game, seat)

    def legal(self, game: RattusGame, seat: int) -> list[Move]:
        return legal(game, seat)

    def outcome(self, game: RattusGame) -> Outcome | None:
        r = game.result
        if r is None:
            return None
        lines = result_text(r, Persons(game.config.players))
        return Outcome(r.winners, r.totals, tuple(line.strip() for line in lines))

    def tie_break(self, game: RattusGame, names: Sequence[str], seat: int | None) -> str | None:
        r = game.result
        if r is None or not r.tied:
            return None
        return winner_text(r, Persons(list(names), seat))

    def progress(self, game: RattusGame) -> tuple[int, str]:
        """A round begins with each turn of the starting player (the game ends when the rat
        supply runs out, so the line says how many tokens it has left)."""
        first = game.first_player
        rounds = sum(1 for e in game.log if e.kind == "turn" and e.player == first)
        return rounds, f"round {rounds} (rat supply: {len(game.rat_supply)} tokens)"

    # --- records and reports ----------------------------------------------------------------

    def record_of(self, game: RattusGame, table: Table, values: OptionValues) -> str:
        assert isinstance(table, LocalTable)
        _, custom = load_custom(components_path(values))
        return RattusRecord.from_game(game, table, custom).dumps()

    def read_record(self, text: str, values: OptionValues) -> RattusRecord:
        """A record that embeds its components is read with them: the ``components`` option
        (a file) is only for a record without its own, and is not read otherwise (an offline
        game's save still continues once the file it was started with is gone)."""
        obj = loads_json(text)
        embeds = isinstance(obj, dict) and obj.get("components") is not None
        default = default_components() if embeds else load_components(components_path(values))
        return RattusRecord.from_dict(obj, default)

    def state_text(self, game: RattusGame) -> str:
        return state_text(spectator_view(game))

    def state_dict(self, game: RattusGame) -> dict[str, object]:
        return state_dict(game)

    def selfplay_words(self, players: int) -> RattusSelfplay:
        return RattusSelfplay(players)

    def plain_table(self, values: OptionValues) -> bool:
        return bool(values.get("text"))

    def play_text(
        self, players: int, bots: str, seed: int | None, values: OptionValues,
        stdin: IO[str], out: IO[str],
    ) -> RattusGame | None:  # fmt: skip
        from rattus_net.games.rattus.terminal import play_terminal

        comps = load_components(components_path(values))
        return play_terminal(players, bots, seed, comps, stdin, out)

    # --- the network table ------------------------------------------------------------------

    def secure(self) -> RattusSecure:
        return RattusSecure()

    def network_config(
        self, players: Sequence[str], colours: Sequence[str], values: OptionValues
    ) -> RattusConfig:
        """A network table plays the shipped components (the game parameters carry their
        fingerprint); Rattus has no table option, and its seats no colour of their own."""
        return RattusConfig(tuple(players), default_components())

    def table_words(self, names: Sequence[str], seat: int) -> RattusWords:
        return RattusWords(names, seat)
