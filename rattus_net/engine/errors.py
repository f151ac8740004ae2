"""Exceptions of the rules engine.

A rule violation (a player asked for something the rules forbid) is a different thing from a
local misuse of the API (asking the engine for something it cannot do, such as answering a table
request that was never made) and from a bad game record. Each has its own class so that callers
can tell a player's mistake from a bug.
"""

from __future__ import annotations


class RattusError(Exception):
    """Base of every error the engine raises."""


class IllegalMove(RattusError):
    """A decision the rules do not allow. The game state is unchanged."""


class NotYourTurn(IllegalMove):
    """The player is not among those the game waits for, or it waits for another kind of
    decision."""


class CardNotHeld(IllegalMove):
    """The decision names cards the player does not hold."""


class CardNotPlayable(IllegalMove):
    """Gold and Pass cannot be laid face down in a building."""


class WrongCount(IllegalMove):
    """Too many or too few cards, positions or players for this decision."""


class PassNotAllowed(IllegalMove):
    """A Pass needs a Pass card and at least one other player who has not entered yet."""


class BadChoice(IllegalMove):
    """A choice outside the offered ones: an unknown building, a nun-row position out of
    range, a player who is not one of the candidates."""


class CheatDetected(IllegalMove):
    """A player whose secrets this peer does not know broke a rule that only shows later: an
    opened face-down play that is not in his hand or holds Gold or a Pass, a Pass card that is
    not a Pass. ``seat`` names him."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat


class SetupError(RattusError, ValueError):
    """A game configuration the rules cannot start: wrong player count, unknown building,
    a building list that is not 5 cards per class, an inconsistent card order."""


class TableMisuse(RattusError):
    """The table answered a request that was not asked, or answered it wrongly."""


class GameOver(RattusError):
    """The game has ended; no decision is awaited."""


class RecordError(RattusError):
    """A record that cannot be read or replayed; the message says where and why."""
