"""Chat lines at a network table: signed by their seat and checked, a forged or malformed one
refused (never an abort), not part of the game's transcript, limited in length and rate (the
rate taken before the signature is checked, resent history held to its authors' rates, a share
of lines per author), and carried by a record without changing its verdict."""

from __future__ import annotations

import dataclasses

import pytest
from recordkit import table
from sessionkit import Played, play, setup_net

from protocol.chat import (
    BURST,
    HISTORY,
    MAX_CHARS,
    PER_AUTHOR,
    BadChat,
    ChatBook,
    ChatLine,
    ChatMisuse,
    chat_frame,
    read_chat,
)
from protocol.crypto.identity import Identity, PublicIdentity
from protocol.messages import ABORT, sign
from protocol.record import decode_record, encode_record, record_chat
from protocol.session import Session
from protocol.verify import verify_record


@pytest.fixture(scope="module")
def two() -> Played:
    return play(2, 11)


def books(played: Played) -> list[ChatBook]:
    p = played.params
    gid = Session(p, None).game_id
    names = p.config.players
    return [ChatBook(gid, p.identities, names, s, played.secrets[s].identity()) for s in range(p.n)]


def test_a_line_is_signed_by_its_seat_and_checked_by_the_others(two: Played) -> None:
    ann, bob = books(two)
    line = ann.say("  hello Bob  ", now=0.0)
    assert line.text == "hello Bob" and line.author == 0 and line.number == 0
    heard = bob.receive(line.frame, now=0.0, link=0)
    assert heard == line and bob.lines == [line]
    assert bob.receive(line.frame, now=0.1, link=0) is None  # the same line twice is one
    again = ann.say("hello Bob", now=0.2)  # said again: another line (its own number)
    assert again.number == 1 and bob.receive(again.frame, now=0.2, link=0) == again


def test_a_forged_line_is_refused(two: Played) -> None:
    ann, bob = books(two)
    gid = ann.game_id
    forged = chat_frame(two.secrets[1].identity(), gid, 0, 0, "I resign")  # Bob signs as Ann
    with pytest.raises(BadChat):
        bob.receive(forged, now=0.0, link=0)
    with pytest.raises(BadChat):  # Bob's own line handed on by Ann as hers
        ann.receive(bob.say("hi", 0.0).frame, now=0.0, link=0)
    other_game = chat_frame(two.secrets[0].identity(), bytes(32), 0, 0, "hi")
    with pytest.raises(BadChat):
        bob.receive(other_game, now=0.0, link=0)
    assert [line.author for line in bob.lines] == [1]  # only the line Bob said himself


@pytest.mark.parametrize(
    "payload",
    [
        {"n": 0},
        {"n": 0, "text": ""},
        {"n": 0, "text": "   "},
        {"n": -1, "text": "hi"},
        {"n": True, "text": "hi"},
        {"n": 0, "text": b"hi"},
        {"n": 0, "text": "hi", "more": 1},
        {"n": 0, "text": "x" * (MAX_CHARS + 1)},
    ],
)
def test_a_malformed_line_is_refused_with_a_reason(two: Played, payload: dict[str, object]) -> None:
    ann, bob = books(two)
    body = {"g": ann.game_id, "a": 0, "x": payload}
    frame = sign(two.secrets[0].identity(), "chat", body)  # type: ignore[arg-type]
    with pytest.raises(BadChat) as exc:
        bob.receive(frame, now=0.0, link=0)
    assert exc.value.reason


def test_another_kind_of_message_is_no_chat_line(two: Played) -> None:
    ann, _ = books(two)
    body = {"g": ann.game_id, "a": 0, "x": {"blame": None, "reason": "x", "evidence": []}}
    abort = sign(two.secrets[0].identity(), ABORT, body)  # type: ignore[arg-type]
    with pytest.raises(BadChat, match="abort"):
        read_chat(abort, ann.game_id, two.params.identities, two.params.config.players)


def test_our_long_line_is_cut_and_an_empty_one_refused(two: Played) -> None:
    ann, bob = books(two)
    line = ann.say("y" * 5000, now=0.0)
    assert len(line.text) == MAX_CHARS
    assert bob.receive(line.frame, now=0.0, link=0) is not None
    with pytest.raises(ChatMisuse):
        ann.say(" \n ", now=1.0)
    watcher = ChatBook(ann.game_id, ann.identities, ann.names)
    with pytest.raises(ChatMisuse):
        watcher.say("hi", now=0.0)


def test_a_flood_is_dropped_with_one_note_then_lines_pass_again(two: Played) -> None:
    ann, bob = books(two)
    gid, me = ann.game_id, two.secrets[0].identity()
    frames = [chat_frame(me, gid, 0, i, f"line {i}") for i in range(BURST + 20)]
    shown = [bob.receive(f, now=0.0, link=0) for f in frames]
    assert sum(line is not None for line in shown) == BURST
    assert len(bob.notes) == 1 and "too fast" in bob.notes[0]
    later = chat_frame(me, gid, 0, 999, "calm again")
    assert bob.receive(later, now=3.0, link=0) is not None
    # our own player is held to the same rate (a line the others would drop is not sent)
    for i in range(BURST):
        ann.say(f"mine {i}", now=10.0)
    with pytest.raises(ChatMisuse, match="too many"):
        ann.say("one more", now=10.0)


def test_a_journal_or_record_is_kept_without_the_rate_and_bad_frames_left_out(
    two: Played,
) -> None:
    ann, bob = books(two)
    frames = [ann.say(f"l{i}", now=float(i)).frame for i in range(BURST + 3)]
    new = bob.keep_all([*frames, b"junk", frames[0]])
    assert [line.text for line in new] == [f"l{i}" for i in range(BURST + 3)]


def three_books() -> tuple[list[ChatBook], Identity]:
    """Ann, Bob and Cy's books at one table of three (no game played: only the keys), and
    Cy's key."""
    params, secrets = table(3, 5)
    gid = Session(params, None).game_id
    names = params.config.players
    ids = [secrets[s].identity() for s in range(3)]
    return [ChatBook(gid, params.identities, names, s, ids[s]) for s in range(3)], ids[2]


def _resend(book: ChatBook, frames: list[bytes], now: float, link: int) -> list[ChatLine]:
    """What ``book`` takes of a history ``link`` resends (bad lines left out)."""
    taken: list[ChatLine] = []
    for frame in frames:
        try:
            line = book.resent(frame, now, link)
        except BadChat:
            continue
        if line is not None:
            taken.append(line)
    return taken


def test_a_history_brings_no_line_of_the_seat_that_resends_it() -> None:
    (ann, _, cy), me = three_books()
    gid = ann.game_id
    # Cy reconnects eleven times, each time "resending" 200 new lines of its own: none is kept
    for round_ in range(11):
        frames = [chat_frame(me, gid, 2, round_ * HISTORY + i, "spam") for i in range(HISTORY)]
        assert _resend(ann, frames, now=float(round_ * 10), link=2) == []
    with pytest.raises(BadChat, match="its own"):
        ann.resent(chat_frame(me, gid, 2, 99999, "mine"), now=500.0, link=2)
    assert ann.count(2) == 0 and ann.say("still here", now=500.0).text == "still here"
    # what Cy said live, Bob resends to Ann (who missed it): taken, once
    said = [cy.say(f"hello {i}", now=float(i)).frame for i in range(3)]
    got = _resend(ann, [*said, *said], now=600.0, link=1)
    assert [line.text for line in got] == ["hello 0", "hello 1", "hello 2"]


def test_a_resent_line_counts_against_its_authors_rate() -> None:
    (ann, _, _), me = three_books()
    # Bob resends, reconnect after reconnect, lines Cy signed but never said live (a pair of
    # seats trying to flood the table): Ann takes what Cy may have said meanwhile, no more
    number = iter(range(1 << 20))
    kept = 0
    for round_ in range(11):
        frames = [chat_frame(me, ann.game_id, 2, next(number), "x") for _ in range(HISTORY)]
        kept += len(_resend(ann, frames, now=float(round_), link=1))
    assert kept == HISTORY + 10  # a fresh book's catch-up, then one line a second
    assert any("too fast" in note for note in ann.notes)
    # and the resent lines took from Cy's live allowance too
    live = chat_frame(me, ann.game_id, 2, next(number), "live")
    assert ann.receive(live, now=10.0, link=2) is None


def test_each_author_keeps_its_share_of_lines_and_no_more() -> None:
    (ann, bob, cy), me = three_books()
    frames = [cy.say(f"l{i}", now=float(i)).frame for i in range(PER_AUTHOR)]
    with pytest.raises(ChatMisuse, match="one game keeps"):
        cy.say("one more", now=1e6)
    assert all(ann.receive(f, now=float(i), link=2) for i, f in enumerate(frames))
    assert ann.count(2) == PER_AUTHOR
    late = chat_frame(me, ann.game_id, 2, PER_AUTHOR, "past my share")
    assert ann.receive(late, now=1e6, link=2) is None
    assert any("one game keeps" in note for note in ann.notes)
    # the others chat on (a share is an author's, not the table's)
    line = bob.say("still talking", now=1e6)
    assert ann.receive(line.frame, now=1e6, link=1) == line
    # and a resumed Ann, from her journal, holds Cy to the same share
    again = ChatBook(ann.game_id, ann.identities, ann.names, 0, ann.identity)
    again.keep_all([*frames, late])
    assert again.count(2) == PER_AUTHOR and again.receive(late, now=0.0, link=2) is None


def test_the_rate_is_taken_before_the_signature_is_checked(
    two: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann, bob = books(two)
    checks: list[bytes] = []
    real = PublicIdentity.verify

    def counted(self: PublicIdentity, data: bytes, sig: bytes, *, peer: str | None = None) -> None:
        checks.append(data)
        real(self, data, sig, peer=peer)

    me = two.secrets[0].identity()
    flood = [chat_frame(me, ann.game_id, 0, i, f"line {i}") for i in range(BURST + 50)]
    monkeypatch.setattr(PublicIdentity, "verify", counted)
    shown = [bob.receive(f, now=0.0, link=0) for f in flood]
    assert sum(line is not None for line in shown) == BURST
    assert len(checks) == BURST  # the lines past the rate cost no check
    assert bob.receive(flood[0], now=0.0, link=0) is None and len(checks) == BURST  # known
    # forged lines (bad signatures) past the rate are not checked either
    forged = [f[:-3] + bytes(3) for f in flood[BURST:]]
    assert all(bob.receive(f, now=0.0, link=0) is None for f in forged)
    assert len(checks) == BURST


def test_a_chat_frame_is_not_part_of_the_game() -> None:
    net, secrets = setup_net(3, 21)
    peer = net.peers[1]
    for _ in range(6):  # (the game under way: a few of its messages processed)
        net.deliver_one()
    before = (list(peer.transcript), peer.th, peer.step.index if peer.step else None)
    frame = chat_frame(secrets[0].identity(), peer.game_id, 0, 0, "gl hf")
    peer.receive(frame, now=0.0, link=0)
    assert (list(peer.transcript), peer.th, peer.step.index if peer.step else None) == before
    assert frame not in peer.take_outgoing()


def test_the_verdict_is_the_same_with_or_without_chat(two: Played) -> None:
    params, messages, abort = decode_record(two.record)
    gid = Session(params, None).game_id
    names = params.config.players
    lines = [
        chat_frame(two.secrets[0].identity(), gid, 0, 0, "good game"),
        chat_frame(two.secrets[1].identity(), gid, 1, 0, "\x1b[2J you lost \u202e"),
        chat_frame(two.secrets[1].identity(), gid, 0, 1, "forged: Ann says I win"),
        b"not even a frame",
    ]
    with_chat = encode_record(params, messages, abort, lines)
    assert with_chat != two.record
    assert encode_record(params, messages, abort, ()) == two.record  # no chat, no field
    assert record_chat(with_chat) == lines and record_chat(two.record) == []
    plain, chatty = verify_record(two.record), verify_record(with_chat)
    assert plain.fair and chatty.fair
    fields = [f.name for f in dataclasses.fields(plain) if f.name != "seconds"]
    assert {f: getattr(plain, f) for f in fields} == {f: getattr(chatty, f) for f in fields}
    book = ChatBook(gid, params.identities, names)
    assert [line.text for line in book.keep_all(record_chat(with_chat))] == [
        "good game",
        "\x1b[2J you lost \u202e",
    ]


def test_a_peer_writes_the_chat_it_heard_into_its_record(two: Played) -> None:
    session = two.net.peers[0]
    ann = books(two)[0]
    line = ann.say("thanks all", now=0.0)
    data = session.record_bytes([line.frame])
    assert record_chat(data) == [line.frame]
    assert verify_record(data).fair


def test_a_tampered_chat_field_is_refused_as_no_record(two: Played) -> None:
    from protocol.record import RECORD_LIMITS, RecordFormatError
    from protocol.wire import decode_value, encode_value

    value = decode_value(two.record, RECORD_LIMITS)
    assert isinstance(value, dict)
    value["chat"] = ["text, not a frame"]
    with pytest.raises(RecordFormatError, match="chat"):
        decode_record(encode_value(value, RECORD_LIMITS))
