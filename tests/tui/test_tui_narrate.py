"""Events in words: every event kind has a sentence, and privacy is respected."""

from __future__ import annotations

import random

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Decision, Event, Game
from rattus_net.games.cartus.moves import DecisionKind
from rattus_net.games.cartus.narrate import (
    EVENT_KINDS,
    Narrator,
    cards_text,
    decision_words,
    describe,
)
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end

NAMES = ("Ann", "Bob", "Cyd")


def _play(n: int, seed: int, selection: BuildingSelection, simultaneous: bool = False) -> Game:
    rng = random.Random(seed)
    config = GameConfig(
        GameConfig.default_names(n), buildings=selection, simultaneous_supply=simultaneous
    )
    game = Game(config)

    def choose(g: Game, seat: int):  # type: ignore[no-untyped-def]
        space = PlayerView(g, seat).legal()
        return space[rng.randrange(len(space))]

    return play_to_end(game, LocalTable(seed), choose)


@pytest.fixture(scope="module")
def games() -> list[Game]:
    sels = [
        BuildingSelection.first_game(),
        BuildingSelection.random_buildings(),
        BuildingSelection.random_cards(),
    ]
    return [
        _play(2 + seed % 4, seed, sels[seed % 3], simultaneous=seed % 5 == 0) for seed in range(24)
    ]


def test_every_emitted_kind_is_described(games: list[Game]) -> None:
    seen = {e.kind for g in games for e in g.log}
    assert seen <= EVENT_KINDS
    assert len(seen) >= 24  # nearly every kind occurs in these games
    for g in games:
        for seat in range(g.n):
            narrator = Narrator(g.config.players, seat)
            for e in PlayerView(g, seat).events():
                text = narrator(e)
                assert text, e
                assert "{" not in text and "None" not in text, text
                assert text[0].isupper() and text.endswith((".", "!")), text


def test_buildings_are_named_from_the_row(games: list[Game]) -> None:
    g = games[0]
    narrator = Narrator(g.config.players, 0)
    texts = [narrator(e) for e in g.log if e.private_to in (None, 0)]
    names = set(D.BUILDING_NAMES)
    assert any(t and "enters the " in t and any(b in t for b in names) for t in texts)
    assert not any(t and "building 1" in t for t in texts)


def test_viewer_is_you() -> None:
    e = Event("enter", 1, {"building": 0, "count": 2, "space": 1})
    row = [D.building_face(D.Building.FARM, 0)]
    assert describe(e, NAMES, 1, row) == "You enter the Farm on space 1 with 2 cards face down."
    assert describe(e, NAMES, 0, row) == "Bob enters the Farm on space 1 with 2 cards face down."
    assert describe(e, NAMES, 0) == "Bob enters building 1 on space 1 with 2 cards face down."


def test_private_gift_only_for_its_reader() -> None:
    cards = [D.pop_face(2, 4), D.JOKER]
    to_giver = Event("gift", 0, {"to": 2, "cards": cards}, private_to=0)
    to_receiver = Event("gift", 0, {"to": 2, "cards": cards}, private_to=2)
    assert describe(to_giver, NAMES, 0) == "You gave Cyd: Church (4 nuns), Joker."
    assert describe(to_receiver, NAMES, 2) == "Ann gave you: Church (4 nuns), Joker."
    assert describe(to_giver, NAMES, 1) is None
    assert describe(to_receiver, NAMES, 1) is None
    # a spectator learns no faces
    spectator = describe(to_receiver, NAMES, None)
    assert spectator is not None and "Church" not in spectator


def test_public_give_has_no_faces() -> None:
    e = Event("give", 1, {"to": 0, "count": 3, "reason": "guard tower"})
    assert describe(e, NAMES, 0) == "Bob gives you 3 cards (guard tower)."


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            Event("round", None, {"round": 2, "start": 0, "last": False}),
            "Round 2 begins; you start.",
        ),
        (
            Event("round", None, {"round": 3, "start": 1, "last": False}),
            "Round 3 begins; Bob starts.",
        ),
        (
            Event("last-round-premium", 0, {"building": 1}),
            "Last round: You would have taken the premium of building 2 and gain 1 influence "
            "instead.",
        ),
        (
            Event("last-round-premium", 2, {"building": 0}),
            "Last round: Cyd would have taken the premium of building 1 and gains 1 influence "
            "instead.",
        ),
        (Event("deal", 0, {"count": 5}), "You are dealt 5 cards."),
        (Event("draw", 1, {"count": 1}), "Bob draws 1 card."),
        (
            Event("draw", 1, {"count": 0, "wanted": 2}),
            "Bob cannot draw: the deck and its discard pile are empty.",
        ),
        (
            Event("rats", 2, {"delta": 1, "why": "cards"}),
            "Cyd gains 1 rat for cards of another class.",
        ),
        (
            Event("rats", 0, {"delta": -2, "why": "monastery"}),
            "You discard 2 rats at the Monastery.",
        ),
        (Event("look", 1, {"position": 2}), "Bob looks at nun-row card 3."),
        (Event("pass", 2, {}), "Cyd plays a Pass."),
        (Event("take", 1, {"face": D.PASS, "count": 2, "wanted": 2}), "Bob takes 2 Passes."),
        (
            Event("take", 1, {"face": D.GOLD, "count": 1, "wanted": 2}),
            "Bob takes 1 Gold (the supply had only 1 of 2).",
        ),
        (Event("vp", 0, {"delta": 1}), "You take 1 VP token."),
        (Event("flute", 1, {"receiver": 0, "moved": 1}), "Flute: Bob passes a rat to you."),
        (
            Event("influence", 2, {"klass": 4, "delta": 2, "total": 5}),
            "Cyd gains 2 influence in Magic (now 5).",
        ),
        (
            Event("hospital", 0, {"cards": [D.SWORD, D.SWORD]}),
            "You discard 2 x Sword at the Hospital.",
        ),
        (
            Event("guard-tower", 0, {"givers": [1, 2], "building": 0}),
            "Guard Tower: Bob, Cyd must give you up to 3 cards.",
        ),
        (
            Event("reshuffle", None, {"count": 30}),
            "The discard pile (30 cards) is shuffled into a new deck.",
        ),
        (
            Event("game-over", None, {"winners": []}),
            "Game over: the plague killed everyone. Nobody wins.",
        ),
        (Event("game-over", None, {"winners": [1]}), "Game over: Bob wins!"),
        (Event("game-over", None, {"winners": [0, 2]}), "Game over: shared win for you, Cyd."),
        (Event("supply-chosen", 2, {}), "Cyd has chosen a supply action."),
        (Event("warning", None, {"text": "beware the tower"}), "Beware the tower."),
        (
            Event("end-round", None, {"round": 3}),
            "Round 3 ends; the starting-player card passes to the left.",
        ),
    ],
)
def test_sentences(event: Event, text: str) -> None:
    assert describe(event, NAMES, 0) == text


def test_row_and_replace_and_actions() -> None:
    farm = D.building_face(D.Building.FARM, 3)  # copy D: draw 2, look at 1
    tent = D.building_face(D.Building.FORTUNE_TELLER, 0)
    narrator = Narrator(NAMES, 0)
    assert narrator(Event("row", None, {"cards": [farm, farm]})) == (
        "Buildings turned up: 1. Farm (draw 2, look at 1); 2. Farm (draw 2, look at 1)."
    )
    text = narrator(Event("replace", None, {"old": farm, "new": tent}))
    assert text is not None and "Fortune-teller's Tent" in text
    assert narrator(Event("action", 1, {"building": 1, "premium": True})) == (
        "Bob takes the premium action of the Fortune-teller's Tent: look at 2 nun-row cards."
    )
    assert narrator(Event("resolve", None, {"building": 0})) == "Resolving the Farm."
    assert narrator(Event("supply", 2, {"card": 0, "action": "D"})) == (
        "Cyd takes the supply action of card 1 (Farm): draw 2, look at 1."
    )


def test_cards_text_groups_identical_cards() -> None:
    assert cards_text([D.SWORD, D.pop_face(0, 1), D.SWORD]) == "Peasantry (1 nun), 2 x Sword"
    assert cards_text([]) == "no cards"


@pytest.mark.parametrize(
    ("decision", "text"),
    [
        (Decision(DecisionKind.SUPPLY, (0,)), "choose a supply action."),
        (Decision(DecisionKind.ENTER, (1,)), "enter a building (or play a Pass)."),
        (
            Decision(DecisionKind.GIVE, (2,), count=2, to=1, reason="sword", building=0),
            "give 2 cards to Bob (Sword at the Brewery).",
        ),
        (
            Decision(DecisionKind.GIVE, (0,), count=1, to=2, reason="guard tower", building=1),
            "give 1 card to Cyd (the Guard Tower's premium).",  # not "Guard Tower at the ..."
        ),
        (
            Decision(DecisionKind.DISCARD, (0,), count=3, reason="hospital", building=1),
            "discard up to 3 cards for rats (Hospital).",
        ),
        (
            Decision(DecisionKind.LOOK, (0,), count=2, reason="tent", building=1),
            "look at 2 nun-row cards at the Hospital.",
        ),
        (
            Decision(
                DecisionKind.CHOOSE_PLAYER, (0,), candidates=(1, 2), reason="flute", building=0
            ),
            "choose who loses the Flute tie at the Brewery.",
        ),
    ],
)
def test_decision_words(decision: Decision, text: str) -> None:
    """One wording for a pending decision: the status line, the dialogs, the network waiting
    line and `rattus replay` all use it."""
    row = (D.building_face(D.Building.BREWERY, 0), D.building_face(D.Building.HOSPITAL, 0))
    assert decision_words(decision, NAMES, row) == text
