"""Taking back the steps of one's own turn (``u``), any game, offline and at a network table.

A turn of Rattus is several decisions of one player in a row (a class card, the placement,
abilities, the plague's move): online board-game sites let a player take those back until the
turn reveals something or draws chance, and so does Rattus Net. The policy is theirs: **an undo
never crosses another player's move, a reveal or a chance event**. In the kit's terms, the
steps that may be taken back are the moves one seat made since the last point where

* another seat decided (or may decide at the same time: a decision several seats take at
  once is never held back), or
* the table answered (the state's ``pending`` was a table request: a shuffle, a face turned
  up, a private look, a random number, face-down cards opened or mixed), or the game ended.

Nothing here is written per game: the engines are pure and deterministic, so a step is taken
back by copying the state kept at the turn's first step (``Machine.clone``) and playing the
turn's other steps on the copy again, never by a hand-written inverse of a move. A game only
has to stop on a table request whenever chance or a hidden face enters the game, which every
game of the kit does already (``table.py``).

:class:`TurnSteps` keeps one seat's steps; the offline table plays the human's moves through
it, the network node the moves it holds back (a network table sends a turn's steps only once
the turn reaches a reveal, a chance event or another seat: ``rattus_net/net/node.py``).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.table import TableRequest

M = TypeVar("M")

NOTHING_YET = "nothing of this turn is played yet"
"""Why nothing can be taken back before a step was played."""


class UndoRefused(RattusNetError):
    """The player asked to take back a step the policy keeps: nothing to take back, or it
    lies before another player's move, a reveal or a chance event. The message says why, in
    one line for the player. Nothing changed."""


def held(game: Any, seat: int) -> bool:
    """Whether ``game`` waits for ``seat`` alone (a step of his may be held back and taken
    back): not over, no table request pending, nobody else deciding."""
    return tuple(game.to_act()) == (seat,)


def why_final(game: Any, seat: int) -> str:
    """Why the steps played before ``game``'s present moment cannot be taken back, in words
    (``game`` does not wait for ``seat`` alone)."""
    if game.is_over:
        return "the game is over"
    pending = game.pending
    if game.decision is None and pending is not None:  # a table request: it says why
        request: TableRequest = pending
        return request.why_final
    return "another player has decided since"


class TurnSteps(Generic[M]):
    """One seat's steps that may still be taken back (``M`` its game's moves).

    :meth:`play` plays a step on a game and says which steps became final with it; :meth:`undo`
    gives the game as it was before the last step still held. The state is copied once per
    turn, at its first step held."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self._start: Any = None  # the game before the first step held (a copy)
        self._moves: list[M] = []  # the steps held, in order
        self._why = NOTHING_YET  # why nothing is held, for the refusal

    @property
    def why(self) -> str:
        """Why no step is held, in words (while none is)."""
        return self._why

    @property
    def moves(self) -> tuple[M, ...]:
        """The steps held (that :meth:`undo` may take back), oldest first."""
        return tuple(self._moves)

    def play(self, game: Any, move: M) -> list[M]:
        """Play our seat's ``move`` on ``game`` (raises ``IllegalMove`` and changes nothing if
        the rules refuse it). Returns the steps that became final: none while the game waits
        for our seat alone again (the step is held), else every step held and this one, in
        order (they reached a reveal, chance, another seat or the end)."""
        start = self._start if self._moves else game.clone()
        game.apply(self.seat, move)
        if held(game, self.seat):
            self._start = start
            self._moves.append(move)
            return []
        final = [*self._moves, move]
        self.forget(why_final(game, self.seat))
        return final

    def undo(self) -> tuple[Any, M]:
        """The game as it was before the last step held, and that step (forgotten).
        ``UndoRefused`` if no step is held."""
        if not self._moves:
            raise UndoRefused(f"Nothing to take back: {self._why}.")
        move = self._moves.pop()
        game = self._start.clone()
        for m in self._moves:
            game.apply(self.seat, m)
        if not self._moves:
            self._why = NOTHING_YET
        return game, move

    def forget(self, why: str = NOTHING_YET) -> None:
        """Hold no step any more (they were played on for good), ``why`` saying so."""
        self._start = None
        self._moves.clear()
        self._why = why


__all__ = ["NOTHING_YET", "TurnSteps", "UndoRefused", "held", "why_final"]
