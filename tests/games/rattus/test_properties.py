"""Property tests over random Rattus games (2, 3 and 4 players): conservation of tokens and
cubes at every step, determinism, replay, and the engine knowing only faces it was told."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rattus_net.bots.rattus import RattusRandomBot
from rattus_net.games.rattus.game import RattusConfig, RattusGame
from rattus_net.games.rattus.local import RattusTable
from rattus_net.games.rattus.moves import format_move, parse_move
from rattus_net.games.rattus.record import RattusRecord, result_summary
from rattus_net.games.rattus.rules import legal
from rattus_net.games.rattus.view import RattusView

from .helpers import COMPS, seat_total

SETTINGS = settings(max_examples=12, deadline=None, derandomize=True)
players = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=10**6)


def check_invariants(game: RattusGame) -> None:
    tokens = game.all_tokens()
    assert len(tokens) == 49 and len(set(tokens)) == 49  # every token in exactly one place
    assert all(len(t) <= 3 for t in game.tokens)
    for s in range(game.n):
        assert seat_total(game, s) == 20
        assert min(game.supply[s], game.palace[s], game.struck[s]) >= 0
    assert all(c >= 0 for row in game.cubes for c in row)
    # The engine knows exactly the faces it was told: turned-up tokens and Witch looks.
    told = set(game.public).union(*game.seen)
    assert set(game.faces) == told
    assert set(game.turned) <= game.public
    assert not (set(game.removed) & set(game.faces))


def random_game(n: int, seed: int, check: bool = True) -> tuple[RattusGame, RattusTable]:
    game = RattusGame(RattusConfig(RattusConfig.default_names(n), COMPS))
    table = RattusTable(seed)
    bots = [RattusRandomBot(seed * 10 + s) for s in range(n)]
    views = [RattusView(game, s) for s in range(n)]
    while not game.is_over:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        move = bots[d.player].choose(views[d.player])
        assert parse_move(format_move(move)) == move  # the text form is a parse/print pair
        game.apply(d.player, move)
        if check:
            check_invariants(game)
    return game, table


@SETTINGS
@given(players, seeds)
def test_random_games_conserve_tokens_and_cubes(n: int, seed: int) -> None:
    game, _ = random_game(n, seed)
    r = game.result
    assert r is not None
    assert r.winner == max(r.tie_order, key=lambda s: (r.totals[s], -r.tie_order.index(s)))
    assert game.end_reason in ("supply", "cubes")


@SETTINGS
@given(players, seeds)
def test_same_seed_and_moves_give_the_same_record_and_replay_the_same_result(
    n: int, seed: int
) -> None:
    a, ta = random_game(n, seed, check=False)
    b, tb = random_game(n, seed, check=False)
    text = RattusRecord.from_game(a, ta).dumps()
    assert RattusRecord.from_game(b, tb).dumps() == text
    again, _ = RattusRecord.loads(text, COMPS).replay()
    assert result_summary(again) == result_summary(a)
    assert [(e.kind, e.data) for e in again.log] == [(e.kind, e.data) for e in a.log]


@SETTINGS
@given(players, seeds)
def test_legal_moves_are_accepted_and_clone_is_independent(n: int, seed: int) -> None:
    game = RattusGame(RattusConfig(RattusConfig.default_names(n), COMPS))
    table = RattusTable(seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and steps < 60:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        moves = legal(game, d.player)
        assert moves and len(set(moves)) == len(moves)
        copy = game.clone()
        copy.apply(d.player, moves[-1])  # the copy moves on, the game does not
        assert game.decision == d and len(game.history) == steps
        game.apply(d.player, rng.choice(moves))
        steps += 1


def hidden_variant(
    game: RattusGame, table: RattusTable, seat: int, rng: random.Random
) -> RattusGame:
    """A copy that differs from ``game`` only in what ``seat`` cannot know: each token another
    seat looked at with the Witch (and this seat did not) swapped, in the world, with a token
    nobody has seen: the other seat's engine knowledge then holds that token's face."""
    other = game.clone()
    secret = sorted(set().union(*game.seen) - game.seen[seat] - game.public)
    unseen = [h for h in game.all_tokens() if h not in game.faces]
    rng.shuffle(unseen)
    for h in secret:
        same = [u for u in unseen if (u in game.start_handles) == (h in game.start_handles)]
        if same:
            unseen.remove(same[0])
            other.faces[h] = table.face_of[same[0]]
    return other


@settings(max_examples=10, deadline=None, derandomize=True)
@given(players, seeds, st.integers(min_value=10, max_value=120))
def test_bots_and_samples_read_only_what_the_seat_may_know(n: int, seed: int, stop: int) -> None:
    from rattus_net.bots.rattus import RattusHeuristicBot
    from rattus_net.games.rattus.view import determinize

    game = RattusGame(RattusConfig(RattusConfig.default_names(n), COMPS))
    table = RattusTable(seed)
    bots = [RattusRandomBot(seed + s) for s in range(n)]
    steps = 0
    while not game.is_over and steps < stop:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        game.apply(d.player, bots[d.player].choose(RattusView(game, d.player)))
        steps += 1
    d = game.decision
    if d is None:
        return
    seat = d.player
    other = hidden_variant(game, table, seat, random.Random(seed))
    a, b = RattusView(game, seat), RattusView(other, seat)
    for r in range(game.k):
        assert a.tokens(r) == b.tokens(r)
    assert a.unseen_faces() == b.unseen_faces()
    assert a.legal() == b.legal()
    assert RattusHeuristicBot(1).choose(a) == RattusHeuristicBot(1).choose(b)
    sa, ta = determinize(a, random.Random(2))
    sb, tb = determinize(b, random.Random(2))
    assert ta.face_of == tb.face_of and sa.faces == sb.faces
