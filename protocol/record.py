"""The signed record of a secure game, and its verifier (``rattus verify``).

A record is one canonical msgpack map::

    format   "rattus-secure-record"      version  3
    game     the game's name ("cartus", "rattus"), as in the parameters
    params   the agreed GameParams (game, players, options, identities, nonce): hash = game id
    messages every signed frame of the transcript, in processing order
    abort    nil, or the writer's signed abort message (blamed seat, reason, evidence frames)

Nothing in it needs to be trusted: every message is signed by its author and carries the game
id, which hashes the parameters, so changing any byte of the file breaks a signature, the
canonical encoding, a hash chain or the game id. The verifier replays the whole protocol as an
observer (the same code as a peer, with every proof checked, the shuffle proofs of every mixed
hand among them, and every commit-reveal round: the public numbers and the building draws, each
reveal against its commitment, each card drawn again from the seed), then uses the ElGamal keys the
peers published after the game to open every card, has the game write its face-level record
(``SecureGame.face_replay``: a Rattus Cartus ``GameRecord``, a ``RattusRecord``), replays it
and compares the results.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.messages import ABORT, check_equivocation, open_frame
from protocol.params import GameParams
from protocol.safetext import safetext
from protocol.session import DisputeFault, ProvenFault, Session
from protocol.wire import Limits, WireValue, decode_value, encode_value
from rattus_net.engine.errors import RattusError
from rattus_net.games.base import OpenedGame, SecureGame
from rattus_net.kit.cells import cells, pad

FORMAT = "rattus-secure-record"
VERSION = 3
"""3: the record names the game (and the parameters of any game but Rattus Cartus do, so the
game id hashes it). 2: actions may be declined (ruling 17), hands are mixed right after a gift, the
identities have no X25519 key. An older record hashes or replays otherwise, so it is refused,
never judged."""
MAX_RECORD_BYTES = 8 << 20
"""The largest record accepted, checked before parsing: a 5-player game's record is about
0.6 MB, so this leaves a margin of more than ten while a crafted file is refused at once."""
RECORD_LIMITS = Limits(max_size=MAX_RECORD_BYTES, max_array_len=1 << 16, max_depth=8)

FAIR = "fair"
CHEATER = "cheater"
DAMAGED = "damaged"
DISPUTED = "disputed"
ABORTED = "aborted"
KINDS = (FAIR, CHEATER, DAMAGED, DISPUTED, ABORTED)
"""Verdict kinds. Only ``cheater`` names a seat as a cheater, and only on messages that seat
signed (one that breaks a rule, or two that conflict). ``damaged``: the record is damaged or
incomplete (a bad signature, a dropped, swapped, duplicated or foreign frame, extra bytes):
anybody can do that to a file, so nobody is named. ``disputed``: two seats' signed messages
disagree about one seat's message and either may be lying; both claims are the evidence.
``aborted``: a peer stopped the game and claims why (a stall, say); time is not in the record,
so it is a claim, not a proof."""


class RecordFormatError(ProtocolError):
    """The bytes are not a secure game record."""


def encode_record(session: Session) -> bytes:
    """The record of ``session``'s game: its transcript (identical at every honest peer)."""
    abort = session.abort.frame if session.abort is not None else None
    value: dict[str, WireValue] = {
        "format": FORMAT,
        "version": VERSION,
        "game": session.params.game,
        "params": session.params.to_wire(),
        "messages": list(session.transcript),
        "abort": abort,
    }
    return encode_value(value, RECORD_LIMITS)


@dataclass(frozen=True)
class Evidence:
    """One signed frame of the evidence, with what its header says (for people)."""

    frame: bytes
    author: int | None
    kind: str
    seq: int
    step: int

    def describe(self, names: tuple[str, ...]) -> str:
        who = safetext(names[self.author]) if self.author is not None else "?"
        where = f" #{self.seq}, step {self.step}" if self.seq >= 0 else ""
        return f"{who}'s signed {safetext(self.kind)} message{where} ({len(self.frame)} bytes)"


@dataclass
class Verdict:
    """The outcome of verifying a record: its ``kind`` (see ``KINDS``), the seats involved
    (the cheater; the disputing seats; the aborting seat and the seat it names) and the
    signed frames that are the evidence."""

    kind: str = DAMAGED
    players: tuple[str, ...] = ()
    fingerprints: tuple[str, ...] = ()
    game_id: str = ""
    messages: int = 0
    shuffles_verified: int = 0
    shares_verified: int = 0
    mixes_verified: int = 0
    draws: int = 0
    randoms: int = 0
    result: dict[str, Any] | None = None
    seats: tuple[int, ...] = ()
    reason: str = ""
    evidence: tuple[Evidence, ...] = ()
    engine_record: Any = None
    """The face-level record of a fair, finished game (``replay(upto)``, ``dumps()``)."""
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    secure: SecureGame | None = None
    """The game the record names: it says which counts apply and words the result."""

    @property
    def fair(self) -> bool:
        return self.kind == FAIR

    @property
    def cheater(self) -> int | None:
        """The seat proven to have cheated, if any (only a ``cheater`` verdict has one)."""
        return self.seats[0] if self.kind == CHEATER and self.seats else None

    def name(self, seat: int) -> str:
        return safetext(self.players[seat]) if 0 <= seat < len(self.players) else f"seat {seat}"

    def headline(self) -> str:
        """The verdict in one line (foreign strings made safe)."""
        reason = safetext(self.reason)
        names = [self.name(s) for s in self.seats]
        if self.kind == FAIR:
            return f"FAIR: game {self.game_id[:16]} verified in {self.seconds:.2f} s"
        if self.kind == CHEATER:
            return f"NOT FAIR: {names[0]} cheated (proven by its own signed messages): {reason}"
        if self.kind == DISPUTED:
            return (
                f"DISPUTED: {' and '.join(names)} disagree: {reason}; their signed claims are "
                "attached; nobody is proven to have cheated"
            )
        if self.kind == ABORTED:
            return f"ABORTED: {reason}"
        return f"RECORD DAMAGED OR INCOMPLETE (nobody is named): {reason}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "fair": self.fair,
            "players": [safetext(p) for p in self.players],
            "fingerprints": list(self.fingerprints),
            "game_id": self.game_id,
            "messages": self.messages,
            "shuffles_verified": self.shuffles_verified,
            "shares_verified": self.shares_verified,
            "mixes_verified": self.mixes_verified,
            "draws": self.draws,
            "randoms": self.randoms,
            "result": self.result,
            "seats": [{"seat": s + 1, "name": self.name(s)} for s in self.seats],
            "cheater": self.name(self.cheater) if self.cheater is not None else None,
            "reason": safetext(self.reason),
            "evidence": [
                {
                    "author": self.name(e.author) if e.author is not None else None,
                    "seat": e.author + 1 if e.author is not None else None,
                    "kind": safetext(e.kind),
                    "seq": e.seq,
                    "step": e.step,
                    "frame": e.frame.hex(),
                }
                for e in self.evidence
            ],
            "notes": [safetext(n) for n in self.notes],
            "seconds": round(self.seconds, 3),
            "game": self.secure.name if self.secure is not None else None,
            "report": self.report_lines(),
        }

    def report_lines(self) -> list[str]:
        """The game's lines about the checks and the result (``SecureGame.verdict_lines``),
        each made safe: the game writes the names of the record as they are."""
        checks = {
            "messages": self.messages,
            "shuffles_verified": self.shuffles_verified,
            "mixes_verified": self.mixes_verified,
            "shares_verified": self.shares_verified,
            "draws": self.draws,
            "randoms": self.randoms,
        }
        result = self.result if self.fair else None
        if self.secure is None:  # no game: the counts alone
            return [", ".join(f"{v} {k}" for k, v in checks.items())]
        return [safetext(line) for line in self.secure.verdict_lines(checks, result)]

    def text(self) -> str:
        lines = [self.headline()]
        shown = [safetext(name) for name in self.players]
        width = max((cells(name) for name in shown), default=0)
        for s, (name, fp) in enumerate(zip(shown, self.fingerprints, strict=True)):
            lines.append(f"  seat {s + 1}: {pad(name, width)} (key {fp})")
        lines.extend(f"  {line}" for line in self.report_lines())
        for e in self.evidence:
            lines.append(f"  evidence: {e.describe(self.players)}")
        lines.extend(f"  {safetext(note)}" for note in self.notes)
        return "\n".join(lines)


def decode_record(data: bytes) -> tuple[GameParams, list[bytes], bytes | None]:
    """Parse a record file; RecordFormatError if it is not one. The size is checked first."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordFormatError(
            f"not a secure game record: {len(data)} bytes, more than any game needs "
            f"({MAX_RECORD_BYTES} at most)"
        )
    try:
        value = decode_value(data, RECORD_LIMITS)
    except RemoteProtocolError as exc:
        hint = " (it looks like a plain game record: use rattus replay)" if data[:1] == b"{" else ""
        raise RecordFormatError(f"not a secure game record: {exc.reason}{hint}") from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise RecordFormatError(f'not a secure game record: "format" must be "{FORMAT}"')
    if value.get("version") != VERSION:
        raise RecordFormatError(
            f"unsupported record version {safetext(value.get('version'))} (this program "
            f"verifies version {VERSION}; version 2 was written before records named their "
            f"game, version 1 was written before actions became optional and hands were mixed "
            f"after gifts: it needs the Rattus Net that made it)"
        )
    if set(value) != {"format", "version", "game", "params", "messages", "abort"}:
        raise RecordFormatError("not a secure game record: unexpected fields")
    messages, abort = value["messages"], value["abort"]
    if not isinstance(messages, list) or not all(isinstance(m, bytes) for m in messages):
        raise RecordFormatError("not a secure game record: messages must be frames")
    if abort is not None and not isinstance(abort, bytes):
        raise RecordFormatError("not a secure game record: abort must be a frame")
    try:
        params = GameParams.from_wire(value["params"])
    except RemoteProtocolError as exc:
        raise RecordFormatError(f"bad game parameters: {safetext(exc.reason)}") from None
    except Exception as exc:  # (a value no check foresaw: said in one line all the same)
        raise RecordFormatError(f"bad game parameters ({type(exc).__name__})") from None
    if value["game"] != params.game:
        raise RecordFormatError("not a secure game record: it names two games")
    return params, [m for m in messages if isinstance(m, bytes)], abort


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
    except (ProtocolError, RattusError) as exc:
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


def engine_record(session: Session) -> Any:
    """The face-level engine record of a finished, verified game."""
    return session.secure.face_replay(opened_game(session))[0]


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
