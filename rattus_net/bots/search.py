"""A searching bot: information-set Monte Carlo search over determinized games.

For each decision the bot samples, per iteration, a full game consistent with its own view
(:func:`~rattus_net.games.cartus.determinize.determinize`: hidden faces dealt again at random),
picks one of its candidate moves with UCB1, plays it in the sample and lets fast heuristic
players finish the game (or a few rounds of it, then a static evaluation). Statistics are kept
on the seat's own root moves only, across all samples (ISMCTS-style), so no sample's hidden
cards can steer the choice more than any other.

Candidate moves are a bounded, sensible set so that the budget is not spread over thousands of
card combinations: for entering, the heuristic's two best ways into each building, a few more
of its best overall, and a Pass if allowed; for supplies one move per row card; for the Hospital
the numbers of cheapest cards to discard; for ties every tied player; for an offered action
taking and declining it (its generic legal moves). Decisions that the
heuristic settles well (giving cards, looking) are taken from it directly, and forced moves are
instant.

Budget: ``iterations`` (deterministic, used by tests) and/or ``seconds`` (wall time, the
default 0.8 s keeps every answer within a second on a small machine).
"""

from __future__ import annotations

import math
import random
import time

from rattus_net.bots.heuristic import HeuristicBot, _Ctx
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.determinize import answer_table, determinize
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

DEFAULT_SECONDS = 0.8
UCB_C = 0.5


class SearchBot:
    """Determinized UCB search on the seat's own moves with heuristic play-outs."""

    kind = "search"

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
        self.rng = random.Random(seed)
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        self.seconds = seconds
        self.iterations = iterations
        self.horizon = horizon
        self.top_k = top_k
        self.policy = HeuristicBot(self.rng.randrange(1 << 30))
        self.last_iterations = 0
        # (move, visits, total reward) of the last search, for tests and tuning
        self.last_stats: list[tuple[Move, int, float]] = []

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

    # --- search ----------------------------------------------------------------------------

    def choose(self, view: PlayerView) -> Move:
        space = view.legal()
        if len(space) == 1:
            return space[0]
        cands = self.candidates(view)
        if len(cands) == 1:
            return cands[0]
        seat = view.seat
        k = len(cands)
        visits = [0] * k
        total = [0.0] * k
        start = time.perf_counter()
        it = 0
        while True:
            if self.iterations is not None and it >= self.iterations:
                break
            if self.seconds is not None and time.perf_counter() - start >= self.seconds:
                break
            it += 1
            if it <= k:
                i = it - 1
            else:
                log_n = math.log(it)
                i = max(
                    range(k),
                    key=lambda j: total[j] / visits[j] + UCB_C * math.sqrt(log_n / visits[j]),
                )
            sample = determinize(view, self.rng)
            sample.apply(seat, cands[i])
            reward = self._playout(sample, seat)
            visits[i] += 1
            total[i] += reward
        self.last_iterations = it
        self.last_stats = list(zip(cands, visits, total, strict=True))
        best = max(range(k), key=lambda j: (visits[j], total[j] / max(1, visits[j])))
        return cands[best]

    def _playout(self, game: Game, seat: int) -> float:
        """Finish the sample with heuristic players; the seat's reward in [0, 1]."""
        rng = self.rng
        policy = self.policy
        stop_round = None if self.horizon is None else game.round + self.horizon
        views = [PlayerView(game, s) for s in range(game.n)]
        while True:
            answer_table(game, rng)
            if game.is_over:
                return self._final_reward(game, seat)
            if stop_round is not None and game.round > stop_round:
                return self._static_reward(game, seat)
            d = game.decision
            assert d is not None
            s = d.players[0]
            game.apply(s, policy.choose(views[s]))

    @staticmethod
    def _final_reward(game: Game, seat: int) -> float:
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

    @staticmethod
    def _static_reward(game: Game, seat: int) -> float:
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
