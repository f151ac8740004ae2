"""A peer's move cannot crash us (issue 23): the move fuzzer (``tests/movefuzz.py``) over a
few hundred seeded cases of both games, through the text form, the wire form, the engine and
a live session; and the cases that once crashed every honest peer, one by one."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from movefuzz import GAMES, Figures, Point, check_text, check_wire, points, run
from recordkit import resign

from protocol.faults import ProvenFault
from protocol.verdict import CHEATER
from protocol.verify import verify_record
from protocol.wire import WireValue
from rattus_net import cli
from rattus_net.games.rattus.moves import Merchant, Monk, TurnUp
from rattus_net.kit.numbers import ascii_decimal, ascii_int


@pytest.mark.parametrize("game", GAMES)
def test_fuzzed_moves_never_raise_anything_unexpected(game: str) -> None:
    figures = Figures()
    run(game, 300, seed=23, session_every=15, figures=figures)
    assert figures.unexpected == 0, "\n".join(figures.failures[:10])
    assert figures.cases == 300 and figures.sessions == 20
    seen = set(figures.outcomes)
    # the fuzzer reaches both answers of every layer (else it tests nothing)
    assert {f"{game} wire move", f"{game} wire refused", f"{game} session blamed"} <= seen
    assert f"{game} text refused" in seen


HUGE = pytest.param("9" * 5000, id="5000-digits")


@pytest.mark.parametrize("number", ["²", "①", "⁰", "٣", "３", "+2", "-1", "2_0", HUGE])
def test_a_rattus_move_with_a_number_of_another_script_is_refused(number: str) -> None:
    for text in (f"turn {number}", f"monk Gallia {number} Italia", f"merchant A B {number}"):
        assert check_text("rattus", text) is None
        assert check_wire("rattus", {"m": text}) is None
    assert check_text("rattus", "turn 2") == TurnUp(2)
    assert check_text("rattus", "monk Gallia 3 Italia") == Monk("Gallia", 3, "Italia")
    assert check_text("rattus", "merchant Gallia Italia 12") == Merchant("Gallia", "Italia", 12)


@pytest.mark.parametrize("number", ["²", "①", "٣", "+1", "0", HUGE])
def test_a_rattus_cartus_move_text_with_a_strange_number_is_refused(number: str) -> None:
    texts = (f"supply {number}", f"enter {number} Joker", f"choose {number}", f"look 1 {number}")
    for text in texts:
        assert check_text("cartus", text) is None


def _bad_turn() -> tuple[Point, bytes]:
    """A decision point of a Rattus game, and the deciding peer's message signed with a move
    whose number is a superscript two."""
    point = points("rattus")[0]
    word = {"turn": "turn ²"}.get(point.text.split()[0], "monk Gallia ² Italia")

    def change(kind: str, body: dict[str, WireValue]) -> str:
        body["x"] = {"m": {"m": word}}
        return kind

    return point, resign(point.frame, point.secrets, change)


def test_the_move_that_crashed_every_honest_peer_blames_its_signer() -> None:
    """A Rattus move with "²" once raised a plain ValueError out of Session.receive: no
    abort, no record, and the frame never journaled (the same crash after every resume).
    Now the peer that signed it is blamed on that signed message, and the record of the
    abort, verified, names it (the verifier replays the evidence: no traceback)."""
    point, frame = _bad_turn()
    session = copy.deepcopy(point.receiver)
    with pytest.raises(ProvenFault) as caught:
        session.receive(frame, 0.0, link=point.seat)
    assert caught.value.seat == point.seat and caught.value.accepted  # (journaled, then)
    abort = session.abort
    assert abort is not None and abort.proven and abort.blamed == point.seat
    verdict = verify_record(session.record_bytes())
    assert verdict.kind == CHEATER and verdict.cheater == point.seat, verdict.text()


def test_a_record_holding_such_a_move_is_judged_not_crashed() -> None:
    point, frame = _bad_turn()
    record = copy.deepcopy(point.receiver)
    record.transcript.append(frame)  # (as a record tampered with, or written by a bad peer)
    verdict = verify_record(record.record_bytes())
    assert verdict.kind == CHEATER and verdict.cheater == point.seat, verdict.text()


def test_numbers_are_read_in_ascii_only() -> None:
    assert ascii_int("12") == 12 and ascii_int("007") == 7
    for text in ("²", "١٢", "１２", "+1", "-1", " 1", "1 ", "1_0", "", "0x1", "9" * 10):
        assert ascii_int(text) is None, text
    assert ascii_int("9" * 10, max_digits=10) == 9_999_999_999
    assert ascii_int("4", 1, 3) is None and ascii_int("3", 1, 3) == 3
    assert ascii_decimal("0.5") == 0.5 and ascii_decimal("12") == 12.0
    for text in ("nan", "inf", "1e3", "-1", "٣", ".5", "1.", "1.2.3"):
        assert ascii_decimal(text) is None, text


def test_rattus_verify_judges_such_a_record_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rattus verify` on a record holding that move: a verdict naming its signer, exit 1,
    never a traceback."""
    point, frame = _bad_turn()
    record = copy.deepcopy(point.receiver)
    record.transcript.append(frame)
    path = tmp_path / "record.rattusnet"
    path.write_bytes(record.record_bytes())
    assert cli.main(["verify", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("NOT FAIR: ") and "cheated" in out, out
    assert "Traceback" not in out + err
