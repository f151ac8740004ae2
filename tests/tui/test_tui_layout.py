"""Layout as players meet it: a decision never hides the hand, the known nun-row cards and the
rats; 5 players fit 80x24 in every phase; the rules read at 80 columns; below 80x24 a clear
notice; above it the extra room goes to the log and the lists."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widget import Widget
from textual.widgets import Markdown, Static
from tui_helpers import cartus_table, controller_at, opened, played_until, pressing, showing, sync

import rattus_net.games.cartus.ui.render as R
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.games.cartus.moves import DecisionKind as K
from rattus_net.games.cartus.ui.dialogs import DecisionDialog, EnterDialog, list_height
from rattus_net.games.cartus.ui.table import TableScreen
from tui.app import RattusNetApp, TooSmallScreen
from tui.common.rules import RulesScreen, rules_text
from tui.shell.menu import MenuScreen

CARDS = BuildingSelection.random_cards()


def _inside(widget: Widget, width: int = 80, height: int = 24) -> None:
    r = widget.region
    assert r.x >= 0 and r.y >= 0 and r.right <= width and r.bottom <= height, (widget, r)


def _whole(widget: Widget) -> None:
    """A static shows every line of its content (nothing cut off or scrolled away)."""
    assert widget.region.height > 0, widget
    assert widget.region.height >= widget.virtual_size.height, widget


@pytest.mark.parametrize(
    ("kind", "players", "seed", "keys"),
    [
        (K.SUPPLY, 5, 3, []),
        (K.ENTER, 5, 3, []),
        (K.ENTER, 5, 3, ["1", "enter"]),  # the card picker
        (K.GIVE, 4, 1, []),
        (K.DISCARD, 4, 1, []),
        (K.LOOK, 3, 1, []),
        (K.CHOOSE_PLAYER, 5, 1, []),
    ],
)
@sync
async def test_a_decision_shows_the_hand_the_nun_row_and_the_rats(
    kind: K, players: int, seed: int, keys: list[str]
) -> None:
    buildings = CARDS if kind is K.DISCARD else None
    c = controller_at(kind, players=players, seed=seed, rounds=2, buildings=buildings)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        await pilot.press(*keys)
        dialog = app.screen
        assert isinstance(dialog, DecisionDialog)
        you = dialog.query_one("#dlg-you", Static)
        text = str(you.render())
        view = c.view
        assert "Hand (" in text and "Nun row" in text and f"your rats {view.rats[0]}" in text
        for group in R.hand_groups(view.hand):
            assert group in text  # never split over two lines
        for pos, face in view.nun_row_known.items():
            assert f"{pos + 1}:{D.face_code(face)}" in text
        for widget in dialog.query("*"):
            if widget.display:
                _inside(widget)
        _whole(you)
        _whole(dialog.query_one("#dlg-body", Static))
        _whole(dialog.query_one("#dlg-help", Static))


@pytest.mark.parametrize(
    ("kind", "rounds"),
    [(K.SUPPLY, 1), (K.ENTER, 3), (K.GIVE, 2), (K.CHOOSE_PLAYER, 2), (K.ENTER, 8)],
)
@sync
async def test_five_players_fit_80x24_in_every_phase(kind: K, rounds: int) -> None:
    c = controller_at(kind, players=5, seed=1, rounds=rounds, buildings=CARDS)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        table = await pressing(pilot, app, TableScreen, "escape")
        assert not table.allow_vertical_scroll or table.virtual_size.height <= 24
        for widget in table.query("*"):
            if widget.display:
                _inside(widget)
        for wid in ("status", "awaited", "players", "influence", "hand", "nuns"):
            _whole(table.query_one(f"#{wid}", Static))
        for card in table.query(".building"):
            _whole(card)
        status = str(table.query_one("#status", Static).render())
        view = c.view
        assert len(status) <= 80
        assert f"Round {view.round}/{view.rounds}" in status and f"Deck {view.deck_size}" in status
        hand = str(table.query_one("#hand", Static).render())
        for group in R.hand_groups(view.hand):
            assert any(group in line for line in hand.splitlines()), group
        assert table.query_one("#log").region.height >= 3


def test_building_cards_fit_a_third_of_80_columns() -> None:
    for premium, standard in R.SHORT_ACTIONS.values():
        assert len("Prem: " + premium) <= 25 and len("Std: " + standard) <= 25


def test_hand_lines_break_between_items_only() -> None:
    c = controller_at(K.ENTER, players=3, seed=2, rounds=4)
    view = c.view
    for width in (30, 40, 80):
        text = R.hand(view, width).plain
        groups = R.hand_groups(view.hand)
        lines = text.splitlines()
        assert all(len(line) <= max(width, max(map(len, groups)) + 2) for line in lines)
        found = [item.strip() for line in lines for item in line.split(":", 1)[-1].split(" | ")]
        for group in groups:
            assert group in found, (group, lines)


@sync
async def test_below_80x24_a_notice_instead_of_a_garbled_table() -> None:
    c = controller_at(K.ENTER, players=5, seed=3, rounds=2)
    app = RattusNetApp(table=c)
    async with opened(app, (70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = str(app.screen.query_one("#too-small", Static).render())
        assert "too small: 70x20" in text and "80x24" in text
        await pilot.resize_terminal(100, 22)
        await pilot.pause(0.1)
        assert isinstance(app.screen, TooSmallScreen)
        assert "100x22" in str(app.screen.query_one("#too-small", Static).render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert isinstance(app.screen, EnterDialog)  # the decision is back


@sync
async def test_a_larger_terminal_grows_the_log_and_the_lists() -> None:
    heights = {}
    rows = {}
    for size in ((80, 24), (120, 40)):
        c = controller_at(K.ENTER, players=4, seed=6, rounds=5)
        app = RattusNetApp(table=c)
        async with showing(app, EnterDialog, size) as (pilot, dialog):
            rows[size] = dialog.rows
            await pilot.press("escape")
            await pilot.pause()
            heights[size] = app.screen.query_one("#log").region.height
    assert heights[(120, 40)] >= heights[(80, 24)] + 10
    assert rows[(120, 40)] > rows[(80, 24)] == 6
    assert list_height(40) == 14


@sync
async def test_the_rules_read_at_80_columns() -> None:
    assert "\n|" not in rules_text()  # no table squeezed to a word per line
    app = RattusNetApp(seed=1)
    async with opened(app) as pilot:
        assert isinstance(app.screen, MenuScreen)
        screen = await pressing(pilot, app, RulesScreen, "r")
        markdown = screen.query_one(Markdown)
        assert markdown.region.width >= 76
        assert not list(screen.query("MarkdownTable"))


def test_the_status_line_at_the_end_reads_as_a_sentence() -> None:
    """ "Round 8/8 (last), game over", not "Round 8/8 (last)  Phase game over"."""
    view = controller_at(None, players=3, seed=4).view
    for width in (80, 50):
        status = R.status(view, width).plain
        assert status.startswith(f"Round {view.rounds}/{view.rounds} (last), game over  Deck ")
        assert "Phase" not in status
    playing = R.status(controller_at(K.ENTER, players=3, seed=4).view).plain
    assert "  Phase C: enter buildings  Deck " in playing


@pytest.mark.parametrize("players", [4, 2])
@sync
async def test_building_cards_whose_names_wrap_stay_level(players: int) -> None:
    """A row holding a long name (the Fortune-teller's Tent, the Marketplace) names every
    card's class on a line of its own when one would wrap: each card's supply and actions
    lines are level with the others' at 80 columns."""
    from textual.geometry import Region

    long = {D.Building.FORTUNE_TELLER, D.Building.MARKETPLACE}

    def wanted(view: Any) -> bool:
        return view.decision is not None and any(D.face_building(f) in long for f in view.row)

    c = played_until(
        lambda s: cartus_table(players, s, buildings="random-buildings"), wanted, 1, "a long name"
    )
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        table = app.screen
        assert isinstance(table, TableScreen)
        rows = set()
        for widget in table.query(".building").results(Static):
            size = widget.size
            lines = [s.text for s in widget.render_lines(Region(0, 0, size.width, size.height))]
            assert any("Supply:" in line for line in lines), lines
            rows.add(next(n for n, line in enumerate(lines) if "Supply:" in line))
        assert len(rows) == 1, rows
        assert R.split_headings(c.view, 80) == (players == 4)
