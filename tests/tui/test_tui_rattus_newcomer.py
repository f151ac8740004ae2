"""What a new player tripped on at the Rattus map: where the plague mark sits, the legend,
the keys shown, the Knight's list, the recap's lines, the end of the game step by step."""

from __future__ import annotations

import random
from typing import Any

from rattus_helpers import rattus_at
from tui_helpers import opened, rattus_table, sync, until

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.game import Event
from rattus_net.games.rattus.moves import Place
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.narrate import Narrator
from rattus_net.games.rattus.ui.summary import compact
from rattus_net.games.rattus.ui.table import style_of
from rattus_net.kit.said import seat_of
from tui.app import RattusNetApp
from tui.common.footer import KeysFooter


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
