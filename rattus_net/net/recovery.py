"""What a resumed peer may send, and when (sans-IO: no sockets, no clock of its own).

A resumed peer rebuilds its session from its journal, and a journal is never trusted past
damage: its tail may have been cut, or an older copy put back, so the peer may have sent
messages that it no longer knows. Everything it regenerates from the journal is safe to send
again (the same inputs give the very same bytes). What it makes from inputs received *after*
it came back is not: if a peer now sends it other messages than before (a malicious peer's
second version of a message), it would sign a second, different message for a sequence number
it has used, and the others would hold the proof of an equivocation naming an honest player.

So a :class:`Recovery` holds back every frame the resumed session makes (``pending``) until

1. every other peer still in the game has said (``H``, on its link) how many of our frames it
   holds (:meth:`hold`); then
2. each held-back frame goes out (``sent``) only if nobody holds our frame at its index, or it
   is byte for byte the copy of our own frame that a peer sent back (``R``/``Y``:
   :meth:`copy`); a decision of ours that a peer holds is made again to the very same signed
   message (:meth:`decision`: :class:`Adopt`).
3. A copy that is our message for that place but differs from what we made now means that
   what we received since differs from what we had received then: the resumed peer shows the
   messages that differ (an ``evidence`` message: a peer holding the other version of one of
   them proves that its author equivocated) and stops with a signed abort that blames nobody.
   A copy that is not our message for that place is dropped, its sender's claim marked as
   unbacked (it is asked again); when nobody sends a copy within the stall timeout, the game
   ends like any stall, naming the peer whose claim holds it up (an unbacked one first).

A peer that was not resumed sends everything at once (``resumed=False``). The node
(:mod:`rattus_net.net.node`) does the I/O: it passes in the peers' claims and copies, sends
``sent`` and the requests of :attr:`Recovery.want`, says :attr:`Recovery.events`, and journals
a decision before it is made again. What is left: a peer that holds our lost messages and is
the only one that does can still claim to hold fewer and keep the other version for itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol.errors import RemoteProtocolError
from protocol.messages import CHAINED_KINDS, open_frame
from protocol.session import Session
from protocol.wire import decode_message

MAX_COPIES = 64
"""Copies of our own frames a peer sends back at once (and kept, past what we hold)."""


@dataclass(frozen=True)
class Adopt:
    """Make this decision again: a peer holds the message we signed for it."""

    move: Any


DECIDE = "decide"
""":meth:`Recovery.decision`: our player may decide (nobody holds a decision of ours here)."""


@dataclass
class Recovery:
    """The recovery step of one seat (see the module docstring)."""

    session: Session
    legal: Callable[[], Sequence[Any]]
    """The legal moves of our seat now (a decision a peer holds is searched among them)."""
    resumed: bool
    sent: list[bytes] = field(default_factory=list)
    """Our frames, in the order they go out on every link (a peer's ``H`` counts them)."""
    delay: float = 0.0
    """Seconds added to the stall timeout before a claim that holds us up is named (the
    node's stagger, so that one seat signs the abort)."""
    pending: list[bytes] = field(default_factory=list)
    held: dict[int, int] = field(default_factory=dict)
    copies: dict[int, dict[int, bytes]] = field(default_factory=dict)
    unbacked: set[int] = field(default_factory=set)
    events: list[tuple[str, int | None, str]] = field(default_factory=list)
    """What to tell the player: ``("fault", seat, reason)``, ``("journal", seat, line)``."""
    want: tuple[int, dict[int, int]] | None = None
    """The index of our frame we lack, and the seats that claim to hold it (ask them)."""
    journal: str = "the journal"
    """How to name our journal to the player (its path)."""
    _asking: dict[int, float] = field(default_factory=dict)

    # -- what the peers say ----------------------------------------------------------------

    def hold(self, seat: int, count: int) -> None:
        """``seat`` said (``H``) it holds our first ``count`` frames."""
        self.held[seat] = max(self.held.get(seat, 0), count)

    def copy(self, seat: int, index: int, frame: bytes) -> bool:
        """``seat`` sent back (``Y``) what it holds as our frame ``index``. Kept (True) only
        where we may lack it: a resumed peer, within :data:`MAX_COPIES` of what we sent."""
        if not self.resumed or not len(self.sent) <= index < len(self.sent) + MAX_COPIES:
            return False
        self.copies.setdefault(index, {})[seat] = frame
        return True

    @property
    def claim(self) -> int:
        """The most of our frames any peer says it holds."""
        return max(self.held.values(), default=0)

    def reported(self, done: Iterable[int]) -> bool:
        """Whether every other seat said what it holds of ours (or its game is over)."""
        me = self.session.seat
        waiting = set(range(self.session.n)) - {me} - set(self.held) - set(done)
        return not waiting

    # -- what we send -------------------------------------------------------------------------

    def produce(self, frames: list[bytes], now: float, done: Iterable[int] = ()) -> None:
        """Frames the session made: sent at once, or held back (a resumed peer)."""
        self.pending.extend(frames)
        self.release(now, done)

    def release(self, now: float, done: Iterable[int] = ()) -> None:
        """Send what may go out now (see the module docstring); may stop the session (its
        new frames are then in its outbox: produce them)."""
        if not self.resumed:
            self.sent.extend(self.pending)
            self.pending.clear()
            return
        self.want = None
        if self.session.abort is not None:
            # The game is over: its control messages (our abort, an abort passed on, the
            # evidence) go out; a message of the game not yet matched is never sent.
            self.sent.extend(f for f in self.pending if not _chained(f))
            self.pending.clear()
            return
        if not self.pending or not self.reported(done):
            return
        while self.pending:
            index = len(self.sent)
            if index >= self.claim:  # nobody holds a frame of ours here: new ground
                self.sent.extend(self.pending)
                self.pending.clear()
                return
            mine = self.pending[0]
            found = self._examine(index, mine, now)
            if found is None:
                return
            self.sent.append(self.pending.pop(0))
            self.copies.pop(index, None)

    def decision(self, now: float, done: Iterable[int] = ()) -> str | Adopt | None:
        """Whether our player may decide now: :data:`DECIDE`, :class:`Adopt` (a peer holds
        the message of our decision: make it again), or None (wait: frames of ours still
        held back, a peer has not said what it holds, or a copy is awaited)."""
        if not self.resumed:
            return DECIDE
        if self.pending or not self.reported(done):
            return None
        index = len(self.sent)
        if index >= self.claim:
            return DECIDE
        found = self._examine(index, None, now)
        return Adopt(found) if found is not None else None

    def _examine(self, index: int, mine: bytes | None, now: float) -> Any:
        """Our frame ``index`` is held by a peer: check the copies sent back. With ``mine``
        (a frame we made), ``mine`` if a copy is that very frame; without (a decision), the
        move whose message a copy is. None otherwise (we ask, drop junk, stop, or stall)."""
        copies = self.copies.get(index, {})
        if mine is not None and mine in copies.values():
            self._asking.pop(index, None)
            return mine
        for seat, frame in list(copies.items()):
            if mine is None:
                game = self.session.game
                move = self.session.recover_decision(frame, self.legal()) if game else None
                if move is not None:
                    self._asking.pop(index, None)
                    return move
            if self._ours_at(frame, index):
                self._diverged(frame, mine)
                return None
            del copies[seat]
            if seat not in self.unbacked:
                self.unbacked.add(seat)
                self.events.append(
                    ("fault", seat, "sent back, as a lost message of yours, one you never signed")
                )
        ahead = {s: h for s, h in self.held.items() if h > index}
        self.want = (index, ahead)
        since = self._asking.setdefault(index, now)
        if now - since - self.delay > self.session.timeout:
            self._stall(ahead)
        return None

    def _ours_at(self, frame: bytes, index: int) -> bool:
        """Whether ``frame`` is a message of the game we signed with the sequence number
        that the game's messages before ``index`` of what we sent leave for it (a control
        message of ours proves no place: anybody holding one could replay it here)."""
        s = self.session
        try:
            msg = open_frame(frame, s.game_id, s.params.identities, s.names)
        except RemoteProtocolError:
            return False
        return (
            msg.author == s.seat
            and msg.chained
            and msg.seq == sum(1 for f in self.sent[:index] if _chained(f))
        )

    def _diverged(self, then: bytes, mine: bytes | None) -> None:
        """A peer holds a message we signed at this place, and it is not what we make now:
        show the messages that differ and stop, blaming nobody."""
        s = self.session
        me = s.names[s.seat] if s.seat is not None else "?"
        now_view: tuple[bytes, ...] | None = None
        if mine is not None:
            try:
                now_view = open_frame(mine, s.game_id, s.params.identities, s.names).seen or None
            except RemoteProtocolError:
                now_view = None
        s.show(s.differing(then, now_view))
        ahead = sorted(p for p, h in self.held.items() if h > len(self.sent))
        holders = " and ".join(s.names[p] for p in ahead)
        self.events.append(
            (
                "journal",
                s.seat,
                f"your journal {self.journal} lost messages you had sent ({holders} hold "
                f"{self.claim} of your messages, it has {len(self.sent)}), and what you "
                "received since is not what you had received then: rather than sign a "
                "second, different message for one place, the game is stopped; nobody is "
                "blamed (the messages that differ were shown to the others: whoever sent two "
                "versions of one is proven to)",
            )
        )
        s.stop(
            f"the journal of {me} lost messages it had sent ({holders} said they hold more "
            "of them, and what they sent back is not what it would sign now); stopped rather "
            "than sign a second, different message (nobody is proven to cheat)"
        )

    def _stall(self, ahead: dict[int, int]) -> None:
        s = self.session
        claimer = min(ahead, key=lambda p: (p not in self.unbacked, p))
        me = s.names[s.seat] if s.seat is not None else "?"
        step = s.step.index if s.step else -1
        s.stop(
            f"stalled: {s.names[claimer]} said it holds {ahead[claimer]} of the messages of "
            f"{me} (more than {me} has) and sent back none that {me} signed (step {step})",
            claimer,
        )


def _chained(frame: bytes) -> bool:
    """Whether one of our own frames is a message of the game (not an abort or evidence)."""
    try:
        inner = decode_message(frame).body.get("m")
        return isinstance(inner, bytes) and decode_message(inner).kind in CHAINED_KINDS
    except RemoteProtocolError:
        return False
