"""What the TUI shows a player back at a network table after the others left: nobody of the
game online (no claim against anybody, the game kept), and the end screen as soon as the
record is written while the node still answers the others (issue 15)."""

from __future__ import annotations

import asyncio
import hashlib
import time
from pathlib import Path

from recordkit import table

from rattus_net.net.netgame import NetworkGame
from rattus_net.net.node import PeerNode
from rattus_net.net.seats import Outcome, Setup


def _resumed(tmp_path: Path) -> PeerNode:
    params, _ = table(3, 13)
    master = hashlib.sha256(b"rattus-net/v1/selfplay/13/1").digest()
    setup = Setup(params, 1, master, (("127.0.0.1", 1),) * 3, bot="human")
    PeerNode.create(setup, tmp_path).journal.close()
    return PeerNode.load(setup.game_id, tmp_path, stall_timeout=300.0)


def test_a_player_back_with_nobody_online_is_told_and_nothing_is_recorded(
    tmp_path: Path,
) -> None:
    node = _resumed(tmp_path)

    async def look() -> tuple[str, str, bool]:
        game = NetworkGame(node)
        node.comeback.since = time.monotonic() - 20.0
        game.wait = game._wait_info()  # (as the node's thread does at every tick)
        waiting = game.waiting().text
        node.comeback.gave_up = True
        game.outcome = node._finish()
        return waiting, game.summary(), game.verify() is None

    waiting, summary, no_verdict = asyncio.run(look())
    assert "Nobody else of this game is online yet" in waiting
    assert "kept for later in 4:" in waiting and "w: wait longer" in waiting
    assert "could be reached" in summary and "nobody is blamed" in summary
    assert "Back to the network game" in summary
    assert no_verdict and not (node.dir / "record.rattusnet").exists()
    node.journal.close()


def test_the_end_screen_comes_with_the_record_while_the_node_answers_on(
    tmp_path: Path,
) -> None:
    node = _resumed(tmp_path)

    async def over() -> tuple[bool, bool]:
        game = NetworkGame(node)
        before = game.is_over
        node.outcome = Outcome(node.setup.game_id, node.dir / "record.rattusnet", False, "x")
        node.on_event("over", None, "")  # type: ignore[misc]
        return before, game.is_over and game.outcome is node.outcome

    before, after = asyncio.run(over())
    assert not before and after
    node.journal.close()
