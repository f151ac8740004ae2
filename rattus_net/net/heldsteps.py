"""Our player's steps of his turn, held on this peer until they can no longer be taken back.

At a network table a step that was signed and sent cannot be taken back, so the steps of a
turn stay here (``rattus_net/kit/undo.py`` says which steps may be taken back) until the turn
reaches a step that reveals something, draws chance or passes to another seat: then they are
signed and sent in order, as if played one after the other at that moment. Until then the
other peers see nothing but a player still thinking about the turn's first step (their stall
timeout for a decision covers the whole turn).

The steps held are journaled as local steps (``["l", move]``, and ``["U"]`` for one taken
back), never signed: a crash loses nothing the player cannot play again, and a peer loaded
from its journal holds the same steps. The steps sent are journaled as ever (``["d", move]``,
each before it is signed); a peer replaying its journal forgets the steps it held once one
was sent.

Only a person's seat played through a front end holds steps: a bot never takes back, so its
moves go out at once.
"""

from __future__ import annotations

from typing import Any, Final

from rattus_net.kit.interface import AnyGame
from rattus_net.kit.undo import TurnSteps, held
from rattus_net.net.persist import Journal


class TakeBack:
    """What a front end answers a decision with to take back the last step held."""

    def __repr__(self) -> str:
        return "TAKE_BACK"


TAKE_BACK: Final = TakeBack()


class HeldTurn:
    """The steps held of our seat's turn, and the game as they leave it (the *draft*)."""

    def __init__(self, definition: AnyGame, seat: int, journal: Journal) -> None:
        self.definition = definition
        self.seat = seat
        self.journal = journal
        self.steps: TurnSteps[Any] = TurnSteps(seat)
        self.draft: Any = None  # our game with the steps held played (None: none held)

    def shown(self, game: Any) -> Any:
        """The game our player sees and decides in: ``game`` (the session's) or the draft."""
        return game if self.draft is None else self.draft

    def decided(self, game: Any, move: Any, *, holding: bool) -> list[Any]:
        """Our player's answer to a decision of ``game`` (the session's game: the steps held
        are not in it): a move, or :data:`TAKE_BACK`. Returns the moves to sign and send now,
        in order (none while the turn is held). ``holding``: whether this seat may hold steps
        at all (a person's, at a move step). Raises ``IllegalMove`` (nothing changes) for a
        move the rules refuse. A take-back with no step held (the front end checked first)
        changes nothing."""
        if move is TAKE_BACK:
            if self.steps.moves:
                self.draft, _ = self.steps.undo()
                self.journal.append(["U"])
            return []
        if self.draft is None:
            if not holding or not held(game, self.seat):
                return [move]
            draft = game.clone()
        else:
            draft = self.draft
        final = self.steps.play(draft, move)
        if final:
            self.draft = None
            return final
        self.draft = draft
        self.journal.append(["l", self.definition.format_move(move)])
        return []

    def replay(self, record: list[Any], game: Any) -> bool:
        """Take a journal record back in (``game``: the session's game at that point); False
        if it is not about steps held. A step sent (``"d"``) ends the holding."""
        kind = record[0]
        if kind == "l" and len(record) == 2 and isinstance(record[1], str):
            draft = game.clone() if self.draft is None else self.draft
            self.steps.play(draft, self.definition.parse_move(record[1]))
            self.draft = draft
            return True
        if kind == "U" and len(record) == 1:
            self.draft, _ = self.steps.undo()
            return True
        if kind == "d":
            self.draft = None
            self.steps.forget()
        return False


__all__ = ["TAKE_BACK", "HeldTurn", "TakeBack"]
