"""The registry: games join it from their own folders, and nothing else names them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rattus_net.kit import registry
from rattus_net.kit.registry import UnknownGame, default_game, game_names, get_game, unnamed_game


def test_the_games_that_ship_are_found_in_their_order() -> None:
    assert game_names() == ("cartus", "rattus")
    assert default_game().name == "cartus"  # the smallest declared order
    assert get_game("rattus").max_players == 4 and get_game("cartus").max_players == 5
    assert unnamed_game().name == "cartus"  # its face-level records carry no name
    with pytest.raises(UnknownGame, match="unknown game 'chess'; choose one of cartus, rattus"):
        get_game("chess")


def test_a_game_cannot_take_another_game_s_name() -> None:
    class Impostor(type(get_game("rattus"))):  # type: ignore[misc]
        pass

    with pytest.raises(ValueError, match="two games are called 'rattus'"):
        registry.register(Impostor())


def test_a_game_outside_the_tree_joins_through_the_environment(tmp_path: Path) -> None:
    """A module named in RATTUS_NET_GAMES registers its game beside the shipped ones."""
    (tmp_path / "far_game.py").write_text(
        textwrap.dedent(
            """
            from rattus_net.games.rattus.definition import RattusDefinition
            from rattus_net.kit.registry import register

            class FarGame(RattusDefinition):
                name = "far"
                title = "Far"
                order = 5

            register(FarGame())
            """
        )
    )
    code = (
        "from rattus_net.kit.registry import default_game, game_names\n"
        "print(','.join(game_names()), default_game().title)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": f"{tmp_path}:{Path.cwd()}", "RATTUS_NET_GAMES": " far_game ,"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.strip() == "far,cartus,rattus Far"


def test_a_game_registered_for_a_block_is_gone_after_it() -> None:
    """``registered`` adds a game for a test and takes it out again (the shipped game it stood
    in for put back); ``unregister`` takes one out by name."""
    rattus = get_game("rattus")
    stand_in = type(rattus)()
    with registry.registered(stand_in) as game:
        assert game is stand_in and get_game("rattus") is stand_in
    assert get_game("rattus") is rattus
    taken = registry.unregister("rattus")
    try:
        assert taken is rattus and game_names() == ("cartus",)
        with pytest.raises(UnknownGame, match="no game is called 'rattus'"):
            registry.unregister("rattus")
    finally:
        registry.register(taken)
    assert game_names() == ("cartus", "rattus")
