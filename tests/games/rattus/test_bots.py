"""Rattus bots: they decide from their seat's view only, play legal moves, and the heuristic
and search bots beat weaker play."""

from __future__ import annotations

import random

import pytest

from rattus_net.bots.rattus import (
    RATTUS_BOTS,
    RattusHeuristicBot,
    RattusSearchBot,
    make_rattus_bot,
)
from rattus_net.cli_rattus import play_bots
from rattus_net.games.rattus.game import RattusGame
from rattus_net.games.rattus.moves import Move, Place, Plague
from rattus_net.games.rattus.view import RattusView, determinize

from .helpers import COMPS, after_setup, cubes, empty_board, give, put, turn_player


def variants() -> tuple[list[RattusGame], int]:
    """Two games that differ only in the faces of two tokens seat ``q`` looked at with the
    Witch (the engine knows them, as a local table told it); ``p`` must decide."""
    out = []
    for variant in (0, -1):
        game, table = after_setup(2, seed=9)
        p = turn_player(game)
        q = 1 - p
        empty_board(game)
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


@pytest.mark.parametrize("kind", RATTUS_BOTS)
def test_hidden_differences_never_change_a_choice(kind: str) -> None:
    (one, two), p = variants()
    choices: list[tuple[Move, object]] = []
    for game in (one, two):
        bot = make_rattus_bot(kind, 5, iterations=6)
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
    game, table = after_setup(2, seed=2)
    p = turn_player(game)
    q = 1 - p
    empty_board(game)
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
        game, _ = play_bots(kinds, 3, COMPS)
        assert game.is_over


def test_heuristic_beats_random() -> None:
    wins = 0
    for seed in range(12):
        kinds = ["heuristic", "random"] if seed % 2 == 0 else ["random", "heuristic"]
        game, _ = play_bots(kinds, seed, COMPS)
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
