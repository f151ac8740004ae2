"""Session.recover_decision: a resumed peer whose journal lost a decision it had sent finds,
from the signed frame another peer holds, the very move it made (so that deciding it again
signs the same bytes), and refuses any frame that is not its own message for this step."""

from __future__ import annotations

import pytest
from recordkit import random_chooser

from protocol.memnet import MemoryNetwork
from protocol.messages import COMMIT_MOVES, MOVE
from protocol.seeded import seeded_params
from protocol.session import Session
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.moves import Move


def replay(net: MemoryNetwork, inputs: list[tuple[bytes, int] | Move]) -> Session:
    """Seat 0's session rebuilt from its inputs (what a node's journal holds)."""
    s = Session(net.params, 0, net.peers[0]._secrets)
    for item in inputs:
        if isinstance(item, tuple):
            s.receive(item[0], 0.0, link=item[1])
        else:
            s.decide(item, 0.0)
    s.take_outgoing()
    return s


@pytest.mark.parametrize("kind", [MOVE, COMMIT_MOVES])
def test_a_lost_decision_is_recovered_from_its_signed_frame(kind: str) -> None:
    config = GameConfig(
        GameConfig.default_names(2), BuildingSelection.random_cards(), kind == COMMIT_MOVES
    )
    params, secrets = seeded_params(config, 5, "cartus")
    net = MemoryNetwork(params, secrets)
    inputs: list[tuple[bytes, int] | Move] = []
    mine: list[bytes] = []  # seat 0's frames, as seat 1 received them
    choose = random_chooser(2, 5)
    decided = 0
    while True:
        if net.links:
            sender, receiver, frame = net.links[0]
            if receiver == 0:
                inputs.append((frame, sender))
            elif sender == 0:
                mine.append(frame)
            net.deliver_one()
            continue
        seat = next(s for s, p in enumerate(net.peers) if p.needs_decision)
        peer = net.peers[seat]
        assert peer.game is not None and peer.step is not None
        move = choose(peer.game, seat)
        if seat == 0 and decided >= 2 and peer.step.kind == kind:
            break
        peer.decide(move, net.now)
        net._collect()
        if seat == 0:
            inputs.append(move)
            decided += 1
    peer = net.peers[0]
    peer.decide(move, net.now)
    sent = peer.take_outgoing()[0]  # the frame the others hold; the journal lost the move

    resumed = replay(net, inputs)
    assert resumed.needs_decision
    assert resumed.game is not None
    # Not ours for this step: another seat's message, or one of our earlier messages.
    other = next(f for f, s in (i for i in inputs if isinstance(i, tuple)) if s == 1)
    assert resumed.recover_decision(other, legal_choices(resumed.game, 0)) is None
    assert resumed.recover_decision(mine[-1], legal_choices(resumed.game, 0)) is None
    tampered = bytearray(sent)
    tampered[-1] ^= 1  # the signature no longer holds
    assert resumed.recover_decision(bytes(tampered), legal_choices(resumed.game, 0)) is None

    found = resumed.recover_decision(sent, legal_choices(resumed.game, 0))
    assert found == move
    resumed.decide(found, 0.0)
    assert resumed.take_outgoing()[0] == sent  # the same signed bytes: no equivocation
