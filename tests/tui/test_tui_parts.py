"""The table's parts are painted again only when their own part of the view changed
(``tui/common/parts.py``), and the keys line is built again only when its keys changed
(``tui/common/footer.py``): counted, not timed (``benchmarks/tui.py`` times them)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any, ClassVar

from rattus_helpers import rattus_at
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from tui_helpers import controller_at, keys_for, opened, sync

from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.ui.dialogs import DecisionDialog
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.table import MapWidget, RattusMapScreen
from tui.app import RattusNetApp
from tui.common.footer import KeysFooter
from tui.common.parts import Part
from tui.common.table import GameTable


class Noting(Part):
    """A part that notes whether each new text asked for a new layout."""

    def __init__(self) -> None:
        super().__init__(id="p")
        self.layouts: list[bool] = []

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        self.layouts.append(layout)
        super().update(content, layout=layout)


class OnePart(App[None]):
    CSS = "#p { width: 20; }"

    def compose(self) -> ComposeResult:
        yield Noting()


@sync
async def test_a_part_is_painted_again_only_for_another_text() -> None:
    app = OnePart()
    async with app.run_test(size=(40, 10)) as pilot:
        part = app.query_one(Noting)
        assert part.show(Text("Round 1/8"))
        await pilot.pause()
        paints = part.paints
        assert not part.show(Text("Round 1/8"))  # the same text: nothing to do
        await pilot.pause()
        assert (part.renders, part.paints) == (1, paints)
        assert part.show(Text("Round 2/8"))  # as high as before: no new layout
        assert part.show(Text("Round 2/8", style="bold"))  # a style is a change too
        assert part.show(Text("Round 2/8\n(last)"))  # one line more: laid out again
        assert part.show(Text("x" * 30 + "\n(last)"))  # wider than the part: it wraps
        await pilot.pause()
        assert part.renders == 5 and part.paints > paints
        assert part.layouts == [True, False, False, True, True]
        assert str(part.render()) == "x" * 30 + "\n(last)"


@sync
async def test_after_a_move_only_the_parts_whose_text_changed_are_painted_again() -> None:
    """Rattus Cartus at 4 players: a move (and the bots' after it) changes some parts of the
    table; the others keep their picture, and a redraw with nothing new paints nothing."""
    rng = random.Random(4)
    app = RattusNetApp(table=controller_at(DecisionKind.SUPPLY, players=4, seed=4))
    async with opened(app) as pilot:
        table = app.screen_stack[-2]
        assert isinstance(table, GameTable) and isinstance(app.screen, DecisionDialog)
        parts = list(table.query(Part))
        assert len(parts) >= 8  # status, waiting line, building row, players, influence...
        before = [(p.shown, p.renders, p.paints) for p in parts]
        table.redraw()  # nothing changed
        await pilot.pause()
        assert [(p.shown, p.renders, p.paints) for p in parts] == before
        at_next_step: list[list[int]] = []  # the parts' paints when the next dialog opens
        next_step = table.next_step

        def noted(asked: bool = False) -> None:
            at_next_step.append([p.paints for p in parts])
            next_step(asked)

        table.next_step = noted  # type: ignore[method-assign]
        await pilot.press(*keys_for(app.screen, rng))
        for _ in range(100):
            if isinstance(app.screen, DecisionDialog) and app.screen.view is not before:
                break
            await pilot.pause()
        changed = kept = 0
        for part, (shown, renders, paints) in zip(parts, before, strict=True):
            if part.shown == shown:
                assert (part.renders, part.paints) == (renders, paints), part.id
                kept += 1
            else:
                assert part.renders == renders + 1 and part.paints > paints, part.id
                changed += 1
        assert changed and kept  # (the waiting line changed; the influence tracks did not)
        # the table showed the moves before the next dialog opened over it
        painted = zip(at_next_step[0], parts, before, strict=True)
        assert any(now > paints for now, part, (shown, _, paints) in painted if part.shown != shown)


@sync
async def test_the_map_is_drawn_again_only_when_the_dialogs_cursor_shows_other_regions() -> None:
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=4, seed=2))
    async with opened(app) as pilot:
        dialog = app.screen
        assert isinstance(dialog, RattusDialog)
        table = app.screen_stack[-2]
        assert isinstance(table, RattusMapScreen)
        m = table.query_one(MapWidget)
        renders = m.renders
        table.set_highlight(m.highlight)  # the same regions: the same map
        assert m.renders == renders
        other = next(i for i in range(len(table.controller.view.regions)) if i not in m.highlight)
        table.set_highlight((other,))
        assert m.renders == renders + 1 and m.highlight == (other,)
        await pilot.pause()
        status = table.query_one("#r-status", Part).renders
        table.set_highlight(())
        assert table.query_one("#r-status", Part).renders == status  # only the map changed


@sync
async def test_the_key_that_plays_a_move_leaves_the_map_to_the_tables_redraw() -> None:
    """The dialog's highlight goes as it closes, but the map is drawn only by the table's
    redraw that follows (with the bots' moves too), not first for the dialog's closing."""
    from rattus_helpers import keys_for as rattus_keys

    app = RattusNetApp(table=rattus_at(Kind.TURN, players=4, seed=2))
    rng = random.Random(3)
    async with opened(app) as pilot:
        table = app.screen_stack[-2]
        assert isinstance(table, RattusMapScreen)
        m = table.query_one(MapWidget)
        drawn: list[bool] = []  # each time the map is drawn: over the dialog still?
        show = m.show
        dialog = app.screen

        def noting(text: Text) -> bool:
            drawn.append(app.screen is dialog)
            return show(text)

        m.show = noting  # type: ignore[method-assign]
        while app.screen is dialog:
            assert isinstance(dialog, RattusDialog)
            keys = rattus_keys(dialog, rng)
            await pilot.press(*keys[:-1])
            drawn.clear()
            await pilot.press(keys[-1])
        await pilot.pause()
        assert m.highlight == () or isinstance(app.screen, RattusDialog)
        assert drawn and not drawn[0], drawn  # first drawn by the table, once it is back


@sync
async def test_the_tables_keys_line_is_not_built_again_for_every_dialog() -> None:
    app = RattusNetApp(table=controller_at(DecisionKind.SUPPLY, players=3, seed=2))
    async with opened(app) as pilot:
        table = app.screen_stack[-2]
        footer = table.query_one(KeysFooter)
        await pilot.press("escape")  # the dialog put aside: the table's keys
        assert app.screen is table
        await pilot.pause()
        builds = footer.builds
        words = [k.description for k in footer.keys]
        assert "Decide" in words and "Log" in words
        for _ in range(3):
            await pilot.press("enter")  # the dialog again
            assert isinstance(app.screen, DecisionDialog)
            await pilot.press("escape")
            await pilot.pause()
        assert footer.builds == builds  # the same keys: not built again
        assert [k.description for k in footer.keys] == words


class Toggled(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "y", "Yes"),
        Binding("n", "n", "Not now"),
        Binding("x", "x", "Extra"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.allowed = False
        self.pressed: list[str] = []

    def compose(self) -> ComposeResult:
        yield KeysFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "n":
            return None  # shown, but not allowed now (dimmed)
        return self.allowed if action == "x" else True

    def action_x(self) -> None:
        pass

    def action_y(self) -> None:
        self.pressed.append("y")

    def action_n(self) -> None:
        self.pressed.append("n")


class ToggledApp(App[None]):
    def on_mount(self) -> None:
        self.push_screen(Toggled())


@contextlib.asynccontextmanager
async def toggled() -> AsyncIterator[tuple[Any, Toggled, KeysFooter]]:
    """A screen of three keys and a keys line (60x5): the Pilot, the screen, its line."""
    app = ToggledApp()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Toggled)
        yield pilot, screen, screen.query_one(KeysFooter)


@sync
async def test_the_keys_line_is_built_again_when_its_keys_change() -> None:
    async with toggled() as (pilot, screen, footer):
        builds = footer.builds
        assert "Extra" not in [k.description for k in footer.keys]  # hidden
        screen.refresh_bindings()  # the same keys
        await pilot.pause()
        assert footer.builds == builds
        screen.allowed = True
        screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert footer.builds == builds + 1
        assert "Extra" in [k.description for k in footer.keys]
        assert "Extra" in str(footer.render())


@sync
async def test_a_click_on_the_keys_line_presses_the_key_under_it() -> None:
    """The keys line is one widget: a click finds the key drawn under it, as a click on
    Textual's own footer does; a key not allowed now rings the bell instead."""
    async with toggled() as (pilot, screen, footer):
        app = screen.app
        line = str(footer.render())
        assert line.startswith(" y Yes  n Not now ")
        yes = line.index("Yes")
        await pilot.click(KeysFooter, offset=(yes, 0))
        assert screen.pressed == ["y"]
        bells: list[int] = []
        app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
        await pilot.click(KeysFooter, offset=(line.index("Not now"), 0))
        assert screen.pressed == ["y"] and bells == [1]
        palette = line.index("palette")  # at the right end
        assert palette > 40 and footer.key_at(palette) is not None
        await pilot.click(KeysFooter, offset=(palette, 0))
        await pilot.pause()
        assert type(app.screen).__name__ == "CommandPalette"


@sync
async def test_a_cursor_move_in_a_dialog_paints_only_its_list_again() -> None:
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=3, seed=1))
    async with opened(app) as pilot:
        dialog = app.screen
        assert isinstance(dialog, RattusDialog) and len(dialog.options) > 1
        parts = {p.id: p for p in dialog.query(Part)}
        assert {"dlg-title", "dlg-body", "dlg-help"} <= set(parts)
        before = {name: p.renders for name, p in parts.items()}
        await pilot.press("down")
        assert dialog.cursor == 1
        after = {name: p.renders for name, p in parts.items()}
        assert after.pop("dlg-body") == before.pop("dlg-body") + 1
        assert after == before  # the title, the help, the (empty) refusal and warning kept
