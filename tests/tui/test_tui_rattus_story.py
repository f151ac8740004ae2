"""Reading a game of Rattus: what happened since your turn, the log by player, the end told
step by step."""

from __future__ import annotations

import pytest
from rattus_helpers import rattus_at
from textual.pilot import Pilot
from textual.widgets import RichLog, Static
from tui_helpers import cartus_table, opened, rattus_table, sync

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.narrate import Narrator
from rattus_net.games.rattus.ui.summary import compact, recap
from rattus_net.games.rattus.ui.table import (
    MapWidget,
    RattusEndScreen,
    RattusMapScreen,
    style_of,
)
from rattus_net.kit.said import Said, seat_of
from tui.app import RattusNetApp
from tui.common.log import LogScreen, LogSeat, LogSeats
from tui.common.recap import RecapScreen


def body(screen: RecapScreen) -> str:
    return str(screen.query_one("#recap-body", Static).render())


async def recap_with(pilot: Pilot[None], app: RattusNetApp, *words: str) -> RecapScreen:
    """Play on (the first option of every dialog, Enter on every recap) until a recap that
    says all of ``words``."""
    for _ in range(600):
        screen = app.screen
        if isinstance(screen, RecapScreen) and all(w in body(screen) for w in words):
            return screen
        if isinstance(screen, RattusDialog):
            screen.action_confirm()
        elif isinstance(screen, RecapScreen):
            screen.action_next()
        await pilot.pause()
    raise AssertionError(f"no recap said {words}")


@sync
async def test_since_your_turn_tells_the_outbreak_and_marks_the_map() -> None:
    """After the bots' turns brought an outbreak that struck, the player's next decision waits
    behind a recap: each player's doings in order, every token turned up with what it struck
    and why; the regions that changed are marked on the map (``*``, also without colour)."""
    c = rattus_table(players=3, seed=6, bots="random", advance=False)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        screen = await recap_with(pilot, app, "it strikes", "-- ")
        text = body(screen)
        assert "Outbreak in " in text and "token [" in text and "turned up: " in text
        assert "moved the plague piece to " in text
        assert "lose" in text and ("symbol (" in text or "majority" in text or "all (" in text)
        assert "What happened since your last decision" in str(
            screen.query_one("#recap-title", Static).render()
        )
        table = app.screen_stack[-2]
        assert isinstance(table, RattusMapScreen)
        changed = table.query_one(MapWidget).changed
        struck = text.split("Outbreak in ")[-1].split(":")[0]
        assert table.controller.view.regions.index(struck) in changed
        drawn = str(table.query_one(MapWidget).render())
        assert R.CHANGED + struck in drawn
        # the panel leaves the map in sight
        assert screen.query_one("#recap").region.y >= table.query_one(MapWidget).region.bottom
        await pilot.press("enter")
        assert isinstance(app.screen, RattusDialog)
        assert table.query_one(MapWidget).changed == changed  # still marked while deciding


def test_the_recap_is_the_log_since_the_last_decision_each_line_its_players() -> None:
    c = rattus_at(Kind.TURN, players=3, seed=4)
    view = c.view
    none = recap(view, c.names, view.log_size, R.colour, lambda _: "")
    assert none is None  # nothing happened since
    told = recap(view, c.names, 0, R.colour, lambda _: "")
    assert told is not None and len(told.pages) == 1 and not told.by_step
    page = told.pages[0]
    for seat in range(1, 3):  # the bots' lines in their colours
        name = c.names[seat]
        start = page.plain.index(f"{name}: ")
        assert any(R.colour(seat) in str(span.style) for span in page.spans if span.start == start)
    assert told.changed  # the start cubes at least


def test_the_log_lines_say_whose_they_are() -> None:
    c = rattus_at(Kind.FINAL, players=4, seed=2)
    lines = Narrator(c.names, 0).lines(c.view.events())
    assert all(isinstance(line, Said) for line in lines)
    took = [line for line in lines if " took the " in line]
    assert took
    for line in took:
        who = line.split(" took")[0]
        assert seat_of(line) == (0 if who == "You" else c.names.index(who))
    # the outbreak's lines are the turn's player's; a cube lost is its owner's
    for line in lines:
        if line.startswith("    ") and "lose" in line:
            who = line.split()[0]
            assert seat_of(line) == (0 if who == "You" else c.names.index(who))
    # plain lines (a game that tags nothing): by the name they start with
    assert seat_of("Anna took it", ["Ann", "Anna"]) == 1
    assert seat_of("You took it", ["Ann", "Bob"], me=1) == 1
    assert seat_of("The plague breaks out", ["Ann"]) is None


def test_compact_joins_a_players_plain_doings() -> None:
    lines = [
        Said("-- Ann's turn --", 1),
        Said("Ann placed 2 cubes in Gallia.", 1),
        Said("Ann took the King.", 1),
        Said("King: Ann moved a cube from Gallia to the palace.", 1),
        Said("You placed 1 cube in Italia.", 0),
        Said("You saw (only you): Gallia token 1 is 2 M.", 0),
    ]
    assert compact(lines, ["You", "Ann"], style_of) == [
        "-- Ann's turn --",
        "Ann: placed 2 cubes in Gallia; took the King.",
        "King: Ann moved a cube from Gallia to the palace.",
        "You: placed 1 cube in Italia.",
        "You saw (only you): Gallia token 1 is 2 M.",  # (a line of its own style: whole)
    ]


def log_styles(screen: LogScreen) -> list[tuple[str, str]]:
    """Each line of the log screen with its first segment's colour."""
    out = []
    for strip in screen.query_one("#full-log", RichLog).lines:
        segments = [s for s in strip if s.text.strip()]
        colour = segments[0].style.color if segments and segments[0].style else None
        out.append((strip.text, "" if colour is None else colour.name))
    return out


async def full_log(pilot: Pilot[None]) -> LogScreen:
    """The table's full log (``l`` on the table, its dialog put aside)."""
    await pilot.press("escape", "l")
    log = pilot.app.screen
    assert isinstance(log, LogScreen)
    await pilot.pause()
    return log


@sync
async def test_the_log_colours_each_player_and_shows_one_player_only() -> None:
    c = rattus_at(Kind.FINAL, players=4, seed=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        log = await full_log(pilot)
        shown = log_styles(log)
        bertram = c.names[2]
        mine = [s for t, s in shown if t.startswith("You took")]
        theirs = [s for t, s in shown if t.startswith(f"{bertram} took")]
        assert mine and theirs
        assert all(s == R.colour(0) for s in mine) and all(s == R.colour(2) for s in theirs)
        await pilot.press("3")  # the third seat only
        only = [t for t, _ in log_styles(log)]
        assert log.only == 2 and only and len(only) < len(shown)
        others = [name for name in c.names if name != bertram] + ["You", "-- You"]
        assert not any(t.startswith(tuple(f"{o} " for o in others)) for t in only), only
        assert any(t.startswith(f"{bertram} ") for t in only)
        assert bertram in str(log.query_one("#log-title", Static).render())
        await pilot.press("a")
        assert log.only is None and len(log_styles(log)) == len(shown)
        await pilot.press(bertram[0].lower())  # the initial, if nobody else's
        assert log.only == (2 if log.seats.key_of(bertram[0].lower()) == 2 else None)
        await pilot.press("escape")
        assert isinstance(app.screen, RattusMapScreen)


def test_the_log_filters_by_number_and_unique_initials_only() -> None:
    names = ("You", "Agnes", "Bob", "Bea")
    seats = LogSeats(tuple(LogSeat(name, "") for name in names), 0)
    assert seats.key_of("2") == 1 and seats.key_of("5") is None
    assert seats.key_of("y") == 0
    assert seats.key_of("a") is None  # the log's own key (all)
    assert seats.key_of("b") is None  # two players' initial
    assert "1 You (y)" in seats.keys_help() and "3 Bob  " in seats.keys_help()


@sync
async def test_cartus_log_is_coloured_by_seat_too() -> None:
    """Shared: Rattus Cartus's lines (plain strings) are told apart by the name they start
    with."""
    c = cartus_table(players=5, seed=3)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        log = await full_log(pilot)
        coloured = [(t, s) for t, s in log_styles(log) if s]
        assert coloured, log_styles(log)
        await pilot.press("5")
        assert log.only == 4
        theirs = [line for line in log.lines if line.startswith(c.names[4] + " ")]
        assert theirs and len(log.query_one("#full-log", RichLog).lines) >= len(theirs)
        assert all(log.seats.seat_of(line) == 4 for line in theirs)


@pytest.mark.slow
@sync
async def test_the_final_round_is_shown_step_by_step() -> None:
    """From the player's last decision of the final round, the rest of the game is told step
    by step (each player's class cards, then the final outbreak region by region, each
    step's regions reversed on the map) before the end screen."""
    c = rattus_at(Kind.FINAL, players=4, seed=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        steps: list[str] = []
        lit: list[tuple[int, ...]] = []
        for _ in range(400):
            screen = app.screen
            if isinstance(screen, RattusEndScreen):
                break
            if isinstance(screen, RattusDialog):
                screen.action_confirm()
            elif isinstance(screen, RecapScreen):
                steps.append(body(screen))
                table = app.screen_stack[-2]
                assert isinstance(table, RattusMapScreen)
                lit.append(table.query_one(MapWidget).highlight)
                await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, RattusEndScreen)
        assert len(steps) >= 3, steps
        final = [s for s in steps if s.startswith("Outbreak in ")]
        assert final and all(s.count("Outbreak in ") == 1 for s in final)  # region by region
        assert any(s.startswith("The plague breaks out in every region") for s in steps)
        assert steps[-1].startswith("Game over")
        regions = c.view.regions
        for s, marked in zip(steps, lit, strict=True):
            if s.startswith("Outbreak in "):
                region = s.split("Outbreak in ")[1].split(":")[0]
                assert [regions[r] for r in marked] == [region]
                # the map shows the end: the step says what the region held before
                after = R.cube_text(c.view.cubes[regions.index(region)], "none").plain
                assert f" before, {after} after" in s
                lost = s.count(" loses a cube") + s.count("You lose a cube")
                assert (lost == 0) == (s.split("cubes there: ")[1].startswith(after + " before"))


@sync
async def test_steps_go_back_and_can_be_skipped() -> None:
    c = rattus_at(Kind.FINAL, players=4, seed=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        for _ in range(200):
            if isinstance(app.screen, RecapScreen):
                break
            if isinstance(app.screen, RattusDialog):
                app.screen.action_confirm()
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RecapScreen) and len(screen.pages) > 2
        first = body(screen)
        await pilot.press("enter")
        assert screen.page == 1 and body(screen) != first
        assert "step 2 of" in str(screen.query_one("#recap-title", Static).render())
        await pilot.press("backspace")
        assert screen.page == 0 and body(screen) == first
        await pilot.press("escape")
        for _ in range(50):
            if isinstance(app.screen, RattusEndScreen):
                break
            await pilot.pause()
        assert isinstance(app.screen, RattusEndScreen)
