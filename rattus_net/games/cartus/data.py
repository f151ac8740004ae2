"""Every number of Rattus Cartus, in one place, with its rulebook tag.

The rules reference (shared/rules/rattus-cartus.md) tags each value:

- ``C`` confirmed in a published rulebook or component list;
- ``I`` inferred from the published text;
- ``R`` reconstructed: the published value could not be found.

Whoever holds the printed cards can correct an ``I`` or ``R`` value here, and only here: the
engine, the bots, the TUI and the docs read everything from this module. ``PROVENANCE`` lists
each value with its tag; ``docs/rules-data.md`` explains them and a test keeps the two in step.

Card faces are small integers so that the engine stays fast:

- population faces ``0..29``: ``class * 5 + nuns`` (a card's class and the nuns printed on it);
- ``JOKER`` .. ``GOLD``: ``30..34``;
- building faces ``100 + building * 6 + copy`` (a building card is a building plus the supply
  action printed on that copy).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final


class Klass(IntEnum):
    """The six social classes, in the order of the influence board."""

    PEASANTRY = 0
    BOURGEOISIE = 1
    CHURCH = 2
    CHIVALRY = 3
    MAGIC = 4
    ROYALTY = 5

    @property
    def label(self) -> str:
        return self.name.capitalize()

    @property
    def code(self) -> str:
        return KLASS_CODES[self]


CLASSES: Final = tuple(Klass)
KLASS_CODES: Final = ("Pea", "Bou", "Chu", "Chi", "Mag", "Roy")

# --- Population cards -------------------------------------------------------------------------

POPULATION_PER_CLASS: Final = 14  # [C] 84 cards, 14 in each of 6 classes
NUNS_PER_CLASS: Final = (4, 4, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0)  # [I] per class
MAX_NUNS: Final = 4

# --- Faces --------------------------------------------------------------------------------------

JOKER: Final = 30
SWORD: Final = 31
FLUTE: Final = 32
PASS: Final = 33
GOLD: Final = 34
SPECIALS: Final = (JOKER, SWORD, FLUTE, PASS, GOLD)
FACE_COUNT: Final = 35

SUPPLY_COUNTS: Final = {JOKER: 15, SWORD: 12, FLUTE: 12, PASS: 12, GOLD: 15}  # [C]
SPECIAL_NAMES: Final = {JOKER: "Joker", SWORD: "Sword", FLUTE: "Flute", PASS: "Pass", GOLD: "Gold"}


def pop_face(klass: int, nuns: int) -> int:
    """The face of a population card of ``klass`` showing ``nuns`` nuns."""
    return klass * 5 + nuns


def is_population(face: int) -> bool:
    return face < JOKER


def face_class(face: int) -> int:
    """The class of a population face (only meaningful for population faces)."""
    return face // 5


def face_nuns(face: int) -> int:
    """Nuns printed on a card: population cards show 0 to 4, every other card none."""
    return face % 5 if face < JOKER else 0


def face_code(face: int) -> str:
    """Short stable text for a card face, used in records and logs: ``Chu4``, ``Joker``."""
    if face < JOKER:
        return f"{KLASS_CODES[face // 5]}{face % 5}"
    return SPECIAL_NAMES[face]


def face_name(face: int) -> str:
    """Words for a card face: ``Church (4 nuns)``, ``Sword``."""
    if face < JOKER:
        nuns = face % 5
        return f"{Klass(face // 5).label} ({nuns} nun{'s' if nuns != 1 else ''})"
    return SPECIAL_NAMES[face]


_FACE_BY_CODE: Final = {face_code(f): f for f in range(FACE_COUNT)}


def parse_face(text: str) -> int:
    """Inverse of :func:`face_code`; raises ``KeyError`` for unknown text."""
    return _FACE_BY_CODE[text]


def population_faces() -> list[int]:
    """The 84 population cards, by class, in a fixed order (the unshuffled deck)."""
    return [pop_face(k, n) for k in range(6) for n in NUNS_PER_CLASS]


def special_faces() -> list[int]:
    """The 66 joker and special cards of the supply piles, in a fixed order."""
    return [f for f in SPECIALS for _ in range(SUPPLY_COUNTS[f])]


# --- Buildings ----------------------------------------------------------------------------------


class Building(IntEnum):
    """The twelve buildings, two per class, in class order."""

    FARM = 0
    BREWERY = 1
    MARKETPLACE = 2
    OFFICE = 3
    MONASTERY = 4
    HOSPITAL = 5
    CASTLE = 6
    GUARD_TOWER = 7
    FORTUNE_TELLER = 8
    PIED_PIPER = 9
    PALACE = 10
    TREASURY = 11

    @property
    def klass(self) -> Klass:
        return Klass(self.value // 2)

    @property
    def label(self) -> str:
        return BUILDING_NAMES[self]

    @property
    def code(self) -> str:
        return BUILDING_CODES[self]


BUILDING_NAMES: Final = (
    "Farm",
    "Brewery",
    "Marketplace",
    "Office",
    "Monastery",
    "Hospital",
    "Castle",
    "Guard Tower",
    "Fortune-teller's Tent",
    "Pied Piper's Hut",
    "Palace",
    "Treasury",
)
BUILDING_CODES: Final = (
    "Farm",
    "Brewery",
    "Marketplace",
    "Office",
    "Monastery",
    "Hospital",
    "Castle",
    "GuardTower",
    "Tent",
    "Hut",
    "Palace",
    "Treasury",
)

# [C] premium (top) and standard (bottom) actions, in words for the TUI and the docs.
BUILDING_ACTIONS: Final = {
    Building.FARM: ("draw 4 population cards", "draw 2 population cards"),
    Building.BREWERY: (
        "draw 1 card per population/joker card played here",
        "draw 1 card per 2 population/joker cards played here",
    ),
    Building.MARKETPLACE: ("take 2 Jokers", "take 1 Joker"),
    Building.OFFICE: ("take 2 Pass cards", "take 1 Pass card"),
    Building.MONASTERY: ("discard 2 rats", "discard 1 rat"),
    Building.HOSPITAL: (
        "discard 1 rat, then up to 3 hand cards for a rat each",
        "discard up to 2 hand cards for a rat each",
    ),
    Building.CASTLE: ("take 2 Swords", "take 1 Sword"),
    Building.GUARD_TOWER: (
        "each unprotected player with at least your hand size gives you 3 cards",
        "protected from Guard Tower premiums this round",
    ),
    Building.FORTUNE_TELLER: ("look at 2 nun-row cards", "look at 1 nun-row card"),
    Building.PIED_PIPER: ("take 2 Flutes", "take 1 Flute"),
    Building.PALACE: ("take 2 VP tokens", "take 1 VP token"),
    Building.TREASURY: ("take 2 Gold", "take 1 Gold"),
}

# Premium and standard amounts of the buildings whose action is "take/draw/discard N".
PREMIUM_AMOUNT: Final = 2  # [C] Marketplace, Office, Monastery, Castle, Palace, Treasury, Tent,
# Pied Piper's Hut (printed like the Castle's; its digit is lost in the seed like the others')
STANDARD_AMOUNT: Final = 1  # [C] as above
FARM_DRAW: Final = (4, 2)  # [C] premium, standard
HOSPITAL_PREMIUM_RATS: Final = 1  # [C] discarded before the hand-card discards
HOSPITAL_CARD_LIMIT: Final = (3, 2)  # [C] premium, standard
GUARD_TOWER_GIFT: Final = 3  # [C]


@dataclass(frozen=True, slots=True)
class SupplyAction:
    """A supply action printed on a building card: draw, discard rats, look at the nun row."""

    code: str
    draw: int
    rats: int
    looks: int

    def describe(self, short: bool = False) -> str:
        """In words: ``draw 2, discard 1 rat``; ``short`` for narrow screens: ``draw 2, -1 rat``."""
        parts = []
        if self.draw:
            parts.append(f"draw {self.draw}")
        if self.rats:
            rats = f"{self.rats} rat{'s' if self.rats > 1 else ''}"
            parts.append(f"-{rats}" if short else f"discard {rats}")
        if self.looks:
            parts.append(f"look {self.looks}" if short else f"look at {self.looks}")
        return ", ".join(parts)


# [R] reconstructed supply actions (rules section 5): a drawn card counts 1, a discarded rat or
# a nun-row look counts 2, and every printed copy is worth 4.
SUPPLY_ACTIONS: Final = {
    "A": SupplyAction("A", 4, 0, 0),
    "B": SupplyAction("B", 0, 2, 0),
    "C": SupplyAction("C", 2, 1, 0),
    "D": SupplyAction("D", 2, 0, 1),
    "E": SupplyAction("E", 0, 1, 1),
    "F": SupplyAction("F", 0, 0, 2),
}

# [R] the supply action printed on each of the five copies of each building.
BUILDING_COPIES: Final = {
    Building.FARM: "ABCDE",
    Building.BREWERY: "ABCDF",
    Building.MARKETPLACE: "ABCEF",
    Building.OFFICE: "ABDEF",
    Building.MONASTERY: "ABCDE",
    Building.HOSPITAL: "ABCDF",
    Building.CASTLE: "ABCEF",
    Building.GUARD_TOWER: "ABDEF",
    Building.FORTUNE_TELLER: "ACDEF",
    Building.PIED_PIPER: "BCDEF",
    Building.PALACE: "ACDEF",
    Building.TREASURY: "BCDEF",
}
COPIES_PER_BUILDING: Final = 5  # [C]
BUILDING_FACE_BASE: Final = 100


def building_face(building: int, copy: int) -> int:
    """The face of copy ``copy`` (0-4) of ``building``."""
    return BUILDING_FACE_BASE + building * 6 + copy


_FACE_BUILDING: Final = {
    building_face(b, c): Building(b) for b in range(12) for c in range(COPIES_PER_BUILDING)
}
_FACE_SUPPLY: Final = {
    building_face(b, c): SUPPLY_ACTIONS[BUILDING_COPIES[Building(b)][c]]
    for b in range(12)
    for c in range(COPIES_PER_BUILDING)
}


def face_building(face: int) -> Building:
    """The building of a building card face (a table look-up: this is on the hot path)."""
    return _FACE_BUILDING[face]


def face_supply(face: int) -> SupplyAction:
    """The supply action printed on a building card face."""
    return _FACE_SUPPLY[face]


def building_card_code(face: int) -> str:
    """Stable text of a building card: ``Farm/A`` (building and printed supply action)."""
    return f"{face_building(face).code}/{face_supply(face).code}"


_BUILDING_FACE_BY_CODE: Final = {
    building_card_code(building_face(b, c)): building_face(b, c)
    for b in range(12)
    for c in range(COPIES_PER_BUILDING)
}
_BUILDING_BY_CODE: Final = {code.lower(): Building(i) for i, code in enumerate(BUILDING_CODES)}
_BUILDING_BY_CODE.update({name.lower(): Building(i) for i, name in enumerate(BUILDING_NAMES)})


def parse_building_card(text: str) -> int:
    """Inverse of :func:`building_card_code`; raises ``KeyError`` for unknown text."""
    return _BUILDING_FACE_BY_CODE[text]


def parse_building(text: str) -> Building:
    """A building by code or name, case-insensitive (``farm``, ``GuardTower``, ``Guard Tower``)."""
    return _BUILDING_BY_CODE[text.strip().lower()]


def building_cards(building: int) -> list[int]:
    """The five cards (faces) of one building."""
    return [building_face(building, c) for c in range(COPIES_PER_BUILDING)]


TWO_PLAYER_GUARD_TOWER_WARNING: Final = (  # [C] the rulebook's advice
    "The rulebook advises against the Guard Tower in a two-player game."
)
BUILDINGS_PER_CLASS_IN_GAME: Final = 5  # [C] 30 building cards in a game
FIRST_GAME: Final = (  # [C] suggested first game
    Building.FARM,
    Building.MARKETPLACE,
    Building.MONASTERY,
    Building.CASTLE,
    Building.PALACE,
    Building.FORTUNE_TELLER,
)

# --- Setup and rounds ---------------------------------------------------------------------------

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
START_RATS: Final = 10  # [C]
NUN_ROW: Final = 5  # [C]
START_HAND: Final = 5  # [C]


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """Rounds, buildings turned up per round, and replacement-deck size for a player count."""

    rounds: int
    buildings_per_round: int
    replacement: int


ROUND_PLAN: Final = {  # [C]
    2: RoundPlan(10, 2, 10),
    3: RoundPlan(9, 2, 12),
    4: RoundPlan(8, 3, 6),
    5: RoundPlan(8, 3, 6),
}

COLOURS: Final = ("red", "blue", "green", "yellow", "purple")  # [C] five disc colours

# --- Scoring ------------------------------------------------------------------------------------

# Most, second, third: 10 and 5 [C]; the third-place digit is lost in the seed (2, 3 or 4) [I].
INFLUENCE_AWARDS: Final = (10, 5, 2)
THIRD_PLACE_MIN_PLAYERS: Final = 4  # [I] third place only with 4 or 5 players
HAND_MAJORITY_VP: Final = 3  # [I] a lost single digit (2, 3, 4 or 6): most pop. + jokers
HAND_MAJORITY_TIE_VP: Final = 1  # [C] each tied player
SPECIAL_MAJORITY_VP: Final = 2  # [I] a lost single digit (2, 3, 4 or 6): most of each kind
SPECIAL_MAJORITY_TIE_VP: Final = 1  # [C]
# [C] by arithmetic: most, second (only if a Treasury was in the game). Both digits are lost,
# but the printed tie pool 9 is first + second, and 6 + 3 is the only pair of lost digits
# (2, 3, 4, 6) that sums to 9.
GOLD_VP: Final = (6, 3)
GOLD_TIE_FIRST_POOL: Final = 9  # [C] printed: split, rounded down, no second place
GOLD_TIE_SECOND_POOL: Final = 3  # [C] rule, [I] value (a lost digit): split, rounded down
VP_TOKEN_VALUE: Final = 1  # [R]

PROVENANCE: Final = {
    "POPULATION_PER_CLASS": "C",
    "NUNS_PER_CLASS": "I",
    "SUPPLY_COUNTS": "C",
    "BUILDING_ACTIONS": "C",
    "PIED_PIPER_PREMIUM": "C",
    "BREWERY_ROUNDING": "C",
    "SUPPLY_ACTIONS": "R",
    "BUILDING_COPIES": "R",
    "FIRST_GAME": "C",
    "START_RATS": "C",
    "ROUND_PLAN": "C",
    "INFLUENCE_AWARDS": "I",
    "THIRD_PLACE_MIN_PLAYERS": "I",
    "HAND_MAJORITY_VP": "I",
    "HAND_MAJORITY_TIE_VP": "C",
    "SPECIAL_MAJORITY_VP": "I",
    "SPECIAL_MAJORITY_TIE_VP": "C",
    "GOLD_VP": "C",
    "GOLD_TIE_FIRST_POOL": "C",
    "GOLD_TIE_SECOND_POOL": "I",
    "VP_TOKEN_VALUE": "R",
}
