"""Decisions a player can make, as small immutable values with a text form.

Cards in a decision are card *faces* (see ``data``), sorted, because identical cards are
interchangeable: the engine picks which of the player's identical cards moves. Positions,
buildings and seats are 0-based in the values and 1-based in the text, which is what people
read in records and logs. ``format_move`` and ``parse_move`` are inverses.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rattus_net.games.cartus.data import face_code, parse_face
from rattus_net.kit.errors import MoveSyntaxError
from rattus_net.kit.numbers import ascii_int


class DecisionKind(Enum):
    """What the game is waiting for."""

    SUPPLY = "supply"  # phase B: choose a building card of the row (and nun-row positions)
    ENTER = "enter"  # phase C: enter a building with cards, or play a Pass
    GIVE = "give"  # Sword or Guard Tower: choose the cards to give
    DISCARD = "discard"  # Hospital: choose the hand cards to discard
    LOOK = "look"  # Fortune-teller's Tent: choose nun-row positions
    CHOOSE_PLAYER = "choose"  # Sword or Flute tie: choose which tied player is affected
    ACTION = "action"  # phase D: take or decline an action that takes cards (ruling 17)


@dataclass(frozen=True, slots=True)
class Supply:
    """Phase B: carry out the supply action of row card ``card``; ``looks`` are the nun-row
    positions to look at, as many as the card's action allows."""

    card: int
    looks: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Enter:
    """Phase C: enter row building ``building`` and lay ``cards`` face down (may be empty)."""

    building: int
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayPass:
    """Phase C: play a Pass card instead of entering."""


@dataclass(frozen=True, slots=True)
class Give:
    """Give these cards (Sword loser, Guard Tower giver)."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Discard:
    """Hospital: discard these hand cards, one rat each."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Look:
    """Fortune-teller's Tent: look at these nun-row positions."""

    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChoosePlayer:
    """Sword or Flute tie: the chosen seat among the tied players."""

    player: int


@dataclass(frozen=True, slots=True)
class TakeAction:
    """Carry out the premium or standard action the game offers (ruling 17)."""


@dataclass(frozen=True, slots=True)
class DeclineAction:
    """Decline the premium or standard action the game offers: it gives nothing in return
    (ruling 17). A player declines cards that would be a liability, e.g. a big hand facing a
    Sword."""


Move = Supply | Enter | PlayPass | Give | Discard | Look | ChoosePlayer | TakeAction | DeclineAction


# --- Handle-level moves ----------------------------------------------------------------------
# A peer that does not know another player's cards receives that player's decisions as card
# handles, not faces: which cards moved is public, what they are is not. ``EnterHidden`` is the
# public half of entering a building: the cards stay secret (committed) until the building
# resolves, when the table answers an ``Open`` request with their handles.


@dataclass(frozen=True, slots=True)
class EnterHidden:
    """Enter row building ``building`` and lay ``count`` cards that stay secret until opened."""

    building: int
    count: int


@dataclass(frozen=True, slots=True)
class PassHandle:
    """Play the Pass card ``handle`` (its face is turned up and checked)."""

    handle: int


@dataclass(frozen=True, slots=True)
class GiveHandles:
    """Give the cards ``handles`` (Sword, Guard Tower)."""

    handles: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DiscardHandles:
    """Hospital: discard the cards ``handles`` (they are turned up)."""

    handles: tuple[int, ...]


HandleMove = EnterHidden | PassHandle | GiveHandles | DiscardHandles


def _cards_text(cards: tuple[int, ...]) -> str:
    return " ".join(face_code(c) for c in cards)


def format_move(move: Move) -> str:
    """The text of a move, as written in records: ``enter 2 Chu4 Joker``."""
    match move:
        case Supply(card, looks):
            text = f"supply {card + 1}"
            if looks:
                text += " look " + " ".join(str(p + 1) for p in looks)
            return text
        case Enter(building, cards):
            return f"enter {building + 1}" + (" " + _cards_text(cards) if cards else "")
        case PlayPass():
            return "pass"
        case Give(cards):
            return "give" + (" " + _cards_text(cards) if cards else "")
        case Discard(cards):
            return "discard" + (" " + _cards_text(cards) if cards else "")
        case Look(positions):
            return "look " + " ".join(str(p + 1) for p in positions)
        case ChoosePlayer(player):
            return f"choose {player + 1}"
        case TakeAction():
            return "take"
        case DeclineAction():
            return "decline"
    raise TypeError(f"not a move: {move!r}")


def _index(text: str) -> int:
    number = ascii_int(text, 1)
    if number is None:
        raise MoveSyntaxError(f"expected a number from 1, got {text!r}")
    return number - 1


def _cards(words: list[str]) -> tuple[int, ...]:
    try:
        return tuple(sorted(parse_face(w) for w in words))
    except KeyError as exc:
        raise MoveSyntaxError(f"unknown card {exc.args[0]!r}") from None


def parse_move(text: str) -> Move:
    """Parse the text of a move; raises :class:`MoveSyntaxError`."""
    words = text.split()
    if not words:
        raise MoveSyntaxError("empty move")
    verb, args = words[0].lower(), words[1:]
    if verb == "supply":
        if not args:
            raise MoveSyntaxError("supply needs a card number")
        looks: tuple[int, ...] = ()
        if len(args) > 1:
            if args[1] != "look":
                raise MoveSyntaxError("expected 'look' after the card number")
            looks = tuple(_index(a) for a in args[2:])
        return Supply(_index(args[0]), looks)
    if verb == "enter":
        if not args:
            raise MoveSyntaxError("enter needs a building number")
        return Enter(_index(args[0]), _cards(args[1:]))
    if verb == "pass" and not args:
        return PlayPass()
    if verb == "give":
        return Give(_cards(args))
    if verb == "discard":
        return Discard(_cards(args))
    if verb == "look":
        return Look(tuple(_index(a) for a in args))
    if verb == "take" and not args:
        return TakeAction()
    if verb == "decline" and not args:
        return DeclineAction()
    if verb == "choose" and len(args) == 1:
        return ChoosePlayer(_index(args[0]))
    raise MoveSyntaxError(f"not a move: {text!r}")
