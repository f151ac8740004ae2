"""The signed record of a secure game: every changed byte fails verification, a cut record is
not fair, and records and parameters of other versions are refused in one line."""

from __future__ import annotations

import dataclasses
import random

import pytest
from recordkit import table
from sessionkit import Played, play

from protocol.errors import DecodeError
from protocol.params import GameParams
from protocol.record import RECORD_LIMITS, VERSION, RecordFormatError, decode_record
from protocol.session import Session
from protocol.verify import verify_record
from protocol.wire import decode_value, encode_value


@pytest.fixture(scope="module")
def two() -> Played:
    return play(2, 11)


# --- tampering with a record -----------------------------------------------------------------


def test_any_changed_byte_makes_verification_fail(two: Played) -> None:
    data = two.record
    rng = random.Random(5)
    positions = {0, 1, 5, len(data) // 2, len(data) - 1, len(data) - 40}
    positions |= {rng.randrange(len(data)) for _ in range(14)}
    for pos in sorted(positions):
        bad = bytearray(data)
        bad[pos] ^= 1 << rng.randrange(8)
        try:
            verdict = verify_record(bytes(bad))
        except RecordFormatError:
            continue
        assert not verdict.fair, f"byte {pos} changed and the record still verifies"


def test_a_truncated_record_is_not_fair(two: Played) -> None:
    params, secrets = two.params, two.secrets
    del secrets
    s = Session(params, None)
    assert s.step is not None
    with pytest.raises(RecordFormatError):
        verify_record(b"{}")
    with pytest.raises(RecordFormatError):
        verify_record(b"")


def test_parameters_carry_the_lobby_colours_and_older_ones_still_read() -> None:
    params, _ = table(3, 1)
    wire = params.to_wire()
    assert "colours" not in wire  # no colours chosen: the parameters (and game id) as before
    assert GameParams.from_wire(wire).game_id() == params.game_id()
    coloured = GameParams(
        dataclasses.replace(params.config, colours=("green", "red", "blue")),
        params.identities,
        params.nonce,
        params.game,
    )
    again = GameParams.from_wire(coloured.to_wire())
    assert again.config.colours == ("green", "red", "blue")
    assert again.game_id() == coloured.game_id() != params.game_id()  # the colours are agreed
    for bad in (["green"], "green", [1, 2, 3]):
        with pytest.raises(DecodeError):
            GameParams.from_wire({**wire, "colours": bad})


@pytest.mark.parametrize(
    ("version", "why"),
    [
        (1, "version 1 before actions became optional"),
        (2, "version 2 before records named their game"),
        (3, "version 3 was written before every game's parameters named it"),
    ],
)
def test_a_record_of_an_older_version_is_refused_in_one_line(
    two: Played, version: int, why: str
) -> None:
    value = decode_value(two.record, RECORD_LIMITS)
    assert isinstance(value, dict) and value["version"] == VERSION == 4
    old = encode_value({**value, "version": version}, RECORD_LIMITS)
    with pytest.raises(RecordFormatError, match=f"^unsupported record version {version} ") as no:
        decode_record(old)
    assert why in str(no.value) and "\n" not in str(no.value)


def test_parameters_without_a_game_are_refused_in_one_line(two: Played) -> None:
    """Every game's parameters name it (so its game id hashes it): none is read without."""
    wire = two.params.to_wire()
    assert wire["game"] == "cartus"
    nameless = {k: v for k, v in wire.items() if k != "game"}
    with pytest.raises(DecodeError, match="game parameters must name their game"):
        GameParams.from_wire(nameless)
    value = decode_value(two.record, RECORD_LIMITS)
    assert isinstance(value, dict)
    forged = encode_value({**value, "params": nameless}, RECORD_LIMITS)
    with pytest.raises(
        RecordFormatError, match=r"^bad game parameters: game parameters must name their game$"
    ):
        decode_record(forged)
