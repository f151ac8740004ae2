"""The framing scenario of issue 23, built over the in-memory network: a peer whose journal was
rolled back comes back, and a malicious peer sends it a second, different (valid) version of
a message it had sent before.

Seats: 0 honest, 1 the resumed peer, 2 the equivocator. Seat 2's shuffle of the population
deck (the last stage) is what it sends again otherwise: the same header (sequence number,
chain, step, transcript hash, view) with another permutation and masking, validly proven and
signed. Seat 1's next message (its decryption shares for the deal) depends on that shuffle, so
a resumed seat 1 that answered the second version at once would sign a second, different
message for a sequence number it had used, and seat 0, holding the first one, would hold the
proof of an "equivocation" naming the honest seat 1.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from recordkit import random_chooser, table

from protocol.memnet import MemoryNetwork
from protocol.messages import SHUFFLE, open_frame
from protocol.params import GameParams, PeerSecrets
from protocol.session import Session

HONEST, RESUMED, LIAR = 0, 1, 2


@dataclass
class Framing:
    params: GameParams
    secrets: list[PeerSecrets]
    net: MemoryNetwork
    inputs: list[tuple[int, bytes]]
    """What seat 1 received before the liar's shuffle: its journal, rolled back."""
    first: bytes
    """The liar's shuffle, as everybody received it."""
    second: bytes
    """Another version of it, for the resumed seat 1 only."""
    sent_to: dict[int, list[bytes]]
    """Seat 1's frames as each other seat received them (what they hold, in order)."""

    def kind(self, frame: bytes) -> str:
        p = self.params
        return open_frame(frame, p.game_id(), p.identities, p.players).kind

    def resumed(self) -> Session:
        """Seat 1 rebuilt from its rolled-back journal (every input before the first
        version of the liar's shuffle): it regenerates what it had sent up to there."""
        session = Session(self.params, RESUMED, self.secrets[RESUMED])
        for link, frame in self.inputs:
            session.receive(frame, 0.0, link=link)
        return session


def framing(seed: int = 31) -> Framing:
    """Play seat 0's table in memory past the deal, keeping what the scenario needs."""
    params, secrets = table(3, seed)
    net = MemoryNetwork(params, secrets)
    inputs: list[tuple[int, bytes]] = []
    sent_to: dict[int, list[bytes]] = {HONEST: [], LIAR: []}
    first = second = b""
    kind_of = Framing(params, secrets, net, [], b"", b"", {}).kind
    while net.links:
        sender, receiver, frame = net.links[0]
        before = copy.deepcopy(net.peers[LIAR]) if receiver == LIAR and not first else None
        net.deliver_one()
        if sender == RESUMED:
            sent_to[receiver].append(frame)
        if receiver == RESUMED and not first:
            inputs.append((sender, frame))
        if before is None:
            continue
        made = [f for s, _, f in net.links if s == LIAR and kind_of(f) == SHUFFLE]
        if made:  # the liar's shuffle: made again from the same state, other randomness
            first = made[0]
            before._secrets = PeerSecrets(b"\x02" * 32)  # (its shuffle stream only)
            before.receive(frame, 0.0, link=sender)
            second = next(f for f in before.take_outgoing() if kind_of(f) == SHUFFLE)
    assert first and second and first != second
    if inputs and inputs[-1][1] == first:
        inputs.pop()  # (the journal ends before the liar's shuffle)
    choose = random_chooser(3, seed)
    while any(p.needs_decision for p in net.peers) and len(sent_to[HONEST]) < 40:
        seat = next(s for s, p in enumerate(net.peers) if p.needs_decision)
        game = net.peers[seat].game
        assert game is not None
        net.peers[seat].decide(choose(game, seat), net.now)
        net._collect()
        while net.links:
            sender, receiver, frame = net.links[0]
            net.deliver_one()
            if sender == RESUMED:
                sent_to[receiver].append(frame)
    return Framing(params, secrets, net, inputs, first, second, sent_to)
