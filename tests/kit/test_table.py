"""Table requests are typed values: the machine tells them from a game's decisions by type,
never by shape, and each kind checks and keeps its own answer (``rattus_net/kit/table.py``)."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from rattus_net.kit.errors import TableMisuse
from rattus_net.kit.machine import Machine
from rattus_net.kit.table import PublicRandom, Reveal, Shuffle
from rattus_net.kit.undo import why_final

from .test_undo import Steps


class Pick(NamedTuple):
    """A decision that is a tuple: before requests had a type of their own, the machine took
    any tuple for a table request."""

    players: tuple[int, ...]


class Turning(Machine[Steps, Pick, int, int]):
    """Seat 0 picks a number; then two pieces are turned up for everybody."""

    def __init__(self, config: Steps) -> None:
        super().__init__(config)
        self.pieces = self.new_handles(2)
        self._start((Turning._t_pick, ()))

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def _t_pick(self) -> None:
        self.pending = Pick((0,))

    def _apply(self, d: Pick, player: int, move: int) -> int:
        self.pending = Reveal(self.pieces, None)
        return move


def test_a_decision_shaped_like_a_tuple_is_still_a_decision() -> None:
    game = Turning(Steps(("Ann", "Bob")))
    assert game.decision == Pick((0,)) and game.to_act() == (0,)
    game.apply(0, 3)
    assert game.decision is None and game.to_act() == ()


def test_a_public_reveal_missing_a_face_is_refused_and_changes_nothing() -> None:
    game = Turning(Steps(("Ann", "Bob")))
    game.apply(0, 3)
    with pytest.raises(TableMisuse, match="every face"):
        game.answer([7, None])
    assert game.faces == {} and game.public == set()  # (not even the first face kept)
    assert game.pending == Reveal(game.pieces, None)
    game.answer([7, 8])
    assert game.faces == dict(zip(game.pieces, (7, 8), strict=True))


@pytest.mark.parametrize(
    ("request_", "why"),
    [
        (Shuffle("deck", (1, 2), (0, 1)), "a pile was shuffled since"),
        (Reveal((0,), None), "something was turned up since"),
        (Reveal((0,), 1), "a hidden piece was looked at since"),
        (PublicRandom(6, "die"), "a random number was drawn since"),
    ],
)
def test_each_kind_of_request_says_why_undo_stops_at_it(request_: object, why: str) -> None:
    game = Turning(Steps(("Ann", "Bob")))
    game.pending = request_  # type: ignore[assignment]
    assert why_final(game, 0) == why
