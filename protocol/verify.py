"""The verifier of a secure game's record (``rattus verify``): replay, then judge.

The verifier replays the whole protocol as an observer (the same code as a peer, with every
proof checked, the shuffle proofs of every mixed hand among them, and every commit-reveal
round: the public numbers and the building draws, each reveal against its commitment, each card
drawn again from the seed), then uses the ElGamal keys the peers published after the game to
open every card, has the game write its face-level record (``SecureGame.face_replay``: a Rattus
Cartus ``GameRecord``, a ``RattusRecord``), replays it and compares the results. What it finds
is a :class:`~protocol.verdict.Verdict`; the file itself is ``protocol/record.py``'s.
"""

from __future__ import annotations

import time
from typing import Any

from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.messages import ABORT, check_equivocation, open_frame
from protocol.record import RecordFormatError, decode_record
from protocol.session import DisputeFault, ProvenFault, Session
from protocol.verdict import ABORTED, CHEATER, DAMAGED, DISPUTED, FAIR, Evidence, Verdict
from rattus_net.kit.errors import RattusNetError
from rattus_net.kit.interface import OpenedGame


def _evidence(session: Session, frames: tuple[bytes, ...]) -> tuple[Evidence, ...]:
    out = []
    for f in frames:
        try:
            m = open_frame(f, session.game_id, session.params.identities, session.names)
            out.append(Evidence(f, m.author, m.kind, m.seq, m.step))
        except RemoteProtocolError:
            out.append(Evidence(f, None, "unreadable", -1, -1))
    return tuple(out)


def _resolve(session: Session, exc: DisputeFault, rest: list[bytes]) -> ProvenFault | None:
    """A dispute about seat X's message q is settled if X's own next message (later in the
    record) does not chain to the message q we hold: X then signed two conflicting messages."""
    for frame in rest:
        try:
            m = open_frame(frame, session.game_id, session.params.identities, session.names)
        except RemoteProtocolError:
            continue
        if m.author not in exc.others or not m.chained:
            continue
        before = session.processed(m.author)
        if before is not None and m.seq == before.seq + 1 and m.prev != before.hash:
            reason = "broken hash chain: the message does not follow its author's previous one"
            return ProvenFault(m.author, session.names[m.author], reason, (before.frame, frame))
    return None


def _judge(
    session: Session,
    exc: RemoteProtocolError,
    verdict: Verdict,
    where: str,
    rest: list[bytes] | None = None,
) -> None:
    """Turn an error of the replay into a verdict: only a proven fault names a cheater."""
    if isinstance(exc, DisputeFault):
        settled = _resolve(session, exc, rest or [])
        if settled is not None:
            exc = settled
    if isinstance(exc, ProvenFault):
        verdict.kind, verdict.seats = CHEATER, (exc.seat,)
        verdict.reason = exc.reason
        verdict.evidence = _evidence(session, exc.frames)
    elif isinstance(exc, DisputeFault):
        verdict.kind, verdict.seats = DISPUTED, (exc.seat, *exc.others)
        verdict.reason = (
            f"{session.names[exc.seat]} signed another view of the messages of "
            f"{', '.join(session.names[s] for s in exc.others)} than the record holds"
        )
        verdict.evidence = _evidence(session, exc.frames)
    else:
        verdict.kind, verdict.seats = DAMAGED, ()
        verdict.reason = f"{where}: {exc.reason}"


def verify_record(data: bytes) -> Verdict:
    """Check everything in a record (see the module docstring) and say what it proves."""
    start = time.perf_counter()
    params, messages, abort = decode_record(data)
    try:
        session = Session(params, None)
    except Exception as exc:  # (parameters no game can start: said, never a traceback)
        raise RecordFormatError(f"the record's game cannot be set up: {exc}") from None
    verdict = Verdict(
        players=params.players,
        fingerprints=tuple(i.fingerprint for i in params.identities),
        game_id=session.game_id.hex(),
        secure=session.secure,
    )
    try:
        _verify(session, messages, abort, verdict)
    except (ProtocolError, RattusNetError) as exc:
        # A state the replay cannot reach from signed messages: nobody is named.
        verdict.kind, verdict.seats, verdict.evidence = DAMAGED, (), ()
        verdict.reason = f"the record cannot be replayed: {exc}"
    except Exception as exc:  # the verifier says what it found, never a traceback
        verdict.kind, verdict.seats, verdict.evidence = DAMAGED, (), ()
        verdict.reason = f"the record cannot be replayed ({type(exc).__name__}: {exc})"
    verdict.messages = len(session.transcript)
    verdict.shuffles_verified = session.ops["shuffles_verified"]
    verdict.shares_verified = session.ops["shares_verified"]
    verdict.mixes_verified = session.ops["mixes_verified"]
    verdict.draws = session.ops["draws"]
    verdict.randoms = len(session.record.randoms)
    verdict.seconds = time.perf_counter() - start
    return verdict


def _verify(session: Session, messages: list[bytes], abort: bytes | None, verdict: Verdict) -> None:
    params = session.params
    for i, frame in enumerate(messages):
        try:
            session.receive(frame, 0.0)
        except RemoteProtocolError as exc:
            _judge(session, exc, verdict, f"message {i + 1}", messages[i + 1 :])
            return
        if session.abort is not None:
            verdict.reason = f"message {i + 1} is a control message, not part of a transcript"
            return
    # The record must be exactly the transcript: every frame processed, in processing order.
    processed = len(session.transcript)
    if session.transcript != messages[:processed]:
        verdict.reason = "the messages are not in the order the game processed them"
        return
    if processed < len(messages):
        if session.finished:
            verdict.reason = f"{len(messages) - processed} message(s) after the end of the game"
            return
        st = session.step
        missing = [s for s in st.senders if not session.has_message(s, st.index)] if st else []
        verdict.reason = (
            f"{len(messages) - processed} message(s) wait for a message that is not in "
            f"the record (from {', '.join(params.players[s] for s in missing)})"
        )
        return
    if abort is not None and not session.finished:
        _check_abort(session, abort, verdict)
        return
    if not session.finished:
        verdict.reason = "the record stops before the end of the game"
        waiting = session.step.senders if session.step is not None else ()
        verdict.notes.append(f"waiting for: {', '.join(params.players[s] for s in waiting)}")
        return
    if abort is not None:
        try:
            msg = open_frame(abort, session.game_id, params.identities, session.names)
        except RemoteProtocolError as exc:
            verdict.reason = f"the abort is not a signed message of this game: {exc.reason}"
            return
        if msg.kind != ABORT:
            verdict.reason = "the abort field holds another kind of message"
            return
        verdict.notes.append(
            f"{params.players[msg.author]} signed an abort after the game was over "
            f"(ignored: the game was finished): {msg.payload.get('reason')!s}"
        )
    rec, replayed = session.secure.face_replay(opened_game(session))
    result = session.secure.result_summary(session.public)
    if replayed != result:
        verdict.reason = "the face-level replay ends with another result"
        return
    verdict.kind = FAIR
    verdict.result = result
    verdict.engine_record = rec


def _check_abort(session: Session, abort: bytes, verdict: Verdict) -> None:
    """The game stopped: evidence that proves a fault is checked again (and names the seat
    that signed it); anything else is the aborting peer's claim."""
    names = session.names
    try:
        msg = open_frame(abort, session.game_id, session.params.identities, names)
    except RemoteProtocolError as exc:
        verdict.reason = f"the abort is not a signed message of this game: {exc.reason}"
        return
    p = msg.payload
    blamed, reason, ev = p.get("blame"), p.get("reason"), p.get("evidence")
    if (
        msg.kind != ABORT
        or isinstance(blamed, bool)
        or not (blamed is None or isinstance(blamed, int))
        or not isinstance(ev, list)
    ):
        verdict.reason = "the abort message is malformed"
        return
    frames = tuple(f for f in ev if isinstance(f, bytes))
    if len(frames) == 2:
        try:
            m1, m2 = (
                open_frame(f, session.game_id, session.params.identities, names) for f in frames
            )
            if check_equivocation(m1, m2):
                verdict.kind, verdict.seats = CHEATER, (m1.author,)
                verdict.reason = "equivocation: two signed messages with one sequence number"
                verdict.evidence = _evidence(session, frames)
                return
        except RemoteProtocolError:
            pass
    for frame in frames:
        try:
            session.receive(frame, 0.0)
        except RemoteProtocolError as exc:
            if isinstance(exc, ProvenFault | DisputeFault):
                _judge(session, exc, verdict, "the abort's evidence")
                return
    claimed = blamed if isinstance(blamed, int) and 0 <= blamed < session.n else None
    verdict.kind = ABORTED
    verdict.seats = (msg.author,) if claimed is None else (msg.author, claimed)
    about = f" about {names[claimed]}" if claimed is not None else ""
    verdict.reason = (
        f"stopped by {names[msg.author]}, who claims{about}: {reason!s} "
        "(a claim, not provable from the record)"
    )
    verdict.evidence = _evidence(session, (abort,))


def opened_game(session: Session) -> OpenedGame:
    """A finished, verified game with every face known (the keys were published)."""
    faces = session.all_faces()
    rec = session.record
    shuffles = [
        (
            pile,
            session.pile_order(handles)
            if pile in session.drawn_piles
            else tuple(faces[h] for h in handles),
        )
        for pile, _f, handles in rec.shuffles
    ]
    return OpenedGame(
        session.config, session.public, faces, shuffles, dict(rec.openings), list(rec.randoms)
    )


def public_replay(data: bytes, upto: int | None = None) -> tuple[Any, str | None]:
    """The public game of a record, replayed frame by frame up to where it stops (an aborted
    or unfinished game), or to ``upto`` moves: what every seat saw, the hidden cards (hands,
    the deck, the nun row) left hidden, since their keys were never published. Returns the
    game and why the replay stopped early (a frame that does not check, the abort), if it
    did. Raises ``RecordFormatError`` for bytes that are not a record."""
    params, messages, abort = decode_record(data)
    session = Session(params, None)
    stopped: str | None = None
    for frame in messages:
        if upto is not None and len(session.public.history) >= upto:
            break
        try:
            session.receive(frame, 0.0)
        except RemoteProtocolError as exc:
            stopped = f"a frame does not check: {exc.reason}"
            break
    if stopped is None and abort is not None:
        stopped = "the game was aborted"
        try:
            msg = open_frame(abort, session.game_id, params.identities, session.names)
            reason = msg.payload.get("reason")
            if isinstance(reason, str):
                stopped = f"the game was aborted by {session.names[msg.author]}: {reason}"
        except RemoteProtocolError:
            pass
    return session.public, stopped
