"""What an older Rattus Net wrote still verifies, replays and resumes with this one.

The records and the journal of ``tests/data/old-records`` were made by the program of the
commit named in its README, with the protocol's message kinds under their first names
(``supply-commit``, ``supply-open``, ``mix``): a record or a journal a player keeps must never
stop verifying when the code renames things inside."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from protocol.messages import (
    OLD_KIND_NAMES,
    SIG_DOMAIN,
    WRITES_OLD_KIND_NAMES,
    open_frame,
    sign,
)
from protocol.params import PeerSecrets
from protocol.verify import verify_record
from protocol.wire import WireValue, decode_message, encode_message
from rattus_net.kit.registry import get_game
from rattus_net.net.node import PeerNode
from rattus_net.replays import signed_replay

OLD = Path(__file__).parent.parent / "data" / "old-records"
JOURNAL_GAME = "4ab25766ca2b2e0a82095a7a80c9553dedaa31df6ed25aa9e9debabef2122d7d"


@pytest.mark.parametrize(
    ("file", "game", "winners", "scores"),
    [
        ("cartus-2p-simultaneous.rattusnet", "cartus", (), (43, 36)),
        ("rattus-2p.rattusnet", "rattus", (0,), (6, 4)),
    ],
)
def test_an_old_record_verifies_fair_and_replays_to_its_end(
    file: str, game: str, winners: tuple[int, ...], scores: tuple[int, ...]
) -> None:
    data = (OLD / file).read_bytes()
    verdict = verify_record(data)
    assert verdict.fair, verdict.reason
    outcome = get_game(game).outcome(signed_replay(data).steps[-1].state)
    assert outcome is not None
    # What the older program printed when it made the record (its README).
    assert (outcome.winners, outcome.scores) == (winners, scores)


def test_an_old_journal_of_an_unfinished_game_loads_and_carries_on(tmp_path: Path) -> None:
    shutil.copytree(OLD / "journal", tmp_path / "data")
    node = PeerNode.load(JOURNAL_GAME, tmp_path / "data")
    try:
        session = node.session
        assert not session.finished and session.abort is None
        # Its transcript holds commitments made at once under their old name: read, replayed.
        assert len(session.public.history) > 0
        assert session.step is not None
    finally:
        node.journal.close()


def test_the_renamed_kinds_are_read_under_both_names_and_written_under_the_old() -> None:
    """A message is signed under the kind's old name (a journal of an older build resumes
    byte for byte), and either name reads as the new."""
    identity = PeerSecrets(bytes(32)).identity()
    game_id = bytes(range(32))
    body: dict[str, WireValue] = {
        "g": game_id, "a": 0, "q": 0, "p": bytes(32), "t": 0, "h": bytes(32),
        "s": [bytes(32)], "x": {},
    }  # fmt: skip
    for old, new in OLD_KIND_NAMES.items():
        frame = sign(identity, new, body)
        inner = decode_message(frame).body["m"]
        assert isinstance(inner, bytes)
        assert decode_message(inner).kind == (old if WRITES_OLD_KIND_NAMES else new)
        for name in (old, new):
            inner = encode_message(name, body)
            signed = {"m": inner, "s": identity.sign(SIG_DOMAIN + inner)}
            frame = encode_message("signed", signed)
            assert open_frame(frame, game_id, (identity.public,), ("Ann",)).kind == new
