"""A game against bots on this machine, one controller for every game: the bots and the table
play up to the human's decision, the game is saved as it goes and continues exactly where it
stopped, with fresh chance; a save that fails is said once and the game goes on."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rattus_net.kit.offline as offline
from rattus_net.kit.errors import IllegalMove, SetupError
from rattus_net.kit.local import LocalTable
from rattus_net.kit.offline import OfflineSetup, OfflineTable, default_bot_kind
from rattus_net.kit.registry import game_names, get_game
from rattus_net.kit.saves import read_save


def new(game: str, players: int = 3, seed: int = 7, save_to: Path | None = None) -> Any:
    return OfflineTable.new(OfflineSetup(game, players, "random", seed), save_to=save_to)


def play(table: Any, decisions: int, rng: random.Random) -> None:
    """The human's decisions, random but seeded (each one saved before the next)."""
    for _ in range(decisions):
        if table.is_over:
            return
        legal = table.definition.legal(table.game, table.seat)
        table.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("game", game_names())
def test_the_bots_play_until_the_human_decides_and_the_game_plays_to_its_end(
    game: str, tmp_path: Path
) -> None:
    path = tmp_path / "save.json"
    table = new(game, save_to=path)
    assert table.my_turn and not table.is_over
    assert table.awaited().startswith("Your turn: ")
    assert path.is_file()  # saved once the human is awaited
    rng = random.Random(1)
    while not table.is_over:
        assert table.my_turn  # the others never leave the human waiting
        play(table, 1, rng)
    assert table.awaited() == "The game is over."
    assert not path.exists()  # a finished game's save goes
    assert table.definition.outcome(table.game) is not None


@pytest.mark.parametrize("game", game_names())
def test_a_saved_game_continues_exactly_where_it_stopped(game: str, tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    table = new(game, players=4, save_to=path)
    play(table, 12, random.Random(2))
    saved = read_save(path)
    assert saved is not None
    assert (saved.game, saved.bots, saved.human_seat, len(saved.names)) == (game, "random", 0, 4)
    again = OfflineTable.continued(saved, save_to=path)
    definition = get_game(game)
    # every piece, every counter, the decision awaited and the whole log are the same
    assert definition.state_dict(again.game) == definition.state_dict(table.game)
    assert again.game.pending == table.game.pending
    assert again.names == table.names and again.bot_kind == "random"
    assert again.new_log_lines() == OfflineTable.continued(saved).new_log_lines()
    # and it plays on to the end, when the save goes away
    rng = random.Random(3)
    while not again.is_over:
        play(again, 1, rng)
    assert not path.exists()


@pytest.mark.parametrize("game", game_names())
def test_a_continued_game_draws_fresh_chance(game: str, tmp_path: Path) -> None:
    """The record fixes what was decided, not what comes: two continuations of one save do
    not share their chance from there on (the record's seed would make it predictable)."""
    path = tmp_path / "save.json"
    play(new(game, save_to=path), 3, random.Random(4))
    saved = read_save(path)
    assert saved is not None
    one, two = OfflineTable.continued(saved), OfflineTable.continued(saved)
    assert isinstance(one.table, LocalTable) and isinstance(two.table, LocalTable)
    assert one.table.rng.getstate() != two.table.rng.getstate()


@pytest.mark.parametrize("game", game_names())
def test_a_game_that_cannot_start_so_is_refused_before_anything_is_played(game: str) -> None:
    definition = get_game(game)
    with pytest.raises(SetupError, match="players"):
        OfflineTable.new(OfflineSetup(game, definition.max_players + 1))
    with pytest.raises(SetupError, match="unknown bot"):
        OfflineTable.new(OfflineSetup(game, 2, "genius"))
    with pytest.raises(SetupError, match="seat"):
        OfflineTable.new(OfflineSetup(game, 2, human_seat=2))
    with pytest.raises(SetupError, match="unknown option"):
        OfflineTable.new(OfflineSetup(game, 2, values={"speed": 3}))


def test_the_human_s_illegal_move_changes_nothing() -> None:
    table = new("cartus")
    before = len(table.game.log)
    with pytest.raises(IllegalMove):
        table.play(table.definition.parse_move("pass"))  # not a phase-B decision
    assert len(table.game.log) == before and table.my_turn


def test_the_human_sits_where_the_setup_says_with_the_bots_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(offline, "BOT_NAMES", ("Ada", "Bea", "Cy"))
    table = OfflineTable.new(OfflineSetup("rattus", 3, human_name="Hana", human_seat=1))
    assert table.names == ("Ada", "Hana", "Bea")
    shown = OfflineTable.new(
        OfflineSetup("cartus", 3, human_name="\x1b[2JX"), shown=lambda n: n.replace("\x1b", "^")
    )
    assert shown.names[0] == "^[2JX"  # how a front end shows a name from anywhere


def test_slow_bots_are_saved_while_they_play(tmp_path: Path) -> None:
    """The human's move is not lost with a crash while slow bots think: the game is handed
    to the writer again when the bots have been at it for a while."""
    table = OfflineTable.new(
        OfflineSetup("cartus", 4, "random", 5), save_to=tmp_path / "save.json", advance=False
    )
    ticks = iter(range(0, 10**6, 10))  # each look at the clock: ten seconds later
    table.clock = lambda: float(next(ticks))
    table.advance()  # three bots play first
    table.wait_saved()
    assert table.saver is not None and table.saver.submitted > 1


@pytest.mark.parametrize("game", game_names())
def test_a_game_goes_on_when_it_cannot_be_saved(game: str, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    table = new(game, players=2, save_to=blocker / "save.json")
    assert table.save_problem is not None and "cannot be saved" in table.save_problem
    assert table.save_problem in table.new_log_lines()  # said once, in the log
    play(table, 3, random.Random(3))
    assert table.save_problem not in table.new_log_lines()
    assert table.my_turn or table.is_over  # and the game goes on


def test_quick_bots_and_the_default_kind() -> None:
    assert default_bot_kind() == "heuristic" and default_bot_kind(("random", "search")) == "random"
    assert new("cartus").quick_bots
    slow = OfflineTable.new(OfflineSetup("rattus", 2, "search", 1), advance=False)
    assert not slow.quick_bots
