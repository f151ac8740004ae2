"""Nibble's bots, one of each kind the kit offers: the kit's random bot, a careful one that
draws while a draw is likely safe, and the kit's information-set search on top of it (Nibble
supplies only the samples and the reward)."""

from __future__ import annotations

from games.thirdgame.game import CARDS, Move, NibbleGame
from games.thirdgame.view import NibbleView, determinize
from rattus_net.bots import bot_of_kind
from rattus_net.bots.ismcts import Ismcts
from rattus_net.bots.random import RandomBot
from rattus_net.kit.interface import NO_BUDGET, Bot, Budget
from rattus_net.kit.local import LocalTable


class CarefulBot:
    """Draws when at least half the cards it has not seen keep its hand within the limit."""

    kind = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # (it needs no chance: the same view, the same move)

    def choose(self, view: NibbleView) -> Move:
        if "draw" not in view.legal():
            return "pass"
        hand = view.hand
        unseen = [c for c in CARDS if c not in hand]
        room = view.limit - sum(hand)
        safe = sum(1 for c in unseen if c <= room)
        return "draw" if 2 * safe >= len(unseen) else "pass"


class SearchBot(Ismcts[NibbleView, Move, NibbleGame]):
    """The kit's search: samples of the hidden cards, careful play-outs, 1 for a win."""

    def make_policy(self, seed: int) -> CarefulBot:
        return CarefulBot(seed)

    def candidates(self, view: NibbleView) -> list[Move]:
        return view.legal()

    def determinize(self, view: NibbleView) -> tuple[NibbleGame, LocalTable]:
        return determinize(view, self.rng)

    def view(self, game: NibbleGame, seat: int) -> NibbleView:
        return NibbleView(game, seat)

    def reward(self, game: NibbleGame, seat: int) -> float:
        assert game.result is not None
        return 1.0 if seat in game.result.winners else 0.0


def make_bot(
    kind: str, seed: int | None = None, budget: Budget = NO_BUDGET
) -> Bot[NibbleView, Move]:
    """A bot of ``kind`` (one of the kit's ``BOT_KINDS``), seeded; ``budget`` bounds the
    search."""
    return bot_of_kind(kind, seed, budget, RandomBot[Move], CarefulBot, SearchBot)


__all__ = ["CarefulBot", "SearchBot", "make_bot"]
