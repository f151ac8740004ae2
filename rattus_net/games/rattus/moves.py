"""Rattus moves: small value objects and their text form (a parse/print pair).

A move names regions by name and token positions by slot (1 to 3, rules ruling 6.1). The text
form is what records, logs and the terminal table use::

    place Gallia Italia           the two start cubes of the setup (``StartPlace``)
    take Witch                    A: take a class card
    place Gallia [peasant Italia] B: cubes on a region with tokens (+ the Peasant's cube)
    peasant Italia                the Peasant's cube alone (no region holds tokens; final round)
    king Gallia                   King: one cube from a token-free region to the palace
    monk Gallia 2 Italia          Monk: the token in slot 2 of Gallia to Italia
    merchant Gallia Italia 3      Merchant: 3 cubes from Gallia to Italia
    witch Gallia 1 Italia 2       Witch: look at two tokens (then ``swap`` or ``keep``)
    plague Italia [via Gallia] [knight]  C: move the plague piece (Knight: 2 steps, +2 cubes)
    spread Gallia [Italia]        where the new tokens go
    turn 2                        outbreak: turn up the token in slot 2 next
    done                          final round: no more abilities

Region names are matched without regard to case by the game; ``format_move`` prints them as
the move holds them (the game stores canonical names in its history).
"""

from __future__ import annotations

from dataclasses import dataclass

from rattus_net.kit.errors import MoveSyntaxError
from rattus_net.kit.numbers import ascii_int


@dataclass(frozen=True, slots=True)
class StartPlace:
    regions: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Take:
    card: str


@dataclass(frozen=True, slots=True)
class Place:
    region: str | None
    extra: str | None = None  # the Peasant's cube


@dataclass(frozen=True, slots=True)
class King:
    region: str


@dataclass(frozen=True, slots=True)
class Monk:
    source: str
    slot: int  # 1-based
    target: str


@dataclass(frozen=True, slots=True)
class Merchant:
    source: str
    target: str
    count: int


@dataclass(frozen=True, slots=True)
class Witch:
    first: tuple[str, int]  # (region, 1-based slot)
    second: tuple[str, int]


@dataclass(frozen=True, slots=True)
class Swap:
    swap: bool


@dataclass(frozen=True, slots=True)
class Plague:
    to: str
    via: str | None = None  # Knight: the region crossed on a 2-region move
    knight: bool = False  # Knight: count 2 more cubes at this region's outbreak


@dataclass(frozen=True, slots=True)
class Spread:
    regions: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnUp:
    slot: int  # 1-based


@dataclass(frozen=True, slots=True)
class Done:
    pass


Move = (
    StartPlace
    | Take
    | Place
    | King
    | Monk
    | Merchant
    | Witch
    | Swap
    | Plague
    | Spread
    | TurnUp
    | Done
)


def format_move(move: Move) -> str:
    """The text form of ``move`` (see the module docstring)."""
    if isinstance(move, StartPlace):
        return f"place {move.regions[0]} {move.regions[1]}"
    if isinstance(move, Take):
        return f"take {move.card}"
    if isinstance(move, Place):
        if move.region is None:
            return f"peasant {move.extra}"
        return f"place {move.region}" + (f" peasant {move.extra}" if move.extra else "")
    if isinstance(move, King):
        return f"king {move.region}"
    if isinstance(move, Monk):
        return f"monk {move.source} {move.slot} {move.target}"
    if isinstance(move, Merchant):
        return f"merchant {move.source} {move.target} {move.count}"
    if isinstance(move, Witch):
        return f"witch {move.first[0]} {move.first[1]} {move.second[0]} {move.second[1]}"
    if isinstance(move, Swap):
        return "swap" if move.swap else "keep"
    if isinstance(move, Plague):
        text = f"plague {move.to}"
        if move.via:
            text += f" via {move.via}"
        return text + (" knight" if move.knight else "")
    if isinstance(move, Spread):
        return " ".join(("spread", *move.regions))
    if isinstance(move, TurnUp):
        return f"turn {move.slot}"
    return "done"


def _slot(word: str, text: str) -> int:
    slot = ascii_int(word, 1, 3)
    if slot is None:
        raise MoveSyntaxError(f"{text!r}: a token slot is 1, 2 or 3, not {word!r}")
    return slot


def _usage(text: str, form: str) -> MoveSyntaxError:
    return MoveSyntaxError(f"{text!r}: expected {form!r}")


def parse_move(text: str) -> Move:
    """The move ``text`` names; raises :class:`MoveSyntaxError` with the expected form."""
    words = text.split()
    if not words:
        raise MoveSyntaxError("an empty move")
    verb, args = words[0].lower(), words[1:]
    if verb == "place":
        if len(args) == 2 and args[1].lower() != "peasant":
            return StartPlace((args[0], args[1]))
        if len(args) == 1:
            return Place(args[0])
        if len(args) == 3 and args[1].lower() == "peasant":
            return Place(args[0], args[2])
        raise _usage(text, "place REGION [peasant REGION]  or, at setup, place REGION REGION")
    if verb == "peasant" and len(args) == 1:
        return Place(None, args[0])
    if verb == "take" and len(args) == 1:
        return Take(args[0].capitalize())
    if verb == "king" and len(args) == 1:
        return King(args[0])
    if verb == "monk":
        if len(args) != 3:
            raise _usage(text, "monk REGION SLOT REGION")
        return Monk(args[0], _slot(args[1], text), args[2])
    if verb == "merchant":
        count = ascii_int(args[2]) if len(args) == 3 else None
        if count is None:
            raise _usage(text, "merchant REGION REGION COUNT")
        return Merchant(args[0], args[1], count)
    if verb == "witch":
        if len(args) != 4:
            raise _usage(text, "witch REGION SLOT REGION SLOT")
        return Witch((args[0], _slot(args[1], text)), (args[2], _slot(args[3], text)))
    if verb in ("swap", "keep") and not args:
        return Swap(verb == "swap")
    if verb == "plague" and args:
        to, rest = args[0], [a.lower() for a in args[1:]]
        via = None
        knight = False
        if rest[:1] == ["via"] and len(rest) >= 2:
            via = args[2]
            rest = rest[2:]
        if rest == ["knight"]:
            knight, rest = True, []
        if rest:
            raise _usage(text, "plague REGION [via REGION] [knight]")
        return Plague(to, via, knight)
    if verb == "spread" and len(args) <= 2:
        return Spread(tuple(args))
    if verb == "turn" and len(args) == 1:
        return TurnUp(_slot(args[0], text))
    if verb == "done" and not args:
        return Done()
    raise MoveSyntaxError(
        f"{text!r} is not a move (place, take, king, monk, merchant, witch, swap, keep, plague, "
        "spread, turn, peasant, done)"
    )
