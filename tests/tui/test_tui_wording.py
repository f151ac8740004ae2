"""Sentences a player reads, read as sentences: where the plague spread (each region once, with
its count), "you" inside a sentence rather than "You", and an offline game's "You" spoken to as
such when nobody in particular reads (a replay, a record's result)."""

from __future__ import annotations

from rattus_net.games.rattus.person import Persons
from rattus_net.games.rattus.report import event_text, spread_text
from rattus_net.games.rattus.ui.narrate import Narrator
from rattus_net.kit.machine import Event

NAMES = ("You", "Agnes", "Bertram")


def test_the_plague_s_spread_names_each_region_once_with_its_count() -> None:
    assert spread_text(["Gallia"]) == "a token to Gallia"
    assert spread_text(["Gallia", "Gallia"]) == "2 tokens to Gallia"
    assert spread_text(["Gallia", "Italia"]) == "a token to Gallia and one to Italia"
    assert spread_text(["Italia", "Gallia", "Italia"]) == "2 tokens to Italia and one to Gallia"
    spread = Event("spread", 1, {"regions": ["Gallia", "Gallia"], "left": 3})
    assert Narrator(NAMES, 0).lines([spread]) == [
        "The plague spreads 2 tokens to Gallia, face down."
    ]
    assert event_text(spread, NAMES, 0) == "new tokens: 2 tokens to Gallia"


def test_you_inside_a_sentence_is_not_capitalised() -> None:
    took = Event("take", 1, {"card": "Peasant", "taken_from": 0})
    assert Narrator(NAMES, 0).lines([took]) == ["Agnes took the Peasant from you."]
    narrator = Narrator(NAMES, 0)
    narrator.holders["Knight"] = 0
    assert narrator.effects("2 M Chi") == ("M: the most cubes lose one; Knight symbol: held by you")
    assert narrator.why("Chi", 0) == "Knight symbol (you hold the Knight)"
    assert narrator.why("Chi", 1) == "Knight symbol (Agnes holds the Knight)"
    order = Event("final-round", 1, {"order": [0, 2]})
    assert Narrator(NAMES, 0).lines([order])[0].endswith("right: you (no card), Bertram (no card).")


def test_an_offline_game_s_you_is_spoken_to_when_nobody_in_particular_reads() -> None:
    nobody = Persons(NAMES)
    assert nobody.says(0, "win") == "You win" and nobody.says(1, "win") == "Agnes wins"
    assert nobody.object(0) == "you" and nobody.possessive(0) == "your"
    took = Event("take", 1, {"card": "Peasant", "taken_from": 0})
    assert event_text(took, NAMES) == "Agnes takes the Peasant from you"
    # a network player who calls himself "You" is not taken for the reader
    assert Persons(("Ann", "You"), 0).says(1, "win") == "You wins"


def test_what_a_witch_saw_is_told_to_whoever_looked_by_name_unless_he_is_you() -> None:
    """A replay seen as Agnes, by another player, tells Agnes's look with her name."""
    looked = Event("witch", 1, {"first": ["Gallia", 1], "second": ["Italia", 2]})
    saw = Event("witch-look", 1, {"faces": ["2 M Chi", "1 P"]}, private_to=1)
    agnes = Narrator(NAMES, 1).lines([looked, saw])
    assert str(agnes[-1]).startswith("You saw (only you): Gallia token 1 is ")
    other = Narrator(NAMES, 2).lines([looked, saw])
    assert str(other[-1]).startswith("Agnes saw (only Agnes): Gallia token 1 is ")
