"""A session's state: the transcript, the masked cards, the queues, and snapshots of it.

:class:`SessionState` holds everything a session (``protocol/session.py``) knows and the
primitives every part of it uses: a message's arrival in its author's chain, signing and
sending ours, our own abort, and the snapshot a step is rolled back to when one of its
messages does not check. The session owns one and hands it to the step checks
(``steps.py``) and the schedule (``schedule.py``), which work on it; none of them is a
subclass of another. :class:`OfState` lets the session show the state's attributes as its own.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast, overload

from protocol.crypto.elgamal import Ciphertext, card_point
from protocol.crypto.group import Point, Scalar
from protocol.crypto.identity import Identity
from protocol.crypto.transfer import EncryptedShare
from protocol.errors import CryptoError, LocalProtocolError
from protocol.faults import AbortRecord, PeerFault, ProvenFault, ReplayError
from protocol.messages import ABORT, ZERO_HASH, Signed, check_equivocation, open_frame, sign
from protocol.params import GameParams, PeerSecrets
from protocol.randomness import RandomStream
from protocol.wire import WireValue
from rattus_net.kit.interface import AnySecureGame
from rattus_net.kit.table import TableRequest

_TRANSCRIPT = b"rattus-net/v1/transcript\x00"
T = TypeVar("T")
MAX_QUEUED = 256
"""Messages buffered per author ahead of our step; more is a flood and is refused."""


def be4(i: int) -> bytes:
    """A 4-byte big-endian integer, for proof contexts."""
    return i.to_bytes(4, "big")


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


def face_of_point(game: AnySecureGame, p: Point) -> int | None:
    """The face of ``game`` whose group point is ``p`` (None: no face of this game)."""
    table = _FACE_TABLES.get(game.name)
    if table is None:
        table = {card_point(f).data: f for f in game.face_codes()}
        _FACE_TABLES[game.name] = table
    return table.get(p.data)


def game_context(game_id: bytes, label: bytes, *ints: int) -> bytes:
    return game_id + b"/" + label + b"".join(b"/" + be4(i) for i in ints)


def draw_context(game_id: bytes, index: int, positions: tuple[int, ...]) -> bytes:
    """The context of the ``index``-th building draw (a commit-reveal round) turning up the
    cards at ``positions`` of the pile (indices in the ``Shuffle`` request's handles):
    commitments and the seed are bound to the game, the draw and the cards."""
    return game_context(game_id, b"building-draw", index, len(positions), *positions)


def open_card_mask(game_id: bytes, handle: int) -> Scalar:
    """The public mask of a card whose face is public (a supply card) when it first becomes a
    ciphertext: at the mixing of the hand that took it."""
    from protocol.crypto.group import hash_to_scalar

    return hash_to_scalar(b"rattus-net/v1/open-card-mask", game_id, be4(handle))


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


class OfState(Generic[T]):
    """An attribute of a :class:`~protocol.session.Session` that is its state's, read and
    written through (the engines, the transcript, the abort: what the node, the verifier and
    tests look at)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> OfState[T]: ...
    @overload
    def __get__(self, obj: Any, owner: type) -> T: ...
    def __get__(self, obj: Any, owner: type) -> T | OfState[T]:
        if obj is None:
            return self
        return cast(T, getattr(obj.state, self.name))

    def __set__(self, obj: Any, value: T) -> None:
        setattr(obj.state, self.name, value)


class SessionState:
    """The state of one session (see :class:`~protocol.session.Session` for its meaning)."""

    def __init__(
        self,
        params: GameParams,
        seat: int | None = None,
        secrets: PeerSecrets | None = None,
        *,
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
        self._move_commits: dict[int, tuple[bytes, bytes]] = {}
        self._own_queue: deque[tuple[TableRequest, Any]] = deque()
        # Our pending decision (sent in the step's message).
        self._my_move: Any = None
        self._my_open: tuple[tuple[int, ...], bytes] | None = None
        self._my_committed: tuple[dict[str, WireValue], bytes] | None = None
        self.ops = {
            "shuffles_verified": 0,
            "shares_verified": 0,
            "mixes_verified": 0,
            "draws": 0,
            "messages": 0,
        }

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
            dict(self._move_commits),
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
            self._move_commits,
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

    def _own(self, seat: int) -> bool:
        return seat == self.seat and not self.verify_own

    def _payload(self, msg: Signed, keys: set[str]) -> dict[str, WireValue]:
        if set(msg.payload) != keys:
            raise PeerFault(
                msg.author, self.names[msg.author], f"{msg.kind} payload keys", msg.frame
            )
        return msg.payload

    @staticmethod
    def _draws_pile(st: Step) -> bool:
        """Whether a commit-reveal step draws pieces of a drawn pile (else a public number)."""
        return isinstance(st.info, dict) and "draw" in st.info

    def _rand_round(self, st: Step) -> tuple[bytes, int, bytes]:
        """The secret stream label, round number and context of a commit-reveal step: a
        building draw (``st.info["draw"]``: the handles turned up) or a public number."""
        info = st.info
        if self._draws_pile(st):
            positions = tuple(self.pile_handles.index(h) for h in info["draw"])
            return b"building", self._draws, draw_context(self.game_id, self._draws, positions)
        return b"random", self._randoms, game_context(self.game_id, b"random", self._randoms)

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

    def pile_order(self, handles: tuple[int, ...]) -> tuple[int, ...]:
        """The faces of the building pile's ``handles``: the drawn faces, and for the cards
        never turned up (their order was never decided) the faces left, in sorted order."""
        rest = iter(self.pile_left)
        return tuple(self.drawn_faces[h] if h in self.drawn_faces else next(rest) for h in handles)
