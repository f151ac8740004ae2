"""Test helpers: honest secure-game records (cached) and ways to take them apart, change and
re-sign their frames, for the verdict tests and the tamper fuzzer."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

from protocol.memnet import MemoryNetwork
from protocol.messages import SIG_DOMAIN
from protocol.params import GameParams, PeerSecrets
from protocol.record import RECORD_LIMITS
from protocol.seeded import seeded_params
from protocol.wire import WireValue, decode_message, decode_value, encode_message, encode_value
from rattus_net.engine.choices import legal_choices
from rattus_net.engine.config import BuildingSelection, GameConfig
from rattus_net.engine.game import Game
from rattus_net.engine.moves import Move


def random_chooser(n: int, seed: int) -> Callable[[Game, int], Move]:
    rngs = [random.Random(seed * 101 + s) for s in range(n)]

    def choose(game: Game, seat: int) -> Move:
        space = legal_choices(game, seat)
        return space[rngs[seat].randrange(len(space))]

    return choose


def table(n: int, seed: int) -> tuple[GameParams, list[PeerSecrets]]:
    config = GameConfig(GameConfig.default_names(n), BuildingSelection.random_cards())
    return seeded_params(config, seed)


@lru_cache(maxsize=8)
def honest(n: int, seed: int) -> tuple[bytes, GameParams, tuple[PeerSecrets, ...]]:
    """The record of an honest, finished game (seat 0's copy), its table and secrets."""
    params, secrets = table(n, seed)
    net = MemoryNetwork(params, secrets)
    net.run(random_chooser(n, seed))
    assert all(p.finished for p in net.peers)
    return net.peers[0].record_bytes(), params, tuple(secrets)


def unpack(record: bytes) -> dict[str, WireValue]:
    value = decode_value(record, RECORD_LIMITS)
    assert isinstance(value, dict)
    return value


def messages(record: bytes) -> list[bytes]:
    msgs = unpack(record)["messages"]
    assert isinstance(msgs, list)
    return [m for m in msgs if isinstance(m, bytes)]


def pack(
    record: bytes, messages: list[bytes] | None = None, abort: bytes | bool | None = False
) -> bytes:
    """``record`` with its messages and/or abort replaced (``abort=False``: kept)."""
    value = unpack(record)
    if messages is not None:
        value["messages"] = list(messages)
    if abort is not False:
        value["abort"] = abort if isinstance(abort, bytes) else None
    return encode_value(value, RECORD_LIMITS)


def inner_of(frame: bytes) -> tuple[str, dict[str, WireValue]]:
    inner = decode_message(frame).body["m"]
    assert isinstance(inner, bytes)
    msg = decode_message(inner)
    return msg.kind, dict(msg.body)


def author(frame: bytes) -> int:
    a = inner_of(frame)[1]["a"]
    assert isinstance(a, int)
    return a


def sign_as(secrets: PeerSecrets, kind: str, body: dict[str, WireValue]) -> bytes:
    """A frame really signed by the seat whose secrets these are."""
    inner = encode_message(kind, body)
    sig = secrets.identity().sign(SIG_DOMAIN + inner)
    return encode_message("signed", {"m": inner, "s": sig})


def resign(
    frame: bytes, secrets: PeerSecrets, change: Callable[[str, dict[str, WireValue]], str]
) -> bytes:
    """``frame`` with its body edited by ``change`` (which returns the kind), signed again."""
    kind, body = inner_of(frame)
    kind = change(kind, body)
    return sign_as(secrets, kind, body)
