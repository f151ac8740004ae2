"""Properties of random legal play: conservation of cards and rats, determinism, cloning."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game, Phase
from rattus_net.kit.local import LocalTable
from rattus_net.kit.table import Shuffle

from .helpers import NAMES

ALL_FACES = Counter(D.population_faces() + D.special_faces())
SELECTIONS = [
    BuildingSelection.first_game(),
    BuildingSelection.random_buildings(),
    BuildingSelection.random_cards(),
]

games = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 2**32 - 1),
        "n": st.integers(2, 5),
        "simultaneous": st.booleans(),
        "selection": st.sampled_from(SELECTIONS),
    }
)


def new_game(p: dict[str, object]) -> tuple[Game, LocalTable, random.Random]:
    n = p["n"]
    assert isinstance(n, int)
    config = GameConfig(
        players=NAMES[:n],
        buildings=p["selection"],  # type: ignore[arg-type]
        simultaneous_supply=bool(p["simultaneous"]),
        first_player=None,
    )
    seed = p["seed"]
    assert isinstance(seed, int)
    return Game(config), LocalTable(seed=seed), random.Random(seed + 1)


def step(game: Game, table: LocalTable, rng: random.Random) -> None:
    """One step: the table answers, or a deciding seat makes a uniformly random legal choice."""
    d = game.decision
    if d is None:
        table.answer(game)
        return
    seat = d.players[rng.randrange(len(d.players))]
    choices = legal_choices(game, seat)
    assert len(choices) > 0
    game.apply(seat, choices[rng.randrange(len(choices))])


def play(
    game: Game,
    table: LocalTable,
    rng: random.Random,
    check: Callable[[Game, LocalTable], None] | None = None,
    steps: int | None = None,
) -> None:
    done = 0
    while not game.is_over and (steps is None or done < steps):
        step(game, table, rng)
        done += 1
        if check is not None:
            check(game, table)


def check_cards(game: Game, table: LocalTable) -> None:
    if game.phase is Phase.SETUP:
        return  # the cards are not dealt yet
    handles = game.all_handles()
    assert len(handles) == len(set(handles)), "a card is in two places"
    req = game.pending
    shuffling = set(req.handles) if isinstance(req, Shuffle) else set()
    faces = Counter(game.faces.get(h, table.face_of.get(h)) for h in handles if h not in shuffling)
    if isinstance(req, Shuffle):
        faces.update(req.faces)  # a pile being shuffled: its faces are known, not their order
    assert faces == ALL_FACES


def check_rats(game: Game, table: LocalTable) -> None:
    expected = [D.START_RATS] * game.n
    for e in game.log:
        if e.kind == "rats":
            expected[e.player] += e.data["delta"]
        elif e.kind == "flute":
            expected[e.player] -= e.data["moved"]
            expected[e.data["receiver"]] += e.data["moved"]
    assert game.rats == expected
    assert all(r >= 0 for r in game.rats)


def check_all(game: Game, table: LocalTable) -> None:
    check_cards(game, table)
    check_rats(game, table)


@settings(max_examples=60, deadline=None)
@given(games)
def test_random_play_keeps_every_card_in_one_place_and_counts_rats(p: dict[str, object]) -> None:
    game, table, rng = new_game(p)
    play(game, table, rng, check_all)
    assert game.is_over and game.result is not None
    assert game.round == D.ROUND_PLAN[game.n].rounds


@settings(max_examples=15, deadline=None)
@given(games)
def test_same_seed_and_choices_give_the_same_game(p: dict[str, object]) -> None:
    a, ta, ra = new_game(p)
    b, tb, rb = new_game(p)
    play(a, ta, ra)
    play(b, tb, rb)
    assert a.history == b.history
    assert a.log == b.log
    assert a.result == b.result
    assert ta.chance == tb.chance


@settings(max_examples=15, deadline=None)
@given(games, st.integers(0, 400))
def test_a_clone_continued_identically_ends_identically(p: dict[str, object], at: int) -> None:
    game, table, rng = new_game(p)
    play(game, table, rng, steps=at)
    twin, twin_table, twin_rng = game.clone(), copy.deepcopy(table), copy.deepcopy(rng)
    play(game, table, rng)
    # The original went on; the clone, untouched until now, must not have moved with it.
    assert len(twin.history) <= len(game.history)
    play(twin, twin_table, twin_rng)
    assert twin.history == game.history
    assert twin.log == game.log
    assert twin.result == game.result


def test_a_clone_has_no_attached_table() -> None:
    from rattus_net.games.cartus.config import GameConfig
    from rattus_net.games.cartus.game import Game
    from rattus_net.kit.local import LocalTable

    game = Game(GameConfig(GameConfig.default_names(3)))
    game.attach(LocalTable(5))
    copy = game.clone()
    assert copy._inline is None
    assert game._inline is not None


def test_a_clone_shares_no_mutable_state_with_its_game() -> None:
    """Search bots play on clones: a clone must never change the real game (this guards any
    engine field added later without ``Game.clone`` copying it)."""
    import random

    from rattus_net.games.cartus.choices import legal_choices
    from rattus_net.games.cartus.config import BuildingSelection, GameConfig
    from rattus_net.games.cartus.game import Game
    from rattus_net.kit.local import LocalTable

    game = Game(GameConfig(GameConfig.default_names(4), BuildingSelection.random_cards()))
    game.attach(LocalTable(3))
    rng = random.Random(3)
    for _ in range(40):  # into round 2 or 3: hands, laid cards, stacks all in use
        seat = game.decision.players[0]
        space = legal_choices(game, seat)
        game.apply(seat, space[rng.randrange(len(space))])
    twin = game.clone()
    for key, value in game.__dict__.items():
        if isinstance(value, list | set | dict):
            assert twin.__dict__[key] is not value, key
            inner = value.values() if isinstance(value, dict) else value
            other = twin.__dict__[key]
            other_inner = other.values() if isinstance(other, dict) else other
            for a, b in zip(inner, other_inner, strict=False):
                if isinstance(a, list | set | dict):
                    assert a is not b, key
