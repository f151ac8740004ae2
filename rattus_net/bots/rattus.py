"""Bots for Rattus (the board game): random, heuristic and search, all reading views only.

A bot's ``choose(view)`` returns a legal move for ``view.seat``. It sees a
:class:`~rattus_net.games.rattus.view.RattusView`, never the game: token faces it has not
seen are only ever estimated from the faces it cannot rule out (``view.unseen_faces``).

- ``RattusRandomBot``: uniform over the legal moves.
- ``RattusHeuristicBot``: places where the plague is unlikely to go, keeps the plague away
  from its cubes and sends it to rivals, takes the cards whose symbols it can afford, uses the
  King, Peasant, Merchant and Monk when they help.
- ``RattusSearchBot``: information-set search: per iteration it samples a full game consistent
  with its view (:func:`~rattus_net.games.rattus.view.determinize`), tries one of a bounded set
  of candidate moves (UCB1 over the seat's own root moves) and lets heuristic players finish
  the game.
"""

from __future__ import annotations

import math
import random
import time
from collections import deque

from rattus_net.games.rattus.components import CODE_OF, Token
from rattus_net.games.rattus.game import Kind, Phase
from rattus_net.games.rattus.moves import (
    Done,
    King,
    Merchant,
    Monk,
    Move,
    Place,
    Plague,
    Spread,
    StartPlace,
    Swap,
    Take,
    TurnUp,
    Witch,
)
from rattus_net.games.rattus.view import RattusView, determinize

CARD_VALUE = {
    "King": 1.6,
    "Peasant": 1.5,
    "Merchant": 0.9,
    "Monk": 0.8,
    "Knight": 0.7,
    "Witch": 0.2,
}


class RattusRandomBot:
    """Uniform over the legal moves."""

    kind = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: RattusView) -> Move:
        space = view.legal()
        return space[self.rng.randrange(len(space))]


class _Ctx:
    """What the heuristic computes once per decision from a view."""

    def __init__(self, view: RattusView) -> None:
        self.view = view
        self.seat = view.seat
        self.n = view.n
        self.k = len(view.regions)
        self.index = {r: i for i, r in enumerate(view.regions)}
        self.cubes = view.cubes
        self.counts = view.token_counts
        self.pool = view.unseen_faces() or list(view.components.tokens)
        self.holders = view.holders
        self.dist = _distances(view.neighbours, view.plague)
        self.code_holder = {CODE_OF[c]: s for c, s in self.holders.items()}
        # A face-down token's ring is public (ruling 5): a ringed one is one of the unseen
        # start faces, a plain one one of the unseen normal faces.
        by_ring = {
            ring: [t for t in self.pool if t.start == ring] or self.pool for ring in (False, True)
        }
        self.ring_stats = {ring: _pool_stats(pool) for ring, pool in by_ring.items()}
        self.by_ring = by_ring
        # The end is near when a spread or two empties the rat supply: then the final
        # outbreak strikes every region with tokens, wherever the plague piece stands.
        self.endgame = view.rat_supply <= ENDGAME_SUPPLY or view.phase is Phase.FINAL
        # A struck cube goes back to the supply (ruling 4): during the game losing one costs
        # a placement, not the cube; near the end it is gone for the count.
        self.own_weight = OWN_LOSS_END if self.endgame else OWN_LOSS
        self.totals = [
            sum(self.cubes[r][s] for r in range(self.k)) + view.palace[s] for s in range(self.n)
        ]

    def threat(self, r: int) -> float:
        """How likely the plague strikes region ``r`` soon (it moves every turn; near the
        end the final outbreak strikes every region that holds tokens)."""
        d = self.dist[r]
        near = (0.35, 0.9, 0.45, 0.2)[min(d, 3)]
        if self.endgame and self.counts[r]:
            return max(near, 0.8)
        return near

    def loss(self, r: int, cubes: list[int], plus: int = 0) -> list[float]:
        """Expected cubes each seat loses if region ``r`` breaks out now (tokens estimated
        from the pool of their ring where unknown; losses along the way ignored)."""
        total = sum(cubes) + plus
        n = self.n
        out = [0.0] * n
        if total == 0:
            return out
        top = max(cubes)
        code_holder = self.code_holder
        for tok, ring in zip(self.view.tokens(r), self.view.rings(r), strict=True):
            if tok is None:
                m, a, syms = self.ring_stats[ring][min(total, MAX_NUMBER)]
            else:
                if tok.number > total:
                    continue
                m, a = float(tok.majority), float(tok.all_)
                syms = {c: 1.0 for c in tok.symbols}
            for s in range(n):
                if cubes[s]:
                    out[s] += a + (m if cubes[s] == top else 0.0)
            for code, w in syms.items():
                s2 = code_holder[code]
                if s2 is not None and cubes[s2]:
                    out[s2] += w
        return out

    def harm(self, r: int, plus: int = 0) -> float:
        """Rivals' expected loss minus ours (ours counts more) if ``r`` breaks out."""
        lost = self.loss(r, self.cubes[r], plus)
        others = sum(lost[s] for s in range(self.n) if s != self.seat)
        return others / max(1, self.n - 1) - self.own_weight * lost[self.seat]

    def ending_value(self, lead_after: float = 0.0) -> float:
        """What ending the game after our own turn is worth: we are the ender, so we come
        last in the tie-break (rules section 4) and need strictly more cubes than everybody;
        ``lead_after``: cubes our turn still adds to our lead."""
        best_other = max(t for s, t in enumerate(self.totals) if s != self.seat)
        lead = self.totals[self.seat] + lead_after - best_other - 0.5  # a tie is lost
        return max(-END_WEIGHT, min(END_WEIGHT, lead * 0.6))


ENDGAME_SUPPLY = 4
END_WEIGHT = 3.0
OWN_LOSS = 1.1  # our struck cube against a rival's, while it can still be placed again
OWN_LOSS_END = 1.4  # near the end
MAX_NUMBER = 12


def _pool_stats(pool: list[Token]) -> list[tuple[float, float, dict[str, float]]]:
    """Per cube count: the chance that an unknown token strikes with M, with A, and with each
    class symbol (expected symbols), drawn from ``pool``."""
    size = max(1, len(pool))
    by_number: list[list[Token]] = [[] for _ in range(MAX_NUMBER + 1)]
    for t in pool:
        by_number[min(t.number, MAX_NUMBER)].append(t)
    out = []
    m = a = 0.0
    syms: dict[str, float] = {}
    for bucket in by_number:
        for t in bucket:
            m += t.majority
            a += t.all_
            for c in t.symbols:
                syms[c] = syms.get(c, 0.0) + 1.0
        out.append((m / size, a / size, {c: v / size for c, v in syms.items()}))
    return out


def _card(code: str) -> str:
    return next(c for c, k in CODE_OF.items() if k == code)


def _distances(nbrs: tuple[tuple[int, ...], ...], start: int) -> list[int]:
    dist = [99] * len(nbrs)
    dist[start] = 0
    todo = deque([start])
    while todo:
        r = todo.popleft()
        for o in nbrs[r]:
            if dist[o] > dist[r] + 1:
                dist[o] = dist[r] + 1
                todo.append(o)
    return dist


class RattusHeuristicBot:
    """Rules of thumb; deterministic but for ties, broken by its seeded generator."""

    kind = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: RattusView) -> Move:
        space = view.legal()
        if len(space) == 1:
            return space[0]
        scored = self.score_moves(view, space)
        best = max(v for v, _ in scored)
        top = [m for v, m in scored if v >= best - 1e-9]
        return top[self.rng.randrange(len(top))]

    def score_moves(self, view: RattusView, space: list[Move]) -> list[tuple[float, Move]]:
        """Every legal move with the heuristic's value (higher is better)."""
        ctx = _Ctx(view)
        d = view.decision
        assert d is not None
        return [(self._value(ctx, d.kind, m), m) for m in space]

    def _value(self, ctx: _Ctx, kind: Kind, m: Move) -> float:
        seat = ctx.seat
        view = ctx.view
        if isinstance(m, StartPlace):
            a, b = (ctx.index[r] for r in m.regions)
            same = 0.3 if a == b else 0.0
            return -ctx.threat(a) - ctx.threat(b) - same
        if isinstance(m, Take):
            return self._card_value(ctx, m.card)
        if isinstance(m, Place):
            v = 0.0
            cnt = 0
            if m.region is not None:
                r = ctx.index[m.region]
                cnt = min(ctx.counts[r], view.supply[seat])
                after = list(ctx.cubes[r])
                after[seat] += cnt
                lost = ctx.loss(r, after)[seat] * ctx.threat(r)
                v += 1.0 + 0.1 * cnt - lost
            if m.extra is not None:
                e = ctx.index[m.extra]
                v += 1.2 - 0.4 * ctx.counts[e] * ctx.threat(e)
                cnt += 1
            if kind is Kind.TURN and cnt >= view.supply[seat]:
                v += ctx.ending_value(cnt)  # all our cubes out: the game may end (b)
            return v
        if isinstance(m, King):
            return 2.0
        if isinstance(m, Merchant):
            s, t = ctx.index[m.source], ctx.index[m.target]
            here = ctx.loss(s, ctx.cubes[s])[seat] * ctx.threat(s)
            there_cubes = list(ctx.cubes[t])
            there_cubes[seat] += m.count
            there = ctx.loss(t, there_cubes)[seat] * ctx.threat(t)
            return (here - there) * min(1.0, m.count / max(1, ctx.cubes[s][seat])) - 0.2
        if isinstance(m, Monk):
            s, t = ctx.index[m.source], ctx.index[m.target]
            mine_s = ctx.cubes[s][seat] / max(1, sum(ctx.cubes[s]))
            mine_t = ctx.cubes[t][seat] / max(1, sum(ctx.cubes[t]))
            return (mine_s - mine_t) * (sum(ctx.cubes[t]) > 0) - 0.2
        if isinstance(m, Witch):
            return -0.5
        if isinstance(m, Swap):
            return 0.0 if not m.swap else -0.1
        if isinstance(m, Plague):
            t = ctx.index[m.to]
            v = ctx.harm(t, 2 if m.knight else 0)
            if m.via is not None:
                v -= 0.05
            if kind is Kind.TURN and view.spread_ends_game(t):
                v += ctx.ending_value()  # the spread takes the last token: the game ends (a)
            return v
        if isinstance(m, Spread):
            v = 0.0
            for name in m.regions:
                r = ctx.index[name]
                others = sum(ctx.cubes[r]) - ctx.cubes[r][seat]
                v += 0.3 * others - 1.0 * ctx.cubes[r][seat]
            return v
        if isinstance(m, TurnUp):
            assert ctx.view.decision is not None and ctx.view.decision.region is not None
            r = ctx.view.decision.region
            tok = ctx.view.tokens(r)[m.slot - 1]
            if tok is not None:
                return self._token_harm(ctx, r, tok)
            pool = ctx.by_ring[ctx.view.rings(r)[m.slot - 1]]  # the ring tells the pool
            return sum(self._token_harm(ctx, r, t) for t in pool) / max(1, len(pool))
        if isinstance(m, Done):
            return 0.0
        return 0.0

    def _token_harm(self, ctx: _Ctx, r: int, tok: Token) -> float:
        cubes = ctx.cubes[r]
        if sum(cubes) < tok.number:
            return 0.0
        top = max(cubes)
        v = 0.0
        for s in range(ctx.n):
            if cubes[s] == 0:
                continue
            hit = (tok.majority and cubes[s] == top) + tok.all_
            hit += sum(ctx.holders[_card(c)] == s for c in tok.symbols)
            v += -ctx.own_weight * hit if s == ctx.seat else hit
        return v

    def _card_value(self, ctx: _Ctx, card: str) -> float:
        """What holding ``card`` is worth against the cubes its symbol puts at risk."""
        seat = ctx.seat
        code = CODE_OF[card]
        freq = sum(code in t.symbols for t in ctx.pool) / max(1, len(ctx.pool))
        exposure = sum(
            ctx.counts[r] * ctx.threat(r) for r in range(ctx.k) if ctx.cubes[r][seat] > 0
        )
        value = CARD_VALUE[card]
        if card == "King" and not any(
            ctx.cubes[r][seat] and not ctx.counts[r] for r in range(ctx.k)
        ):
            value *= 0.5
        holder = ctx.holders[card]
        if holder is not None and holder != seat:
            value += 0.2  # it also stops a rival using it
        return value - 2.5 * freq * exposure - 0.3


class RattusSearchBot:
    """Determinized UCB search over the seat's own candidate moves, heuristic play-outs.

    Budget per decision: ``iterations`` (deterministic, for tests) and/or ``seconds``."""

    kind = "search"

    def __init__(
        self,
        seed: int | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
        top_k: int = 6,
    ) -> None:
        self.rng = random.Random(seed)
        if seconds is None and iterations is None:
            seconds = 0.8
        self.seconds = seconds
        self.iterations = iterations
        self.top_k = top_k
        self.policy = RattusHeuristicBot(self.rng.randrange(1 << 30))
        self.last_iterations = 0
        self.last_stats: list[tuple[Move, int, float]] = []

    def candidates(self, view: RattusView) -> list[Move]:
        space = view.legal()
        scored = sorted(self.policy.score_moves(view, space), key=lambda x: -x[0])
        d = view.decision
        assert d is not None
        if d.kind in (Kind.SWAP, Kind.TURN_UP):
            return [m for _, m in scored]
        out: list[Move] = []
        # The best few of each kind of move (placing, moving the plague, taking a card...).
        per_kind: dict[type, int] = {}
        for _, m in scored:
            t = type(m)
            if per_kind.get(t, 0) < (3 if t in (Place, Plague, StartPlace, Spread) else 1):
                per_kind[t] = per_kind.get(t, 0) + 1
                out.append(m)
        return out[: self.top_k + 4]

    def choose(self, view: RattusView) -> Move:
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
                    key=lambda j: total[j] / visits[j] + 0.5 * math.sqrt(log_n / visits[j]),
                )
            game, table = determinize(view, self.rng)
            game.apply(seat, cands[i])
            views = [RattusView(game, s) for s in range(game.n)]
            while not game.is_over:
                dd = game.decision
                if dd is None:
                    table.answer(game)
                    continue
                game.apply(dd.player, self.policy.choose(views[dd.player]))
            r = game.result
            assert r is not None
            totals = r.totals
            best_other = max(totals[s] for s in range(game.n) if s != seat)
            margin = min(1.0, max(0.0, 0.5 + (totals[seat] - best_other) / 20.0))
            reward = 0.7 * (r.winner == seat) + 0.3 * margin
            visits[i] += 1
            total[i] += reward
        self.last_iterations = it
        self.last_stats = list(zip(cands, visits, total, strict=True))
        best = max(range(k), key=lambda j: (visits[j], total[j] / max(1, visits[j])))
        return cands[best]


RATTUS_BOTS = ("random", "heuristic", "search")

RattusBot = RattusRandomBot | RattusHeuristicBot | RattusSearchBot


def make_rattus_bot(
    kind: str,
    seed: int | None = None,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> RattusBot:
    """A Rattus bot of ``kind`` (one of ``RATTUS_BOTS``) with its own seeded randomness."""
    if kind == "random":
        return RattusRandomBot(seed)
    if kind == "heuristic":
        return RattusHeuristicBot(seed)
    if kind == "search":
        return RattusSearchBot(seed, seconds=seconds, iterations=iterations)
    raise ValueError(f"unknown bot {kind!r}; choose one of {', '.join(RATTUS_BOTS)}")
