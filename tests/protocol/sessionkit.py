"""What the session tests share: seeded Rattus Cartus tables over an in-memory network, whole
games played on them (with the local game of the same seed beside), and the tools of the
cheater tests (a message re-signed by its cheating author, the kind of a frame, the blame)."""

from __future__ import annotations

from dataclasses import dataclass

from recordkit import random_chooser, table

from protocol.memnet import MemoryNetwork
from protocol.messages import OLD_KIND_NAMES
from protocol.params import GameParams, PeerSecrets
from protocol.seeded import SeededChance
from protocol.session import PeerFault
from protocol.wire import decode_message
from rattus_net.games.cartus.game import Game
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end


@dataclass
class Played:
    params: GameParams
    secrets: list[PeerSecrets]
    net: MemoryNetwork
    record: bytes
    local: Game
    local_table: LocalTable


def play(n: int, seed: int, simultaneous: bool = False) -> Played:
    params, secrets = table(n, seed, simultaneous)
    net = MemoryNetwork(params, secrets)
    net.run(random_chooser(n, seed))
    local = Game(params.config)
    ltable = LocalTable(seed, chance_source=SeededChance(params, secrets))
    play_to_end(local, ltable, random_chooser(n, seed))
    return Played(params, secrets, net, net.peers[0].record_bytes(), local, ltable)


def kind_of(frame: bytes) -> str:
    """The kind of a signed frame, by its name now (the wire may say an old one)."""
    inner = decode_message(frame).body["m"]
    assert isinstance(inner, bytes)
    kind = decode_message(inner).kind
    return OLD_KIND_NAMES.get(kind, kind)


def setup_net(
    n: int = 3, seed: int = 21, simultaneous: bool = False
) -> tuple[MemoryNetwork, list[PeerSecrets]]:
    params, secrets = table(n, seed, simultaneous)
    net = MemoryNetwork(params, secrets, timeout=5.0)
    net.keep_going = True
    return net, secrets


def assert_blamed(net: MemoryNetwork, cheater: int, honest: list[int]) -> None:
    for s in honest:
        peer = net.peers[s]
        assert peer.abort is not None, f"seat {s} did not abort"
        assert peer.abort.blamed == cheater, peer.abort
    assert any(isinstance(e, PeerFault) and e.seat == cheater for _, e in net.errors) or all(
        net.peers[s].abort is not None for s in honest
    )
