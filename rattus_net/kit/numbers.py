"""Numbers written as text, read the one safe way: ASCII digits only.

Python's ``str.isdigit()`` says yes to "²", "①" and "⁰", which ``int()`` then refuses with a
plain ``ValueError``; ``int()`` itself takes "٣" (an Arabic-Indic three), "+3", " 3 " and
"3_000", and gives up on more than 4300 digits. Text from another peer (a move, an advert),
from a record or from a command line goes through :func:`ascii_int` instead: a run of the ten
ASCII digits, bounded in length, or nothing. Every caller says in its own words what it
expected, so the helper answers ``None`` rather than raising.
"""

from __future__ import annotations

import re

MAX_DIGITS = 9
"""Digits accepted by default: every count, slot, index or port of the games fits, and a
longer run is refused before it is converted."""

_DIGITS = re.compile(r"[0-9]+", re.ASCII)
_DECIMAL = re.compile(r"[0-9]+(?:\.[0-9]+)?", re.ASCII)


def ascii_int(
    text: str,
    low: int | None = None,
    high: int | None = None,
    *,
    max_digits: int = MAX_DIGITS,
) -> int | None:
    """The whole number ``text`` writes with ASCII digits alone (no sign, space, underscore or
    other script's digit), within ``[low, high]`` when given; ``None`` for anything else."""
    if not isinstance(text, str) or len(text) > max_digits or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    if (low is not None and value < low) or (high is not None and value > high):
        return None
    return value


def ascii_decimal(text: str, *, max_chars: int = 16) -> float | None:
    """A non-negative decimal number in ASCII (``12``, ``0.5``), or ``None``: no sign, no
    exponent, no ``nan`` or ``inf``, nothing but digits and one dot."""
    if not isinstance(text, str) or len(text) > max_chars or not _DECIMAL.fullmatch(text):
        return None
    return float(text)
