"""The Rattus map at a network table, over the real driver and a stand-in node holding a fixed
game (``rattus_net_helpers``): the waiting line, ``w``, what the Witch saw marked for her
holder only, the words the driver takes from the Rattus side, and SVG snapshots (80x24,
larger, NO_COLOR) of the map while the table waits for another player."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from rattus_helpers import rattus_at
from rattus_net_helpers import rattus_game_at, stand_in_game
from textual.widgets import Static
from tui_helpers import pushed, sync, text_of

from protocol.messages import SHARES
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.ui.narrate import MapWords
from rattus_net.games.rattus.ui.table import RattusMapScreen
from tui.app import RattusNetApp
from tui.common.gameui import table_screen

SIZE = (80, 24)
LARGE = (120, 40)


def test_the_lobby_start_opens_the_rattus_map_for_a_rattus_network_game() -> None:
    net = stand_in_game(rattus_game_at())
    assert net.game_name == "rattus"  # (from the node's parameters)
    screen = table_screen(net)
    assert isinstance(screen, RattusMapScreen)
    assert screen.controller is net
    assert isinstance(net.words, MapWords)  # the map's narrator tells the log


def test_the_driver_takes_its_words_from_the_rattus_side() -> None:
    net = stand_in_game(rattus_game_at())
    assert net.awaited() == "Waiting for a move: waiting for Agnes"
    net.node.session.step = SimpleNamespace(
        kind=SHARES, senders=(1,), index=10, started=0.0, info=None
    )
    net._event("progress", None, "")
    assert net.awaited().startswith("Revealing tokens: waiting for Agnes")
    # the default words (no front end's): one line per event, from rattus_net's report
    assert any(line.startswith("New tokens: ") for line in net.new_log_lines())
    # the map's own words once the map is its table: outbreaks told step by step
    fresh = stand_in_game(rattus_game_at())
    table_screen(fresh)
    lines = fresh.new_log_lines()
    assert any(line.startswith("Outbreak in ") for line in lines)
    assert "-- Your turn --" in lines


@sync
async def test_the_waiting_line_counts_down_for_a_player_away_and_w_waits_longer() -> None:
    net = stand_in_game(rattus_game_at(), away=(1,), stall_left=95.5)
    asked: list[float] = []
    net.node.wait_longer = lambda seconds=300.0: asked.append(seconds)
    net.runner = SimpleNamespace(call=lambda f, *a: f(*a))  # (the node's thread, here)
    app = RattusNetApp(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pushed(pilot, table_screen(net))
        line = text_of(app.screen, "#r-awaited")
        assert "waiting for Agnes (Agnes not connected); ends in 1:3" in line
        assert "w: wait longer" in line
        await pilot.press("w")
        assert asked == [300.0]
        notes = [n.message for n in app._notifications]
        assert "Waiting longer: 10 minutes in all for a player who dropped off." in notes
        await pilot.press("q")  # leaving asks first, and says what the others will see
        notes = [n.message for n in app._notifications]
        assert "Press q again to leave: the others will see you stall the game." in notes


@sync
async def test_what_the_witch_saw_is_marked_for_her_holder_only() -> None:
    game = rattus_at(Kind.SWAP, players=2, seed=0).game  # seat 0 has just looked
    holder = stand_in_game(game, seat=0)
    other = stand_in_game(game, seat=1)
    app = RattusNetApp(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pushed(pilot, table_screen(other))
        seen = app.screen.query_one("#r-seen", Static)
        assert not seen.display and "You saw" not in text_of(app.screen, "#r-seen")
        app.pop_screen()
        await pushed(pilot, table_screen(holder))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RattusMapScreen)  # (our decision is not asked by the node)
        seen = screen.query_one("#r-seen", Static)
        assert seen.display and text_of(screen, "#r-seen").startswith("You saw: ")
        assert any(line.startswith("You saw (only you)") for line in screen.log_lines)


def _map_waiting(size: tuple[int, int]) -> Any:
    async def run_before(pilot: Any) -> None:
        pilot.app.push_screen(table_screen(stand_in_game(rattus_game_at(players=4, seed=2))))
        await pilot.pause()

    return run_before


def test_snapshot_network_map_waiting_80x24(snap_compare: Any) -> None:
    assert snap_compare(RattusNetApp(seed=1), run_before=_map_waiting(SIZE), terminal_size=SIZE)


def test_snapshot_network_map_waiting_large(snap_compare: Any) -> None:
    assert snap_compare(RattusNetApp(seed=1), run_before=_map_waiting(LARGE), terminal_size=LARGE)


def test_snapshot_network_map_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR: the players' cubes still differ by letter (R1 B2 G3 Y4)."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = RattusNetApp(seed=1)
    assert app.no_color
    assert snap_compare(app, run_before=_map_waiting(SIZE), terminal_size=SIZE)
