"""How a game is set up: players, the buildings of the game, table options."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from rattus_net.games.cartus.data import (
    BUILDINGS_PER_CLASS_IN_GAME,
    COLOURS,
    FIRST_GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Building,
    building_card_code,
    building_cards,
    face_building,
    parse_building,
    parse_building_card,
)
from rattus_net.kit.errors import SetupError


class SelectionMethod(Enum):
    """The ways of choosing the 30 building cards (rules 2.3)."""

    FIRST_GAME = "first-game"  # the suggested first game: 5 copies of six fixed buildings
    LIST = "list"  # the players agree: an explicit list
    RANDOM_BUILDINGS = "random-buildings"  # one building per class at random, all 5 copies
    RANDOM_CARDS = "random-cards"  # per class, 5 of the 10 cards of its two buildings
    # random cards, Chivalry's five being the Castle's: what random-cards plays with two players
    # (the rulebook advises against the Guard Tower with two: BuildingSelection.for_players)
    RANDOM_CARDS_NO_GUARD_TOWER = "random-cards-no-guard-tower"


@dataclass(frozen=True, slots=True)
class BuildingSelection:
    """A selection method, and for ``LIST`` the 30 building cards (faces)."""

    method: SelectionMethod = SelectionMethod.FIRST_GAME
    cards: tuple[int, ...] = ()

    @staticmethod
    def first_game() -> BuildingSelection:
        return BuildingSelection(SelectionMethod.FIRST_GAME)

    @staticmethod
    def random_buildings() -> BuildingSelection:
        return BuildingSelection(SelectionMethod.RANDOM_BUILDINGS)

    @staticmethod
    def random_cards() -> BuildingSelection:
        return BuildingSelection(SelectionMethod.RANDOM_CARDS)

    def for_players(self, players: int) -> BuildingSelection:
        """The selection a table of ``players`` plays: with two, random cards leave the Guard
        Tower out, as the rulebook advises (rules section 4 [C]); every other selection, a
        list naming the Guard Tower too, is played as chosen (the game warns)."""
        if players == 2 and self.method is SelectionMethod.RANDOM_CARDS:
            return BuildingSelection(SelectionMethod.RANDOM_CARDS_NO_GUARD_TOWER)
        return self

    @staticmethod
    def of_buildings(buildings: list[Building]) -> BuildingSelection:
        """All five copies of each of six buildings, one per class."""
        return BuildingSelection.of_cards([c for b in buildings for c in building_cards(b)])

    @staticmethod
    def of_cards(cards: list[int]) -> BuildingSelection:
        """An explicit list of 30 building cards, 5 per class, no card twice."""
        cards = sorted(cards)
        if len(cards) != 30 or len(set(cards)) != 30:
            raise SetupError("a building list needs 30 different building cards")
        per_class = Counter(face_building(c).klass for c in cards)
        if any(per_class[k] != BUILDINGS_PER_CLASS_IN_GAME for k in per_class) or len(
            per_class
        ) != len(FIRST_GAME):
            raise SetupError("a building list needs 5 building cards of each class")
        return BuildingSelection(SelectionMethod.LIST, tuple(cards))

    @staticmethod
    def parse(text: str) -> BuildingSelection:
        """Parse a command-line selection.

        ``first-game``, ``random-buildings``, ``random-cards`` (``-no-guard-tower``: with
        the Castle's cards for Chivalry), a comma-separated list of six
        buildings (one per class: ``farm,office,hospital,castle,tent,treasury``) or of 30
        building cards (``Farm/A,Farm/B,...``)."""
        text = text.strip()
        for method in (
            SelectionMethod.FIRST_GAME,
            SelectionMethod.RANDOM_BUILDINGS,
            SelectionMethod.RANDOM_CARDS,
            SelectionMethod.RANDOM_CARDS_NO_GUARD_TOWER,
        ):
            if text.lower() == method.value:
                return BuildingSelection(method)
        items = [t.strip() for t in text.split(",") if t.strip()]
        try:
            if items and all("/" in t for t in items):
                return BuildingSelection.of_cards([parse_building_card(t) for t in items])
            buildings = [parse_building(t) for t in items]
        except KeyError as exc:
            raise SetupError(f"unknown building {exc.args[0]!r}") from None
        if len(buildings) != 6 or len({b.klass for b in buildings}) != 6:
            raise SetupError("name six buildings, one of each class")
        return BuildingSelection.of_buildings(buildings)

    def describe(self) -> str:
        if self.method is SelectionMethod.LIST:
            return ",".join(building_card_code(c) for c in self.cards)
        return str(self.method.value)


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything decided before the first card is dealt.

    ``first_player`` is a seat, or ``None`` to draw it at random (ruling 9.14).
    ``simultaneous_supply`` plays phase B all at once (ruling 9.1).
    ``plague_survivors`` is the optional variant: if the plague kills everyone, the players
    with the fewest rats survive. ``mix_hands``: see the field."""

    players: tuple[str, ...]
    buildings: BuildingSelection = field(default_factory=BuildingSelection.first_game)
    simultaneous_supply: bool = False
    first_player: int | None = None
    plague_survivors: bool = False
    # Give a hand's cards new handles after it gains cards (``Game._t_mix_hands``). Only a
    # network table needs it: it keeps a card's handle from telling where the card came
    # from. Faces and results are the same either way.
    mix_hands: bool = False
    # The players' disc colours by seat, as chosen at a network table's lobby: only how the
    # table is shown (the rules never look at colours). Empty: the colours in seat order.
    colours: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise SetupError(f"Rattus Cartus is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if len(set(self.players)) != len(self.players) or not all(p.strip() for p in self.players):
            raise SetupError("player names must be different and not empty")
        if self.first_player is not None and not 0 <= self.first_player < len(self.players):
            raise SetupError("the first player must be one of the seats")
        if self.colours and (
            len(self.colours) != len(self.players)
            or len(set(self.colours)) != len(self.colours)
            or not set(self.colours) <= set(COLOURS)
        ):
            raise SetupError(
                f"colours must be {len(self.players)} different ones of {', '.join(COLOURS)}"
            )

    @staticmethod
    def default_names(n: int) -> tuple[str, ...]:
        return tuple(f"P{i + 1}" for i in range(n))
