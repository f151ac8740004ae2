"""Hints where a player decides, in the dialogs: a Rattus class card's ability and risk, the
second Enter before the plague moves onto one's own cubes, and the Rattus Cartus plague outlook
(the nuns known and the worst case). The shared dialog shows each game's words."""

from __future__ import annotations

from typing import Any

import pytest
from rattus_helpers import rattus_at
from tui_helpers import Offline, controller_at, plays_of, showing, sync, text_of

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.games.cartus.moves import DecisionKind, Discard
from rattus_net.games.cartus.outlook import plague_outlook
from rattus_net.games.cartus.ui.dialogs import CardsDialog, LookDialog, SupplyDialog
from rattus_net.games.rattus.components import CARDS
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.hints import ABILITIES, plague_warning
from rattus_net.games.rattus.moves import Place, Plague
from rattus_net.games.rattus.ui.dialog import RattusDialog
from tui.app import RattusNetApp

SIZE = (80, 24)


def top_index(dialog: RattusDialog, start: str) -> str:
    """The digit of the first step's option that starts with ``start``."""
    labels = [o.label for o in dialog.options]
    return str(next(i for i, label in enumerate(labels) if label.startswith(start)) + 1)


@sync
async def test_the_class_card_step_shows_each_cards_ability_and_risk() -> None:
    c = rattus_at(Kind.TURN, players=4, seed=3)
    app = RattusNetApp(table=c)
    async with showing(app, RattusDialog, SIZE) as (pilot, dialog):
        assert not dialog.query_one("#dlg-hint").display  # nothing to hint at the first step
        await pilot.press(top_index(dialog, "Take a class card"), "enter")
        seen = set()
        for _ in dialog.options:
            card = dialog.options[dialog.cursor].label.split(" ")[0]
            hint = text_of(dialog, "#dlg-hint")
            assert dialog.query_one("#dlg-hint").display
            assert f"{card}: {ABILITIES[card]}." in hint
            assert f"Risk: tokens with the {card} symbol cost you a cube in their region" in hint
            seen.add(card)
            await pilot.press("down")
        assert seen == set(CARDS) - set(c.view.cards_of(c.view.seat))


def placed_with_plague_choices(seed: int = 0) -> tuple[Offline, Plague, Plague]:
    """A Rattus turn whose cubes are placed, with a plague move onto the human's own cubes
    and tokens (warned) and one that is not, neither with a Knight's step."""
    for s in range(seed, seed + 60):
        c = rattus_at(Kind.TURN, players=3, seed=s)
        place = next(m for m in c.view.legal() if isinstance(m, Place) and m.extra is None)
        c.apply(place)
        d = c.view.decision
        if d is None or d.kind is not Kind.TURN or d.player != c.seat:
            continue
        moves = [m for m in c.view.legal() if isinstance(m, Plague) and m.via is None]
        if any(m.knight for m in c.view.legal() if isinstance(m, Plague)):
            continue
        warned = [m for m in moves if plague_warning(c.view, m)]
        calm = [m for m in moves if not plague_warning(c.view, m)]
        if warned and calm:
            return c, warned[0], calm[0]
    raise AssertionError("no turn with both kinds of plague move")


async def choose_plague(pilot: Any, dialog: RattusDialog, move: Plague) -> None:
    """Choose "Move the plague" and put the cursor on ``move``'s destination."""
    await pilot.press(top_index(dialog, "Move the plague"), "enter")
    labels = [o.label for o in dialog.options]
    i = next(i for i, label in enumerate(labels) if label.split(" (")[0] == move.to)
    for _ in range(i):
        await pilot.press("down")
    assert dialog.cursor == i


@pytest.mark.parametrize("onto_yours", [True, False])
@sync
async def test_the_plague_onto_your_own_cubes_asks_a_second_enter_elsewhere_one(
    onto_yours: bool,
) -> None:
    c, warned, calm = placed_with_plague_choices()
    move = warned if onto_yours else calm
    app = RattusNetApp(table=c)
    async with showing(app, RattusDialog, SIZE) as (pilot, dialog):
        played = plays_of(c)
        await choose_plague(pilot, dialog, move)
        await pilot.press("enter")
        if not onto_yours:
            assert played == [calm] and dialog.warning is None
            return
        assert played == [] and app.screen is dialog
        warning = text_of(dialog, "#dlg-warning")
        assert f"{warned.to} holds" in warning and "of yours" in warning
        assert "Enter again to confirm." in warning
        assert len(dialog.choices.chosen) == 1  # back at the destinations, the cursor kept
        await pilot.press("down", "up")  # another key in between forgets it: asked again
        assert not dialog.query_one("#dlg-warning").display
        await pilot.press("enter")
        assert played == [] and dialog.warning
        await pilot.press("enter")
        assert played == [warned]


@sync
async def test_the_cartus_hospital_discard_shows_the_known_nuns_and_the_worst_case() -> None:
    c = controller_at(
        DecisionKind.DISCARD, players=4, seed=1, buildings=BuildingSelection.random_cards()
    )
    app = RattusNetApp(table=c)
    async with showing(app, CardsDialog, SIZE) as (pilot, dialog):
        view = c.view
        now = plague_outlook(view)
        hint = text_of(dialog, "#dlg-hint")
        assert hint == now.words()
        assert f"nuns seen {now.seen_nuns} ({now.seen} of 5 cards)" in hint
        assert f"Worst case {now.worst} nuns vs your {view.rats[view.seat]} rats" in hint
        played = plays_of(c)
        await pilot.press("1")  # one card chosen: one rat less, "after this"
        after = text_of(dialog, "#dlg-hint")
        assert f"your {view.rats[view.seat] - 1} rats (after this)" in after
        await pilot.press("enter")
        assert played and isinstance(played[0], Discard)


@sync
async def test_the_cartus_supply_outlook_follows_the_card_under_the_cursor() -> None:
    """A supply action that discards rats shows the rats it would leave; a look does not."""
    for seed in range(1, 40):
        c = controller_at(DecisionKind.SUPPLY, players=4, seed=seed)
        actions = [D.face_supply(f) for f in c.view.row]
        if any(a.rats for a in actions) and any(not a.rats for a in actions):
            break
    else:
        raise AssertionError("no row with both kinds of supply action")
    app = RattusNetApp(table=c)
    async with showing(app, SupplyDialog, SIZE) as (pilot, dialog):
        rats = c.view.rats[c.seat]
        for i, action in enumerate(actions):
            await pilot.press(str(i + 1))
            hint = text_of(dialog, "#dlg-hint")
            if action.rats:
                assert f"your {max(0, rats - action.rats)} rats (after this)" in hint
            else:
                assert f"your {rats} rats:" in hint


@sync
async def test_the_cartus_nun_row_look_shows_the_outlook() -> None:
    c = controller_at(DecisionKind.LOOK, seed=1)
    app = RattusNetApp(table=c)
    async with showing(app, LookDialog, SIZE) as (_, dialog):
        hint = text_of(dialog, "#dlg-hint")
        assert hint.startswith("Plague: nuns seen ") and "Worst case" in hint
        assert hint == plague_outlook(c.view).words()


# --- SVG snapshots at 80x24 (regenerate with --snapshot-update, then look at them) ---------------


def test_snapshot_class_card_step(snap_compare: Any) -> None:
    """Taking a class card: the Knight under the cursor, its ability and risk below the list."""
    c = rattus_at(Kind.TURN, players=4, seed=3)

    async def run_before(pilot: Any) -> None:
        dialog = pilot.app.screen
        await pilot.press(top_index(dialog, "Take a class card"), "enter", "down")

    assert snap_compare(RattusNetApp(table=c), run_before=run_before, terminal_size=SIZE)


def _plague_warned(c: Offline, move: Plague) -> Any:
    async def run_before(pilot: Any) -> None:
        await choose_plague(pilot, pilot.app.screen, move)
        await pilot.press("enter")

    return run_before


def test_snapshot_plague_onto_your_cubes_warns(snap_compare: Any) -> None:
    c, warned, _ = placed_with_plague_choices()
    app = RattusNetApp(table=c)
    assert snap_compare(app, run_before=_plague_warned(c, warned), terminal_size=SIZE)


def test_snapshot_plague_warning_no_color(
    snap_compare: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    c, warned, _ = placed_with_plague_choices()
    app = RattusNetApp(table=c)
    assert snap_compare(app, run_before=_plague_warned(c, warned), terminal_size=SIZE)
