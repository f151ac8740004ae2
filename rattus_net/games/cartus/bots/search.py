"""Rattus Cartus's searching bot: the kit's information-set search (``rattus_net/bots/
ismcts.py``) with this game's candidates, samples and rewards.

Samples: :func:`~rattus_net.games.cartus.determinize.determinize` (hidden faces dealt again at
random); play-outs by the heuristic bot for a few rounds (``horizon``), then a static
evaluation. Candidate moves are a bounded, sensible set so that the budget is not spread over
thousands of card combinations: for entering, the heuristic's two best ways into each
building, a few more of its best overall, and a Pass if allowed; for supplies one move per row
card; for the Hospital the numbers of cheapest cards to discard; for ties every tied player;
for an offered action taking and declining it (its generic legal moves). Decisions that the
heuristic settles well (giving cards, looking) are taken from it directly, and forced moves
are instant.
"""

from __future__ import annotations

import math

from rattus_net.bots.ismcts import DEFAULT_SECONDS, Ismcts
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.bots.heuristic import HeuristicBot, _Ctx
from rattus_net.games.cartus.determinize import SampleTable, determinize
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DecisionKind,
    Discard,
    Move,
    PlayPass,
    Supply,
)
from rattus_net.games.cartus.view import PlayerView
from rattus_net.kit.interface import Table

__all__ = ["DEFAULT_SECONDS", "SearchBot"]


class SearchBot(Ismcts[PlayerView, Move, Game]):
    """Determinized UCB search on the seat's own moves with heuristic play-outs."""

    policy: HeuristicBot

    def __init__(
        self,
        seed: int | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
        horizon: int | None = 3,
        top_k: int = 8,
    ) -> None:
        """``seconds`` and ``iterations`` bound each decision (whichever ends first; with
        neither, ``DEFAULT_SECONDS``). ``horizon``: rounds simulated after the current one
        before the static evaluation (``None``: to the end of the game)."""
        self.top_k = top_k
        super().__init__(seed, seconds, iterations, horizon)

    def make_policy(self, seed: int) -> HeuristicBot:
        return HeuristicBot(seed)

    def view(self, game: Game, seat: int) -> PlayerView:
        return PlayerView(game, seat)

    def determinize(self, view: PlayerView) -> tuple[Game, Table]:
        return determinize(view, self.rng), SampleTable(self.rng)

    def round_of(self, game: Game) -> int:
        return game.round

    # --- candidates ------------------------------------------------------------------------

    def candidates(self, view: PlayerView) -> list[Move]:
        """The bounded set of root moves the search compares."""
        space = view.legal()
        d = view.decision
        assert d is not None
        kind = space.kind
        h = self.policy
        if kind is DecisionKind.SUPPLY:
            ctx = _Ctx(view)
            out: list[Move] = []
            for i, face in enumerate(view.row):
                looks = D.face_supply(face).looks
                out.append(Supply(i, h._positions(ctx, looks) if looks else ()))
            return out
        if kind is DecisionKind.ENTER:
            ctx = _Ctx(view)
            scored = h.best_enter(ctx, view)
            chosen: list[Move] = []
            per_building: dict[int, int] = {}
            for _, m in scored:
                b = getattr(m, "building", -1)
                if per_building.get(b, 0) < 2 and m not in chosen:
                    per_building[b] = per_building.get(b, 0) + 1
                    chosen.append(m)
            for _, m in scored:
                if len(chosen) >= self.top_k + len(view.row):
                    break
                if m not in chosen:
                    chosen.append(m)
            if any(isinstance(m, PlayPass) for m in space[-1:]) and PlayPass() not in chosen:
                chosen.append(PlayPass())
            return chosen
        if kind is DecisionKind.DISCARD:
            ctx = _Ctx(view)
            order = sorted(ctx.hand, key=ctx.keep)
            return [Discard(tuple(sorted(order[:m]))) for m in range(min(d.count, len(order)) + 1)]
        if kind is DecisionKind.CHOOSE_PLAYER:
            return [ChoosePlayer(s) for s in d.candidates]
        if kind is DecisionKind.ACTION:
            return list(space)  # take or decline (ruling 17): both are searched
        return [h.choose(view)]

    def reward(self, game: Game, seat: int) -> float:
        r = game.result
        assert r is not None
        if r.dead[seat]:
            return 0.0
        best_other = max(
            (r.totals[s] for s in range(game.n) if s != seat and not r.dead[s]), default=0
        )
        margin = min(1.0, max(0.0, 0.5 + (r.totals[seat] - best_other) / 40.0))
        win = 1.0 / len(r.winners) if seat in r.winners else 0.0
        return 0.75 * win + 0.25 * margin

    def static_reward(self, game: Game, seat: int) -> float:
        """A cut-off evaluation from the full sample: points on the tracks as they stand,
        tokens, and the plague against the sampled nun row, blurred by the rounds left."""
        n = game.n
        left = max(0, game.plan.rounds - game.round + 1)
        awards = D.INFLUENCE_AWARDS if n >= D.THIRD_PLACE_MIN_PLAYERS else D.INFLUENCE_AWARDS[:2]
        vp = [float(v) for v in game.vp]
        for klass in range(6):
            inf = game.influence[klass]
            ranked = [s for s in game.standing(klass) if inf[s] > 0]
            for place, s in enumerate(ranked[: len(awards)]):
                vp[s] += awards[place]
        faces = game.faces
        for s in range(n):
            vp[s] += 0.5 * sum(1 for h in game.hands[s] if faces[h] <= D.JOKER)
            vp[s] += 0.8 * sum(1 for h in game.hands[s] if faces[h] == D.GOLD)
        nuns = sum(D.face_nuns(faces[h]) for h in game.nun_row)
        spread = 1.0 + 0.8 * left
        alive = [
            1.0 / (1.0 + math.exp((game.rats[s] + 0.6 * left - nuns - 0.5) / spread * 1.7))
            for s in range(n)
        ]
        scale = 4.0 + 3.0 * left
        p_win = 1.0
        for s in range(n):
            if s == seat:
                continue
            beat = 1.0 / (1.0 + math.exp(-(vp[seat] - vp[s]) / scale * 1.7))
            p_win *= 1.0 - alive[s] * (1.0 - beat)
        return alive[seat] * p_win
