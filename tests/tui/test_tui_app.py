"""Pilot tests: whole games through the UI, the menu, dialogs, layout at 80x24."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from tui_helpers import cartus_table, controller_at, opened, play_to_end, pressing, showing, sync

from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.games.cartus.moves import DecisionKind, Enter
from rattus_net.games.cartus.ui.dialogs import CardsDialog, EnterDialog, SupplyDialog
from rattus_net.games.cartus.ui.table import EndScreen, TableScreen
from tui.app import RattusNetApp
from tui.common.rules import RulesScreen
from tui.shell.menu import MenuScreen


@pytest.mark.slow
@pytest.mark.parametrize(
    ("players", "seed", "buildings"),
    [
        (2, 11, BuildingSelection.first_game()),
        (5, 12, BuildingSelection.random_cards()),
    ],
)
@sync
async def test_whole_game_through_the_ui(
    players: int, seed: int, buildings: BuildingSelection
) -> None:
    app = RattusNetApp(table=cartus_table(players, seed, buildings=buildings, advance=False))
    async with opened(app) as pilot:
        seen = await play_to_end(pilot, app, seed)
        assert {"supply", "enter"} <= seen
        screen = app.screen
        assert isinstance(screen, EndScreen)
        text = str(screen.query_one("#scoring", Static).render())
        assert "Total VP" in text and "Plague" in text
        assert ("Winner" in text) or ("Shared win" in text) or ("nobody wins" in text)
        await pilot.press("enter")  # typed ahead: does not skip the result
        assert app.screen is screen
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


@sync
async def test_menu_starts_a_game_with_its_settings() -> None:
    app = RattusNetApp(seed=5)
    async with opened(app) as pilot:
        assert isinstance(app.screen, MenuScreen)
        # players: 3 -> 5 (capped), buildings: first game -> random buildings
        await pilot.press("down", "down", "right", "right", "right", "down", "down", "right")
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        assert menu.players == 5
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SupplyDialog)
        assert app.screen.controller.view.n == 5
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("q", "q")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("pagedown", "escape")
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("q", "q")  # the game left is saved: q asks first
    assert app.return_code == 0


@sync
async def test_the_menu_counts_the_bots_in_words() -> None:
    """ "(you and 1 bot)", "(you and 2 bots)": the players row reads as a sentence."""
    async with showing(RattusNetApp(seed=5), MenuScreen) as (pilot, menu):
        body = lambda: str(menu.query_one("#menu-body", Static).render())  # noqa: E731
        assert "(you and 2 bots)" in body()
        await pilot.press("down", "down", "left")
        assert menu.players == 2 and "(you and 1 bot)" in body()


@sync
async def test_illegal_move_is_shown_not_raised() -> None:
    c = controller_at(DecisionKind.ENTER, players=3, seed=2)
    app = RattusNetApp(table=c)
    async with showing(app, EnterDialog) as (pilot, dialog):
        before = c.game.log[:]
        dialog.submit(Enter(7, ()))  # no building 8: the engine refuses
        await pilot.pause()
        assert app.screen is dialog
        assert "no building 8" in dialog.error
        assert "Not allowed" in str(dialog.query_one("#dlg-error", Static).render())
        assert c.game.log == before


@sync
async def test_give_needs_the_exact_count() -> None:
    c = controller_at(DecisionKind.GIVE, players=4, seed=1)
    app = RattusNetApp(table=c)
    async with showing(app, CardsDialog) as (pilot, dialog):
        await pilot.press("enter")
        assert app.screen is dialog and "exactly" in dialog.error
        # counts are capped by the hand and by the number to give
        await pilot.press(*["plus"] * 20)
        assert dialog.picker.total <= dialog.decision.count
        face = dialog.picker.faces[0]
        assert dialog.picker.counts[face] <= dialog.picker.held[face]


@sync
async def test_enter_dialog_offers_no_gold_or_pass() -> None:
    from rattus_net.games.cartus import data as D

    for seed in range(1, 60):
        c = controller_at(DecisionKind.ENTER, players=3, seed=seed, rounds=3)
        if D.PASS in c.view.hand or D.GOLD in c.view.hand:
            break
    app = RattusNetApp(table=c)
    async with showing(app, EnterDialog) as (_pilot, dialog):
        assert D.GOLD not in dialog.picker.faces and D.PASS not in dialog.picker.faces
        legal_pass = any(m.__class__.__name__ == "PlayPass" for m in c.view.legal())
        assert dialog.passable == legal_pass


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@sync
async def test_table_fits_80x24(players: int) -> None:
    c = controller_at(DecisionKind.ENTER, players=players, seed=3, rounds=4)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        await pilot.press("escape")  # close the dialog: the bare table
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        area = screen.region
        assert (area.width, area.height) == (80, 24)
        for widget in screen.query("*"):
            if not widget.display:
                continue
            r = widget.region
            assert r.x >= 0 and r.y >= 0, widget
            assert r.right <= 80 and r.bottom <= 24, (widget, r)
        for wid in ("status", "awaited", "players", "influence", "hand", "nuns", "log"):
            w = screen.query_one(f"#{wid}")
            assert w.region.height > 0, wid
            # content is not cut off: a static shows all its lines
            if isinstance(w, Static):
                assert w.region.height >= w.virtual_size.height, wid
        for w in screen.query(".building"):
            assert w.region.height > 0 and w.region.height >= w.virtual_size.height
        assert screen.query_one("#log").region.height >= 3
        assert screen.scrollable_content_region.height == 24 or not screen.allow_vertical_scroll


@sync
async def test_a_dialog_put_aside_stays_aside_until_asked_for() -> None:
    """Escape closes the decision's dialog to look at the table; news from the network (which
    redraws the table) must not pop it up again under the player's keys: Enter does."""
    c = controller_at(DecisionKind.SUPPLY, players=3, seed=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        assert isinstance(app.screen, SupplyDialog)
        table = await pressing(pilot, app, TableScreen, "escape")
        table._net_redraw()  # what a network event does
        await pilot.pause()
        assert app.screen is table
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SupplyDialog)
