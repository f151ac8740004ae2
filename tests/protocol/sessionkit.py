"""What the session tests share: seeded Rattus Cartus tables over an in-memory network, whole
games played on them (with the local game of the same seed beside), and the tools of the
cheater tests (a message re-signed by its cheating author, the kind of a frame, the blame)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from protocol.memnet import MemoryNetwork
from protocol.messages import (
    SIG_DOMAIN,
)
from protocol.params import GameParams, PeerSecrets
from protocol.seeded import SeededChance, seeded_params
from protocol.session import PeerFault
from protocol.wire import WireValue, decode_message, encode_message
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Move
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end


def random_chooser(n: int, seed: int) -> Callable[[Game, int], Move]:
    rngs = [random.Random(seed * 101 + s) for s in range(n)]

    def choose(game: Game, seat: int) -> Move:
        space = legal_choices(game, seat)
        return space[rngs[seat].randrange(len(space))]

    return choose


def table(n: int, seed: int, simultaneous: bool = False) -> tuple[GameParams, list[PeerSecrets]]:
    config = GameConfig(GameConfig.default_names(n), BuildingSelection.random_cards(), simultaneous)
    return seeded_params(config, seed, "cartus")


def public_state(g: Game) -> tuple[object, ...]:
    return (
        g.round,
        g.phase,
        g.start_player,
        tuple(g.rats),
        tuple(g.vp),
        tuple(tuple(r) for r in g.influence),
        tuple(g.hand_size(s) for s in range(g.n)),
        tuple(g.row),
        tuple(g.deck),
        tuple(g.discard),
        g.pending if g.decision is not None else None,
    )


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


def resign(
    frame: bytes, secrets: PeerSecrets, change: Callable[[str, dict[str, WireValue]], str]
) -> bytes:
    """Decode a frame, let ``change`` edit its body (and maybe return a new kind), sign again
    with the author's key: a message the cheater really signed."""
    outer = decode_message(frame)
    inner = outer.body["m"]
    assert isinstance(inner, bytes)
    msg = decode_message(inner)
    body = dict(msg.body)
    kind = change(msg.kind, body)
    new_inner = encode_message(kind, body)
    sig = secrets.identity().sign(SIG_DOMAIN + new_inner)
    return encode_message("signed", {"m": new_inner, "s": sig})


def kind_of(frame: bytes) -> str:
    inner = decode_message(frame).body["m"]
    assert isinstance(inner, bytes)
    return decode_message(inner).kind


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
