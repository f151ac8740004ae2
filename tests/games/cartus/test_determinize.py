"""Determinization: samples agree with the seat's knowledge and depend on nothing else."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.bots import CartusBot, make_bot
from rattus_net.games.cartus.config import GameConfig
from rattus_net.games.cartus.determinize import SampleTable, determinize
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import settle


def _order(seed: int) -> list[int]:
    faces = D.population_faces()
    random.Random(seed).shuffle(faces)
    return faces


def _game(order: list[int], n: int = 4, simultaneous: bool = False) -> tuple[Game, LocalTable]:
    cfg = GameConfig(GameConfig.default_names(n), first_player=0, simultaneous_supply=simultaneous)
    game = Game(cfg)
    table = LocalTable(5, script_shuffles={"population": [tuple(order)]})
    settle(game, table)
    return game, table


def _snapshot(g: Game) -> Any:
    """Everything of a game a search could read, faces included."""
    f = g.faces

    def fs(hs: list[int]) -> list[tuple[int, int]]:
        return [(h, f[h]) for h in hs]

    return (
        fs(g.deck),
        fs(g.nun_row),
        [fs(h) for h in g.hands],
        [fs(x) for x in g.laid],
        fs(g.discard),
        {k: fs(p) for k, p in g.supply.items()},
        fs(g.building_deck),
        fs(g.replacement),
        fs(g.row),
        g.pending,
        g.log,
        g.history,
        [sorted(s) for s in g.seen],
        [sorted(s) for s in g.tracked],
        g.supply_choices,
        g.rats,
        g.influence,
    )


def _swap(order: list[int], i: int, j: int) -> list[int]:
    out = list(order)
    out[i], out[j] = out[j], out[i]
    return out


def _differing(order: list[int], i: int) -> int:
    """A deck position (from the bottom) whose face differs from ``order[i]``."""
    j = len(order) - 1
    while order[j] == order[i]:
        j -= 1
    return j


# order: nun row 0-4, then five cards per seat (seat 1: 10-14, seat 3: 20-24), then the deck
@pytest.mark.parametrize("slot", [0, 3, 10, 12, 20])
def test_same_sample_when_only_hidden_cards_differ(slot: int) -> None:
    order = _order(11)
    other = _swap(order, slot, _differing(order, slot))
    a, _ = _game(order)
    b, _ = _game(other)
    assert a.hands[1] == b.hands[1]
    sa = determinize(PlayerView(a, 0), random.Random(3))
    sb = determinize(PlayerView(b, 0), random.Random(3))
    assert _snapshot(sa) == _snapshot(sb)
    # and the seat's own secrets are kept
    assert sorted(sa.faces[h] for h in sa.hands[0]) == PlayerView(a, 0).hand


def test_hidden_simultaneous_supply_choice_is_asked_again() -> None:
    order = _order(12)
    a, _ = _game(order, simultaneous=True)
    b, _ = _game(order, simultaneous=True)
    space = list(PlayerView(a, 1).legal())
    a.apply(1, space[0])
    b.apply(1, space[-1])
    assert a.supply_choices != b.supply_choices
    sa = determinize(PlayerView(a, 0), random.Random(9))
    sb = determinize(PlayerView(b, 0), random.Random(9))
    assert _snapshot(sa) == _snapshot(sb)
    assert sa.supply_choices[1] is None
    assert 1 in sa.to_act() and 0 in sa.to_act()


def _replay_pair(seed: int, slot: int, decisions: int) -> tuple[Game, Game, int] | None:
    """Play game A with heuristic bots; replay the same moves on game B whose hidden cards
    differ (a card of another seat swapped with a deep deck card). ``None`` if the swapped
    card changed what happened (the replay is then not a same-public-history pair)."""
    order = _order(seed)
    other = _swap(order, slot, _differing(order, slot))
    a, ta = _game(order)
    b, tb = _game(other)
    bots = [make_bot("heuristic", s) for s in range(4)]
    moves: list[tuple[int, Move]] = []
    while len(moves) < decisions and not a.is_over:
        d = a.decision
        if d is None:
            ta.answer(a)
            continue
        seat = d.players[0]
        m = bots[seat].choose(PlayerView(a, seat))
        a.apply(seat, m)
        moves.append((seat, m))
    for seat, m in moves:
        settle(b, tb)
        try:
            b.apply(seat, m)
        except Exception:
            return None
    settle(a, ta)
    settle(b, tb)
    if a.decision is None or b.decision is None or a.decision != b.decision:
        return None
    pub_a = [e for e in a.log if e.private_to is None]
    pub_b = [e for e in b.log if e.private_to is None]
    if pub_a != pub_b:
        return None
    # Card handles are public identities: a gift of the swapped face moves another handle.
    if (a.hands, a.laid, a.deck, a.discard) != (b.hands, b.laid, b.deck, b.discard):
        return None
    return a, b, a.decision.players[0]


def test_same_sample_later_in_the_game() -> None:
    checked = 0
    for seed in range(20, 40):
        for decisions in (9, 17, 26):
            pair = _replay_pair(seed, 17, decisions)  # a card of seat 2's hand swapped
            if pair is None:
                continue
            a, b, seat = pair
            if seat == 2 or PlayerView(a, seat).hand != PlayerView(b, seat).hand:
                continue  # the swapped card is known to the deciding seat
            sa = determinize(PlayerView(a, seat), random.Random(seed))
            sb = determinize(PlayerView(b, seat), random.Random(seed))
            assert _snapshot(sa) == _snapshot(sb)
            checked += 1
    assert checked >= 5


def _play_out(sample: Game, bots: list[CartusBot], rng: random.Random) -> None:
    """Play ``sample`` to its end, ``bots`` at the seats, its hidden cards dealt by ``rng``
    (a sample has no table of its own)."""
    while True:
        settle(sample, SampleTable(rng))
        if sample.is_over:
            return
        d = sample.decision
        assert d is not None
        s = d.players[0]
        sample.apply(s, bots[s].choose(PlayerView(sample, s)))


def test_samples_are_playable_and_consistent() -> None:
    for seed in range(6):
        order = _order(seed)
        a, ta = _game(order, n=2 + seed % 4)
        bots = [make_bot("heuristic", s) for s in range(a.n)]
        rng = random.Random(seed)
        steps = 0
        while not a.is_over:
            d = a.decision
            if d is None:
                ta.answer(a)
                continue
            seat = d.players[0]
            view = PlayerView(a, seat)
            if steps % 7 == 0:
                sample = determinize(view, rng)
                sview = PlayerView(sample, seat)
                assert sview.hand == view.hand
                assert sview.nun_row_known == view.nun_row_known
                assert sview.known_in_hands == view.known_in_hands
                assert sview.hand_sizes == view.hand_sizes
                assert sample.decision == a.decision
                total = Counter(sample.faces[h] for h in sample.all_handles())
                assert total == Counter(D.population_faces() + D.special_faces())
                # a sample can be played to its end
                _play_out(sample, [make_bot("random", s) for s in range(a.n)], rng)
            a.apply(seat, bots[seat].choose(view))
            steps += 1


def test_sample_of_a_game_with_an_attached_table_never_uses_that_table() -> None:
    order = _order(3)
    game, table = _game(order)
    game.attach(table)
    before = (list(game.deck), [list(h) for h in game.hands], dict(table.face_of))
    sample = determinize(PlayerView(game, 0), random.Random(1))
    _play_out(sample, [make_bot("heuristic", s) for s in range(4)], random.Random(2))
    assert (list(game.deck), [list(h) for h in game.hands], dict(table.face_of)) == before
