"""``u`` takes back a step of one's own turn at the table: a Rattus placement is taken back from
its next dialog (the map and the save as before it, the log saying so), and taking back is
refused in one line once a token was turned up, or before anything of the turn is played."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tui_helpers import opened, rattus_table, sync

from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.moves import Place
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.table import RattusMapScreen
from rattus_net.kit.saves import read_save
from tui.app import RattusNetApp


def at(wanted: Any, seed: int = 1, save_to: Path | None = None) -> Any:
    """A 3-player Rattus game against random bots, played (random, seeded) until
    ``wanted(table)`` holds at a decision of the human."""
    for s in range(seed, seed + 200):
        c = rattus_table(3, s, save_to=save_to)
        rng = random.Random(s)
        while not c.is_over:
            if wanted(c):
                return c
            legal = c.view.legal()
            c.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no game got there")


def notes(app: RattusNetApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def turn_start(c: Any) -> bool:
    d = c.view.decision
    return (
        d.kind is Kind.TURN
        and not c.steps.moves
        and any(isinstance(m, Place) for m in c.view.legal())
    )


@sync
async def test_u_takes_back_a_placement_before_the_plague_moves(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    c = at(turn_start, save_to=save)
    before = c.definition.state_dict(c.game)
    record = c.definition.record_of(c.game, c.table, c.values)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        dialog = app.screen
        assert isinstance(dialog, RattusDialog)
        place = next(m for m in c.view.legal() if isinstance(m, Place))
        dialog.submit(place)  # (as Enter on the placement does)
        await pilot.pause()
        after = app.screen
        assert isinstance(after, RattusDialog) and after is not dialog
        assert after.kind is Kind.TURN and c.steps.moves == (place,)  # the plague must move

        await pilot.press("u")
        await pilot.pause()
        assert c.steps.moves == ()
        assert c.definition.state_dict(c.game) == before  # the map as before the placement
        again = app.screen
        assert isinstance(again, RattusDialog) and again is not after
        assert any(isinstance(m, Place) for m in again.view.legal())
        table = app.screen_stack[-2]
        assert isinstance(table, RattusMapScreen)
        taken = f"Step taken back: {c.definition.format_move(place)}."
        assert table.log_lines[-1] == taken
        saved = read_save(save)  # the save holds the game without the step
        assert saved is not None and saved.record == record

        # nothing more of the turn to take back: said in one line, the dialog stays
        await pilot.press("u")
        await pilot.pause()
        assert app.screen is again
        assert "Nothing to take back: nothing of this turn is played yet." in notes(app)
        # the table's own key, the dialog put aside
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table
        app.clear_notifications()
        await pilot.press("u")
        await pilot.pause()
        assert "Nothing to take back: nothing of this turn is played yet." in notes(app)
        assert c.definition.state_dict(c.game) == before


def turned_up(c: Any) -> bool:
    """The human turns up the tokens of an outbreak, one turned up already."""
    d = c.view.decision
    return d.kind is Kind.TURN_UP and not c.steps.moves


@sync
async def test_u_is_refused_after_a_token_was_turned_up() -> None:
    c = at(turned_up)
    before = c.definition.state_dict(c.game)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        dialog = app.screen
        assert isinstance(dialog, RattusDialog) and dialog.kind is Kind.TURN_UP
        await pilot.press("u")
        await pilot.pause()
        assert app.screen is dialog and not dialog.error
        assert "Nothing to take back: something was turned up since." in notes(app)
        assert c.definition.state_dict(c.game) == before


@sync
async def test_a_game_whose_turns_are_one_decision_offers_no_undo_key() -> None:
    """Rattus Cartus's every decision is a turn of its own: its table and its dialogs show
    no ``u Undo step`` (nothing could ever be taken back there), and ``u`` does nothing;
    Rattus's table shows the key."""
    from tui_helpers import cartus_table

    from tui.common.footer import KeysFooter

    app = RattusNetApp(table=cartus_table(players=3, seed=2))
    async with opened(app) as pilot:
        dialog = app.screen
        await pilot.press("u")
        assert app.screen is dialog and notes(app) == []
        await pilot.press("escape")  # the table's keys
        await pilot.pause()
        words = [k.description for k in app.screen.query_one(KeysFooter).keys]
        assert "Decide" in words and "Undo step" not in words
        await pilot.press("u")
        await pilot.pause()
        assert notes(app) == []
    app = RattusNetApp(table=rattus_table(3, 1))
    async with opened(app) as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RattusMapScreen)
        words = [k.description for k in app.screen.query_one(KeysFooter).keys]
        assert "Undo step" in words
