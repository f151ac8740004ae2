"""A seat at a Rattus network table without a network: a stand-in node whose session holds a
fixed, seeded Rattus game, behind the real :class:`~rattus_net.net.netgame.NetworkGame`. The
map screen, its waiting line and its words are then the real ones, and their pictures do not
depend on keys, timing or bots (the tests that play real tables are in
``test_tui_rattus_net.py``)."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace
from typing import Any

from tui_helpers import rattus_table

from protocol.messages import MOVE
from rattus_net.games.rattus.game import Phase, RattusGame
from rattus_net.games.rattus.rules import legal
from rattus_net.kit.undo import TurnSteps
from rattus_net.net.netgame import NetworkGame


def rattus_game_at(players: int = 3, seed: int = 1, to_act: int = 1, turns: int = 4) -> RattusGame:
    """A seeded game in play after about ``turns`` turns, where seat ``to_act`` must decide
    (every move random but seeded)."""
    c = rattus_table(players, seed, advance=False)
    game, table, rng = c.game, c.table, random.Random(seed)
    while not game.is_over:
        d = game.decision
        if d is None:
            table.answer(game)
            continue
        started = sum(1 for e in game.log if e.kind == "turn")
        if game.phase is Phase.PLAY and d.player == to_act and started >= turns:
            return game
        moves = legal(game, d.player)
        game.apply(d.player, moves[rng.randrange(len(moves))])
    raise AssertionError("the game ended before the decision sought")


class StandInSession(SimpleNamespace):
    def _has_message(self, seat: int, step: int) -> bool:
        return seat not in self.step.senders


def stand_in_game(
    game: RattusGame, seat: int = 0, *, away: tuple[int, ...] = (), stall_left: float = 0.0
) -> NetworkGame:
    """The real driver over a node that holds ``game`` and waits for the move of the seat
    whose decision it is (``away``: seats not connected, ``stall_left`` seconds before the
    first of them is blamed)."""
    d = game.decision
    assert d is not None
    names = game.config.players
    n = len(names)
    step = SimpleNamespace(
        kind=MOVE, senders=(d.player,), index=9, started=time.monotonic() + 1e6, info=None
    )
    session = StandInSession(
        finished=False, abort=None, step=step, game=game, public=SimpleNamespace(log=[])
    )
    node: Any = SimpleNamespace(
        seat=seat,
        names=names,
        n=n,
        session=session,
        mesh=SimpleNamespace(links={p: None for p in range(n) if p != seat and p not in away}),
        comeback=SimpleNamespace(resumed=False),
        choose_async=None,
        on_event=None,
        stall_timeout=300.0,
        setup=SimpleNamespace(params=SimpleNamespace(game="rattus"), game_id="ab" * 32),
        stall_left=lambda p: stall_left,
        chat=SimpleNamespace(said=(), on_change=None),  # (nobody chats)
        turn=SimpleNamespace(shown=lambda g: g, steps=TurnSteps(seat)),  # (no step held)
    )
    net = NetworkGame(node)
    net._event("progress", None, "")  # (the waiting line, as the node's tick refreshes it)
    return net
