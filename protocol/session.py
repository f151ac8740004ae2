"""The network table: one peer's sans-IO protocol endpoint (and, without a seat, the verifier).

Every peer runs two engines on the same sequence of moves:

* the **public engine** (``public``) knows only what everybody knows. Its pending table
  request is the same at every peer and in the verifier, so it drives the protocol schedule;
* the peer's **own engine** (``game``) also knows the peer's secrets (its hand, its looks); the
  peer's player (human or bot) decides from ``PlayerView(game, seat)``.

The game proceeds in numbered **steps**. Each step expects one message from each of a fixed set
of seats (computed from the public engine), all broadcast to every peer; a step is processed
when all its messages are in, in seat order, so the transcript is identical everywhere. A step
is validated completely (signatures, chain, transcript hash, proofs, engine legality) before
anything changes; anything wrong raises a :class:`~protocol.errors.RemoteProtocolError` naming
the seat to blame and leaves the state as it was. A fault that a correctly signed message
proves (a bad proof, an illegal move, an opening that does not match, an equivocation) also
*aborts* the session with a signed abort record. See docs/protocol.md for every message kind.

Sans-IO: bytes come in through :meth:`Session.receive`, frames to broadcast accumulate in
:meth:`Session.take_outgoing`, time is passed in (``now``, seconds), randomness comes from the
peer's :class:`~protocol.params.PeerSecrets`.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from protocol.crypto.commit import commit
from protocol.crypto.elgamal import Ciphertext
from protocol.crypto.group import Point, Scalar
from protocol.crypto.transfer import EncryptedShare
from protocol.errors import DecodeError, LocalProtocolError, RemoteProtocolError
from protocol.faults import AbortRecord, DisputeFault, PeerFault, ProvenFault, ReplayError
from protocol.messages import (
    ABORT,
    CHAT,
    COMMIT_MOVES,
    COMMITMENT_DOMAIN,
    EVIDENCE,
    MOVE,
    Signed,
    check_equivocation,
    check_fork,
    move_to_wire,
    open_frame,
    sign,
)
from protocol.params import GameParams, PeerSecrets
from protocol.record import encode_record
from protocol.schedule import Schedule
from protocol.state import (
    MAX_QUEUED,
    OfState,
    PublicRecord,
    SessionState,
    Step,
    Successor,
    draw_context,
    face_of_point,
    game_context,
    open_card_mask,
)
from protocol.steps import StepChecks
from protocol.wire import WireValue, encode_value
from rattus_net.kit.errors import CheatDetected, IllegalMove
from rattus_net.kit.interface import AnySecureGame

__all__ = [
    "MAX_QUEUED",
    "AbortRecord",
    "DisputeFault",
    "PeerFault",
    "ProvenFault",
    "PublicRecord",
    "ReplayError",
    "Session",
    "Step",
    "Successor",
    "draw_context",
    "face_of_point",
    "game_context",
    "open_card_mask",
]


class Session:
    """One peer of the network table (``seat`` given) or an observer/verifier (``seat=None``).

    ``timeout`` bounds how long a step may wait for protocol messages, ``decision_timeout``
    how long it may wait for a player's decision; past them :meth:`tick` aborts and blames.

    The session owns its :class:`~protocol.state.SessionState` (``state``) and calls the step
    checks (``checks``, ``steps.py``) and the schedule (``schedule``, ``schedule.py``) over it;
    the state's attributes read here are the state's own.
    """

    params = OfState[GameParams]()
    game_id = OfState[bytes]()
    n = OfState[int]()
    secure = OfState[AnySecureGame]()
    names = OfState[tuple[str, ...]]()
    seat = OfState[int | None]()
    timeout = OfState[float]()
    config = OfState[Any]()
    decision_timeout = OfState[float]()
    drawn_piles = OfState[frozenset[str]]()
    public = OfState[Any]()
    game = OfState[Any]()
    transcript = OfState[list[bytes]]()
    th = OfState[bytes]()
    seen = OfState[list[bytes]]()
    step = OfState[Step | None]()
    finished = OfState[bool]()
    abort = OfState[AbortRecord | None]()
    keys = OfState[list[Point | None]]()
    joint = OfState[Point | None]()
    cards = OfState[dict[int, Ciphertext]]()
    pub = OfState[dict[int, dict[int, Point]]]()
    enc = OfState[dict[int, tuple[tuple[int, int, EncryptedShare], ...]]]()
    my_faces = OfState[dict[int, int]]()
    record = OfState[PublicRecord]()
    pile_left = OfState[list[int]]()
    undecided = OfState[frozenset[int]]()
    drawn_faces = OfState[dict[int, int]]()
    ops = OfState[dict[str, int]]()
    # (Read by tests that play a cheating peer or look at the arrival chains.)
    _elg = OfState[Scalar | None]()
    _secrets = OfState[PeerSecrets | None]()
    _next_seq = OfState[list[int]]()
    _last_hash = OfState[list[bytes]]()
    _inbox = OfState[list[deque[Signed]]]()
    _draws = OfState[int]()

    def __init__(
        self,
        params: GameParams,
        seat: int | None = None,
        secrets: PeerSecrets | None = None,
        *,
        now: float = 0.0,
        timeout: float = 30.0,
        decision_timeout: float = 600.0,
        verify_own: bool = False,
    ) -> None:
        self.state = SessionState(
            params,
            seat,
            secrets,
            timeout=timeout,
            decision_timeout=decision_timeout,
            verify_own=verify_own,
        )
        self.checks = StepChecks(self.state)
        self.schedule = Schedule(self.state, self.checks)
        self.schedule.start(now)

    def has_message(self, seat: int, step: int) -> bool:
        """True if a message of ``seat`` for ``step`` has arrived (and waits)."""
        return self._has_message(seat, step)

    def _has_message(self, seat: int, step: int) -> bool:
        return self.state.has_message(seat, step)

    def processed(self, a: int) -> Signed | None:
        """The last message of seat ``a`` that joined the transcript (None before any)."""
        return self.state.processed(a)

    def all_faces(self) -> dict[int, int]:
        """Every card's face, once every peer has published its key (verifier side)."""
        return self.state.all_faces()

    def pile_order(self, handles: tuple[int, ...]) -> tuple[int, ...]:
        """The faces of the drawn pile's ``handles`` (see :meth:`SessionState.pile_order`)."""
        return self.state.pile_order(handles)

    def _abort(
        self, blamed: int | None, reason: str, evidence: tuple[bytes, ...], *, proven: bool = False
    ) -> None:
        self.state._abort(blamed, reason, evidence, proven=proven)

    def take_outgoing(self) -> list[bytes]:
        """Frames to broadcast to every other peer, oldest first (and forget them)."""
        out, self.state._outbox = self.state._outbox, []
        return out

    @property
    def needs_decision(self) -> bool:
        """True when the game waits for our player's decision (see :meth:`decide`)."""
        st = self.step
        return (
            st is not None
            and self.abort is None
            and self.seat is not None
            and st.kind in (MOVE, COMMIT_MOVES)
            and self.seat in st.senders
            and self.state._sent_step != st.index
        )

    def decide(self, move: Any, now: float) -> None:
        """Our player's decision. Raises ``IllegalMove`` (nothing changes) if the rules forbid
        it, ``LocalProtocolError`` if no decision of ours is awaited."""
        if not self.needs_decision:
            raise LocalProtocolError("no decision of ours is awaited")
        kind, payload, keep = self._decision_message(move, check=True)
        self.state._my_move = move
        if kind == COMMIT_MOVES:
            self.state._my_committed = keep
        elif keep is not None:
            self.state._my_open = keep
        self.state._send(kind, payload)
        self._pump(now)

    def _decision_message(self, move: Any, *, check: bool) -> tuple[str, dict[str, WireValue], Any]:
        """The kind and payload of our message for ``move`` at the current step, and what to
        keep for its opening (deterministic: the salts come from our secrets). ``check``:
        the rules are checked (on copies) first, raising ``IllegalMove``."""
        assert self.step is not None and self.game is not None and self.seat is not None
        me, st = self.seat, self.step
        if st.kind == COMMIT_MOVES:
            # A committed decision: every seat commits, then all open (OPEN_MOVES).
            self.secure.check_committed(self.game, me, move)
            wire = move_to_wire(move, None, self.secure)
            salt = self.state._stream(b"salt", st.index)(32)
            domain = game_context(self.game_id, COMMITMENT_DOMAIN, st.index, me)
            c = commit(encode_value(wire), salt, domain=domain)
            return COMMIT_MOVES, {"c": c}, (wire, salt)
        if check:
            self.game.clone().apply(me, move)  # legality, on a copy
        handle_move, handles = self.secure.public_move(self.game, me, move)
        commitment = None
        opening = None
        if handles is not None:  # a hidden part: committed now, opened at the Open request
            salt = self.state._stream(b"salt", st.index)(32)
            domain = game_context(self.game_id, b"enter", st.index, me)
            commitment = commit(encode_value(list(handles)), salt, domain=domain)
            opening = (handles, salt)
        if check:
            self.public.clone().apply(me, handle_move)
        return MOVE, {"m": move_to_wire(handle_move, commitment, self.secure)}, opening

    def recover_decision(self, frame: bytes, choices: Iterable[Any]) -> Any:
        """The decision of ours that ``frame`` made: a message signed with our key for the
        current step that another peer holds and our journal lost (a resumed peer adopts it
        instead of deciding again, which would sign a second, different message for one
        sequence number). The move among ``choices`` whose message is exactly ``frame``
        (same chain, step, transcript and payload), or None if there is none: then no
        message of ours may be signed for this step."""
        if not self.needs_decision:
            return None
        assert self.step is not None and self.seat is not None
        me, st = self.seat, self.step
        try:
            msg = open_frame(frame, self.game_id, self.params.identities, self.names)
        except RemoteProtocolError:
            return None
        if (
            msg.author != me
            or msg.kind != st.kind
            or msg.seq != self._next_seq[me]
            or msg.prev != self._last_hash[me]
            or msg.step != st.index
            or msg.th != self.th
            or msg.seen != tuple(self.seen)
        ):
            return None
        target = encode_value(msg.payload)
        for move in choices:
            try:
                _, payload, _ = self._decision_message(move, check=False)
            except (IllegalMove, LocalProtocolError):
                continue
            if encode_value(payload) == target:
                return move
        return None

    def receive(self, frame: bytes, now: float, link: int | None = None) -> None:
        """Take one frame received from the network (``link``: the seat it came from).

        Raises only RemoteProtocolError subclasses for bad input; on error nothing changes,
        except that a fault proven by a signed message aborts the session (see ``abort``)."""
        if self.abort is not None or self.finished:
            return
        link_name = self.names[link] if link is not None else None
        msg = open_frame(
            frame,
            self.game_id,
            self.params.identities,
            self.names,
            link=link_name,
        )
        if msg.kind == CHAT:
            return  # chat is not the game: never in the transcript (see protocol/chat.py)
        if link is not None and msg.author != link and msg.kind != ABORT:
            # (An abort is passed on by every peer that adopts it: see _on_abort.)
            raise PeerFault(link, self.names[link], "relayed another peer's message", frame)
        if msg.kind == EVIDENCE:
            self._on_evidence(msg, now)
            return
        if msg.kind == ABORT:
            self._on_abort(msg, now)
            return
        self.state._arrive(msg, now)
        try:
            self._pump(now)
        except RemoteProtocolError as exc:
            # The frame itself is in (it must be journaled); the fault is its own author's.
            exc.accepted = True
            raise

    def tick(self, now: float, absent: Mapping[int, float] | None = None) -> None:
        """Let time pass: a step that waited too long aborts, blaming who did not answer.

        A player may think for ``decision_timeout``; a protocol step may take ``timeout``.
        ``absent`` maps seats whose connection is down to the time it went down (the caller
        knows its links): a seat we wait for that has been gone longer than ``timeout`` is
        blamed at once, even while it owes a move, instead of being given thinking time."""
        st = self.step
        if st is None or self.abort is not None or self.finished:
            return
        missing = [s for s in st.senders if not self._has_message(s, st.index)]
        if self.seat in missing:
            return  # we owe the message ourselves (our player has not decided)
        if not missing:
            return
        gone = [s for s in missing if absent and s in absent and now - absent[s] > self.timeout]
        if gone:
            self._abort(
                gone[0], f"stalled: gone while it owed the {st.kind} of step {st.index}", ()
            )
            return
        limit = self.decision_timeout if st.kind in (MOVE, COMMIT_MOVES) else self.timeout
        if now - st.started > limit:
            who = missing[0]
            self._abort(who, f"stalled: no {st.kind} message for step {st.index}", ())

    def stop(self, reason: str, blamed: int | None = None) -> None:
        """End the game by our own signed abort (a peer that cannot go on honestly, say whose
        journal lost messages it had sent), naming ``blamed`` (a claim, never proven) or
        nobody. No-op once over."""
        if self.seat is None:
            raise LocalProtocolError("only a seated session can stop the game")
        if self.abort is None and not self.finished:
            self._abort(blamed, reason, ())

    def show(self, frames: tuple[bytes, ...]) -> None:
        """Show ``frames`` (messages of other seats as we hold them) to every peer in a signed
        ``evidence`` message: a peer holding another message of the same author with the same
        sequence number then holds the proof that its author equivocated (see
        :meth:`_on_evidence`). No-op without frames or without a seat."""
        if self.state._identity is None or self.seat is None or not frames:
            return
        body: dict[str, WireValue] = {
            "g": self.game_id,
            "a": self.seat,
            "x": {"m": list(frames[:16])},
        }
        self.state._outbox.append(sign(self.state._identity, EVIDENCE, body))

    def differing(self, then: bytes, now: tuple[bytes, ...] | None = None) -> tuple[bytes, ...]:
        """The messages we hold now of the seats whose messages differ from what we had
        processed when we signed ``then`` (a message of ours, as another peer holds it):
        its view names, for each seat, the hash of the last message of that seat we had
        processed; ``now`` is our view at the same place of our chain (default: our view
        now). For each seat whose hash differs, our last few messages of it: whoever holds
        another message of that seat with one of their sequence numbers can prove that the
        seat signed two (a resumed peer whose journal lost messages, fed other ones by a
        peer, shows them rather than sign twice)."""
        try:
            old = open_frame(then, self.game_id, self.params.identities, self.names)
        except RemoteProtocolError:
            return ()
        if not old.chained or len(old.seen) != self.n:
            return ()
        view = now if now is not None else tuple(self.seen)
        frames: list[bytes] = []
        for a in range(self.n):
            if a == self.seat or old.seen[a] == view[a]:
                continue
            last = self.state._message_with_hash(a, view[a])
            if last is None:
                continue
            for seq in range(last.seq, max(-1, last.seq - 4), -1):
                m = self.state._by_seq[a].get(seq)
                if m is not None:
                    frames.append(m.frame)
        return tuple(frames[:16])

    def record_bytes(self, chat: Sequence[bytes] = ()) -> bytes:
        """The signed record of this game (see ``protocol/record.py``), with the ``chat``
        lines heard at the table (signed frames the verifier does not judge)."""
        abort = self.abort.frame if self.abort is not None else None
        return encode_record(self.params, self.transcript, abort, chat)

    def _on_evidence(self, msg: Signed, now: float) -> None:
        items = msg.payload.get("m")
        if not isinstance(items, list) or len(items) > 16:
            raise DecodeError(self.names[msg.author], "evidence must be a short list", msg.frame)
        for raw in items:
            if not isinstance(raw, bytes):
                raise DecodeError(self.names[msg.author], "evidence items are frames", msg.frame)
            other = open_frame(raw, self.game_id, self.params.identities, self.names)
            mine = self.state._by_seq[other.author].get(other.seq)
            if mine is not None and check_equivocation(mine, other):
                self._abort(
                    other.author,
                    "equivocation: two messages with one sequence number",
                    (mine.frame, other.frame),
                    proven=True,
                )
                return

    def _on_abort(self, msg: Signed, now: float) -> None:
        """Another peer stopped the game: adopt its signed abort (one decision for every
        peer). Only evidence we check ourselves (an equivocation) makes it a proven fault;
        anything else stays that peer's claim, even when it names us."""
        record = self._abort_record(msg)
        if self.abort is not None:
            return
        self.abort = record
        if self.seat is not None:
            # Pass it on: a peer the aborting peer could not reach (or that comes back later)
            # learns the same decision from us.
            self.state._outbox.append(msg.frame)

    def _abort_record(self, msg: Signed) -> AbortRecord:
        """What a signed abort says (DecodeError if it is malformed): proven only where its
        evidence is two messages of the seat it blames that we check equivocate."""
        p = msg.payload
        blamed, reason, ev = p.get("blame"), p.get("reason"), p.get("evidence")
        if (
            isinstance(blamed, bool)
            or not (blamed is None or (isinstance(blamed, int) and 0 <= blamed < self.n))
            or not isinstance(reason, str)
            or not isinstance(ev, list)
        ):
            raise DecodeError(self.names[msg.author], "malformed abort", msg.frame)
        frames = tuple(f for f in ev if isinstance(f, bytes))
        proven = False
        if len(frames) == 2:
            try:
                m1, m2 = (
                    open_frame(f, self.game_id, self.params.identities, self.names) for f in frames
                )
                proven = check_fork(m1, m2) and m1.author == blamed
            except RemoteProtocolError:
                proven = False
        return AbortRecord(blamed, reason, frames, msg.author, msg.frame, proven)

    def read_abort(self, frame: bytes) -> AbortRecord | None:
        """The abort ``frame`` signs, as :meth:`receive` would adopt it (None if it is no
        abort of this game): for a peer that must choose between two aborts that met."""
        try:
            msg = open_frame(frame, self.game_id, self.params.identities, self.names)
            return self._abort_record(msg) if msg.kind == ABORT else None
        except RemoteProtocolError:
            return None

    def take_abort(self, frame: bytes) -> bool:
        """Put the abort ``frame`` in place of ours (two aborts met and this one stands: see
        docs/network.md, "Claims that meet"); False if it is no abort of this game."""
        record = self.read_abort(frame)
        if record is None:
            return False
        self.abort = record
        return True

    def pause(self, seconds: float) -> None:
        """Time that did not pass for the game (this program was stopped, or its computer
        held): the current step's clock moves on by ``seconds``, so that :meth:`tick` judges
        nobody for it."""
        if self.step is not None:
            self.step.started += seconds

    def _fault(
        self, seat: int, reason: str, msg: Signed | None, step: dict[int, Signed] | None = None
    ) -> PeerFault:
        """Abort, blaming ``seat`` with its signed message, and return the error to raise.
        The abort's evidence holds every message of the failed ``step`` (seat order), so
        that anybody holding the transcript can process that step again and see the fault."""
        if msg is None or msg.author != seat:
            self._abort(seat, reason, ())
            return PeerFault(seat, self.names[seat], reason)
        frames = tuple(m.frame for _, m in sorted((step or {seat: msg}).items()))
        self._abort(seat, reason, frames, proven=True)
        return ProvenFault(seat, self.names[seat], reason, (msg.frame,))

    def _pump(self, now: float) -> None:
        while self.step is not None and self.abort is None:
            st = self.step
            # A message at or before our step from a seat not expected now is out of turn.
            for s in range(self.n):
                q = self._inbox[s]
                if q and q[0].step <= st.index:
                    head = q[0]
                    self._check_view(head)
                    if s not in st.senders or head.step != st.index or head.kind != st.kind:
                        q.popleft()
                        raise self._fault(
                            s, f"{head.kind} message out of turn (step {head.step})", head
                        )
            if not all(self._inbox[s] and self._inbox[s][0].step == st.index for s in st.senders):
                self.schedule.act()
                if not all(
                    self._inbox[s] and self._inbox[s][0].step == st.index for s in st.senders
                ):
                    return
            msgs = {s: self._inbox[s][0] for s in st.senders}
            self._process(st, msgs, now)

    def _check_view(self, msg: Signed) -> None:
        """The message's transcript hash and per-author hashes must match ours at its step."""
        th, seen = self.state._th_at[msg.step]
        if msg.th == th and msg.seen == seen:
            return
        differing = [a for a in range(self.n) if msg.seen[a] != seen[a]]
        if not differing:
            self._inbox[msg.author].popleft()
            raise self._fault(msg.author, "desync: transcript hash differs", msg)
        own = self.state._message_with_hash(msg.author, seen[msg.author])
        if msg.author in differing and own is not None:
            # Its own earlier message, as it signed it, is not the one its view names.
            self._inbox[msg.author].popleft()
            reason = "its view of its own messages contradicts a message it signed"
            self._abort(msg.author, reason, (own.frame, msg.frame), proven=True)
            raise ProvenFault(msg.author, self.names[msg.author], reason, (own.frame, msg.frame))
        # Somebody's messages differ between us and the sender: show ours to everyone; the
        # peer holding the other version can then prove the equivocation.
        frames: list[bytes] = []
        for a in differing:
            last = self.state._message_with_hash(a, seen[a])  # ours, as it stood at that step
            if last is not None:
                frames.append(last.frame)
        if self.state._identity is not None and frames:
            self.show(tuple(frames))
        self._inbox[msg.author].popleft()
        raise DisputeFault(
            msg.author,
            self.names[msg.author],
            f"view differs from ours for {[self.names[a] for a in differing]}",
            tuple(a for a in differing if a != msg.author),
            (msg.frame, *frames),
        )

    def _process(self, st: Step, msgs: dict[int, Signed], now: float) -> None:
        snap = self.state._snapshot()
        th, seen, length = self.th, list(self.seen), len(self.transcript)
        try:
            successor = self.checks.check(st, msgs)
            # The step's messages join the transcript before the next step starts.
            for s in st.senders:
                m = msgs[s]
                self.transcript.append(m.frame)
                self.th = hashlib.sha256(self.th + m.hash).digest()
                self.seen[s] = m.hash
            if successor is not None:
                kind, senders, info = successor
                self.schedule.new_step(kind, senders, now, info)
            else:
                self.step = None
                self.schedule.advance(now)
            self.state._settle_own()
        except Exception as exc:
            self.state._restore(snap)
            self.th, self.seen = th, seen
            del self.transcript[length:]
            seat: int | None
            if isinstance(exc, PeerFault):
                seat, reason = exc.seat, exc.reason
            elif isinstance(exc, RemoteProtocolError):
                seat, reason = self._seat_of(exc.peer, st), exc.reason
            elif isinstance(exc, CheatDetected):
                seat, reason = exc.seat, f"cheat: {exc}"
            elif isinstance(exc, IllegalMove):
                seat, reason = self._seat_of(None, st), f"illegal move: {exc}"
            else:
                # Anything else a step's messages made our checks raise (a number the game's
                # parser could not read, a state no honest message leads to) is still their
                # doing, never a crash: the step's only sender is blamed on the message it
                # signed (the verifier, replaying it, meets the same error); a step of
                # several senders stops naming nobody.
                seat = self._seat_of(None, st)
                reason = f"its {st.kind} message breaks the game ({type(exc).__name__}: {exc})"
            if seat is None:
                # Nothing says whose message it was: stop, naming nobody.
                self._abort(None, f"step {st.index} ({st.kind}) fails: {reason}", ())
                raise RemoteProtocolError(None, reason) from None
            raise self._fault(seat, reason, msgs.get(seat), msgs) from None
        for s in st.senders:
            self._inbox[s].popleft()
        self.ops["messages"] += len(st.senders)
        self.schedule.act()

    def _seat_of(self, name: str | None, st: Step) -> int | None:
        """The seat an error names, or the step's only sender; None if it is not clear."""
        if name is not None and name in self.names:
            return self.names.index(name)
        return st.senders[0] if len(st.senders) == 1 else None
