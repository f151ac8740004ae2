"""The Rattus map in the TUI: whole games through the dialogs, the choices, the words."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rattus_helpers import play_rattus_to_end, rattus_at
from rich.color import ColorSystem
from rich.style import Style
from textual.widgets import RichLog
from tui_helpers import controller_at, opened, rattus_table, showing, sync, text_of

import rattus_net.games.rattus.ui.render as R
from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.moves import Move, Plague
from rattus_net.games.rattus.ui.choices import ChoiceTree, tree_for
from rattus_net.games.rattus.ui.dialog import RattusDialog
from rattus_net.games.rattus.ui.table import MapWidget, RattusEndScreen, RattusMapScreen
from tui.app import RattusNetApp
from tui.common.end import GameEndScreen
from tui.shell.menu import MenuScreen


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed", "keys"), [(2, 1, False), (3, 3, False), (4, 8, True)])
@sync
async def test_whole_game_through_the_map(players: int, seed: int, keys: bool) -> None:
    """The human seat is driven by key presses (4 players) or by the dialogs' actions."""
    app = RattusNetApp(table=rattus_table(players=players, seed=seed, advance=False))
    async with opened(app) as pilot:
        seen = await play_rattus_to_end(pilot, app, seed, keys)
        assert {"start", "turn"} <= seen
        screen = app.screen
        assert isinstance(screen, RattusEndScreen)
        text = text_of(screen, "#r-scoring")
        result = screen.controller.view.result
        assert result is not None
        assert "Winner:" in text and "palace" in text and "TOTAL" in text
        assert screen.controller.names[result.winner] in text.split("Winner:")[1]
        final = text_of(screen, "#r-final")
        assert "the final outbreak (Up/Down scroll)" in final and "Outbreak in " in final
        assert "The game ends after" in final and "Final round" in final
        # from the start of the turn that ended the game
        assert final.split("scroll):\n")[1].startswith("-- ")
        await pilot.press("enter")  # typed ahead: does not skip the result
        assert app.screen is screen
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


def reachable(tree: ChoiceTree) -> list[Move]:
    """Every move the tree leads to (depth first through all options)."""
    out: list[Move] = []
    for choice in tree.options():
        move = tree.choose(choice)
        if move is not None:
            out.append(move)
        else:
            out += reachable(tree)
        tree.back()
    return out


def test_the_dialog_offers_exactly_the_legal_moves() -> None:
    """Over random games at 2-4 players, walking every option of every step reaches each
    legal move and nothing else, and no step is ever empty; the plague piece's moves once per
    destination (and Knight's +2 or not): the region the Knight's move passes changes
    nothing, so one route of each is offered."""

    def outcome(m: Move) -> object:
        return (m.to, m.knight) if isinstance(m, Plague) else m

    kinds = set()
    for seed in range(6):
        c = rattus_table(players=2 + seed % 3, seed=seed, bots="random")
        rng = random.Random(seed)
        while not c.is_over:
            d = c.view.decision
            assert d is not None
            kinds.add(d.kind)
            legal = c.view.legal()
            got = reachable(tree_for(c.view))
            assert set(got) <= set(legal)
            assert {outcome(m) for m in got} == {outcome(m) for m in legal}
            c.apply(legal[rng.randrange(len(legal))])
    assert kinds == set(Kind)


def test_place_offers_only_regions_with_tokens() -> None:
    c = rattus_at(Kind.TURN, players=3, seed=4)
    tree = tree_for(c.view)
    top = next(o for o in tree.options() if o.label == "Place cubes")
    assert tree.choose(top) is None
    offered = {c.view.regions[o.regions[0]] for o in tree.options()}
    with_tokens = {r for i, r in enumerate(c.view.regions) if c.view.token_counts[i]}
    assert offered == with_tokens


@sync
async def test_escape_looks_at_the_map_and_enter_decides_again() -> None:
    c = rattus_at(Kind.TURN, players=4, seed=2)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        assert isinstance(app.screen, RattusDialog)
        await pilot.press("2")  # the cursor shows a region on the map once a step offers one
        await pilot.press("enter", "1")
        dialog = app.screen
        assert isinstance(dialog, RattusDialog)
        map_screen = app.screen_stack[-2]
        assert isinstance(map_screen, RattusMapScreen)
        highlighted = map_screen.query_one(MapWidget).highlight
        assert highlighted and highlighted == dialog.options[dialog.cursor].regions
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, RattusMapScreen)
        assert map_screen.query_one(MapWidget).highlight == ()
        await pilot.press("enter")
        assert isinstance(app.screen, RattusDialog)


@sync
async def test_an_illegal_move_is_refused_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the engine refuses a move (a stale choice), the dialog says why and stays open."""
    from rattus_net.games.rattus.errors import NoTokens

    c = rattus_at(Kind.TURN, players=2, seed=1)

    def refuse(move: Move) -> None:
        raise NoTokens("Gallia holds no rat tokens")

    monkeypatch.setattr(c, "play", refuse)
    app = RattusNetApp(table=c)
    async with showing(app, RattusDialog) as (pilot, dialog):
        for _ in range(4):
            await pilot.press("enter")
        assert isinstance(app.screen, RattusDialog)
        assert "Gallia holds no rat tokens" in text_of(dialog, "#dlg-error")


def test_outbreaks_are_told_step_by_step() -> None:
    """Each token turned up gets a line (face, cubes counted against its number, struck or
    not, its effects), then one line per lost cube with the reason in words."""
    lines: list[str] = []
    for seed in range(10):
        c = rattus_at(None, players=4, seed=seed)
        lines = c.new_log_lines()
        if any("symbol (" in line for line in lines):
            break
    outbreak = next(i for i, line in enumerate(lines) if line.startswith("Outbreak in "))
    assert "turned up:" in lines[outbreak + 1]
    struck = [line for line in lines if "it strikes" in line]
    assert struck and all(">=" in line for line in struck)
    assert any("< " in line and "no effect" in line for line in lines)
    losses = [line for line in lines if line.startswith("    ")]
    assert any("majority (most cubes there)" in line for line in losses)
    assert any("all (every colour there loses one)" in line for line in losses)
    assert any("symbol (" in line and "the " in line for line in losses)
    assert lines[-1].startswith("Game over:")


def test_the_witch_look_is_told_only_to_the_seat_that_looked() -> None:
    found = 0
    for seed in range(12):
        c = rattus_at(None, players=3, seed=seed)
        lines = c.new_log_lines()
        game = c.game
        mine = [e for e in game.log if e.kind == "witch-look" and e.private_to == 0]
        others = [e for e in game.log if e.kind == "witch-look" and e.private_to != 0]
        saw = [line for line in lines if line.startswith("You saw (only you)")]
        assert len(saw) == len(mine)
        found += bool(others) and bool(mine)
    assert found


def test_the_witch_look_stays_marked_on_the_map() -> None:
    c = rattus_at(Kind.SWAP, players=2, seed=0)
    view = c.view
    looked = [(r, i) for r in range(len(view.regions)) for i, t in enumerate(view.tokens(r)) if t]
    assert len(looked) >= 1
    text = R.map_text(view, 80).plain
    assert "!" in text
    seen = R.seen_text(view).plain
    r, i = looked[0]
    face = view.tokens(r)[i]
    assert face is not None and f"{view.regions[r]} {i + 1}: {face.words()}" in seen
    # another seat's view of the same game shows no mark and no face
    from rattus_net.games.rattus.view import RattusView

    other = RattusView(c.game, 1)
    assert R.seen_text(other).plain == ""


def test_map_fits_80_columns_and_grows_with_room() -> None:
    for players in (2, 3, 4):
        c = rattus_at(Kind.TURN, players=players, seed=players)
        small = R.map_text(c.view, 80).plain.splitlines()
        assert max(len(line) for line in small) <= 80 and len(small) == 11
        big = R.map_text(c.view, 130, tall=True).plain.splitlines()
        assert max(len(line) for line in big) > 80 and len(big) > len(small)
        for region in c.view.regions:
            assert region in "\n".join(small)


def test_regions_not_in_play_are_greyed() -> None:
    c = rattus_at(Kind.TURN, players=2, seed=1)
    text = R.map_text(c.view, 80)
    for region in ("Russia", "Tartaria", "Bulgaria", "Turcia"):
        start = text.plain.index(region)
        styles = [str(s.style) for s in text.spans if s.start <= start < s.end]
        assert any("dim" in s for s in styles), region
    assert text.plain.count("not in play") == 4


def test_player_colours_are_distinct_in_16_colours_and_by_letter() -> None:
    """Each player's cubes carry a letter of his own and one of the 16 standard colours, so
    a 16-colour terminal and NO_COLOR still tell them apart."""
    text = R.cube_text([1, 2, 3, 4])
    assert text.plain == "R1 B2 G3 Y4"
    ansi = []
    for span in text.spans:
        style = Style.parse(str(span.style))
        assert style.color is not None
        number = style.color.downgrade(ColorSystem.STANDARD).number
        assert number is not None
        ansi.append(number % 8)  # normal or bright: the same colour
    assert ansi == [1, 4, 2, 3]  # red, blue, green, yellow


@sync
async def test_map_screen_shows_cards_players_and_log() -> None:
    c = rattus_at(Kind.TURN, players=4, seed=5)
    app = RattusNetApp(table=c)
    async with opened(app) as pilot:
        await pilot.press("escape")
        screen = app.screen
        assert isinstance(screen, RattusMapScreen)
        cards = text_of(screen, "#r-cards")
        assert all(card in cards for card in ("King", "Knight", "Monk", "Merchant", "Peasant"))
        players = text_of(screen, "#r-players")
        assert all(name in players for name in c.names)
        assert screen.query_one("#r-log", RichLog).lines
        assert screen.log_lines and any(line.startswith("Outbreak") for line in screen.log_lines)


@sync
async def test_menu_plays_rattus_with_its_settings() -> None:
    app = RattusNetApp(seed=7)
    async with showing(app, MenuScreen) as (pilot, menu):
        # game: Rattus Cartus -> Rattus; then players 3 -> 4 (capped at 4 for Rattus)
        await pilot.press("down", "right")
        assert menu.items[menu.cursor] == "game"
        await pilot.press("down", "right", "right", "right")
        assert menu.game == 1 and menu.players == 4
        assert not any(item.startswith("option:") for item in menu.items)  # none of its own
        body = text_of(menu, "#menu-body")
        assert "Host a table on the network" in body and "only)" not in body  # Rattus too
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RattusDialog)
        assert screen.controller.view.n == 4 and screen.kind is Kind.START
        await pilot.press("escape", "q", "q")
        assert isinstance(app.screen, MenuScreen)


def test_the_end_screen_tells_the_tie_break() -> None:
    from dataclasses import replace

    c = rattus_at(None, players=3, seed=2)
    r = c.game.result
    assert r is not None
    text = R.end_text(c.view).plain
    assert "Tie-break" not in text and f"Winner: {R.letter(r.winner)}" in text
    for region, cubes in zip(c.view.regions, c.view.cubes, strict=True):
        assert (region in text) == any(cubes)
    names = c.view.names
    assert f"Final round: {', '.join(names[s] if s else 'You' for s in r.final_order)}." in text
    # the same board with a tie on totals; seat 2 ended it: the tie goes from seat 2's left
    tied = replace(
        r,
        board=(4, 4, 2),
        palace=(1, 1, 0),
        final_order=(1, 0),
        tie_order=(0, 1, 2),
        ender=2,
        winner=0,
    )
    c.game.result = tied
    text = R.end_text(c.view).plain
    assert "Winner: R " in text and "(you)" in text and "Tie-break" in text
    assert (
        f"You and {names[1]} tied on 5 cubes: a tie goes to the player who would have had the "
        f"next turn (from {names[2]}'s left: You, {names[1]}, {names[2]})."
    ) in " ".join(text.split())


def test_a_users_map_with_other_region_names_still_draws(tmp_path: Path) -> None:
    """A region the grid does not know takes a free cell; a link between boxes that are not
    next to each other is listed under the map."""
    from rattus_net.games.rattus.loader import default_text

    mine = tmp_path / "mine.json"
    mine.write_text(default_text().replace('"Anglia"', '"Albion"'))
    c = rattus_table(players=2, seed=1, components=mine)
    drawn = R.map_text(c.view, 80).plain
    assert "Albion" in drawn and "Anglia" not in drawn
    assert "Also linked: " in drawn and "Scandia" in drawn.split("Also linked: ")[1]


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (4, 6)])
def test_the_map_log_speaks_to_you_and_tells_the_end_after_the_last_turn(
    players: int, seed: int
) -> None:
    from rattus_net.games.rattus.ui.narrate import Narrator
    from rattus_net.games.rattus.view import RattusView
    from rattus_net.kit.registry import get_game
    from rattus_net.selfplay import play_game

    game = play_game(get_game("rattus"), players, seed, ["heuristic"], {}).game
    r = game.result
    assert r is not None
    ender = game.config.players[r.ender]
    for seat in range(players):
        lines = Narrator(game.config.players, seat).lines(RattusView(game, seat).events())
        for line in lines:
            assert not re.search(r"\bYou \w+s\b|\bYou's\b|\byou's\b", line), line
        end = next(i for i, line in enumerate(lines) if line.startswith("The game ends after"))
        whose = "your" if seat == r.ender else f"{ender}'s"
        assert lines[end].startswith(f"The game ends after {whose} turn")
        # the whole last turn comes first: its plague move, spread and outbreak
        last_turn = max(i for i in range(end) if lines[i].startswith("-- "))
        assert lines[last_turn] == f"-- {whose[0].upper() + whose[1:]} turn --"
        assert any("moved the plague piece" in line for line in lines[last_turn:end])
        assert lines[end + 1].startswith("Final round (class cards only), counter-clockwise")
        for s in r.final_order:  # nobody takes a card in the final round: these hold now
            name = "you" if s == seat else game.config.players[s]
            no_card = f"{name} (no card)" in lines[end + 1]
            assert no_card == (not game.cards_of(s)), lines[end + 1]


def test_the_map_shows_rings_cubes_left_and_the_final_rounds_order() -> None:
    c = rattus_at(Kind.FINAL, players=4, seed=2)
    view = c.view
    ender = view.ender
    assert ender is not None
    status = R.status(view).plain
    order = " > ".join(f"{R.letter(s)} {c.names[s] if s else 'You'}" for s in view.final_order)
    assert status.startswith("RATTUS  FINAL ROUND " + order)
    assert status.endswith(f"({R.letter(ender)} {c.names[ender]} ended)")
    players = R.players_text(view).plain
    for s in range(4):
        assert f"cubes left {view.supply[s]:>2}" in players
    drawn = R.map_text(view, 80).plain
    assert f"ringed {view.supply_rings}, out {view.removed}" in drawn
    # At the start every region holds its ringed start token, face down: "@".
    start = rattus_at(Kind.START, players=4, seed=2).view
    assert all(R.token_marks(start, r) == "@" for r in range(len(start.regions)))
    assert "Anglia          @" in R.map_text(start, 80).plain
    assert "? token @ ringed ! seen" in drawn


def test_the_status_says_last_turn_once_the_rat_supply_ran_out() -> None:
    from rattus_net.games.rattus.decision import SUPPLY

    c = rattus_at(Kind.TURN, players=2, seed=1)
    assert "LAST TURN" not in R.status(c.view).plain
    c.game.end_reason, c.game.ender = SUPPLY, c.game.active
    assert "LAST TURN (rat supply empty)" in R.status(c.view).plain


@pytest.mark.parametrize("game", ["cartus", "rattus"])
@sync
async def test_the_end_screen_takes_enter_twice_for_the_menu(game: str) -> None:
    """Both games' end screens go back to the menu with Enter, as with Esc, but only on a
    second Enter (the first may have been typed for the game's last decision); another key
    in between asks again."""
    table = controller_at(None, players=3) if game == "cartus" else rattus_at(None)
    app = RattusNetApp(table=table)
    async with opened(app) as pilot:
        for _ in range(100):
            if isinstance(app.screen, GameEndScreen):
                break
            await pilot.pause(0.05)
        end = app.screen
        assert isinstance(end, GameEndScreen) and end.played_out
        await pilot.press("enter")
        assert app.screen is end
        assert any("Enter again" in n.message for n in app._notifications)
        await pilot.press("down", "enter")
        assert app.screen is end
        await pilot.press("enter")
        assert isinstance(app.screen, MenuScreen)
