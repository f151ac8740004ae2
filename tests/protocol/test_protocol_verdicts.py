"""Verdicts name only a provable cheater: every way of damaging a record that needs no seat's
key is "record damaged", a seat's re-signed variant of its own message never blames the next
honest seat, an abort is a claim, and live peers never blame somebody on another's word."""

from __future__ import annotations

import json

import pytest
from recordkit import (
    author,
    equivocate_to_seat_2,
    honest,
    inner_of,
    messages,
    pack,
    random_chooser,
    resign,
    sign_as,
)

from protocol.memnet import MemoryNetwork
from protocol.messages import ABORT, RAND_COMMIT, RAND_REVEAL
from protocol.params import GameParams
from protocol.session import Session
from protocol.verdict import ABORTED, CHEATER, DAMAGED, DISPUTED, FAIR
from protocol.verify import verify_record
from protocol.wire import WireValue

N, SEED = 2, 11


@pytest.fixture(scope="module")
def rec() -> bytes:
    return honest(N, SEED)[0]


def verdict_of(record: bytes) -> tuple[str, tuple[int, ...]]:
    v = verify_record(record)
    return v.kind, v.seats


def test_the_honest_record_is_fair(rec: bytes) -> None:
    v = verify_record(rec)
    assert v.kind == FAIR and v.seats == () and v.cheater is None
    assert v.to_dict()["kind"] == FAIR


@pytest.mark.parametrize("index", [0, 5, -1])
def test_a_bad_signature_is_damage_and_names_nobody(rec: bytes, index: int) -> None:
    msgs = messages(rec)
    bad = bytearray(msgs[index])
    bad[-1] ^= 0x40  # the last byte of the signature
    msgs[index] = bytes(bad)
    assert verdict_of(pack(rec, msgs)) == (DAMAGED, ())


def test_a_message_signed_with_another_seats_key_names_nobody(rec: bytes) -> None:
    """A forger holding seat 0's key writes "seat 1's" message: seat 1 is not blamed."""
    secrets = honest(N, SEED)[2]
    msgs = messages(rec)
    i = next(i for i, m in enumerate(msgs) if author(m) == 1 and i > 4)

    def same(kind: str, body: dict[str, WireValue]) -> str:
        return kind

    msgs[i] = resign(msgs[i], secrets[0], same)
    assert verdict_of(pack(rec, msgs)) == (DAMAGED, ())


def test_dropped_swapped_and_duplicated_frames_are_damage(rec: bytes) -> None:
    msgs = messages(rec)
    dropped = msgs[:7] + msgs[8:]
    assert verdict_of(pack(rec, dropped)) == (DAMAGED, ())
    # Two messages of one author swapped.
    i, j = [k for k, m in enumerate(msgs) if author(m) == 0][3:5]
    swapped = list(msgs)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    assert verdict_of(pack(rec, swapped)) == (DAMAGED, ())
    # Two messages of different authors swapped (the replay would not notice the order).
    k = next(k for k in range(len(msgs) - 1) if author(msgs[k]) != author(msgs[k + 1]))
    crossed = list(msgs)
    crossed[k], crossed[k + 1] = crossed[k + 1], crossed[k]
    assert verdict_of(pack(rec, crossed)) == (DAMAGED, ())
    # A duplicate in the middle, a duplicate and junk after the end.
    assert verdict_of(pack(rec, [*msgs[:9], msgs[8], *msgs[9:]])) == (DAMAGED, ())
    assert verdict_of(pack(rec, [*msgs, msgs[-1]])) == (DAMAGED, ())
    assert verdict_of(pack(rec, [*msgs, msgs[3]])) == (DAMAGED, ())


def test_a_frame_of_another_game_of_the_same_players_is_damage(rec: bytes) -> None:
    _, params, secrets = honest(N, SEED)
    other = GameParams(params.config, params.identities, bytes(32), params.game)
    foreign = Session(other, 1, secrets[1]).take_outgoing()[0]  # its signed hello
    msgs = messages(rec)
    assert verdict_of(pack(rec, [*msgs[:1], foreign, *msgs[1:]])) == (DAMAGED, ())
    assert verdict_of(pack(rec, [*msgs, foreign])) == (DAMAGED, ())


def _variant(rec: bytes) -> tuple[list[bytes], int]:
    """The record with seat 1's first commitment re-signed (by seat 1) with other bytes: a
    legal variant of its own message. Returns the messages and the index of the next
    message of seat 0 (whose signed view holds the original)."""
    secrets = honest(N, SEED)[2]
    msgs = messages(rec)
    i = next(k for k, m in enumerate(msgs) if author(m) == 1 and inner_of(m)[0] == RAND_COMMIT)

    def other_commitment(kind: str, body: dict[str, WireValue]) -> str:
        body["x"] = {"c": bytes(32)}
        return kind

    msgs[i] = resign(msgs[i], secrets[1], other_commitment)
    j = next(k for k in range(i + 1, len(msgs)) if author(msgs[k]) == 0)
    assert inner_of(msgs[j])[0] == RAND_REVEAL
    return msgs, j


def test_a_re_signed_variant_of_a_seats_own_message_never_blames_the_next_honest_seat(
    rec: bytes,
) -> None:
    msgs, j = _variant(rec)
    # The whole record: seat 1's own next message does not chain to the variant: proven.
    v = verify_record(pack(rec, msgs))
    assert v.kind == CHEATER and v.cheater == 1, v.text()
    assert len(v.evidence) == 2 and all(e.author == 1 for e in v.evidence)
    # Cut after seat 0's next message: only the two claims disagree: disputed, no cheater.
    v = verify_record(pack(rec, msgs[: j + 1]))
    assert v.kind == DISPUTED and set(v.seats) == {0, 1} and v.cheater is None, v.text()
    assert {e.author for e in v.evidence} == {0, 1}
    data = v.to_dict()
    assert data["kind"] == DISPUTED and data["cheater"] is None
    assert len(data["evidence"]) == 2 and all(len(e["frame"]) > 100 for e in data["evidence"])


def _abort_by(seat: int, blame: int | None, reason: str, evidence: list[bytes]) -> bytes:
    _, params, secrets = honest(N, SEED)
    x: dict[str, WireValue] = {
        "blame": blame,
        "reason": reason,
        "evidence": list(evidence),
        "step": 3,
    }
    return sign_as(secrets[seat], ABORT, {"g": params.game_id(), "a": seat, "x": x})


def test_an_abort_signed_after_a_finished_game_leaves_it_fair(rec: bytes) -> None:
    late = _abort_by(1, 0, "stalled: no move message for step 3", [])
    v = verify_record(pack(rec, abort=late))
    assert v.kind == FAIR, v.text()
    assert any("after the game was over" in n for n in v.notes)


def test_an_abort_is_a_claim_and_a_forged_abort_is_damage(rec: bytes) -> None:
    cut = messages(rec)[:40]
    claim = _abort_by(1, 0, "stalled: no shares message for step 20", [])
    v = verify_record(pack(rec, cut, claim))
    assert v.kind == ABORTED and v.seats == (1, 0) and v.cheater is None
    assert "claim" in v.text() and "cheated" not in v.text()
    # Evidence that proves nothing (a message already in the transcript) keeps it a claim.
    v = verify_record(pack(rec, cut, _abort_by(1, 0, "bad proof", [cut[10]])))
    assert v.kind == ABORTED and v.cheater is None
    bad = bytearray(claim)
    bad[-1] ^= 1
    assert verdict_of(pack(rec, cut, bytes(bad))) == (DAMAGED, ())


def test_a_control_message_in_the_transcript_is_damage(rec: bytes) -> None:
    msgs = messages(rec)
    claim = _abort_by(1, 0, "stalled", [])
    assert verdict_of(pack(rec, [*msgs[:20], claim, *msgs[20:]])) == (DAMAGED, ())


def test_the_verdict_text_and_json_show_foreign_strings_safely(rec: bytes) -> None:
    cut = messages(rec)[:40]
    claim = _abort_by(1, 0, "stalled\x1b]0;owned\x07\x1b[2J", [])
    v = verify_record(pack(rec, cut, claim))
    assert "\x1b" not in v.text() and "\x07" not in v.text()
    assert "\\x1b" in v.text()
    assert "\x1b" not in json.dumps(v.to_dict(), ensure_ascii=False)


# --- live peers --------------------------------------------------------------------------------


def test_a_false_abort_claim_is_adopted_as_a_claim_and_blames_nobody() -> None:
    """Seat 2 stops a game nobody stalled, claiming seat 0 stalled: the honest peers adopt
    the one signed abort, record it as seat 2's claim, and their records agree."""
    from recordkit import table

    params, secrets = table(3, 5)
    net = MemoryNetwork(params, secrets)
    net.keep_going = True
    for _ in range(30):
        net.deliver_one()
    x: dict[str, WireValue] = {"blame": 0, "reason": "stalled", "evidence": [], "step": 1}
    claim = sign_as(secrets[2], ABORT, {"g": params.game_id(), "a": 2, "x": x})
    net.broadcast(2, claim)
    net.run(random_chooser(3, 5))
    verdicts = []
    for s in (0, 1):
        abort = net.peers[s].abort
        assert abort is not None and not abort.proven and abort.by == 2 and abort.frame == claim
        assert "you" not in abort.describe(params.config.players, s).split("claiming")[0]
        v = verify_record(net.peers[s].record_bytes())
        assert v.kind == ABORTED and v.cheater is None and v.seats == (2, 0)
        verdicts.append((v.kind, v.seats))
    assert verdicts[0] == verdicts[1]


def test_a_relayed_forged_frame_blames_only_the_relay_and_the_game_goes_on() -> None:
    from recordkit import table

    params, secrets = table(3, 6)
    net = MemoryNetwork(params, secrets)
    net.keep_going = True
    forged_sent = []

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        if sender == 2 and receiver == 1 and not forged_sent and author(frame) == 2:
            # Seat 2 relays "seat 0's" message, which it signed itself.
            def as_seat0(kind: str, body: dict[str, WireValue]) -> str:
                body["a"] = 0
                return kind

            forged = resign(frame, secrets[2], as_seat0)
            forged_sent.append(forged)
            net.links.append((2, 1, forged))
        return frame

    net.tamper = tamper
    net.run(random_chooser(3, 6))
    assert forged_sent
    errors = [e for r, e in net.errors if r == 1]
    assert errors and all(e.peer == params.config.players[2] for e in errors)
    for s in range(3):
        assert net.peers[s].finished and net.peers[s].abort is None
    records = [verify_record(net.peers[s].record_bytes()) for s in (0, 1)]
    assert all(v.kind == FAIR for v in records)


def test_a_record_of_the_former_version_is_refused_not_judged(rec: bytes) -> None:
    """Version 1 records were played with other rules (no mixing right after a gift): their
    replay would find "moves out of turn" nobody made, so they are refused with one line."""
    from protocol.record import RECORD_LIMITS, RecordFormatError
    from protocol.wire import decode_value, encode_value

    value = decode_value(rec, RECORD_LIMITS)
    assert isinstance(value, dict)
    value["version"] = 1
    with pytest.raises(RecordFormatError, match="unsupported record version 1"):
        verify_record(encode_value(value, RECORD_LIMITS))


def test_an_abort_is_passed_on_to_a_peer_the_aborting_peer_cannot_reach() -> None:
    from recordkit import table

    params, secrets = table(3, 9)
    net = MemoryNetwork(params, secrets)
    net.keep_going = True
    for _ in range(30):
        net.deliver_one()
    cut = False

    def tamper(sender: int, receiver: int, frame: bytes) -> bytes | None:
        return None if cut and sender == 0 and receiver == 2 else frame

    net.tamper = tamper
    cut = True  # from now on seat 0 cannot reach seat 2
    net.peers[0]._abort(1, "stalled: no shares message for step 9", ())
    net._collect()
    net.run(random_chooser(3, 9))
    own = net.peers[0].abort
    assert own is not None and own.frame is not None
    for s in (1, 2):
        abort = net.peers[s].abort
        assert abort is not None and abort.frame == own.frame and abort.by == 0
    verdicts = {(v.kind, v.seats) for v in (verify_record(p.record_bytes()) for p in net.peers)}
    assert verdicts == {(ABORTED, (0, 1))}


def test_a_seat_sending_two_versions_of_its_message_is_named_and_the_records_agree() -> None:
    """Seat 0 sends seat 2 another (legal) commitment than seat 1: seat 2 first sees only a
    disagreement, the evidence exchange proves the equivocation, every honest record names
    seat 0 on its two signed messages and never seat 1."""
    from recordkit import table

    params, secrets = table(3, 21)
    net = MemoryNetwork(params, secrets, timeout=5.0)
    net.keep_going = True
    done = equivocate_to_seat_2(net, secrets)
    net.run(random_chooser(3, 1))
    assert done[0]
    verdicts = [verify_record(net.peers[s].record_bytes()) for s in (1, 2)]
    for v in verdicts:
        assert v.kind == CHEATER and v.cheater == 0, v.text()
        assert len(v.evidence) == 2 and all(e.author == 0 for e in v.evidence)
    assert {(v.kind, v.seats) for v in verdicts} == {(CHEATER, (0,))}
