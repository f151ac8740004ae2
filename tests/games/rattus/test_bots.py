"""Rattus bots: they decide from their seat's view only, play legal moves, and the heuristic
and search bots beat weaker play."""

from __future__ import annotations

import random

import pytest

from rattus_net.games.rattus.bots import (
    RattusHeuristicBot,
    RattusSearchBot,
    make_bot,
)
from rattus_net.games.rattus.game import Kind, RattusGame
from rattus_net.games.rattus.moves import Move, Place, Plague, Spread, TurnUp
from rattus_net.games.rattus.view import RattusView, determinize
from rattus_net.kit.interface import BOT_KINDS, Budget

from .helpers import (
    COMPS,
    after_setup,
    cubes,
    give,
    on_empty_board,
    play_bots,
    put,
    turn_player,
)


def variants() -> tuple[list[RattusGame], int]:
    """Two games that differ only in the faces of two tokens seat ``q`` looked at with the
    Witch (the engine knows them, as a local table told it); ``p`` must decide."""
    out = []
    for variant in (0, -1):
        game, table, p = on_empty_board(2, seed=9)
        q = 1 - p
        a, b = put(game, table, "Italia", "4 A", "4 A")
        put(game, table, "Gallia", "3 A")
        c = [0, 0]
        c[p], c[q] = 2, 1
        cubes(game, "Italia", *c)
        cubes(game, "Gallia", *c)
        give(game, q, "Witch")
        faces = []
        for j, h in enumerate((a, b)):
            start = h in game.start_handles
            pool = [f for f, t in enumerate(COMPS.tokens) if t.start == start]
            f = pool[j] if variant == 0 else pool[-1 - j]  # other faces in the other variant
            game.faces[h] = f
            faces.append(COMPS.tokens[f].text())
        game.seen[q].update((a, b))
        game.emit("witch-look", q, private_to=q, faces=faces)
        out.append(game)
    return out, p


def test_a_view_hides_what_another_seat_looked_at() -> None:
    (one, two), p = variants()
    va, vb = RattusView(one, p), RattusView(two, p)
    italia = one.region("Italia")
    assert va.tokens(italia) == vb.tokens(italia) == [None, None]
    assert [e for e in va.events() if e.kind == "witch-look"] == []
    assert va.unseen_faces() == vb.unseen_faces()
    assert RattusView(one, 1 - p).tokens(italia) != RattusView(two, 1 - p).tokens(italia)


@pytest.mark.parametrize("kind", BOT_KINDS)
def test_hidden_differences_never_change_a_choice(kind: str) -> None:
    (one, two), p = variants()
    choices: list[tuple[Move, object]] = []
    for game in (one, two):
        bot = make_bot(kind, 5, Budget(iterations=6))
        move = bot.choose(RattusView(game, p))
        stats = getattr(bot, "last_stats", None)
        choices.append((move, stats))
    assert choices[0] == choices[1]


def test_determinize_samples_only_from_what_the_seat_may_know() -> None:
    (one, two), p = variants()
    sa, ta = determinize(RattusView(one, p), random.Random(3))
    sb, tb = determinize(RattusView(two, p), random.Random(3))
    assert ta.face_of == tb.face_of
    assert sa.faces == sb.faces == {}
    # Seat q's own sample keeps what it saw.
    q = 1 - p
    _sq, tq = determinize(RattusView(one, q), random.Random(3))
    for h in one.seen[q]:
        assert tq.face_of[h] == one.faces[h]
    # Start tokens get start faces, the others normal faces.
    for h, f in ta.face_of.items():
        assert COMPS.tokens[f].start == (h in one.start_handles)


def test_heuristic_sends_the_plague_to_rivals_and_places_away_from_it() -> None:
    game, table, p = on_empty_board(2, seed=2)
    q = 1 - p
    game.plague = game.region("Germania")
    put(game, table, "Italia", "2 A", "2 A")  # next to the plague
    put(game, table, "Anglia", "2 A", "2 A")  # far from it
    bot = RattusHeuristicBot(1)
    game.took = True  # the card is taken: now the cubes
    assert bot.choose(RattusView(game, p)) == Place("Anglia")
    game.apply(p, Place("Anglia"))
    rival = [0, 0]
    rival[q] = 3
    cubes(game, "Italia", *rival)
    mine = [0, 0]
    mine[p] = 3
    cubes(game, "Polonia", *mine)
    put(game, table, "Polonia", "2 A")
    assert bot.choose(RattusView(game, p)) == Plague("Italia")


def test_bots_play_whole_games_with_legal_moves() -> None:
    for kinds in (["heuristic", "random", "random"], ["random"] * 4):
        game, _ = play_bots(kinds, 3)
        assert game.is_over


def test_heuristic_beats_random() -> None:
    wins = 0
    for seed in range(12):
        kinds = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        game, _ = play_bots(kinds, seed)
        assert game.result is not None
        wins += kinds[game.result.winner] == "heuristic"
    assert wins >= 9


def test_search_bot_is_reproducible_and_compares_candidates() -> None:
    game, _table = after_setup(3, seed=4)
    p = turn_player(game)
    view = RattusView(game, p)
    a = RattusSearchBot(7, iterations=8)
    b = RattusSearchBot(7, iterations=8)
    assert a.choose(view) == b.choose(view)
    assert a.last_iterations == 8 and len(a.last_stats) > 1
    assert a.last_stats == b.last_stats
    assert sum(v for _, v, _ in a.last_stats) == 8


def last_token_choice(lead: int) -> Move:
    """The heuristic's plague move with one token left in the rat supply: Italia (a token
    there, so its spread takes the last one and the game ends after this turn) or Polonia
    (no token: the game goes on). ``lead``: our cubes minus the rival's, in the palace."""
    game, table, p = on_empty_board(2, seed=2)
    q = 1 - p
    game.plague = game.region("Germania")
    put(game, table, "Italia", "5 A", ring=False)
    game.removed += game.rat_supply[1:]
    del game.rat_supply[1:]
    for seat, extra in ((p, max(lead, 0)), (q, max(-lead, 0))):
        game.palace[seat] += 5 + extra
        game.supply[seat] -= 5 + extra
    game.placed = game.took = True
    view = RattusView(game, p)
    assert view.spread_ends_game(game.region("Italia"))
    assert not view.spread_ends_game(game.region("Polonia"))
    move = RattusHeuristicBot(1).choose(view)
    assert isinstance(move, Plague)
    return move


def test_heuristic_ends_the_game_when_ahead_and_not_when_behind_or_tied() -> None:
    """The ender comes last in the tie-break: ending the game pays only with a lead."""
    assert last_token_choice(4).to == "Italia"
    assert last_token_choice(-4).to != "Italia"
    assert last_token_choice(0).to != "Italia"  # a tie would go to the rival


def test_heuristic_reads_the_rings_of_face_down_tokens() -> None:
    """A ringed token comes from the start faces, a plain one from the normal faces: the
    heuristic values turning them up differently."""
    game, table, p = on_empty_board(2, seed=3)
    put(game, table, "Hispania", "2 M Pea", ring=True)
    put(game, table, "Hispania", "5 A", ring=False)
    cubes(game, "Hispania", 1, 1)
    game.placed = True
    game.plague = game.region("Gallia")
    game.apply(p, Plague("Hispania"))
    table.settle(game)
    game.apply(p, Spread(("Gallia", "Italia")))
    table.settle(game)
    d = game.decision
    assert d is not None and d.kind is Kind.TURN_UP  # told apart by the ring
    view = RattusView(game, p)
    values = dict((m, v) for v, m in RattusHeuristicBot(1).score_moves(view, view.legal()))
    assert values[TurnUp(1)] != values[TurnUp(2)]


@pytest.mark.parametrize("seed", range(5))
def test_determinize_keeps_every_ring_where_it_is(seed: int) -> None:
    real, _ = after_setup(3, seed=seed)
    view = RattusView(real, turn_player(real))
    sample, sample_table = determinize(view, random.Random(seed))
    assert sample.start_handles == real.start_handles
    assert sample.rat_supply == real.rat_supply and sample.tokens == real.tokens
    assert sample.removed == real.removed
    for h in sample.all_tokens():
        assert COMPS.tokens[sample_table.face_of[h]].start == (h in real.start_handles)
