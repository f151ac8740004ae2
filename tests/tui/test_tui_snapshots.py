"""SVG snapshots of every screen and dialog (fixed seeds, fixed terminal sizes).

Regenerate after a deliberate change with ``pytest tests/tui --snapshot-update`` and look at
the SVG files in ``tests/tui/__snapshots__``.
"""

from __future__ import annotations

from typing import Any

import pytest
from tui_helpers import cartus_table, controller_at

from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.games.cartus.moves import DecisionKind as K
from tui.app import RattusNetApp

SIZE = (80, 24)


def test_menu(snap_compare: Any) -> None:
    assert snap_compare(RattusNetApp(seed=1), terminal_size=SIZE)


def test_rules(snap_compare: Any) -> None:
    assert snap_compare(RattusNetApp(seed=1), press=["r"], terminal_size=SIZE)


def test_table_supply_phase(snap_compare: Any) -> None:
    app = RattusNetApp(table=cartus_table(players=4, seed=3))
    assert snap_compare(app, press=["escape"], terminal_size=SIZE)


def test_table_enter_phase_3p(snap_compare: Any) -> None:
    app = RattusNetApp(table=controller_at(K.ENTER, players=3, seed=4, rounds=3))
    assert snap_compare(app, press=["escape"], terminal_size=SIZE)


def test_table_5p_late(snap_compare: Any) -> None:
    c = controller_at(
        K.ENTER, players=5, seed=5, rounds=6, buildings=BuildingSelection.random_cards()
    )
    assert snap_compare(RattusNetApp(table=c), press=["escape"], terminal_size=SIZE)


def test_table_large_terminal(snap_compare: Any) -> None:
    c = controller_at(K.ENTER, players=4, seed=6, rounds=5)
    assert snap_compare(RattusNetApp(table=c), press=["escape"], terminal_size=(120, 40))


def test_table_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    c = controller_at(K.ENTER, players=4, seed=7, rounds=4)
    assert snap_compare(RattusNetApp(table=c), press=["escape"], terminal_size=SIZE)


def test_dialog_supply(snap_compare: Any) -> None:
    app = RattusNetApp(table=cartus_table(players=4, seed=3))
    assert snap_compare(app, terminal_size=SIZE)


def test_dialog_supply_looks(snap_compare: Any) -> None:
    c = controller_at(K.SUPPLY, players=2, seed=8)
    card = next(i for i, f in enumerate(c.view.row) if _looks(f))
    keys = [str(card + 1), "enter"]  # a digit chooses the card, Enter confirms it
    assert snap_compare(RattusNetApp(table=c), press=keys, terminal_size=SIZE)


def test_dialog_enter_buildings(snap_compare: Any) -> None:
    c = controller_at(K.ENTER, players=3, seed=9, rounds=2)
    assert snap_compare(RattusNetApp(table=c), terminal_size=SIZE)


def test_dialog_enter_cards(snap_compare: Any) -> None:
    c = controller_at(K.ENTER, players=3, seed=9, rounds=2)
    keys = ["1", "enter", "1", "down", "plus", "plus"]
    assert snap_compare(RattusNetApp(table=c), press=keys, terminal_size=SIZE)


def test_dialog_give(snap_compare: Any) -> None:
    c = controller_at(K.GIVE, players=4, seed=1)
    assert snap_compare(RattusNetApp(table=c), press=["1"], terminal_size=SIZE)


def test_table_resolve_phase(snap_compare: Any) -> None:
    """Phase D: the table behind the Hospital dialog (Escape looks at the table)."""
    c = controller_at(K.DISCARD, players=4, seed=1, buildings=BuildingSelection.random_cards())
    assert c.view.phase.value.startswith("D")
    assert snap_compare(RattusNetApp(table=c), press=["escape"], terminal_size=SIZE)


def test_dialog_discard(snap_compare: Any) -> None:
    c = controller_at(K.DISCARD, players=4, seed=1, buildings=BuildingSelection.random_cards())
    assert snap_compare(RattusNetApp(table=c), terminal_size=SIZE)


def test_dialog_look(snap_compare: Any) -> None:
    c = controller_at(K.LOOK, players=3, seed=1)
    assert snap_compare(RattusNetApp(table=c), terminal_size=SIZE)


def test_dialog_choose_player(snap_compare: Any) -> None:
    c = controller_at(K.CHOOSE_PLAYER, players=5, seed=1)
    assert snap_compare(RattusNetApp(table=c), terminal_size=SIZE)


def test_dialog_error_message(snap_compare: Any) -> None:
    c = controller_at(K.GIVE, players=4, seed=1)
    assert snap_compare(RattusNetApp(table=c), press=["enter"], terminal_size=SIZE)


def test_end_screen(snap_compare: Any) -> None:
    c = controller_at(None, players=4, seed=1)
    assert snap_compare(RattusNetApp(table=c), terminal_size=SIZE)


def test_end_screen_5p_large(snap_compare: Any) -> None:
    c = controller_at(None, players=5, seed=2)
    assert snap_compare(RattusNetApp(table=c), terminal_size=(100, 32))


def test_log_screen(snap_compare: Any) -> None:
    c = controller_at(K.ENTER, players=3, seed=4, rounds=3)
    assert snap_compare(RattusNetApp(table=c), press=["escape", "l"], terminal_size=SIZE)


def _looks(face: int) -> int:
    from rattus_net.games.cartus import data as D

    return D.face_supply(face).looks


# --- network screens ----------------------------------------------------------------------------


def _push(screen_factory: Any) -> Any:
    async def run_before(pilot: Any) -> None:
        pilot.app.push_screen(screen_factory())
        await pilot.pause()

    return run_before


def test_host_screen(snap_compare: Any) -> None:
    from tui.shell.host import HostScreen

    assert snap_compare(
        RattusNetApp(seed=1), run_before=_push(lambda: HostScreen("Hana")), terminal_size=SIZE
    )


def test_join_screen(snap_compare: Any) -> None:
    from rattus_net.net.discovery import TableAdvert
    from tui.shell.join import JoinScreen

    async def run_before(pilot: Any) -> None:
        screen = JoinScreen("Gus", discover=False)
        pilot.app.push_screen(screen)
        await pilot.pause()
        screen.discovery_note = "Tables on the local network (live):"
        screen.tables_changed(
            {
                "a": TableAdvert(
                    "Kitchen", "ab" * 8, 1, 2, "open", host="10.0.0.5", port=7000, game="cartus"
                ),
                "b": TableAdvert(
                    "Attic", "cd" * 8, 3, 0, "full", host="10.0.0.7", port=7100, game="cartus"
                ),
                "c": TableAdvert(
                    "Old", "ef" * 8, 1, 1, "open", "cartus", version=99, host="10.0.0.6", port=7001
                ),
            }
        )
        await pilot.pause()

    assert snap_compare(
        RattusNetApp(seed=1), run_before=run_before, press=["down"] * 3, terminal_size=SIZE
    )


def test_lobby_screen(snap_compare: Any) -> None:
    from test_tui_network import FixedLobby

    from tui.shell.lobby import LobbyScreen

    assert snap_compare(
        RattusNetApp(seed=1),
        run_before=_push(lambda: LobbyScreen(FixedLobby())),
        terminal_size=SIZE,
    )


def test_verify_screen(snap_compare: Any) -> None:
    from tui.shell.verify import VerifyScreen

    async def run_before(pilot: Any) -> None:
        pilot.app.push_screen(VerifyScreen("/nowhere/record.rattusnet"))
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause(0.5)

    assert snap_compare(RattusNetApp(seed=1), run_before=run_before, terminal_size=SIZE)


def test_news_after_a_round(snap_compare: Any) -> None:
    """What happened (buildings resolved, the round ended) before the next dialog."""
    c = controller_at(K.ENTER, players=5, seed=3, rounds=2)
    keys = ["1", "enter", "1", "enter"]
    assert snap_compare(RattusNetApp(table=c), press=keys, terminal_size=SIZE)


def test_help_over_a_dialog(snap_compare: Any) -> None:
    c = controller_at(K.ENTER, players=3, seed=9, rounds=2)
    assert snap_compare(RattusNetApp(table=c), press=["question_mark"], terminal_size=SIZE)


def test_enter_with_no_cards_asks_again(snap_compare: Any) -> None:
    c = controller_at(K.ENTER, players=3, seed=9, rounds=2)
    keys = ["1", "enter", "enter"]
    assert snap_compare(RattusNetApp(table=c), press=keys, terminal_size=SIZE)


def test_terminal_too_small(snap_compare: Any) -> None:
    assert snap_compare(RattusNetApp(seed=1), terminal_size=(70, 20))


def test_help_on_the_table(snap_compare: Any) -> None:
    c = controller_at(K.ENTER, players=3, seed=4, rounds=3)
    assert snap_compare(RattusNetApp(table=c), press=["escape", "f1"], terminal_size=SIZE)
