"""Information-set Monte Carlo search, for any game: a game supplies the rest.

For each decision the bot samples, per iteration, a full game consistent with its own view (a
*determinization*: every face the seat does not know dealt again from the faces it cannot
rule out), picks one of its candidate moves with UCB1, plays it in the sample and lets a fast
policy (the game's heuristic bot) finish the game, or play on for a few rounds before a static
evaluation. Statistics are kept on the seat's own root moves only, across all samples, so no
sample's hidden faces can steer the choice more than any other.

A game supplies: the bounded set of candidate moves (so that the budget is not spread over
thousands of combinations), the determinization (a sample and a table that knows its faces),
the playout policy and seat views, and the reward of a finished sample in [0, 1] (and, with a
``horizon``, the static evaluation of an unfinished one).

Budget: ``iterations`` (deterministic, used by tests) and/or ``seconds`` (wall time, the
default 0.8 s keeps every answer within a second on a small machine).
"""

from __future__ import annotations

import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from rattus_net.kit.interface import Bot, GameState, Table
from rattus_net.kit.play import settle

DEFAULT_SECONDS = 0.8
UCB_C = 0.5

M = TypeVar("M")
S = TypeVar("S", bound=GameState[Any])


class SeatView(Protocol):
    """What the search reads of a seat's view itself (the game's policy reads the rest)."""

    @property
    def seat(self) -> int: ...

    def legal(self) -> Sequence[Any]: ...


V = TypeVar("V", bound=SeatView)


class Ismcts(ABC, Generic[V, M, S]):
    """Determinized UCB search on the seat's own moves with policy play-outs."""

    kind = "search"

    def __init__(
        self,
        seed: int | None = None,
        seconds: float | None = None,
        iterations: int | None = None,
        horizon: int | None = None,
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
        self.policy = self.make_policy(self.rng.randrange(1 << 30))
        self.last_iterations = 0
        # (move, visits, total reward) of the last search, for tests and tuning
        self.last_stats: list[tuple[M, int, float]] = []

    # --- what a game supplies ---------------------------------------------------------------

    @abstractmethod
    def make_policy(self, seed: int) -> Bot[V, M]:
        """The fast bot that finishes the samples (and may help choose the candidates)."""

    @abstractmethod
    def candidates(self, view: V) -> Sequence[M]:
        """The bounded set of root moves the search compares."""

    @abstractmethod
    def determinize(self, view: V) -> tuple[S, Table]:
        """A full game consistent with ``view`` (drawn with ``self.rng``) and a table that
        knows its faces."""

    @abstractmethod
    def view(self, game: S, seat: int) -> V:
        """What ``seat`` sees of a sample (for the policy)."""

    @abstractmethod
    def reward(self, game: S, seat: int) -> float:
        """The seat's reward in [0, 1] for a finished sample."""

    def round_of(self, game: S) -> int:
        """The round a sample is in (only asked with a ``horizon``)."""
        raise NotImplementedError

    def static_reward(self, game: S, seat: int) -> float:
        """The seat's reward in [0, 1] for a sample cut off at the horizon."""
        raise NotImplementedError

    # --- the search -------------------------------------------------------------------------

    def choose(self, view: V) -> M:
        space = view.legal()
        if len(space) == 1:
            move: M = space[0]  # (forced: played without a search)
            return move
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
            sample, table = self.determinize(view)
            sample.apply(seat, cands[i])
            reward = self._playout(sample, table, seat)
            visits[i] += 1
            total[i] += reward
        self.last_iterations = it
        self.last_stats = list(zip(cands, visits, total, strict=True))
        best = max(range(k), key=lambda j: (visits[j], total[j] / max(1, visits[j])))
        return cands[best]

    def _playout(self, game: S, table: Table, seat: int) -> float:
        """Finish the sample with the policy; the seat's reward in [0, 1]."""
        policy = self.policy
        stop = None if self.horizon is None else self.round_of(game) + self.horizon
        views = [self.view(game, s) for s in range(game.n)]
        while True:
            settle(game, table)
            if game.is_over:
                return self.reward(game, seat)
            if stop is not None and self.round_of(game) > stop:
                return self.static_reward(game, seat)
            s = game.to_act()[0]
            game.apply(s, policy.choose(views[s]))
