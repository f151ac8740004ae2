"""A line of a game's log that knows whose it is.

A game's words (``TableWords.lines``) are plain strings everywhere they travel (the table's
log, a dialog's ``l``, the end screen, tests reading them); a line a game knows to be about
one seat is a :class:`Said`, a string that also carries that seat, so that a front end can
colour each player's lines in his colour and show one player's lines only without parsing
the sentence. A game that tags nothing still works: its lines are plain strings, and
:func:`seat_of` then guesses from the line's first word (a player's name).
"""

from __future__ import annotations

from collections.abc import Sequence


class Said(str):
    """A log line (the string itself) and the seat it is about (``seat``; ``None``: the
    table's, nobody's in particular)."""

    seat: int | None

    def __new__(cls, text: str, seat: int | None = None) -> Said:
        line = super().__new__(cls, text)
        line.seat = seat
        return line


def seat_of(line: str, names: Sequence[str] = (), me: int | None = None) -> int | None:
    """The seat ``line`` is about: a :class:`Said`'s own; for a plain string, the seat whose
    name (``names``, as shown) begins it, or ``me`` if it begins with "You"; else ``None``."""
    if isinstance(line, Said):
        return line.seat
    text = line.lstrip(" -")
    if me is not None and text.startswith(("You ", "Your ")):
        return me
    best: int | None = None
    for seat, name in enumerate(names):
        fits = text.startswith(name) and text[len(name) : len(name) + 1] in (" ", ":", "'")
        if name and fits and (best is None or len(name) > len(names[best])):
            best = seat  # the longest name that fits ("Ann" vs "Anna")
    return best


__all__ = ["Said", "seat_of"]
