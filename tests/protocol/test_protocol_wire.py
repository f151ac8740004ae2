from __future__ import annotations

import contextlib

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import wire
from protocol.errors import DecodeError, LocalProtocolError

SMALL = wire.Limits(
    max_size=4096, max_depth=4, max_array_len=8, max_map_len=8, max_bin_len=64, max_str_len=64
)


def test_round_trip_and_canonical_key_order() -> None:
    value = {
        "b": [1, -2, 2**64 - 1, -(2**63)],
        "a": {"z": b"\x00\xff", "y": None, "x": True},
        "c": "é",
    }
    data = wire.encode_value(value)
    assert wire.decode_value(data) == value
    reordered = dict(reversed(list(value.items())))
    assert wire.encode_value(reordered) == data
    assert wire.encode_value((1, 2)) == wire.encode_value([1, 2])


def test_message_envelope_round_trip() -> None:
    data = wire.encode_message("shuffle", {"deck": [b"x" * 64], "n": 3})
    msg = wire.decode_message(data, peer="alice")
    assert msg == wire.Message("shuffle", {"deck": [b"x" * 64], "n": 3}, wire.MESSAGE_VERSION)


@pytest.mark.parametrize(
    "value",
    [
        1.5,
        {1: 2},
        {b"k": 1},
        {"k": {1, 2}},
        2**64,
        -(2**63) - 1,
        object(),
        [[[[[1]]]]],
        "x" * 65,
        b"x" * 65,
        list(range(9)),
    ],
)
def test_encode_rejects_invalid_values(value: object) -> None:
    with pytest.raises(LocalProtocolError):
        wire.encode_value(value, SMALL)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"", "empty"),
        (b"\x92\x01", "truncated"),
        (b"\x01\x02", "trailing"),
        (msgpack.packb(1.5), "float"),
        (msgpack.packb(msgpack.ExtType(5, b"abc")), "ext"),
        (b"\xd6\xff\x00\x00\x00\x00", "timestamp ext"),
        (msgpack.packb({1: 2}), "int key"),
        (msgpack.packb({b"k": 2}, use_bin_type=True), "bin key"),
        (b"\x82\xa1b\x01\xa1a\x02", "unsorted keys"),
        (b"\x82\xa1a\x01\xa1a\x02", "duplicate keys"),
        (b"\xd0\x01", "non-minimal int"),
        (b"\xd9\x01a", "non-minimal str"),
        (b"\xa1\xff", "invalid utf-8"),
        (b"\xc1", "reserved byte"),
        (b"\xdd\xff\xff\xff\xff", "huge array header"),
        (b"\xc6\xff\xff\xff\xff", "huge bin header"),
        (b"\xdb\xff\xff\xff\xff", "huge str header"),
        (b"\xdf\xff\xff\xff\xff", "huge map header"),
        (b"\x91" * 100_000 + b"\xc0", "deep nesting"),
        (b"\x91" * 17 + b"\xc0", "nesting over limit"),
        (b"\xc0" * (2 << 20), "over max size"),
    ],
)
def test_decode_rejects(data: bytes, why: str) -> None:
    with pytest.raises(DecodeError) as info:
        wire.decode_value(data, peer="mallory")
    assert info.value.peer == "mallory"


def test_decode_applies_custom_limits() -> None:
    ok = wire.encode_value([b"x" * 64])
    assert wire.decode_value(ok, SMALL) == [b"x" * 64]
    for value in (
        [b"x" * 65],
        ["y" * 65],
        list(range(9)),
        {str(i): i for i in range(9)},
        [[[[[1]]]]],
    ):
        with pytest.raises(DecodeError):
            wire.decode_value(wire.encode_value(value), SMALL)


@pytest.mark.parametrize(
    "value",
    [
        [],
        {"v": wire.MESSAGE_VERSION, "k": "x"},
        {"v": wire.MESSAGE_VERSION + 1, "k": "x", "b": {}},
        {"v": 1, "k": "x", "b": {}},  # former versions
        {"v": 2, "k": "x", "b": {}},
        {"v": True, "k": "x", "b": {}},
        {"v": wire.MESSAGE_VERSION, "k": "", "b": {}},
        {"v": wire.MESSAGE_VERSION, "k": 3, "b": {}},
        {"v": wire.MESSAGE_VERSION, "k": "x", "b": []},
        {"v": wire.MESSAGE_VERSION, "k": "x", "b": {}, "z": 0},
    ],
)
def test_decode_message_rejects_bad_envelopes(value: wire.WireValue) -> None:
    with pytest.raises(DecodeError):
        wire.decode_message(wire.encode_value(value), peer="p")


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=512))
def test_fuzz_arbitrary_bytes_only_decode_error(data: bytes) -> None:
    try:
        value = wire.decode_value(data)
    except DecodeError:
        return
    assert wire.encode_value(value) == data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=256))
def test_fuzz_messages_only_decode_error(data: bytes) -> None:
    with contextlib.suppress(DecodeError):
        wire.decode_message(data)


_hostile_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=True)
    | st.text(max_size=80)
    | st.binary(max_size=80)
    | st.builds(msgpack.ExtType, st.integers(0, 127), st.binary(max_size=8))
)
_hostile = st.recursive(
    _hostile_leaves,
    lambda children: (
        st.lists(children, max_size=10)
        | st.dictionaries(
            st.text(max_size=4) | st.integers(0, 5) | st.binary(max_size=3), children, max_size=10
        )
    ),
    max_leaves=60,
)


@settings(max_examples=150, deadline=None)
@given(_hostile)
def test_fuzz_structured_hostile_msgpack(value: object) -> None:
    data = msgpack.packb(value, use_bin_type=True, strict_types=False)
    try:
        decoded = wire.decode_value(data, SMALL)
    except DecodeError:
        return
    # Whatever is accepted is a valid, canonical wire value within the limits.
    assert wire.encode_value(decoded, SMALL) == data


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=64), st.sampled_from([b"\x91", b"\x81\xa0"]))
def test_fuzz_nesting_depth(depth: int, opener: bytes) -> None:
    data = opener * depth + b"\xc0"
    if depth <= SMALL.max_depth:
        wire.decode_value(data, SMALL)
    else:
        with pytest.raises(DecodeError):
            wire.decode_value(data, SMALL)


def test_take_and_decline_have_a_wire_form() -> None:
    from protocol.messages import move_from_wire, move_to_wire
    from rattus_net.games.cartus.moves import DeclineAction, TakeAction
    from rattus_net.kit.registry import get_game

    cartus = get_game("cartus").secure()
    for move in (TakeAction(), DeclineAction()):
        assert move_from_wire(move_to_wire(move, None, cartus), "p", cartus) == (move, None)
    with pytest.raises(DecodeError, match="malformed 'take' move"):
        move_from_wire({"t": "take", "x": 1}, "p", cartus)


def test_a_version_3_message_still_reads() -> None:
    """Protocol version 4 changed only the links' tags: messages still say version 3, so a
    record or journal of before reads as it was, bytes and all (its signature still holds)."""
    assert wire.MESSAGE_VERSION == 3 and wire.PROTOCOL_VERSION == 4
    data = wire.encode_value({"v": 3, "k": "shuffle", "b": {"n": 3}})
    assert wire.decode_message(data) == wire.Message("shuffle", {"n": 3}, 3)
