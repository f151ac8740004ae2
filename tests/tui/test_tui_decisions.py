"""One key rule in every dialog (digits and arrows choose, Enter confirms, giving something up
asks twice), the log, rules and keys over an open dialog, and the summary of what happened
before the next dialog covers the table."""

from __future__ import annotations

import re

from textual.widgets import Static
from tui_helpers import Offline, cartus_table, controller_at, opened, plays_of, showing, sync

from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.games.cartus.moves import DecisionKind, Discard, Enter, PlayPass, Supply
from rattus_net.games.cartus.ui.dialogs import (
    CardsDialog,
    DecisionDialog,
    EnterDialog,
    SupplyDialog,
    can_pass,
)
from rattus_net.games.cartus.ui.recap import RecapScreen, recap
from tui.app import RattusNetApp
from tui.common.help import HelpScreen
from tui.common.log import LogScreen
from tui.common.rules import RulesScreen


def _moves(c: Offline, seat: int = 0) -> list[object]:
    return [e for e in c.game.log if e.player == seat and e.kind in ("supply", "enter", "pass")]


@sync
async def test_a_digit_chooses_and_enter_confirms_in_the_supply_dialog() -> None:
    c = controller_at(DecisionKind.SUPPLY, players=3, seed=2)
    card = next(i for i, f in enumerate(c.view.row) if not _looks(c, i))
    app = RattusNetApp(table=c)
    async with showing(app, SupplyDialog) as (pilot, dialog):
        log = len(c.game.log)
        await pilot.press(str(card + 1))
        assert app.screen is dialog and dialog.card == card
        assert len(c.game.log) == log  # nothing played by a digit
        played = plays_of(c)
        await pilot.press("enter")
        assert played == [Supply(card, ())]


def _looks(c: Offline, i: int) -> bool:
    from rattus_net.games.cartus import data as D

    return D.face_supply(c.view.row[i]).looks > 0


@sync
async def test_entering_with_no_cards_asks_twice_and_any_other_key_forgets() -> None:
    c = controller_at(DecisionKind.ENTER, players=3, seed=9, rounds=2)
    app = RattusNetApp(table=c)
    async with showing(app, EnterDialog) as (pilot, dialog):
        played = plays_of(c)
        await pilot.press("2")
        assert dialog.stage == 0 and dialog.choice == 1  # a digit chose, did not confirm
        await pilot.press("enter")
        assert dialog.stage == 1
        await pilot.press("enter")  # no card chosen: asked, not played
        assert played == [] and app.screen is dialog
        warning = str(dialog.query_one("#dlg-warning", Static).render())
        assert "no cards" in warning and "Enter again" in warning
        await pilot.press("down", "enter")  # another key in between: asked again
        assert played == []
        await pilot.press("enter")
        assert played == [Enter(1, ())]


@sync
async def test_a_pass_asks_twice() -> None:
    c = controller_at(
        DecisionKind.ENTER, players=4, seed=28, rounds=3, buildings=BuildingSelection.random_cards()
    )
    assert can_pass(c.view)
    app = RattusNetApp(table=c)
    async with showing(app, EnterDialog) as (pilot, dialog):
        played = plays_of(c)
        await pilot.press("p")
        assert played == [] and dialog.choice == len(c.view.row)
        await pilot.press("enter")
        assert played == [] and dialog.warning and "Pass" in dialog.warning
        await pilot.press("enter")
        assert played == [PlayPass()]


@sync
async def test_discarding_nothing_asks_twice() -> None:
    c = controller_at(
        DecisionKind.DISCARD, players=4, seed=1, buildings=BuildingSelection.random_cards()
    )
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        dialog = app.screen
        assert isinstance(dialog, CardsDialog) and not dialog.exact
        played = plays_of(c)
        await pilot.press("enter")
        assert played == [] and dialog.warning
        await pilot.press("enter")
        assert played == [Discard(())]


@sync
async def test_log_rules_and_keys_open_over_a_dialog_and_bring_it_back() -> None:
    c = controller_at(DecisionKind.ENTER, players=3, seed=9, rounds=2)
    app = RattusNetApp(table=c)
    async with showing(app, EnterDialog) as (pilot, dialog):
        await pilot.press("2", "enter", "1")  # a choice under way
        await pilot.press("l")
        assert isinstance(app.screen, LogScreen) and app.screen.lines  # the table's log
        await pilot.press("escape")
        assert app.screen is dialog and dialog.stage == 1 and dialog.picker.total == 1
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        assert app.screen is dialog
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            keys = dict(help_screen.keys)
            assert "Enter" in keys and "Esc" in keys and "0-9" in keys
            assert "l" in keys and "r" in keys and "? F1" in keys
            await pilot.press("escape")
            assert app.screen is dialog and dialog.picker.total == 1


@sync
async def test_what_happened_is_shown_before_the_next_dialog() -> None:
    c = controller_at(DecisionKind.ENTER, players=3, seed=9, rounds=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        assert isinstance(app.screen, EnterDialog)
        await pilot.press("1", "enter", "1", "enter")  # enter building 1 with a card
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, RecapScreen | DecisionDialog):
                break
        news = app.screen
        assert isinstance(news, RecapScreen), news
        text = str(news.query_one("#recap-body", Static).render())
        assert "You: laid" in text and ("premium" in text or "standard" in text)
        assert "influence" not in text or "+" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DecisionDialog)  # and only then the next decision


def test_the_summary_tells_every_building_and_round() -> None:
    c = controller_at(None, players=5, seed=16, buildings=BuildingSelection.random_cards())
    view = c.view
    text = str(recap(view, c.names, 0))
    events = view.events(0)
    kinds = {e.kind for e in events}
    assert {"sword", "flute", "guard-tower"} <= kinds  # the seed shows them all
    assert text.count("Sword in the") == sum(1 for e in events if e.kind == "sword")
    assert text.count("Flute: ") == sum(1 for e in events if e.kind == "flute")
    assert text.count("  Guard Tower: ") == sum(1 for e in events if e.kind == "guard-tower")
    actions = [e for e in events if e.kind == "action"]
    assert text.count("premium (") == sum(1 for e in actions if e.data["premium"])
    assert text.count("standard (") == sum(1 for e in actions if not e.data["premium"])
    assert text.count(": laid ") == sum(1 for e in events if e.kind == "reveal")
    rounds = view.rounds
    for r in range(1, rounds + 1):
        assert f"Round {r} ends" in text
    # influence and rats, with the seat letter next to the name (colour is not the only cue)
    assert "R You: laid" in text and "+1 rat" in text


def test_no_summary_when_nothing_resolved() -> None:
    c = cartus_table(players=3, seed=1)
    assert str(recap(c.view, c.names, c.view.log_size)) == ""


def test_the_summary_breaks_a_players_line_between_its_parts_only() -> None:
    c = controller_at(None, players=5, seed=5, buildings=BuildingSelection.random_cards())
    wide = str(recap(c.view, c.names, 0))
    narrow = str(recap(c.view, c.names, 0, 60))
    for line in narrow.splitlines():
        if line.startswith("      ") or re.match(r"^  [A-Z] \w+: laid", line):
            assert len(line) <= 60, line  # a player's line, broken between its parts
    # the same parts, only the line breaks differ
    assert narrow.replace(";\n      ", "; ") == wide
