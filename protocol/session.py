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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from protocol.crypto.commit import check as check_commitment
from protocol.crypto.commit import commit
from protocol.crypto.elgamal import (
    Ciphertext,
    DecryptionShare,
    KeyAnnouncement,
    card_point,
    decryption_share,
    generate_key,
    joint_key,
    unmask,
    verify_key,
    verify_share,
)
from protocol.crypto.group import Point, Scalar, base_mul
from protocol.crypto.identity import Identity
from protocol.crypto.shuffle import (
    ShuffleProof,
    shuffle,
    shuffle_with_permutation,
    verify_shuffle,
)
from protocol.crypto.transfer import (
    EncryptedShare,
    decrypt_share,
    encrypt_share,
    verify_encrypted_share,
)
from protocol.errors import (
    CryptoError,
    DecodeError,
    LocalProtocolError,
    RemoteProtocolError,
)
from protocol.messages import (
    ABORT,
    EVIDENCE,
    HELLO,
    KEYS,
    MIX,
    MOVE,
    OPEN,
    RAND_COMMIT,
    RAND_REVEAL,
    SHARES,
    SHUFFLE,
    SUPPLY_COMMIT,
    SUPPLY_OPEN,
    ZERO_HASH,
    Signed,
    check_equivocation,
    move_from_wire,
    move_to_wire,
    open_frame,
    sign,
)
from protocol.params import GameParams, PeerSecrets
from protocol.randomness import CommitReveal, RandomStream, draw_without_replacement
from protocol.randomness import commitment as rand_commitment
from protocol.wire import WireValue, encode_value
from rattus_net.engine.errors import CheatDetected, IllegalMove
from rattus_net.engine.table import Open, PublicRandom, Rehandle, Reveal, Shuffle, TableRequest
from rattus_net.games.base import SecureGame

_TRANSCRIPT = b"rattus-net/v1/transcript\x00"
MAX_QUEUED = 256
"""Messages buffered per author ahead of our step; more is a flood and is refused."""


def _be4(i: int) -> bytes:
    return i.to_bytes(4, "big")


class PeerFault(RemoteProtocolError):
    """A fault attributed to seat ``seat`` (``peer`` is its name)."""

    def __init__(self, seat: int, name: str, reason: str, evidence: bytes | None = None) -> None:
        super().__init__(name, reason, evidence)
        self.seat = seat


class ReplayError(PeerFault):
    """A message we already accepted arrived again (dropped; nothing changes)."""


class ProvenFault(PeerFault):
    """A fault that messages signed by ``seat`` itself prove (``frames``): one signed message
    that breaks a rule given the transcript before it, or two that conflict. Anybody holding
    the transcript can check it, so it is the only kind of fault that names a cheater."""

    def __init__(self, seat: int, name: str, reason: str, frames: tuple[bytes, ...] = ()) -> None:
        super().__init__(seat, name, reason, frames[-1] if frames else None)
        self.frames = frames


class DisputeFault(PeerFault):
    """Two seats' signed messages disagree about what one of them sent (the message of
    ``seat`` holds another view of ``others``' messages than ours). Either may be lying: the
    frames are their signed claims, nobody is proven to have cheated."""

    def __init__(
        self, seat: int, name: str, reason: str, others: tuple[int, ...], frames: tuple[bytes, ...]
    ) -> None:
        super().__init__(seat, name, reason, frames[0] if frames else None)
        self.others = others
        self.frames = frames


@dataclass(frozen=True, slots=True)
class AbortRecord:
    """Why a session stopped.

    ``proven``: ``blamed`` is proven at fault by its own signed messages in ``evidence``.
    Otherwise the abort is a claim of seat ``by`` (ours: a stall we saw; or another peer's
    abort we adopted), and ``blamed`` (possibly ``None``) is only the seat it names. ``frame``
    is the signed abort message (ours, or the adopted one of seat ``by``)."""

    blamed: int | None
    reason: str
    evidence: tuple[bytes, ...]
    by: int | None
    frame: bytes | None = None
    proven: bool = False

    def describe(self, names: tuple[str, ...], me: int | None = None) -> str:
        """One line for a person (names are shown as given: pass them through safetext)."""

        def who(seat: int | None) -> str:
            if seat is None:
                return "nobody"
            return "you" if seat == me else names[seat]

        if self.proven and self.blamed is not None:
            return f"stopped: {who(self.blamed)} cheated (proven by signed messages): {self.reason}"
        if self.by is None:
            return f"stopped: {self.reason}"
        about = f" about {who(self.blamed)}" if self.blamed is not None else ""
        return f"stopped by {who(self.by)}, claiming{about}: {self.reason} (not provable)"


@dataclass
class Step:
    index: int
    kind: str
    senders: tuple[int, ...]
    started: float
    info: Any = None


Successor = tuple[str, tuple[int, ...], Any] | None
"""What a step handler returns: the next step of the same exchange, or None to let the
public engine decide the next step."""


_FACE_TABLES: dict[str, dict[bytes, int]] = {}


def face_of_point(game: SecureGame, p: Point) -> int | None:
    """The face of ``game`` whose group point is ``p`` (None: no face of this game)."""
    table = _FACE_TABLES.get(game.name)
    if table is None:
        table = {card_point(f).data: f for f in game.face_codes()}
        _FACE_TABLES[game.name] = table
    return table.get(p.data)


def game_context(game_id: bytes, label: bytes, *ints: int) -> bytes:
    return game_id + b"/" + label + b"".join(b"/" + _be4(i) for i in ints)


def draw_context(game_id: bytes, index: int, positions: tuple[int, ...]) -> bytes:
    """The context of the ``index``-th building draw (a commit-reveal round) turning up the
    cards at ``positions`` of the pile (indices in the ``Shuffle`` request's handles):
    commitments and the seed are bound to the game, the draw and the cards."""
    return game_context(game_id, b"building-draw", index, len(positions), *positions)


def open_card_mask(game_id: bytes, handle: int) -> Scalar:
    """The public mask of a card whose face is public (a supply card) when it first becomes a
    ciphertext: at the mixing of the hand that took it."""
    from protocol.crypto.group import hash_to_scalar

    return hash_to_scalar(b"rattus-net/v1/open-card-mask", game_id, _be4(handle))


@dataclass
class PublicRecord:
    """What the public engine needed from the table, kept for the verifier and the audit."""

    shuffles: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    randoms: list[int] = field(default_factory=list)
    reveals: list[tuple[tuple[int, ...], int | None]] = field(default_factory=list)
    openings: dict[int, tuple[int, ...]] = field(default_factory=dict)  # move index -> handles
    # Mixed hands: (moves played before it, seat, old handles, new handles).
    mixes: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    # Per entry of ``reveals``: how many moves had been played when it was answered.
    reveal_moves: list[int] = field(default_factory=list)
    # Building draws (commit-reveal): the handles turned up and the faces drawn for them.
    draws: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)


class Session:
    """One peer of the network table (``seat`` given) or an observer/verifier (``seat=None``).

    ``timeout`` bounds how long a step may wait for protocol messages, ``decision_timeout``
    how long it may wait for a player's decision; past them :meth:`tick` aborts and blames.
    """

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
        self.params = params
        self.game_id = params.game_id()
        self.n = params.n
        self.secure = params.secure
        self.names = params.players
        self.seat = seat
        self.timeout = timeout
        self.decision_timeout = decision_timeout
        self.verify_own = verify_own
        self._identity: Identity | None = None
        self._secrets = secrets
        self._elg: Scalar | None = None
        if seat is not None:
            if secrets is None:
                raise LocalProtocolError("a seated session needs its secrets")
            self._identity = secrets.identity()
            if self._identity.public != params.identities[seat]:
                raise LocalProtocolError("these secrets are not the identity of this seat")
        # The game as secure play needs it (Rattus Cartus mixes hands, for example).
        self.config = self.secure.secure_config(params.config)
        # Piles served by commit-reveal public randomness instead of mental poker: their
        # faces are public once turned up, so nothing is masked or shuffled; each ``Reveal``
        # of their cards is one commit-reveal round among all peers, and the cards turned up
        # are drawn from those not yet placed (``draw_without_replacement``).
        self.drawn_piles = self.secure.drawn_piles
        self.public: Any = self.secure.new_game(self.config)
        self.game: Any = self.secure.new_game(self.config) if seat is not None else None
        # Per author: arrival chain and buffered messages.
        self._next_seq = [0] * self.n
        self._last_hash = [ZERO_HASH] * self.n
        self._by_seq: list[dict[int, Signed]] = [{} for _ in range(self.n)]
        self._inbox: list[deque[Signed]] = [deque() for _ in range(self.n)]
        # Processed transcript.
        self.transcript: list[bytes] = []
        self.th = hashlib.sha256(_TRANSCRIPT + self.game_id).digest()
        self.seen = [ZERO_HASH] * self.n
        self._th_at: dict[int, tuple[bytes, tuple[bytes, ...]]] = {}
        self.step: Step | None = None
        self._steps = 0
        self._sent_step = -1
        self.finished = False
        self.abort: AbortRecord | None = None
        self._outbox: list[bytes] = []
        # Table state.
        self.keys: list[Point | None] = [None] * self.n
        self.joint: Point | None = None
        self.revealed_keys: list[Scalar | None] = [None] * self.n
        self.cards: dict[int, Ciphertext] = {}
        self.unpublished: dict[int, frozenset[int]] = {}
        self.pub: dict[int, dict[int, Point]] = {}
        self.enc: dict[int, tuple[tuple[int, int, EncryptedShare], ...]] = {}
        self.my_faces: dict[int, int] = {}
        self.record = PublicRecord()
        self._shuffles = 0
        self._randoms = 0
        self._mixes = 0
        self._my_mix: tuple[int, list[int]] | None = None  # step index, faces of new handles
        self._rand_commits: dict[str, bytes] = {}
        # The drawn pile (``drawn_piles``): faces not drawn yet (sorted), its handles not
        # turned up yet, and the faces drawn so far.
        self.pile_left: list[int] = []
        self.pile_handles: tuple[int, ...] = ()
        self.undecided: frozenset[int] = frozenset()
        self.drawn_faces: dict[int, int] = {}
        self._draws = 0
        self._enter_commit: dict[int, tuple[bytes, bytes, int]] = {}  # seat -> digest, domain, i
        self._supply_commit: dict[int, tuple[bytes, bytes]] = {}
        self._own_queue: deque[tuple[TableRequest, Any]] = deque()
        # Our pending decision (sent in the step's message).
        self._my_move: Any = None
        self._my_open: tuple[tuple[int, ...], bytes] | None = None
        self._my_supply: tuple[dict[str, WireValue], bytes] | None = None
        self.ops = {
            "shuffles_verified": 0,
            "shares_verified": 0,
            "mixes_verified": 0,
            "draws": 0,
            "messages": 0,
        }
        self._start(now)

    # --- public API ---------------------------------------------------------------------------

    def take_outgoing(self) -> list[bytes]:
        """Frames to broadcast to every other peer, oldest first (and forget them)."""
        out, self._outbox = self._outbox, []
        return out

    @property
    def needs_decision(self) -> bool:
        """True when the game waits for our player's decision (see :meth:`decide`)."""
        st = self.step
        return (
            st is not None
            and self.abort is None
            and self.seat is not None
            and st.kind in (MOVE, SUPPLY_COMMIT)
            and self.seat in st.senders
            and self._sent_step != st.index
        )

    def decide(self, move: Any, now: float) -> None:
        """Our player's decision. Raises ``IllegalMove`` (nothing changes) if the rules forbid
        it, ``LocalProtocolError`` if no decision of ours is awaited."""
        if not self.needs_decision:
            raise LocalProtocolError("no decision of ours is awaited")
        kind, payload, keep = self._decision_message(move, check=True)
        self._my_move = move
        if kind == SUPPLY_COMMIT:
            self._my_supply = keep
        elif keep is not None:
            self._my_open = keep
        self._send(kind, payload)
        self._pump(now)

    def _decision_message(self, move: Any, *, check: bool) -> tuple[str, dict[str, WireValue], Any]:
        """The kind and payload of our message for ``move`` at the current step, and what to
        keep for its opening (deterministic: the salts come from our secrets). ``check``:
        the rules are checked (on copies) first, raising ``IllegalMove``."""
        assert self.step is not None and self.game is not None and self.seat is not None
        me, st = self.seat, self.step
        if st.kind == SUPPLY_COMMIT:
            # A committed decision: every seat commits, then all open (SUPPLY_OPEN).
            self.secure.check_committed(self.game, me, move)
            wire = move_to_wire(move, None, self.secure)
            salt = self._stream(b"salt", st.index)(32)
            domain = game_context(self.game_id, b"supply", st.index, me)
            c = commit(encode_value(wire), salt, domain=domain)
            return SUPPLY_COMMIT, {"c": c}, (wire, salt)
        if check:
            self.game.clone().apply(me, move)  # legality, on a copy
        handle_move, handles = self.secure.public_move(self.game, me, move)
        commitment = None
        opening = None
        if handles is not None:  # a hidden part: committed now, opened at the Open request
            salt = self._stream(b"salt", st.index)(32)
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
        msg = open_frame(frame, self.game_id, self.params.identities, self.names, link=link_name)
        if link is not None and msg.author != link and msg.kind != ABORT:
            # (An abort is passed on by every peer that adopts it: see _on_abort.)
            raise PeerFault(link, self.names[link], "relayed another peer's message", frame)
        if msg.kind == EVIDENCE:
            self._on_evidence(msg, now)
            return
        if msg.kind == ABORT:
            self._on_abort(msg, now)
            return
        self._arrive(msg, now)
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
        limit = self.decision_timeout if st.kind in (MOVE, SUPPLY_COMMIT) else self.timeout
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

    def record_bytes(self) -> bytes:
        """The signed record of this game (see ``protocol/record.py``)."""
        from protocol.record import encode_record

        return encode_record(self)

    # --- arrival ------------------------------------------------------------------------------

    def _has_message(self, seat: int, step: int) -> bool:
        return any(m.step == step for m in self._inbox[seat])

    def has_message(self, seat: int, step: int) -> bool:
        """True if a message of ``seat`` for ``step`` has arrived (and waits)."""
        return self._has_message(seat, step)

    def _arrive(self, msg: Signed, now: float) -> None:
        a, name = msg.author, self.names[msg.author]
        if msg.seq < self._next_seq[a]:
            old = self._by_seq[a].get(msg.seq)
            if old is not None and old.inner == msg.inner:
                raise ReplayError(a, name, f"replayed message (sequence {msg.seq})", msg.frame)
            if old is not None and check_equivocation(old, msg):
                reason = "equivocation: two messages with one sequence number"
                frames = (old.frame, msg.frame)
                self._abort(a, reason, frames, proven=True)
                raise ProvenFault(a, name, reason, frames)
            raise PeerFault(a, name, "old sequence number", msg.frame)
        if msg.seq > self._next_seq[a]:
            raise PeerFault(a, name, f"sequence gap: expected {self._next_seq[a]}", msg.frame)
        if msg.prev != self._last_hash[a]:
            # Two signed messages of one author that do not chain: it signed another
            # previous message than the one we hold.
            before = self._by_seq[a].get(msg.seq - 1)
            chain: tuple[bytes, ...] = (msg.frame,)
            if before is not None:
                chain = (before.frame, msg.frame)
            reason = "broken hash chain: the message does not follow its author's previous one"
            self._abort(a, reason, chain, proven=True)
            raise ProvenFault(a, name, reason, chain)
        if len(self._inbox[a]) >= MAX_QUEUED:
            raise PeerFault(a, name, "too many messages ahead of the game", msg.frame)
        self._next_seq[a] += 1
        self._last_hash[a] = msg.hash
        self._by_seq[a][msg.seq] = msg
        self._inbox[a].append(msg)

    # --- control messages ---------------------------------------------------------------------

    def _on_evidence(self, msg: Signed, now: float) -> None:
        items = msg.payload.get("m")
        if not isinstance(items, list) or len(items) > 16:
            raise DecodeError(self.names[msg.author], "evidence must be a short list", msg.frame)
        for raw in items:
            if not isinstance(raw, bytes):
                raise DecodeError(self.names[msg.author], "evidence items are frames", msg.frame)
            other = open_frame(raw, self.game_id, self.params.identities, self.names)
            mine = self._by_seq[other.author].get(other.seq)
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
        if self.abort is not None:
            return
        proven = False
        if len(frames) == 2:
            try:
                m1, m2 = (
                    open_frame(f, self.game_id, self.params.identities, self.names) for f in frames
                )
                proven = check_equivocation(m1, m2) and m1.author == blamed
            except RemoteProtocolError:
                proven = False
        self.abort = AbortRecord(blamed, reason, frames, msg.author, msg.frame, proven)
        if self.seat is not None:
            # Pass it on: a peer the aborting peer could not reach (or that comes back later)
            # learns the same decision from us.
            self._outbox.append(msg.frame)

    def _abort(
        self,
        blamed: int | None,
        reason: str,
        evidence: tuple[bytes, ...],
        *,
        proven: bool = False,
    ) -> None:
        if self.abort is not None:
            return
        frame = None
        if self._identity is not None:
            frame = sign(
                self._identity,
                ABORT,
                {
                    "g": self.game_id,
                    "a": self.seat,
                    "x": {
                        "blame": blamed,
                        "reason": reason,
                        "evidence": list(evidence),
                        "step": self.step.index if self.step else -1,
                    },
                },
            )
            self._outbox.append(frame)
        self.abort = AbortRecord(blamed, reason, evidence, self.seat, frame, proven)

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

    # --- sending ------------------------------------------------------------------------------

    def _stream(self, label: bytes, index: int) -> RandomStream:
        assert self._secrets is not None
        return self._secrets.stream(label + b"/" + str(index).encode())

    def _send(self, kind: str, payload: dict[str, WireValue]) -> None:
        assert self._identity is not None and self.seat is not None and self.step is not None
        me = self.seat
        body: dict[str, WireValue] = {
            "g": self.game_id,
            "a": me,
            "q": self._next_seq[me],
            "p": self._last_hash[me],
            "t": self.step.index,
            "h": self.th,
            "s": list(self.seen),
            "x": payload,
        }
        frame = sign(self._identity, kind, body)
        self._sent_step = self.step.index
        self._outbox.append(frame)
        msg = open_frame(frame, self.game_id, self.params.identities, self.names)
        self._arrive(msg, 0.0)

    def _act(self) -> None:
        """Send our message for the current step if we owe one and need no decision."""
        st = self.step
        me = self.seat
        if st is None or me is None or me not in st.senders or self._sent_step == st.index:
            return
        if self.abort is not None:
            return
        k = st.kind
        if k == HELLO:
            ctx = game_context(self.game_id, b"elgamal", me)
            secret, ann = generate_key(self._stream(b"elgamal", 0), ctx)
            self._elg = secret
            self._send(HELLO, {"k": ann.to_bytes()})
        elif k == RAND_COMMIT:
            label, j, ctx = self._rand_round(st)
            mine = self._stream(label, j)(32)
            self._send(RAND_COMMIT, {"c": rand_commitment(mine, self.names[me], ctx)})
        elif k == RAND_REVEAL:
            label, j, _ = self._rand_round(st)
            self._send(RAND_REVEAL, {"r": self._stream(label, j)(32)})
        elif k == SHUFFLE:
            assert self.joint is not None
            deck, kidx = st.info["deck"], st.info["k"]
            ctx = game_context(self.game_id, b"shuffle", kidx, me)
            out, proof = shuffle(deck, self.joint, self._stream(b"shuffle", kidx), ctx)
            self._send(SHUFFLE, {"d": b"".join(c.to_bytes() for c in out), "p": proof.to_wire()})
        elif k == SHARES:
            self._send(SHARES, self._my_shares(st))
        elif k == MIX:
            self._send(MIX, self._my_mixing(st))
        elif k == OPEN:
            if self._my_open is None:
                raise LocalProtocolError("asked to open a play we did not make")
            handles, salt = self._my_open
            self._send(OPEN, {"h": list(handles), "s": salt})
        elif k == SUPPLY_OPEN:
            if self._my_supply is None:
                raise LocalProtocolError("asked to open a supply choice we did not make")
            wire, salt = self._my_supply
            self._send(SUPPLY_OPEN, {"m": wire, "s": salt})
        elif k == KEYS:
            assert self._elg is not None
            self._send(KEYS, {"x": self._elg.data})
        # MOVE and SUPPLY_COMMIT wait for decide().

    def _rand_round(self, st: Step) -> tuple[bytes, int, bytes]:
        """The secret stream label, round number and context of a commit-reveal step: a
        building draw (``st.info["draw"]``: the handles turned up) or a public number."""
        info = st.info
        if isinstance(info, dict) and "draw" in info:
            positions = tuple(self.pile_handles.index(h) for h in info["draw"])
            return b"building", self._draws, draw_context(self.game_id, self._draws, positions)
        return b"random", self._randoms, game_context(self.game_id, b"random", self._randoms)

    def _my_shares(self, st: Step) -> dict[str, WireValue]:
        assert self.seat is not None and self._elg is not None
        me = self.seat
        rand = self._stream(b"step", st.index)
        pub: list[WireValue] = []
        enc: list[WireValue] = []
        for h, mode, to in st.info["contrib"].get(me, ()):
            ct = self.cards[h]
            if mode == "pub":
                ctx = game_context(self.game_id, b"share", h, me)
                pub.append([h, decryption_share(self._elg, ct, rand, ctx).to_bytes()])
            else:
                key = self.keys[to]
                assert key is not None
                ctx = game_context(self.game_id, b"share-to", h, me, to, st.index)
                enc.append([h, encrypt_share(self._elg, ct.c1, key, rand, ctx).to_bytes()])
        return {"p": pub, "e": enc}

    def _my_mixing(self, st: Step) -> dict[str, WireValue]:
        """Mix our hand: permute and re-mask its ciphertexts with a shuffle proof. We knew the
        old faces, so our permutation tells us the face of each new card."""
        assert self.joint is not None and self.seat is not None
        req: Rehandle = st.info["req"]
        old_faces: list[int] = []
        for h in req.old:
            f = self.my_faces.get(h, self.public.faces.get(h))
            if f is None and self.game is not None:
                f = self.game.faces.get(h)
            if f is None:
                raise LocalProtocolError(f"we do not know the face of our card {h}")
            old_faces.append(f)
        ctx = game_context(self.game_id, b"mix", st.info["k"], st.index, self.seat)
        out, proof, perm = shuffle_with_permutation(
            st.info["deck"], self.joint, self._stream(b"mix", st.info["k"]), ctx
        )
        self._my_mix = (st.index, [old_faces[j] for j in perm])
        return {"d": b"".join(c.to_bytes() for c in out), "p": proof.to_wire()}

    # --- the schedule -------------------------------------------------------------------------

    def _start(self, now: float) -> None:
        self._new_step(HELLO, tuple(range(self.n)), now)
        self._act()

    def _new_step(self, kind: str, senders: tuple[int, ...], now: float, info: Any = None) -> None:
        index = self._steps
        self._steps += 1
        self._th_at[index] = (self.th, tuple(self.seen))
        self.step = Step(index, kind, senders, now, info)

    def _schedule(self, now: float) -> None:
        """Compute the next step from the public engine, answering what needs no messages."""
        g = self.public
        while True:
            if g.is_over:
                if all(k is not None for k in self.revealed_keys):
                    self.step = None
                    self.finished = True
                else:
                    self._new_step(KEYS, tuple(range(self.n)), now)
                return
            p = g.pending
            deciders = g.to_act()
            if deciders:
                if self.secure.committed(g):
                    self._new_step(SUPPLY_COMMIT, tuple(deciders), now)
                else:
                    self._new_step(MOVE, (deciders[0],), now)
                return
            if isinstance(p, Shuffle) and p.pile in self.drawn_piles:
                self._lay_undecided(p)
                continue
            if isinstance(p, Shuffle):
                assert self.joint is not None
                k = self._shuffles
                ctx = game_context(self.game_id, b"deck", k)
                deck = self._initial_deck(p.faces, ctx)
                self._new_step(SHUFFLE, (0,), now, {"deck": deck, "k": k, "stage": 0})
                return
            if isinstance(p, PublicRandom):
                self._new_step(RAND_COMMIT, tuple(range(self.n)), now)
                return
            if isinstance(p, Open):
                self._new_step(OPEN, (p.seat,), now)
                return
            if isinstance(p, Rehandle):
                info = {"deck": self._mix_inputs(p), "k": self._mixes, "req": p}
                self._new_step(MIX, (p.seat,), now, info)
                return
            if isinstance(p, Reveal) and self.undecided.intersection(p.handles):
                if p.to is not None or not self.undecided.issuperset(p.handles):
                    raise LocalProtocolError(f"building cards are only drawn publicly: {p!r}")
                self._new_step(RAND_COMMIT, tuple(range(self.n)), now, {"draw": p.handles})
                return
            if isinstance(p, Reveal):
                contrib = self._contributions(p)
                if contrib:
                    self._new_step(SHARES, tuple(sorted(contrib)), now, {"contrib": contrib})
                    return
                self._answer_reveal(p)
                continue
            raise LocalProtocolError(f"unexpected engine state {p!r}")

    def _lay_undecided(self, req: Shuffle) -> None:
        """A pile served by commit-reveal: its known faces lie face down in an order not
        decided yet. No message: each card is drawn when it is turned up."""
        if self.undecided or self.drawn_faces:
            raise LocalProtocolError(f"a second {req.pile} pile")
        self.pile_left = sorted(req.faces)
        self.pile_handles = req.handles
        self.undecided = frozenset(req.handles)
        self.record.shuffles.append((req.pile, req.faces, req.handles))
        self.public.answer(None)
        self._own_queue.append((req, None))

    def pile_order(self, handles: tuple[int, ...]) -> tuple[int, ...]:
        """The faces of the building pile's ``handles``: the drawn faces, and for the cards
        never turned up (their order was never decided) the faces left, in sorted order."""
        rest = iter(self.pile_left)
        return tuple(self.drawn_faces[h] if h in self.drawn_faces else next(rest) for h in handles)

    def _initial_deck(self, faces: tuple[int, ...], ctx: bytes) -> list[Ciphertext]:
        assert self.joint is not None
        from protocol.crypto.elgamal import mask
        from protocol.crypto.group import hash_to_scalar

        return [
            mask(
                card_point(f),
                self.joint,
                hash_to_scalar(b"rattus-net/v1/initial-mask", ctx, _be4(i)),
            )
            for i, f in enumerate(faces)
        ]

    def _mix_inputs(self, req: Rehandle) -> list[Ciphertext]:
        """The ciphertexts of a hand to mix. A card whose face is public and that has no
        ciphertext (taken openly from a supply pile) is masked with public randomness."""
        assert self.joint is not None
        from protocol.crypto.elgamal import mask

        out: list[Ciphertext] = []
        for h in req.old:
            ct = self.cards.get(h)
            if ct is None:
                face = self.public.faces.get(h)
                if face is None or h not in self.public.public:
                    raise LocalProtocolError(f"no ciphertext for handle {h}")
                ct = mask(card_point(face), self.joint, open_card_mask(self.game_id, h))
            out.append(ct)
        return out

    def _contributions(self, req: Reveal) -> dict[int, list[tuple[int, str, int | None]]]:
        """Per seat, the shares it must send for this reveal: ``pub`` (broadcast with a DLEQ
        proof) or ``enc`` (encrypted to the receiver with a proof)."""
        out: dict[int, list[tuple[int, str, int | None]]] = {}
        to = req.to
        for h in req.handles:
            if h not in self.cards:
                raise LocalProtocolError(f"no ciphertext for handle {h}")
            u = self.unpublished[h]
            if to is None or to in u:
                for s in sorted(u):
                    if s != to:
                        out.setdefault(s, []).append((h, "pub", None))
            else:
                for s in sorted(u):
                    out.setdefault(s, []).append((h, "enc", to))
        return out

    # --- processing ---------------------------------------------------------------------------

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
                self._act()
                if not all(
                    self._inbox[s] and self._inbox[s][0].step == st.index for s in st.senders
                ):
                    return
            msgs = {s: self._inbox[s][0] for s in st.senders}
            self._process(st, msgs, now)

    def _check_view(self, msg: Signed) -> None:
        """The message's transcript hash and per-author hashes must match ours at its step."""
        th, seen = self._th_at[msg.step]
        if msg.th == th and msg.seen == seen:
            return
        differing = [a for a in range(self.n) if msg.seen[a] != seen[a]]
        if not differing:
            self._inbox[msg.author].popleft()
            raise self._fault(msg.author, "desync: transcript hash differs", msg)
        own = self._message_with_hash(msg.author, seen[msg.author])
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
            last = self._message_with_hash(a, seen[a])  # ours, as it stood at that step
            if last is not None:
                frames.append(last.frame)
        if self._identity is not None and frames:
            self._outbox.append(
                sign(
                    self._identity,
                    EVIDENCE,
                    {"g": self.game_id, "a": self.seat, "x": {"m": list(frames)}},
                )
            )
        self._inbox[msg.author].popleft()
        raise DisputeFault(
            msg.author,
            self.names[msg.author],
            f"view differs from ours for {[self.names[a] for a in differing]}",
            tuple(a for a in differing if a != msg.author),
            (msg.frame, *frames),
        )

    def _message_with_hash(self, a: int, h: bytes) -> Signed | None:
        for m in self._by_seq[a].values():
            if m.hash == h:
                return m
        return None

    def processed(self, a: int) -> Signed | None:
        """The last message of seat ``a`` that joined the transcript (None before any)."""
        return self._by_seq[a].get(self._processed_seq(a))

    def _processed_seq(self, a: int) -> int:
        h = self.seen[a]
        for seq, m in self._by_seq[a].items():
            if m.hash == h:
                return seq
        return -1

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.public.clone(),
            self.game.clone() if self.game is not None else None,
            dict(self.cards),
            dict(self.unpublished),
            dict(self.pub),
            dict(self.enc),
            dict(self.my_faces),
            deque(self._own_queue),
            dict(self._enter_commit),
            dict(self._supply_commit),
            self._shuffles,
            self._randoms,
            self._mixes,
            dict(self._rand_commits),
            list(self.keys),
            self.joint,
            list(self.revealed_keys),
            self._steps,
            self.step,
            (
                list(self.record.shuffles),
                list(self.record.randoms),
                list(self.record.reveals),
                dict(self.record.openings),
                list(self.record.mixes),
                list(self.record.reveal_moves),
            ),
            dict(self._th_at),
            (
                list(self.pile_left),
                self.pile_handles,
                self.undecided,
                dict(self.drawn_faces),
                self._draws,
            ),
            list(self.record.draws),
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self.public,
            self.game,
            self.cards,
            self.unpublished,
            self.pub,
            self.enc,
            self.my_faces,
            self._own_queue,
            self._enter_commit,
            self._supply_commit,
            self._shuffles,
            self._randoms,
            self._mixes,
            self._rand_commits,
            self.keys,
            self.joint,
            self.revealed_keys,
            self._steps,
            self.step,
            rec,
            self._th_at,
            (self.pile_left, self.pile_handles, self.undecided, self.drawn_faces, self._draws),
            draws,
        ) = snap
        self.record = PublicRecord(
            list(rec[0]),
            list(rec[1]),
            list(rec[2]),
            dict(rec[3]),
            list(rec[4]),
            list(rec[5]),
            list(draws),
        )

    def _process(self, st: Step, msgs: dict[int, Signed], now: float) -> None:
        snap = self._snapshot()
        th, seen, length = self.th, list(self.seen), len(self.transcript)
        try:
            handler = getattr(self, "_step_" + st.kind.replace("-", "_"))
            successor = handler(st, msgs)
            # The step's messages join the transcript before the next step starts.
            for s in st.senders:
                m = msgs[s]
                self.transcript.append(m.frame)
                self.th = hashlib.sha256(self.th + m.hash).digest()
                self.seen[s] = m.hash
            if successor is not None:
                kind, senders, info = successor
                self._new_step(kind, senders, now, info)
            else:
                self.step = None
                self._schedule(now)
            self._settle_own()
        except Exception as exc:
            self._restore(snap)
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
                raise
            if seat is None:
                # Nothing says whose message it was: stop, naming nobody.
                self._abort(None, f"step {st.index} ({st.kind}) fails: {reason}", ())
                raise RemoteProtocolError(None, reason) from None
            raise self._fault(seat, reason, msgs.get(seat), msgs) from None
        for s in st.senders:
            self._inbox[s].popleft()
        self.ops["messages"] += len(st.senders)
        self._act()

    def _seat_of(self, name: str | None, st: Step) -> int | None:
        """The seat an error names, or the step's only sender; None if it is not clear."""
        if name is not None and name in self.names:
            return self.names.index(name)
        return st.senders[0] if len(st.senders) == 1 else None

    def _own(self, seat: int) -> bool:
        return seat == self.seat and not self.verify_own

    # --- step handlers: validate everything first, then change state -----------------------------

    def _payload(self, msg: Signed, keys: set[str]) -> dict[str, WireValue]:
        if set(msg.payload) != keys:
            raise PeerFault(
                msg.author, self.names[msg.author], f"{msg.kind} payload keys", msg.frame
            )
        return msg.payload

    def _step_hello(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        keys: list[Point] = []
        for s, m in sorted(msgs.items()):
            raw = self._payload(m, {"k"})["k"]
            ann = KeyAnnouncement.from_bytes(
                raw if isinstance(raw, bytes) else b"", peer=self.names[s]
            )
            verify_key(ann, game_context(self.game_id, b"elgamal", s), peer=self.names[s])
            keys.append(ann.public)
        self.keys = list(keys)
        self.joint = joint_key(keys)
        return None

    def _step_rand_commit(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        digests: dict[str, bytes] = {}
        for s, m in sorted(msgs.items()):
            c = self._payload(m, {"c"})["c"]
            if not isinstance(c, bytes) or len(c) != 32:
                raise PeerFault(s, self.names[s], "commitment must be 32 bytes", m.frame)
            digests[self.names[s]] = c
        self._rand_commits = digests
        return RAND_REVEAL, tuple(range(self.n)), st.info

    def _step_rand_reveal(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        _, _, ctx = self._rand_round(st)
        rand = CommitReveal(self.names, ctx)
        for name in self.names:
            rand.add_commitment(name, self._rand_commits[name])
        for s, m in sorted(msgs.items()):
            r = self._payload(m, {"r"})["r"]
            rand.add_reveal(self.names[s], r if isinstance(r, bytes) else b"")
        req = self.public.pending
        if isinstance(req, Reveal):
            self._answer_draw(req, rand.seed())
            return None
        assert isinstance(req, PublicRandom)
        value = RandomStream(rand.seed()).randbelow(req.bound)
        self._randoms += 1
        self._rand_commits = {}
        self.record.randoms.append(value)
        self.public.answer(value)
        self._own_queue.append((req, value))
        return None

    def _answer_draw(self, req: Reveal, seed: bytes) -> None:
        """Turn up building cards: drawn uniformly, in handle order, from the faces left."""
        faces, left = draw_without_replacement(RandomStream(seed), self.pile_left, len(req.handles))
        self.pile_left = left
        self.undecided = self.undecided.difference(req.handles)
        self.drawn_faces.update(zip(req.handles, faces, strict=True))
        self._draws += 1
        self._rand_commits = {}
        self.record.draws.append((req.handles, tuple(faces)))
        self.record.reveals.append((req.handles, req.to))
        self.record.reveal_moves.append(len(self.public.history))
        self.ops["draws"] += 1
        self.public.answer(list(faces))
        self._own_queue.append((req, list(faces)))

    def _step_shuffle(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        assert self.joint is not None
        ((s, m),) = msgs.items()
        name = self.names[s]
        p = self._payload(m, {"d", "p"})
        deck_in: list[Ciphertext] = st.info["deck"]
        raw = p["d"]
        if not isinstance(raw, bytes) or len(raw) != 64 * len(deck_in):
            raise PeerFault(s, name, "shuffled deck has the wrong size", m.frame)
        out = [Ciphertext.from_bytes(raw[i : i + 64], peer=name) for i in range(0, len(raw), 64)]
        proof = ShuffleProof.from_wire(p["p"], peer=name)
        if not self._own(s):
            ctx = game_context(self.game_id, b"shuffle", st.info["k"], s)
            verify_shuffle(deck_in, out, self.joint, proof, ctx, peer=name)
            self.ops["shuffles_verified"] += 1
        stage = st.info["stage"] + 1
        if stage < self.n:
            return SHUFFLE, (stage,), {"deck": out, "k": st.info["k"], "stage": stage}
        req = self.public.pending
        assert isinstance(req, Shuffle)
        for h, ct in zip(req.handles, out, strict=True):
            self.cards[h] = ct
            self.unpublished[h] = frozenset(range(self.n))
        self._shuffles += 1
        self.record.shuffles.append((req.pile, req.faces, req.handles))
        self.public.answer(None)
        self._own_queue.append((req, None))
        return None

    def _step_shares(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        req = self.public.pending
        assert isinstance(req, Reveal)
        contrib = st.info["contrib"]
        new_pub: dict[int, dict[int, Point]] = {}
        new_enc: dict[int, list[tuple[int, int, EncryptedShare]]] = {}
        for s, m in sorted(msgs.items()):
            name = self.names[s]
            p = self._payload(m, {"p", "e"})
            want = contrib[s]
            want_pub = [h for h, mode, _ in want if mode == "pub"]
            want_enc = [(h, to) for h, mode, to in want if mode == "enc"]
            got_pub, got_enc = p["p"], p["e"]
            if not isinstance(got_pub, list) or not isinstance(got_enc, list):
                raise PeerFault(s, name, "shares must be lists", m.frame)
            if len(got_pub) != len(want_pub) or len(got_enc) != len(want_enc):
                raise PeerFault(s, name, "wrong number of shares", m.frame)
            key = self.keys[s]
            assert key is not None
            for item, h in zip(got_pub, want_pub, strict=True):
                if not isinstance(item, list) or len(item) != 2 or item[0] != h:
                    raise PeerFault(s, name, "shares for the wrong cards", m.frame)
                raw = item[1]
                share = DecryptionShare.from_bytes(
                    raw if isinstance(raw, bytes) else b"", peer=name
                )
                if not self._own(s):
                    ctx = game_context(self.game_id, b"share", h, s)
                    verify_share(key, self.cards[h], share, ctx, peer=name)
                    self.ops["shares_verified"] += 1
                new_pub.setdefault(h, {})[s] = share.share
            for item, (h, to) in zip(got_enc, want_enc, strict=True):
                if not isinstance(item, list) or len(item) != 2 or item[0] != h:
                    raise PeerFault(s, name, "shares for the wrong cards", m.frame)
                raw = item[1]
                es = EncryptedShare.from_bytes(raw if isinstance(raw, bytes) else b"", peer=name)
                to_key = self.keys[to]
                assert to_key is not None
                if not self._own(s):
                    ctx = game_context(self.game_id, b"share-to", h, s, to, st.index)
                    verify_encrypted_share(key, self.cards[h].c1, to_key, es, ctx, peer=name)
                    self.ops["shares_verified"] += 1
                new_enc.setdefault(h, []).append((s, to, es))
        # Everything checked: record the shares.
        for h, shares in new_pub.items():
            self.pub[h] = {**self.pub.get(h, {}), **shares}
            self.unpublished[h] = self.unpublished[h] - frozenset(shares)
        for h, items in new_enc.items():
            self.enc[h] = self.enc.get(h, ()) + tuple(items)
        self._answer_reveal(req)
        return None

    def _try_face(self, h: int) -> int | None:
        """The face of handle ``h`` if we can compute it from what we hold."""
        ct = self.cards[h]
        shares = list(self.pub.get(h, {}).values())
        missing = set(self.unpublished[h])
        if self.seat is not None and self.seat in missing and self._elg is not None:
            shares.append(self._elg * ct.c1)
            missing.discard(self.seat)
        if missing and self.seat is not None and self._elg is not None:
            for frm, to, es in self.enc.get(h, ()):
                if to == self.seat and frm in missing:
                    shares.append(decrypt_share(self._elg, es))
                    missing.discard(frm)
        if missing:
            return None
        face = face_of_point(self.secure, unmask(ct, shares))
        if face is None:
            raise CryptoError(None, f"card {h} does not decrypt to a card")
        return face

    def _answer_reveal(self, req: Reveal) -> None:
        faces: list[int | None] = []
        mine: list[int | None] = []
        for h in req.handles:
            if req.to is None:
                f = self._try_face(h)
            elif req.to == self.seat:
                f = self.my_faces.get(h)
                if f is None:
                    f = self._try_face(h)
            else:
                f = None
            if f is not None and (req.to is None or req.to == self.seat):
                self.my_faces[h] = f
            if req.to is None:
                if f is None:
                    raise LocalProtocolError(f"public reveal of {h} incomplete")
                faces.append(f)
            else:
                faces.append(None)
            mine.append(f if (req.to is None or req.to == self.seat) else None)
        self.record.reveals.append((req.handles, req.to))
        self.record.reveal_moves.append(len(self.public.history))
        self.public.answer(faces)
        self._own_queue.append((req, mine))

    def _step_mix(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        assert self.joint is not None
        ((s, m),) = msgs.items()
        name = self.names[s]
        p = self._payload(m, {"d", "p"})
        req = self.public.pending
        assert isinstance(req, Rehandle) and req == st.info["req"]
        deck_in: list[Ciphertext] = st.info["deck"]
        raw = p["d"]
        if not isinstance(raw, bytes) or len(raw) != 64 * len(deck_in):
            raise PeerFault(s, name, "mixed hand has the wrong size", m.frame)
        out = [Ciphertext.from_bytes(raw[i : i + 64], peer=name) for i in range(0, len(raw), 64)]
        proof = ShuffleProof.from_wire(p["p"], peer=name)
        if not self._own(s):
            ctx = game_context(self.game_id, b"mix", st.info["k"], st.index, s)
            try:
                verify_shuffle(deck_in, out, self.joint, proof, ctx, peer=name)
            except RemoteProtocolError as exc:
                raise PeerFault(s, name, f"hand mixing: {exc.reason}", m.frame) from None
            self.ops["mixes_verified"] += 1
        mine: list[int | None] = [None] * len(req.new)
        if s == self.seat:
            if self._my_mix is None or self._my_mix[0] != st.index:
                raise LocalProtocolError("our own hand mixing is unknown")
            mine = list(self._my_mix[1])
        # Everything checked: the new cards are masked afresh, every share is needed again.
        for h, ct in zip(req.new, out, strict=True):
            self.cards[h] = ct
            self.unpublished[h] = frozenset(range(self.n))
        for h, f in zip(req.new, mine, strict=True):
            if f is not None:
                self.my_faces[h] = f
        self._mixes += 1
        self.record.mixes.append((len(self.public.history), s, req.old, req.new))
        self.public.answer([None] * len(req.new))
        self._own_queue.append((req, mine))
        return None

    def _step_open(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        ((s, m),) = msgs.items()
        name = self.names[s]
        p = self._payload(m, {"h", "s"})
        handles, salt = p["h"], p["s"]
        if not isinstance(handles, list) or not all(
            isinstance(h, int) and not isinstance(h, bool) for h in handles
        ):
            raise PeerFault(s, name, "an opening lists handles", m.frame)
        if not isinstance(salt, bytes):
            raise PeerFault(s, name, "an opening has a salt", m.frame)
        if s not in self._enter_commit:
            raise PeerFault(s, name, "opening without a commitment", m.frame)
        digest, domain, index = self._enter_commit[s]
        check_commitment(digest, encode_value(handles), salt, peer=name, domain=domain)
        req = self.public.pending
        assert isinstance(req, Open)
        opened = [int(h) for h in handles if isinstance(h, int)]
        self.public.answer(opened)  # the engine checks the cards were in the hand
        del self._enter_commit[s]
        self.record.openings[index] = tuple(opened)
        if s != self.seat:
            self._own_queue.append((req, opened))
        return None

    def _apply_move(self, seat: int, move: Any, own_move: Any) -> None:
        self.public.apply(seat, move)
        if self.game is not None:
            self._settle_own()
            self.game.apply(seat, own_move if own_move is not None else move)

    def _step_move(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        ((s, m),) = msgs.items()
        name = self.names[s]
        p = self._payload(m, {"m"})
        move, commitment = move_from_wire(p["m"], name, self.secure)
        try:
            own_move = self._my_move if s == self.seat else None
            index = len(self.public.history)
            self._apply_move(s, move, own_move)
        except IllegalMove as exc:
            raise PeerFault(s, name, f"illegal move: {exc}", m.frame) from None
        if commitment is not None:  # a move with a hidden part: opened at the Open request
            domain = game_context(self.game_id, b"enter", st.index, s)
            self._enter_commit[s] = (commitment, domain, index)
        if s == self.seat:
            self._my_move = None
        return None

    def _step_supply_commit(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        commits: dict[int, tuple[bytes, bytes]] = {}
        for s, m in sorted(msgs.items()):
            c = self._payload(m, {"c"})["c"]
            if not isinstance(c, bytes) or len(c) != 32:
                raise PeerFault(s, self.names[s], "commitment must be 32 bytes", m.frame)
            commits[s] = (c, game_context(self.game_id, b"supply", st.index, s))
        self._supply_commit = commits
        return SUPPLY_OPEN, st.senders, None

    def _step_supply_open(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        moves: dict[int, Any] = {}
        for s, m in sorted(msgs.items()):
            name = self.names[s]
            p = self._payload(m, {"m", "s"})
            salt = p["s"]
            if not isinstance(salt, bytes):
                raise PeerFault(s, name, "an opening has a salt", m.frame)
            digest, domain = self._supply_commit[s]
            check_commitment(digest, encode_value(p["m"]), salt, peer=name, domain=domain)
            move, commitment = move_from_wire(p["m"], name, self.secure)
            if commitment is not None:
                raise PeerFault(s, name, "a committed decision has no hidden part", m.frame)
            moves[s] = move  # the engine checks each when it is applied, below
        for s, move in sorted(moves.items()):
            try:
                self._apply_move(s, move, move)
            except IllegalMove as exc:
                raise PeerFault(s, self.names[s], f"illegal move: {exc}", msgs[s].frame) from None
        self._supply_commit = {}
        self._my_move = None
        return None

    def _step_keys(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        revealed: list[Scalar | None] = [None] * self.n
        for s, m in sorted(msgs.items()):
            raw = self._payload(m, {"x"})["x"]
            x = Scalar.from_bytes(raw if isinstance(raw, bytes) else b"", peer=self.names[s])
            if base_mul(x) != self.keys[s]:
                raise PeerFault(s, self.names[s], "published key does not match its share", m.frame)
            revealed[s] = x
        self.revealed_keys = revealed
        return None

    # --- own engine ---------------------------------------------------------------------------

    def _settle_own(self) -> None:
        g = self.game
        if g is None:
            return
        while g.pending is not None and not g.to_act() and not g.is_over:
            if not self._own_queue:
                return
            req, value = self._own_queue.popleft()
            if g.pending != req:
                raise LocalProtocolError(f"own engine asks {g.pending!r}, table answered {req!r}")
            g.answer(value)

    # --- after the game -----------------------------------------------------------------------

    def all_faces(self) -> dict[int, int]:
        """Every card's face, once every peer has published its key (verifier side)."""
        if not all(k is not None for k in self.revealed_keys):
            raise LocalProtocolError("the keys are not all published")
        x = self.revealed_keys[0]
        assert x is not None
        for k in self.revealed_keys[1:]:
            assert k is not None
            x = x + k
        out: dict[int, int] = {}
        for h, ct in self.cards.items():
            face = face_of_point(self.secure, ct.c2 - x * ct.c1)
            if face is None:
                raise CryptoError(None, f"card {h} does not decrypt to a card")
            out[h] = face
        return out
