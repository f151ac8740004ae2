"""What a new player tripped on at the Rattus map: where the plague mark sits, the legend,
the keys shown, the Knight's list, the recap's lines, the end of the game step by step."""

from __future__ import annotations

import random
from typing import Any

from rattus_helpers import rattus_at
from tui_helpers import opened, played_until, rattus_table, sync, text_of, until

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.game import Event
from rattus_net.games.rattus.moves import Place, Plague
from rattus_net.games.rattus.ui.choices import tree_for
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.narrate import Narrator
from rattus_net.games.rattus.ui.summary import compact
from rattus_net.games.rattus.ui.table import MapWidget, RattusMapScreen, style_of
from rattus_net.kit.said import seat_of
from tui.app import RattusNetApp
from tui.common.footer import KeysFooter
from tui.common.recap import RecapScreen


def test_the_plague_mark_is_drawn_in_its_own_regions_box() -> None:
    """The skull follows its region's name: at the right end of the box it touched the link
    to the next region ("Germania @ ☠───Polonia") and read as that region's."""
    c = rattus_at(Kind.TURN, players=4, seed=5)
    game = c.game
    for r, name in enumerate(c.view.regions):
        game.plague = r
        for width, tall in ((80, False), (130, True)):
            drawn = R.map_text(c.view, width, tall).plain
            line = next(line for line in drawn.splitlines() if name in line)
            assert f"{name} {R.PLAGUE}" in line, (name, line)
            assert drawn.count(R.PLAGUE) == 2  # (and once in the legend)
            for link in "─┈":
                assert f"{R.PLAGUE}{link}" not in drawn and f"{R.PLAGUE}+2{link}" not in drawn


def test_the_legend_says_what_the_changed_mark_is() -> None:
    c = rattus_at(Kind.TURN, players=4, seed=5)
    drawn = R.map_text(c.view, 80, changed=(0,)).plain
    assert f"{R.CHANGED}{c.view.regions[0]}" in drawn
    assert f"{R.CHANGED} changed" in drawn


def test_the_recap_says_a_doing_again_at_once_only_once() -> None:
    """The last player of the setup's first round places again at once (A B C D D C B A):
    the same regions twice made one line say the same thing twice."""
    narrator = Narrator(["Ann", "Bob", "Cid", "Dan"], 0)
    place = Event("start-place", 3, {"regions": ["Germania", "Turcia"]})
    other = Event("start-place", 3, {"regions": ["Italia", "Italia"]})
    subjects = ["You", "Bob", "Cid", "Dan"]
    told = compact(narrator.lines([place, place]), subjects, style_of)
    assert told == ["Dan: placed start cubes in Germania and Turcia, twice."]
    told = compact(narrator.lines([place, other, other, other]), subjects, style_of)
    assert told == [
        "Dan: placed start cubes in Germania and Turcia; "
        "placed both start cubes in Italia, 3 times."
    ]
    assert [seat_of(line) for line in told] == [3]


@sync
async def test_the_dialogs_footer_shows_undo_while_a_step_can_be_taken_back() -> None:
    """``u Undo`` in the dialog's footer once a placement is held (the table's footer, which
    said it, is hidden under the dialog); not at the turn's first step, where ``u`` still
    says why nothing can be taken back."""

    c = rattus_table(3, 1)
    rng = random.Random(1)
    while not (
        c.view.decision.kind is Kind.TURN
        and not c.steps.moves
        and any(isinstance(m, Place) for m in c.view.legal())
    ):
        legal = c.view.legal()
        c.apply(legal[rng.randrange(len(legal))])
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        dialog = app.screen
        assert isinstance(dialog, RattusDialog)
        assert "Undo" not in footer_words(dialog)
        await pilot.press("u")
        await pilot.pause()
        assert any("Nothing to take back" in str(n.message) for n in app._notifications)
        dialog.submit(next(m for m in c.view.legal() if isinstance(m, Place)))
        await until(lambda: isinstance(app.screen, RattusDialog) and app.screen is not dialog)
        assert "Undo" in footer_words(app.screen)
        await pilot.press("u")
        await until(lambda: c.view.placed is False and isinstance(app.screen, RattusDialog))
        assert "Undo" not in footer_words(app.screen)


def footer_words(screen: Any) -> list[str]:
    return [k.description for k in screen.query_one(KeysFooter).keys]


def knight_can_move(view: Any) -> bool:
    return any(isinstance(m, Plague) and m.via is not None for m in view.legal())


def test_the_knights_list_has_one_row_per_destination() -> None:
    """The Knight's move listed "Italia" and "Italia via Germania" (16 rows for 8 regions):
    the region passed changes nothing, so one row per destination, the route said only for
    a region two steps away; every destination is still reachable."""
    for kind in (Kind.TURN, Kind.FINAL):
        c = played_until(
            lambda s: rattus_table(4, s),
            lambda v, kind=kind: v.decision.kind is kind and knight_can_move(v),
            3,
            "a Knight's move",
        )
        view = c.view
        plague = [m for m in view.legal() if isinstance(m, Plague)]
        here = view.regions[view.plague]
        neighbours = {view.regions[o] for o in view.neighbours[view.plague]}
        tree = tree_for(view)
        top = next(o for o in tree.options() if o.label.startswith(("Move the", "Knight")))
        tree.choose(top)
        rows = [o.label for o in tree.options()]
        assert len(rows) == len({m.to for m in plague}), rows
        for option in tree.options():
            row = option.label
            to = row.removeprefix("stay in ").split(" (")[0].split(" via ")[0]
            assert (" via " in row) == (to not in neighbours and to != here), row
            passed = {m.via for m in plague if m.to == to and m.via is not None}
            if " via " in row:  # the regions it may pass, named and shown on the map
                assert set(row.split(" via ")[1].split(" (")[0].split(" or ")) == passed
                assert {view.regions[r] for r in option.regions} == {to, *passed}
        reached = set()
        for _, m in tree.matching():
            assert isinstance(m, Plague)
            reached.add((m.to, m.knight))
        assert reached == {(m.to, m.knight) for m in plague}


@sync
async def test_every_row_of_a_long_list_is_reached_by_key() -> None:
    """The digits stop at 9: End, Home, PgUp/PgDn reach the others, and the dialog says so
    (the setup's first cube: 12 regions with 4 players)."""
    c = rattus_at(Kind.START, players=4, seed=1)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        dialog = app.screen
        assert isinstance(dialog, RattusDialog)
        count = len(dialog.rows())
        assert count > 9
        help_line = text_of(dialog, "#dlg-help")
        assert "Home/End" in help_line and "PgUp/PgDn" in help_line
        assert "(PgUp/PgDn, Home/End)" in text_of(dialog, "#dlg-body")
        await pilot.press("end")
        assert dialog.cursor == count - 1
        last = dialog.rows()[-1]
        assert ">   " + last in text_of(dialog, "#dlg-body")
        await pilot.press("home")
        assert dialog.cursor == 0
        await pilot.press("pagedown", "pagedown", "pagedown")
        assert dialog.cursor == count - 1  # (without going round)
        await pilot.press("pageup")
        assert dialog.cursor == count - 1 - dialog.LIST_HEIGHT
        await pilot.press("end", "enter")
        assert dialog.choices.chosen[-1].label == last


@sync
async def test_how_the_game_ended_shows_each_steps_map() -> None:
    """Each step of the end of the game shows the map as it was at the end of that step (the
    first one showed the final map, before the final outbreak): a region of the final
    outbreak holds its tokens until its step, its cubes after it are the final ones; closed,
    the map is the game's end again."""
    c = rattus_at(Kind.FINAL, players=4, seed=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        for _ in range(400):
            screen = app.screen
            if isinstance(screen, RecapScreen) and c.is_over:
                break
            if isinstance(screen, RattusDialog):
                screen.action_confirm()
            elif isinstance(screen, RecapScreen):
                await pilot.press("escape")
            await pilot.pause()
        recap = app.screen
        assert isinstance(recap, RecapScreen) and len(recap.pages) > 2
        assert "How the game ended" in text_of(recap, "#recap-title")
        table = app.screen_stack[-2]
        assert isinstance(table, RattusMapScreen)
        widget = table.query_one(MapWidget)
        view = c.view
        final_map = R.map_text(view, widget.drawn_for).plain
        first_tokens: list[int] = []
        maps = []
        for page in range(len(recap.pages)):
            assert recap.page == page
            board = widget.board
            assert board is not None
            shown = text_of(table, "#r-map")
            assert shown == R.map_text(board, widget.drawn_for, highlight=widget.highlight).plain
            maps.append(R.map_text(board, widget.drawn_for).plain)
            counts = [len(board.tokens(r)) for r in range(len(view.regions))]
            first_tokens = first_tokens or counts
            step = str(recap.text)
            if step.startswith("Outbreak in "):
                region = view.regions.index(step.split("Outbreak in ")[1].split(":")[0])
                assert board.cubes[region] == view.cubes[region]
                assert first_tokens[region] > view.token_counts[region]
            await pilot.press("enter")
        assert maps[0] != final_map and maps[-1] == final_map
        assert len(set(maps)) > 2
        await until(lambda: widget.board is None)
