"""The signed record of a secure game, and its verifier (``rattus verify``).

A record is one canonical msgpack map::

    format   "rattus-secure-record"      version  1
    params   the agreed GameParams (players, options, identities, nonce): hash = game id
    messages every signed frame of the transcript, in processing order
    abort    nil, or the writer's signed abort message (blamed seat, reason, evidence frames)

Nothing in it needs to be trusted: every message is signed by its author and carries the game
id, which hashes the parameters, so changing any byte of the file breaks a signature, the
canonical encoding, a hash chain or the game id. The verifier replays the whole protocol as an
observer (the same code as a peer, with every proof checked, the shuffle proofs of every mixed
hand among them, and every commit-reveal round: the public numbers and the building draws, each
reveal against its commitment, each card drawn again from the seed), then uses the ElGamal keys the
peers published after the game to open every card, writes the face-level engine record
(``rattus_net.engine.record.GameRecord``), replays it and compares the results.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.messages import ABORT, check_equivocation, open_frame
from protocol.params import GameParams
from protocol.session import DRAWN_PILES, PeerFault, Session
from protocol.wire import Limits, WireValue, decode_value, encode_value
from rattus_net.engine import data as D
from rattus_net.engine.errors import RattusError
from rattus_net.engine.game import Game
from rattus_net.engine.moves import (
    Discard,
    DiscardHandles,
    Enter,
    EnterHidden,
    Give,
    GiveHandles,
    Move,
    PassHandle,
    PlayPass,
)
from rattus_net.engine.record import CardOrder, GameRecord, result_summary

FORMAT = "rattus-secure-record"
VERSION = 1
RECORD_LIMITS = Limits(max_size=1 << 28, max_array_len=1 << 20, max_depth=8)


class RecordFormatError(ProtocolError):
    """The bytes are not a secure game record."""


def encode_record(session: Session) -> bytes:
    """The record of ``session``'s game: its transcript (identical at every honest peer)."""
    abort = session.abort.frame if session.abort is not None else None
    value: dict[str, WireValue] = {
        "format": FORMAT,
        "version": VERSION,
        "params": session.params.to_wire(),
        "messages": list(session.transcript),
        "abort": abort,
    }
    return encode_value(value, RECORD_LIMITS)


@dataclass
class Verdict:
    """The outcome of verifying a record."""

    fair: bool
    players: tuple[str, ...] = ()
    fingerprints: tuple[str, ...] = ()
    game_id: str = ""
    messages: int = 0
    shuffles_verified: int = 0
    shares_verified: int = 0
    mixes_verified: int = 0
    draws: int = 0
    result: dict[str, Any] | None = None
    cheater: int | None = None
    reason: str = ""
    evidence: bytes | None = None
    engine_record: GameRecord | None = None
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fair": self.fair,
            "players": list(self.players),
            "fingerprints": list(self.fingerprints),
            "game_id": self.game_id,
            "messages": self.messages,
            "shuffles_verified": self.shuffles_verified,
            "shares_verified": self.shares_verified,
            "mixes_verified": self.mixes_verified,
            "draws": self.draws,
            "result": self.result,
            "cheater": self.players[self.cheater] if self.cheater is not None else None,
            "reason": self.reason,
            "evidence": self.evidence.hex() if self.evidence is not None else None,
            "seconds": round(self.seconds, 3),
        }

    def text(self) -> str:
        lines = []
        if self.fair:
            lines.append(f"FAIR: game {self.game_id[:16]} verified in {self.seconds:.2f} s")
        else:
            who = self.players[self.cheater] if self.cheater is not None else "nobody named"
            lines.append(f"NOT FAIR: {who}: {self.reason}")
        for s, (name, fp) in enumerate(zip(self.players, self.fingerprints, strict=True)):
            lines.append(f"  seat {s + 1}: {name} (key {fp})")
        lines.append(
            f"  {self.messages} signed messages, {self.shuffles_verified} shuffle proofs, "
            f"{self.mixes_verified} hand-mixing proofs, "
            f"{self.shares_verified} decryption-share proofs checked"
        )
        lines.append(f"  {self.draws} building draws (commit-reveal rounds) checked")
        if self.result is not None and self.fair:
            winners = ", ".join(self.result.get("winners", [])) or "nobody"
            lines.append(f"  result: {self.result.get('vp')}  winner: {winners}")
        if self.evidence is not None:
            lines.append(f"  evidence: signed message {self.evidence[:48].hex()}...")
        lines.extend(f"  {note}" for note in self.notes)
        return "\n".join(lines)


def decode_record(data: bytes) -> tuple[GameParams, list[bytes], bytes | None]:
    """Parse a record file; RecordFormatError if it is not one."""
    try:
        value = decode_value(data, RECORD_LIMITS)
    except RemoteProtocolError as exc:
        hint = " (it looks like a plain game record: use rattus replay)" if data[:1] == b"{" else ""
        raise RecordFormatError(f"not a secure game record: {exc.reason}{hint}") from None
    if not isinstance(value, dict) or value.get("format") != FORMAT:
        raise RecordFormatError(f'not a secure game record: "format" must be "{FORMAT}"')
    if value.get("version") != VERSION:
        raise RecordFormatError(f"unsupported record version {value.get('version')!r}")
    if set(value) != {"format", "version", "params", "messages", "abort"}:
        raise RecordFormatError("not a secure game record: unexpected fields")
    messages, abort = value["messages"], value["abort"]
    if not isinstance(messages, list) or not all(isinstance(m, bytes) for m in messages):
        raise RecordFormatError("not a secure game record: messages must be frames")
    if abort is not None and not isinstance(abort, bytes):
        raise RecordFormatError("not a secure game record: abort must be a frame")
    try:
        params = GameParams.from_wire(value["params"])
    except RemoteProtocolError as exc:
        raise RecordFormatError(f"bad game parameters: {exc.reason}") from None
    return params, [m for m in messages if isinstance(m, bytes)], abort


def _seat(session: Session, exc: RemoteProtocolError) -> int | None:
    if isinstance(exc, PeerFault):
        return exc.seat
    if exc.peer in session.names:
        return session.names.index(exc.peer)
    return None


def verify_record(data: bytes) -> Verdict:
    """Check everything in a record (see the module docstring)."""
    start = time.perf_counter()
    params, messages, abort = decode_record(data)
    session = Session(params, None)
    verdict = Verdict(
        fair=False,
        players=params.config.players,
        fingerprints=tuple(i.fingerprint for i in params.identities),
        game_id=session.game_id.hex(),
    )

    def finish() -> Verdict:
        verdict.messages = len(session.transcript)
        verdict.shuffles_verified = session.ops["shuffles_verified"]
        verdict.shares_verified = session.ops["shares_verified"]
        verdict.mixes_verified = session.ops["mixes_verified"]
        verdict.draws = session.ops["draws"]
        verdict.seconds = time.perf_counter() - start
        return verdict

    try:
        for frame in messages:
            session.receive(frame, 0.0)
    except RemoteProtocolError as exc:
        verdict.cheater = _seat(session, exc)
        verdict.reason = exc.reason
        verdict.evidence = exc.evidence
        return finish()
    if abort is not None:
        _check_abort(session, abort, verdict)
        return finish()
    if not session.finished:
        verdict.reason = "the record stops before the end of the game"
        missing = session.step.senders if session.step is not None else ()
        verdict.notes.append(f"waiting for: {[params.config.players[s] for s in missing]}")
        return finish()
    try:
        rec = engine_record(session)
        game, _ = rec.replay()
    except (RattusError, ProtocolError) as exc:
        verdict.reason = f"the face-level record does not replay: {exc}"
        return finish()
    if result_summary(game) != result_summary(session.public):
        verdict.reason = "the face-level replay ends with another result"
        return finish()
    verdict.fair = True
    verdict.result = result_summary(session.public)
    verdict.engine_record = rec
    return finish()


def _check_abort(session: Session, abort: bytes, verdict: Verdict) -> None:
    """Re-check the writer's abort: evidence that is checkable is replayed; a stall is not."""
    try:
        msg = open_frame(abort, session.game_id, session.params.identities, session.names)
    except RemoteProtocolError as exc:
        verdict.reason = f"the abort record is invalid: {exc.reason}"
        return
    p = msg.payload
    blamed, reason, ev = p.get("blame"), p.get("reason"), p.get("evidence")
    if msg.kind != ABORT or not isinstance(blamed, int) or not isinstance(ev, list):
        verdict.reason = "the abort record is malformed"
        return
    frames = [f for f in ev if isinstance(f, bytes)]
    if len(frames) == 2:
        try:
            m1, m2 = (
                open_frame(f, session.game_id, session.params.identities, session.names)
                for f in frames
            )
            proven = check_equivocation(m1, m2)
        except RemoteProtocolError:
            proven = False
        if proven:
            verdict.cheater = m1.author
            verdict.reason = "equivocation: two signed messages with one sequence number"
            verdict.evidence = m1.frame
            return
    for frame in frames:
        try:
            session.receive(frame, 0.0)
        except RemoteProtocolError as exc:
            verdict.cheater = _seat(session, exc)
            verdict.reason = exc.reason
            verdict.evidence = exc.evidence
            return
    verdict.cheater = blamed if 0 <= blamed < session.n else None
    verdict.reason = (
        f"aborted by {session.names[msg.author]}: {reason!s} (not provable from the record)"
    )


def engine_record(session: Session) -> GameRecord:
    """The face-level engine record of a finished, verified game."""
    faces = session.all_faces()
    g = session.public
    n = g.n
    rec = session.record
    orders = [
        (
            pile,
            session.pile_order(handles)
            if pile in DRAWN_PILES
            else tuple(faces[h] for h in handles),
        )
        for pile, _f, handles in rec.shuffles
    ]
    population = next(o for pile, o in orders if pile == "population")
    buildings = next(o for pile, o in orders if pile == "buildings")
    per, r = D.START_HAND, g.plan.replacement
    order = CardOrder(
        nun_row=list(population[: D.NUN_ROW]),
        hands=[list(population[D.NUN_ROW + s * per : D.NUN_ROW + (s + 1) * per]) for s in range(n)],
        deck=list(population[D.NUN_ROW + n * per :]),
        replacement=list(buildings[:r]),
        building_deck=list(buildings[r:]),
        reshuffles=[list(o) for pile, o in orders if pile == "discard"],
    )
    moves: list[tuple[int, Move]] = []
    for i, (seat, move) in enumerate(g.history):
        face_move: Move
        if isinstance(move, EnterHidden):
            opened = rec.openings.get(i, ())
            face_move = Enter(move.building, tuple(sorted(_face(g, faces, h) for h in opened)))
        elif isinstance(move, PassHandle):
            face_move = PlayPass()
        elif isinstance(move, GiveHandles):
            face_move = Give(tuple(sorted(_face(g, faces, h) for h in move.handles)))
        elif isinstance(move, DiscardHandles):
            face_move = Discard(tuple(sorted(_face(g, faces, h) for h in move.handles)))
        else:
            face_move = move
        moves.append((seat, face_move))
    c = session.params.config
    return GameRecord(
        players=c.players,
        buildings=g.buildings_in_game,
        first_player=g.first_player,
        selection=c.buildings.method.value,
        simultaneous_supply=c.simultaneous_supply,
        plague_survivors=c.plague_survivors,
        order=order,
        moves=moves,
        result=result_summary(g),
    )


def _face(g: Any, faces: dict[int, int], h: int) -> int:
    """A card's face: from its ciphertext, or public (supply cards) in the public engine."""
    if h in faces:
        return faces[h]
    return int(g.faces[h])


def public_replay(data: bytes, upto: int | None = None) -> tuple[Game, str | None]:
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
