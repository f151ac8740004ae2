"""The errors every game of Rattus Net raises, by what went wrong.

A rule violation (a player asked for something the rules forbid), a move's text that is not a
move at all, a local misuse of the API (answering a table request that was never made), a
game that cannot be set up and a damaged record are different things: each has its own class,
so that a caller can tell a player's mistake from a typing slip, a bug or a bad file. A game
adds its own rule violations as subclasses of :class:`IllegalMove`.
"""

from __future__ import annotations


class RattusNetError(Exception):
    """Base of every error the games and the kit raise."""


class IllegalMove(RattusNetError):
    """A decision the rules do not allow. The game state is unchanged."""


class NotYourTurn(IllegalMove):
    """The player is not among those the game waits for, or it waits for another kind of
    decision."""


class CardNotHeld(IllegalMove):
    """The decision names cards the player does not hold."""


class WrongCount(IllegalMove):
    """Too many or too few cards, positions, pieces or players for this decision."""


class BadChoice(IllegalMove):
    """A choice outside the offered ones (an unknown building or region, a position out of
    range, a player who is not one of the candidates)."""


class CheatDetected(IllegalMove):
    """A player whose secrets this peer does not know broke a rule that only shows later
    (a face-down play opened that was not in his hand...). ``seat`` names him."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat


class MoveSyntaxError(RattusNetError, ValueError):
    """Text that does not name a move of the game at all (not a rule violation: nothing was
    asked of the rules yet). The message says what was expected."""


class SetupError(RattusNetError, ValueError):
    """A game configuration the rules cannot start: wrong player count, an unknown option or
    option value, an inconsistent card order."""


class TableMisuse(RattusNetError):
    """The table answered a request that was not asked, or answered it wrongly."""


class GameOver(RattusNetError):
    """The game has ended; no decision is awaited."""


class RecordError(RattusNetError):
    """A record that cannot be read or replayed; the message says where and why."""
