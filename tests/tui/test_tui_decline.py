"""Taking or declining an offered action in the TUI (ruling 17): Enter takes, declining needs
a second key, and "always take" takes without asking."""

from __future__ import annotations

from pathlib import Path

from tui_helpers import controller_at, opened, showing, sync

from rattus_net.games.cartus.moves import DecisionKind, DeclineAction, TakeAction
from rattus_net.games.cartus.ui.decline import DeclineDialog
from rattus_net.games.cartus.ui.table import TableScreen
from rattus_net.settings import Settings, load_settings, save_settings
from tui.app import RattusNetApp


def _offered() -> tuple[RattusNetApp, int]:
    c = controller_at(DecisionKind.ACTION, players=3, seed=2)
    return RattusNetApp(table=c), len(c.game.history)


def _answer(app: RattusNetApp, index: int) -> object:
    c = app.table
    assert c is not None
    return c.game.history[index][1]  # type: ignore[attr-defined]


@sync
async def test_enter_takes_the_offered_action() -> None:
    app, index = _offered()
    async with showing(app, DeclineDialog) as (pilot, dialog):
        assert "action at the" in dialog.heading()
        await pilot.press("enter")
        await pilot.pause()
        assert _answer(app, index) == TakeAction()


@sync
async def test_declining_needs_a_second_key_and_escape_goes_back() -> None:
    app, index = _offered()
    async with showing(app, DeclineDialog) as (pilot, dialog):
        await pilot.press("d")
        assert app.screen is dialog and dialog.stage == 1
        assert "Decline the" in str(dialog.body())
        await pilot.press("escape")  # back: nothing was played
        assert app.screen is dialog and dialog.stage == 0
        assert len(app.table.game.history) == index  # type: ignore[union-attr]
        await pilot.press("d", "d")
        await pilot.pause()
        assert _answer(app, index) == DeclineAction()


@sync
async def test_always_take_is_saved_and_then_nothing_is_asked() -> None:
    app, index = _offered()
    async with opened(app) as pilot:
        assert isinstance(app.screen, DeclineDialog)
        await pilot.press("a")
        await pilot.pause()
        assert _answer(app, index) == TakeAction()
        assert load_settings() == Settings(always_take=True)
    # A new game: the offered action is taken without opening the dialog.
    app, index = _offered()
    async with opened(app) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, DeclineDialog)
        assert _answer(app, index) == TakeAction()
        for _ in range(20):  # bots may open a summary or the next dialog meanwhile
            while not isinstance(app.screen, TableScreen):
                await pilot.press("escape")  # put the next dialog aside
                await pilot.pause()
            await pilot.press("t")  # the table's key turns it off again
            await pilot.pause()
            if not load_settings().always_take:
                break
        assert load_settings() == Settings(always_take=False)


def test_settings_file_is_read_leniently(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert load_settings(path) == Settings()
    save_settings(Settings(always_take=True), path)
    assert load_settings(path).always_take
    for text in ("{broken", "[1]", '{"always_take": "yes"}', '{"always_take": 1}'):
        path.write_text(text)
        assert load_settings(path) == Settings()


def test_end_screen_shows_the_plague_variants_survivors_as_survivors() -> None:
    """Everybody keeps a rat against a nun row without nuns; in the variant the fewest rats
    survive, and the end screen says "survives" for them, "DEAD" for the others."""
    from games.cartus.helpers import plague_variant_game

    import rattus_net.games.cartus.ui.render as R
    from rattus_net.games.cartus.view import PlayerView

    game, _ = plague_variant_game()
    r = game.result
    assert r.variant_survivors
    text = str(R.scoring(PlayerView(game, 0)))
    plague = next(line for line in text.splitlines() if line.startswith("Plague"))
    cells = plague.split()[1:]
    assert cells == ["DEAD" if r.dead[s] else "survives" for s in range(3)]
    assert cells.count("survives") == sum(1 for x in r.rats if x == min(r.rats))
    assert "the fewest rats survived" in text


def test_dialog_take_or_decline_snapshot(snap_compare: object) -> None:
    c = controller_at(DecisionKind.ACTION, players=3, seed=2)
    assert snap_compare(RattusNetApp(table=c), terminal_size=(80, 24))  # type: ignore[operator]


def test_dialog_decline_confirmation_snapshot(snap_compare: object) -> None:
    c = controller_at(DecisionKind.ACTION, players=3, seed=2)
    app = RattusNetApp(table=c)
    assert snap_compare(app, press=["d"], terminal_size=(80, 24))  # type: ignore[operator]
