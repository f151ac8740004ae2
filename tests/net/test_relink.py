"""What a link asks and resends after it comes back, without sockets or a clock of its own."""

from __future__ import annotations

from rattus_net.net.recovery import MAX_COPIES
from rattus_net.net.relink import (
    ASK_AGAIN,
    COPY_BURST,
    COPY_RATE,
    Asks,
    CopyBucket,
    copies_for,
    resend_from,
)


def test_frames_go_out_from_what_the_peer_holds_and_never_past_what_we_made() -> None:
    assert resend_from(0, 5) == 0
    assert resend_from(3, 5) == 3
    assert resend_from(9, 5) == 5  # a peer claiming more than we made gets nothing again
    assert resend_from(-1, 5) == 0


def test_an_ask_is_answered_with_the_askers_own_frames_from_there_and_no_more_than_the_cap() -> (
    None
):
    frames = [bytes([i]) for i in range(MAX_COPIES + 10)]
    assert copies_for(frames, 2)[:2] == [(2, b"\x02"), (3, b"\x03")]
    assert len(copies_for(frames, 0)) == MAX_COPIES
    assert copies_for(frames, len(frames)) == []
    assert copies_for(frames, -3) == []


def test_copies_are_answered_at_the_bucket_rate() -> None:
    bucket = CopyBucket(refilled=100.0)
    burst = int(COPY_BURST)
    assert [bucket.may_copy(100.0) for _ in range(burst + 1)] == [True] * burst + [False]
    assert not bucket.may_copy(100.0 + 0.5 / COPY_RATE)  # half a token since
    assert bucket.may_copy(100.0 + 1.0 / COPY_RATE)  # a whole one now
    assert not bucket.may_copy(100.0 + 1.0 / COPY_RATE)
    assert not bucket.may_copy(50.0)  # (a clock going back adds nothing)


def test_each_holder_is_asked_once_per_interval_and_again_when_its_link_comes_back() -> None:
    asks = Asks()
    holders = {1: 7, 2: 7, 3: 7}
    linked = {1, 2}  # seat 3 holds it but is not linked: it cannot be asked
    assert asks.due(4, holders, linked, now=10.0) == [1, 2]
    assert asks.due(4, holders, linked, now=10.0 + ASK_AGAIN / 2) == []
    assert asks.due(5, holders, linked, now=10.0 + ASK_AGAIN / 2) == [1, 2]  # another frame
    assert asks.due(5, holders, linked, now=10.0 + ASK_AGAIN * 2) == [1, 2]  # asked again
    asks.forget(1)  # its link dropped: a new one asks at once
    assert asks.due(5, holders, linked | {3}, now=10.0 + ASK_AGAIN * 2) == [1, 3]
