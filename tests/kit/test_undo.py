"""Taking back the steps of one's own turn: the kit's policy on a small game made for it (an
undo never crosses another seat's move, a table's answer or the end), then every registered
game offline: a step taken back leaves the game exactly as before it, saved so."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from rattus_net.kit.errors import IllegalMove
from rattus_net.kit.local import LocalTable
from rattus_net.kit.machine import Machine
from rattus_net.kit.offline import OfflineSetup, OfflineTable
from rattus_net.kit.registry import game_names
from rattus_net.kit.saves import read_save
from rattus_net.kit.table import Reveal
from rattus_net.kit.undo import NOTHING_YET, TurnSteps, UndoRefused, held


@dataclass(frozen=True)
class Steps:
    players: tuple[str, ...]


@dataclass(frozen=True)
class Ask:
    players: tuple[int, ...]


class Add(NamedTuple):
    """Add ``n`` to the total (the turn goes on), or end the turn with ``then``: ``pass`` to
    the next seat, ``look`` at a face-down piece, ``roll`` a random number, ``both`` (every
    seat decides at once next)."""

    n: int = 0
    then: str | None = None


class Counting(Machine[Steps, Ask, int, Add]):
    """A turn is any number of additions by one seat, ended by a pass, a look, a roll or a
    decision every seat takes at once; the game is over past 20."""

    def __init__(self, config: Steps) -> None:
        super().__init__(config)
        self.total = 0
        self.seat = 0
        self.piece = self.new_handles(1)[0]
        self._start((Counting._t_ask, ()))

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def _t_ask(self) -> None:
        if self.total > 20:
            self.result = self.total
            return
        self.pending = Ask((self.seat,))

    def _apply(self, d: Ask, player: int, move: Add) -> Add:
        if move.n < 0:
            raise IllegalMove("only additions")
        self.pending = None
        self.total += move.n
        self.emit("add", player, n=move.n)
        if move.then == "pass":
            self.seat = (self.seat + 1) % self.n
        elif move.then == "look":
            self.pending = Reveal((self.piece,), player)
        elif move.then == "roll":
            self._then(
                (Counting._t_ask_random, (6, "die")),
                (Counting._t_add_roll, ()),
                (Counting._t_ask, ()),
            )
            return move
        elif move.then == "both":
            self.pending = Ask(tuple(range(self.n)))
            return move
        self._then((Counting._t_ask, ()))
        return move

    def _t_add_roll(self) -> None:
        self.total += self._random


def counting() -> tuple[Counting, LocalTable]:
    game = Counting(Steps(("Ann", "Bob")))
    table = LocalTable(seed=1)
    table.face_of[game.piece] = 4
    return game, table


def state(game: Counting) -> tuple[object, ...]:
    return (game.total, game.seat, game.pending, list(game.history), len(game.log))


def test_steps_are_taken_back_one_by_one_to_the_state_before_each() -> None:
    game, _ = counting()
    steps: TurnSteps[Add] = TurnSteps(0)
    before = [state(game)]
    for n in (1, 2, 3):
        assert steps.play(game, Add(n)) == []  # held: the turn goes on
        before.append(state(game))
    assert steps.moves == (Add(1), Add(2), Add(3))
    for n in (3, 2, 1):
        game, move = steps.undo()
        assert move == Add(n)
        before.pop()
        assert state(game) == before[-1]
    with pytest.raises(UndoRefused, match=NOTHING_YET):
        steps.undo()
    # the game taken back plays on (its steps held again)
    assert steps.play(game, Add(5)) == [] and game.total == 5


def test_an_illegal_step_changes_nothing_and_is_not_held() -> None:
    game, _ = counting()
    steps: TurnSteps[Add] = TurnSteps(0)
    steps.play(game, Add(1))
    with pytest.raises(IllegalMove):
        steps.play(game, Add(-1))
    assert steps.moves == (Add(1),) and game.total == 1


@pytest.mark.parametrize(
    ("then", "why"),
    [
        ("pass", "another player has decided since"),
        ("look", "a hidden piece was looked at since"),
        ("roll", "a random number was drawn since"),
        ("both", "another player has decided since"),
    ],
)
def test_the_step_that_reaches_a_reveal_chance_or_another_seat_makes_the_turn_final(
    then: str, why: str
) -> None:
    game, table = counting()
    steps: TurnSteps[Add] = TurnSteps(0)
    steps.play(game, Add(1))
    steps.play(game, Add(2))
    assert steps.play(game, Add(3, then)) == [Add(1), Add(2), Add(3, then)]
    assert steps.moves == ()
    while game.pending is not None and not game.to_act():
        table.answer(game)
    if then in ("look", "roll"):  # the table answered; the seat goes on deciding
        assert held(game, 0)
    with pytest.raises(UndoRefused, match=why):
        steps.undo()
    assert game.total >= 6  # nothing taken back


def test_the_end_of_the_game_is_final() -> None:
    game, _ = counting()
    steps: TurnSteps[Add] = TurnSteps(0)
    steps.play(game, Add(20))
    assert steps.play(game, Add(1)) == [Add(20), Add(1)]
    assert game.is_over
    with pytest.raises(UndoRefused, match="the game is over"):
        steps.undo()


def test_a_seat_deciding_with_others_holds_nothing() -> None:
    game, _ = counting()
    game.apply(0, Add(1, "both"))
    assert not held(game, 0) and not held(game, 1)


# --- every game, offline ----------------------------------------------------------------------


def fingerprint(table: Any) -> tuple[object, ...]:
    d = table.definition
    return (d.state_dict(table.game), list(table.game.history), len(table.game.log))


@pytest.mark.parametrize("game", game_names())
def test_offline_every_step_held_is_taken_back_to_the_state_before_it_and_saved_so(
    game: str, tmp_path: Path
) -> None:
    path = tmp_path / "save.json"
    table: Any = OfflineTable.new(OfflineSetup(game, 3, "random", 5), save_to=path)
    rng = random.Random(3)
    undone = refused = 0
    for _ in range(200):
        if table.is_over or (undone >= 3 and refused >= 3):
            break
        legal = table.definition.legal(table.game, table.seat)
        before = fingerprint(table)
        move = legal[rng.randrange(len(legal))]
        table.apply(move)
        if table.is_over:
            break
        if table.steps.moves:  # the step is held: take it back, then play it on
            assert table.my_turn
            line = table.undo()
            assert line.startswith("Step taken back: ")
            assert fingerprint(table) == before
            saved = read_save(path)
            assert saved is not None and saved.record == table.definition.record_of(
                table.game, table.table, table.values
            )
            undone += 1
            table.apply(move)  # and played again, to go on
        else:
            with pytest.raises(UndoRefused):
                table.undo()
            refused += 1
    assert refused > 0  # every game has final steps
    if game == "rattus":  # (a Rattus turn is several steps; a Cartus one is one)
        assert undone >= 3
