"""Fuzzing a live session: random and mutated frames never raise anything but a
RemoteProtocolError, and never change the session's state."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.errors import RemoteProtocolError
from protocol.memnet import MemoryNetwork
from protocol.seeded import seeded_params
from protocol.session import Session
from rattus_net.games.cartus.config import BuildingSelection, GameConfig


@pytest.fixture(scope="module")
def live() -> tuple[MemoryNetwork, list[bytes]]:
    config = GameConfig(GameConfig.default_names(2), BuildingSelection.random_cards())
    params, secrets = seeded_params(config, 77, "cartus")
    net = MemoryNetwork(params, secrets)
    frames: list[bytes] = []
    for _ in range(40):  # into the game: hellos, randomness rounds
        if net.links:
            frames.append(net.links[0][2])
        net.deliver_one()
    return net, frames


def state(s: Session) -> tuple[object, ...]:
    return (
        len(s.transcript),
        s.th,
        tuple(s.seen),
        tuple(s._next_seq),
        tuple(len(q) for q in s._inbox),
        s.step.index if s.step else None,
        s.abort,
        len(s.public.log),
    )


def feed(s: Session, data: bytes, link: int | None) -> None:
    before = state(s)
    with contextlib.suppress(RemoteProtocolError):
        s.receive(data, 0.0, link=link)
    assert state(s) == before


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=300), link=st.sampled_from([None, 0]))
def test_random_bytes_into_a_session(
    live: tuple[MemoryNetwork, list[bytes]], data: bytes, link: int | None
) -> None:
    net, _ = live
    feed(net.peers[1], data, link)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    index=st.integers(min_value=0),
    pos=st.integers(min_value=0),
    value=st.integers(min_value=0, max_value=255),
    cut=st.booleans(),
)
def test_mutated_frames_into_a_session(
    live: tuple[MemoryNetwork, list[bytes]], index: int, pos: int, value: int, cut: bool
) -> None:
    net, frames = live
    frame = frames[index % len(frames)]
    bad = bytearray(frame)
    p = pos % len(bad)
    if cut:
        bad = bad[:p]
    else:
        if bad[p] == value:
            value ^= 1
        bad[p] = value
    feed(net.peers[1], bytes(bad), 0)
