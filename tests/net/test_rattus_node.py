"""The peer node takes its game from the parameters: two Rattus peer nodes in one process over
loopback play a whole game with Rattus bots, journal Rattus moves, write the game into their
meta.json and end with identical records the verifier calls fair; a node loaded again from its
journal replays the same Rattus moves to the same state."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from protocol.params import GameParams, PeerSecrets
from protocol.verify import verify_record
from rattus_net.bots.random import RandomBot
from rattus_net.games.rattus.game import RattusConfig
from rattus_net.games.rattus.loader import default_components
from rattus_net.games.rattus.moves import parse_move
from rattus_net.net.node import PeerNode
from rattus_net.net.persist import Journal, game_of
from rattus_net.net.seats import Outcome, Setup

from .loopback import listeners_for


async def _play(tmp_path: Path, params: GameParams, masters: list[bytes]) -> list[Outcome]:
    nodes: dict[int, PeerNode] = {}
    listeners, addresses = await listeners_for(nodes, 2)
    for seat in range(2):
        setup = Setup(params, seat, masters[seat], addresses, "T", "random", 7 + seat)
        nodes[seat] = PeerNode.create(setup, tmp_path / f"seat{seat}", linger=1.0)
    runs = [asyncio.ensure_future(nodes[s].run(listeners[s])) for s in range(2)]
    return list(await asyncio.wait_for(asyncio.gather(*runs), 120))


def test_two_rattus_nodes_play_a_whole_game(tmp_path: Path) -> None:
    masters = [os.urandom(32) for _ in range(2)]
    identities = tuple(PeerSecrets(m).identity().public for m in masters)
    config = RattusConfig(("Ann", "Bob"), default_components())
    params = GameParams(config, identities, os.urandom(32), "rattus")
    outcomes = asyncio.run(_play(tmp_path, params, masters))

    assert all(o.finished and o.abort is None for o in outcomes), outcomes
    records = [o.record.read_bytes() for o in outcomes]
    assert records[0] == records[1]
    verdict = verify_record(records[0])
    assert verdict.fair, verdict.reason
    from rattus_net.kit.registry import get_game
    from rattus_net.replays import signed_replay

    won = get_game("rattus").outcome(signed_replay(records[0]).steps[-1].state)
    assert won is not None
    for o in outcomes:
        meta = json.loads((o.record.parent / "meta.json").read_text())
        assert meta["game"] == "rattus" and game_of(meta) == "rattus"
        assert meta["status"] == "finished"
        assert meta["winners"] == list(won.winners)  # (the list of recent games names them)

    # The journal holds Rattus moves in their text form, and a node loaded from it replays
    # them (the same session state: finished, the same record).
    directory = outcomes[0].record.parent
    with Journal.open(directory / "journal.bin", lock=False) as journal:
        moves = [r[1] for r in journal.records[1:] if isinstance(r, list) and r[0] == "d"]
    assert moves and all(parse_move(text) is not None for text in moves)
    node = PeerNode.load(params.game_id().hex(), tmp_path / "seat0")
    try:
        assert node.session.finished
        assert isinstance(node.bot, RandomBot)
        assert node.session.record_bytes() == records[0]
    finally:
        node.journal.close()
