"""Sentences about a player, in the second person for the seat that reads them.

Every Rattus narration (the map's log, the text table, a network table's lines, the end
screen) says "You start", "You lose a cube", "after your turn" to the seat it is written for
and "Ann starts", "Ann loses a cube", "after Ann's turn" to the others: :class:`Persons` is the
one place that knows how. Names are used as given; callers clean them first (names come from
other people).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

YOU = "You"
"""The name an offline game gives its human player (``rattus_net.kit.offline.HUMAN_NAME``)."""

_IRREGULAR = {"be": ("are", "is"), "have": ("have", "has"), "do": ("do", "does")}


def third_person(verb: str) -> str:
    """``lose`` -> ``loses``, ``pass`` -> ``passes``, ``have`` -> ``has``."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb][1]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return verb[:-1] + "ies"
    return verb + "s"


def cap(text: str) -> str:
    """``text`` with its first letter in capitals (``your turn`` -> ``Your turn``), the rest
    as it was (unlike ``str.capitalize``, which would spoil a name like ``McKay``)."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Persons:
    """The players' names as one seat (``seat``; ``None``: a spectator) reads them."""

    names: Sequence[str]
    seat: int | None = None

    def is_me(self, player: int | None) -> bool:
        """The reader's own seat; read by nobody in particular (``seat`` ``None``: a replay, a
        record's result), the player an offline game calls "You" is spoken to as such."""
        if player is None:
            return False
        return player == self.seat or (self.seat is None and self.names[player] == YOU)

    def subject(self, player: int) -> str:
        """``You`` or ``Ann`` (at the start of a sentence)."""
        return "You" if self.is_me(player) else self.names[player]

    def object(self, player: int) -> str:
        """``you`` or ``Ann`` (inside a sentence)."""
        return "you" if self.is_me(player) else self.names[player]

    def possessive(self, player: int) -> str:
        """``your`` or ``Ann's``."""
        return "your" if self.is_me(player) else f"{self.names[player]}'s"

    def verb(self, player: int, verb: str) -> str:
        """The present tense of ``verb`` agreeing with the player (``lose``/``loses``)."""
        if self.is_me(player):
            return _IRREGULAR[verb][0] if verb in _IRREGULAR else verb
        return third_person(verb)

    def says(self, player: int, verb: str, rest: str = "") -> str:
        """``You lose a cube`` / ``Ann loses a cube``: subject, verb, then ``rest``."""
        text = f"{self.subject(player)} {self.verb(player, verb)}"
        return f"{text} {rest}" if rest else text


__all__ = ["Persons", "cap", "third_person"]
