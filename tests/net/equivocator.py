"""A malicious peer for the framing test over processes (``test_resume_framing.py``).

It resumes its seat from its journal like ``rattus resume`` and plays on as an honest node,
except that, to the seat ``--victim`` only, it sends a second, valid version of its first
shuffle: the same header (sequence number, chain, step, transcript hash, view), another
permutation and masking with a correct proof, signed with its key. The second version is
made from its journal: the session rebuilt up to the frame that made it shuffle, then made to
shuffle again with another random stream.

    python -m tests.net.equivocator GAME_ID --victim SEAT [--stall-timeout S]

(with ``RATTUS_DATA_DIR`` the malicious peer's data directory; seats count from 1). It prints
``equivocated`` when the second version went out, and the node's news.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import sys

from protocol.errors import RemoteProtocolError
from protocol.messages import SHUFFLE, open_frame
from protocol.params import PeerSecrets
from protocol.session import Session
from rattus_net.net.mesh import Link
from rattus_net.net.node import PeerNode
from rattus_net.net.play import headless_reporter


def second_version(node: PeerNode) -> tuple[bytes, bytes]:
    """Our first shuffle as we sent it, and another valid version of it."""
    setup = node.setup
    params = setup.params
    session = Session(params, setup.seat, PeerSecrets(setup.master))
    session.take_outgoing()

    def shuffles(frames: list[bytes]) -> list[bytes]:
        gid, ids, names = params.game_id(), params.identities, params.players
        return [f for f in frames if open_frame(f, gid, ids, names).kind == SHUFFLE]

    for rec in node.journal.records[1:]:
        if not isinstance(rec, list) or not rec:
            continue
        if rec[0] == "d":
            session.decide(node.definition.parse_move(str(rec[1])), 0.0)
            session.take_outgoing()
        elif rec[0] == "r":
            link, frame = rec[1], rec[2]
            assert isinstance(link, int) and isinstance(frame, bytes)
            before = copy.deepcopy(session)
            with contextlib.suppress(RemoteProtocolError):
                session.receive(frame, 0.0, link=link)
            made = shuffles(session.take_outgoing())
            if made:
                before._secrets = PeerSecrets(b"\x02" * 32)  # (another shuffle stream)
                before.receive(frame, 0.0, link=link)
                (other,) = shuffles(before.take_outgoing())
                assert other != made[0]
                return made[0], other
    raise SystemExit("no shuffle of ours in the journal")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("game_id")
    ap.add_argument("--victim", type=int, required=True)
    ap.add_argument("--stall-timeout", type=float, default=60.0)
    ap.add_argument("--linger-after-abort", type=float, default=20.0)
    args = ap.parse_args()
    victim = args.victim - 1
    node = PeerNode.load(
        args.game_id, stall_timeout=args.stall_timeout, abort_linger=args.linger_after_abort
    )
    first, second = second_version(node)
    headless_reporter(node, lambda line: print(line, flush=True))

    def outgoing(link: Link, frame: bytes) -> bytes:  # the second version to the victim
        if link.seat == victim and frame == first:
            print("equivocated", flush=True)
            return second
        return frame

    node.mesh._outgoing = outgoing  # type: ignore[method-assign]
    outcome = asyncio.run(node.run())
    print(f"record: {outcome.record}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
