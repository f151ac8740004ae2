"""Our bots against OpenSpiel's ISMCTS, on the games as OpenSpiel plays them (``bots.py
--vs openspiel``; needs the ``openspiel`` extra).

Both sides play the same ``pyspiel`` state: our bots decide from their seat's view of the game
behind it and play their move as its action numbers; OpenSpiel's ISMCTS (its Python
implementation, random roll-outs, UCT constant 2) searches the OpenSpiel game, resampling with
the game's determinisation, until its time per decision is up. A move that is spelt in several
actions (Rattus Cartus's card choices) is several OpenSpiel decisions, each with the full time:
the ISMCTS thinks up to that many times longer on such moves than our bot, which decides a
move at once. Chance nodes are sampled from their explicit outcomes (seeded per game).

* 2 players: our ``search`` against the ISMCTS, seats swapped every game.
* 4 players: two against two, our seats rotated (game ``g``: seats ``g`` and ``g + 2``).
* The Elo ladder: 2-player match-ups between neighbours of random, heuristic, search and the
  ISMCTS (and heuristic against the ISMCTS), fitted by OpenSpiel's Elo (random at 0).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import elo, ismcts, mcts

from rattus_net.kit.interface import Budget
from rattus_net.openspiel.game import RattusState, register_games

OPENSPIEL = "ismcts"
"""OpenSpiel's ISMCTS, by name in the match-ups and the ladder."""
LADDER = ("random", "heuristic", "search", OPENSPIEL)
LADDER_PAIRS = (
    ("random", "heuristic"),
    ("heuristic", "search"),
    ("search", OPENSPIEL),
    ("heuristic", OPENSPIEL),
)


class _TimeUp(Exception):
    pass


class TimedIsmcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS, searching until ``seconds`` have passed (at least two samples)."""

    def __init__(self, game: Any, seconds: float, rs: Any) -> None:
        super().__init__(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 10**9, random_state=rs)
        self.seconds = seconds
        self._deadline = 0.0

    def run_search(self, state: Any) -> Any:
        self._deadline = time.perf_counter() + self.seconds
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)

    def sample_root_state(self, state: Any) -> Any:
        if time.perf_counter() >= self._deadline and self._root_node.total_visits > 0:
            raise _TimeUp
        return super().sample_root_state(state)


@dataclass
class Side:
    """A player of a match: one of our bot kinds or OpenSpiel's ISMCTS."""

    kind: str


def play(name: str, seats: list[str], seconds: float, seed: int) -> list[float]:
    """One game of ``name`` (OpenSpiel's game name) with ``seats[i]`` at seat ``i``; each
    seat's share of the win."""
    game = pyspiel.load_game(f"{name}(players={len(seats)})")
    game.seed_resampling(seed)
    rs = np.random.RandomState(seed)
    rattus = game.rattus
    ours: dict[int, Any] = {}
    theirs: dict[int, TimedIsmcts] = {}
    for s, kind in enumerate(seats):
        if kind == OPENSPIEL:
            theirs[s] = TimedIsmcts(game, seconds, np.random.RandomState(seed * 31 + s))
        else:
            ours[s] = rattus.make_bot(kind, seed * 7919 + s, Budget(seconds))
    state: RattusState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(actions, p=probs)))
            continue
        seat = state.current_player()
        if seat in theirs:
            state.apply_action(int(theirs[seat].step(state)))
            continue
        view = rattus.view(state._core.engine, seat)
        for action in game.codec.spell(ours[seat].choose(view)):
            state.apply_action(action)
    return list(state.returns())


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def match(name: str, a: str, b: str, n: int, games: int, args: argparse.Namespace) -> float:
    """``a`` against ``b``: 2 players seats swapped, 4 players two against two rotated;
    ``a``'s wins (shares) over ``games`` games, printed with the 95% interval."""
    wins = 0.0
    for g in range(games):
        if n == 2:
            seats = [a, b] if g % 2 == 0 else [b, a]
        else:
            seats = [a if (s - g) % 2 == 0 else b for s in range(n)]
        returns = play(name, seats, args.seconds, args.seed + g)
        wins += sum(r for s, r in enumerate(returns) if seats[s] == a)
    lo, hi = wilson(wins, games)
    print(
        f"RESULT {name} {n}p: {a} vs {b}: {a} wins {wins:g}/{games} = {wins / games:.1%} "
        f"(95% CI {lo:.1%}-{hi:.1%})",
        flush=True,
    )
    return wins


def run(args: argparse.Namespace) -> None:
    names = register_games()
    print(
        f"== our search vs OpenSpiel's ISMCTS, {args.seconds:g} s per decision, "
        f"{args.games} games per match-up",
        flush=True,
    )
    for name in names:
        match(name, "search", OPENSPIEL, 2, args.games, args)
        match(name, "search", OPENSPIEL, 4, args.games, args)
    for name in names:
        index = {k: i for i, k in enumerate(LADDER)}
        wins = np.zeros((len(LADDER), len(LADDER)))
        for a, b in LADDER_PAIRS:
            w = match(name, a, b, 2, args.ladder_games, args)
            wins[index[a], index[b]] += w
            wins[index[b], index[a]] += args.ladder_games - w
        # (a shared win counts half to each side, rounded: OpenSpiel's Elo takes counts)
        ratings = elo.compute_ratings_from_matrices(np.rint(wins).astype(int))
        ratings = ratings - ratings[0]
        ladder = ", ".join(f"{k} {r:+.0f}" for k, r in zip(LADDER, ratings, strict=True))
        print(f"ELO {name} (2 players, random at 0): {ladder}", flush=True)
