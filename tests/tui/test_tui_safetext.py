"""Names that came from other peers are shown with their control characters made visible."""

from __future__ import annotations

from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.ui.render import players, safe_names
from rattus_net.games.cartus.view import PlayerView


def test_player_names_with_escapes_do_not_reach_the_screen() -> None:
    names = ("Ann", "\x1b[2J\x1b]0;x\x07Bob")
    view = PlayerView(Game(GameConfig(names)), 0)
    assert safe_names(view)[1] == "\\x1b[2J\\x1b]0;x\\x07Bob"
    shown = players(view).plain
    assert "\x1b" not in shown and "\x07" not in shown
