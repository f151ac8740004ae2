"""The end of a seat's game: the linger that lets every peer have every frame, and claims that
meet.

Once our game is over (finished, or stopped by a signed abort) the record is written, and the
node lingers: it says ``D`` on every link behind every frame the other side lacked
(:meth:`~rattus_net.net.mesh.Mesh.say_done`) and waits for the others' ``D``. After an abort a
peer away may come back and must learn it, so the node keeps answering for a while
(:data:`ABORT_LINGER`). Two peers that were cut off from each other, each alone long enough to
sign a claim, meet here: one claim stands in both records (:meth:`GameEnd.claims_meet`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from typing import Protocol

from protocol.errors import RemoteProtocolError
from protocol.session import Session
from rattus_net.net.events import NodeEvents
from rattus_net.net.mesh import Mesh
from rattus_net.net.persist import Journal

ABSENT_GRACE = 3.0
"""Seconds a resumed peer whose game is over waits for a peer whose link is down (it has
probably left) before it ends, instead of the full ``linger``."""
ABORT_LINGER = 120.0
"""Seconds a peer whose game was aborted keeps answering the peers that have not said their
game is over (a peer away may come back and must learn the signed abort rather than write a
claim of its own); announced, and Ctrl+C (:meth:`PeerNode.leave`) ends it sooner."""
LAST_WORD = 1.0
"""Seconds a peer leaving after its game keeps its links open for the other side to close
them first (its last frames, our ``D`` among them, reach it rather than a reset)."""


def clock(seconds: float) -> str:
    """``2:05`` for 125 seconds (rounded up)."""
    whole = math.ceil(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


class EndingOwner(Protocol):
    """What the game's ending needs from the node that owns it."""

    def flush_outgoing(self) -> None:
        """Hand what the session made to the links."""

    def take_failures(self) -> None:
        """Say the bot seats that failed here (the game is over already)."""

    def write_record(self) -> None:
        """Write the game's record (again, when claims met)."""


class GameEnd:
    """The linger of a node whose game is over, and the claims that meet there (owned by a
    :class:`~rattus_net.net.node.PeerNode`)."""

    def __init__(
        self,
        owner: EndingOwner,
        session: Session,
        mesh: Mesh,
        journal: Journal,
        events: NodeEvents,
        inbox: asyncio.Queue[tuple[int, bytes]],
        wake: asyncio.Event,
        *,
        linger: float,
        abort_linger: float,
    ) -> None:
        self.owner = owner
        self.session = session
        self.mesh = mesh
        self.journal = journal
        self.events = events
        self.inbox = inbox  # the frames the links heard (late ones: resends, an abort)
        self.wake = wake  # the node's main wake: something was heard
        self.linger = linger
        self.abort_linger = abort_linger
        self._leave = asyncio.Event()  # end the linger after an abort now (Ctrl+C)

    @property
    def seat(self) -> int:
        return self.mesh.seat

    @property
    def n(self) -> int:
        return self.mesh.n

    @property
    def names(self) -> tuple[str, ...]:
        return self.events.names

    def leave(self) -> None:
        """Stop answering after an abort now (the player pressed Ctrl+C): the record is
        already written."""
        self._leave.set()
        self.wake.set()

    def owed_abort(self) -> list[int]:
        """The seats that may not know of our game's abort yet (they never said it is over)."""
        if self.session.abort is None:
            return []
        return sorted(set(range(self.n)) - {self.seat} - self.mesh.done_from)

    async def linger_on(self, resumed: bool) -> None:
        """Our game is over: let everybody have every frame, say so, and wait for the others'
        "over" (``D``). After an abort, a peer that has not said so may be away and come back:
        we keep answering (its link gets our frames, the signed abort among them) for
        ``abort_linger`` seconds, announced, unless :meth:`leave` is called.

        We leave once every other peer has said ``D`` *and* ours has reached each of them
        behind every frame it lacked: two peers that were cut off, each with its own claim,
        both see the other's claim before either leaves, so the claims meet on both sides
        (:meth:`claims_meet`)."""
        self.owner.flush_outgoing()
        for link in self.mesh.links.values():
            self.mesh.say_done(link)
        owed = self.owed_abort()
        answering = bool(owed) and self.abort_linger > 0
        window = self.abort_linger if answering else self.linger
        if answering:
            who = ", ".join(self.names[s] for s in owed)
            self.events.emit(
                "linger",
                None,
                f"the game was stopped; answering for up to {clock(window)} so that {who}, "
                "away, learns it when back (Ctrl+C leaves now: the record is written)",
            )
        deadline = time.monotonic() + window
        others = set(range(self.n)) - {self.seat}
        absent_since: dict[int, float] = {}
        while True:
            self.owner.take_failures()  # (said: the game is over already)
            while not self.inbox.empty():  # late frames: resends, a peer's abort
                seat, frame = self.inbox.get_nowait()
                if self.claims_meet(frame):
                    continue
                with contextlib.suppress(RemoteProtocolError):
                    self.session.receive(frame, time.monotonic(), link=seat)
            if others <= self.mesh.done_from and others <= self.mesh.told_done:
                break  # (everybody said it is over, and heard us say so after our frames)
            if time.monotonic() >= deadline or self._leave.is_set():
                break
            if not answering and self.session.abort is not None and not self.mesh.links:
                break
            if not answering and resumed and self._others_left(others, absent_since):
                break
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), 0.5)
        # our "over" must leave before the links close (a lingering peer waits for it), and
        # reach the other side: closing a link at once, with bytes of the other side unread,
        # makes the kernel reset it and drop what we sent last. So the links stay open until
        # the other side closes them, or a second passes.
        end = time.monotonic() + 2.0
        links = self.mesh.links
        while any(not link.done_said for link in links.values()) and time.monotonic() < end:
            await asyncio.sleep(0.05)
        end = time.monotonic() + LAST_WORD
        while self.mesh.links and time.monotonic() < end:
            await asyncio.sleep(0.05)

    def claims_meet(self, frame: bytes) -> bool:
        """Two aborts meet (peers that were cut off from each other, each alone long enough
        to sign a claim; a peer that stopped blaming nobody, and one that proved who
        cheated): one must stand in every record. A proven fault stands over a claim; of two
        claims, the lower seat's stands; ours gives way to the one that stands, so that the
        peers that meet end with one record. Our record is written again, the abort
        journaled (``S``) and passed on. A proven fault of ours is never replaced."""
        ours = self.session.abort
        if ours is None or ours.proven or ours.evidence or ours.by is None:
            return False
        theirs = self.session.read_abort(frame)
        if theirs is None or theirs.by == ours.by:
            return False
        if not theirs.proven and (theirs.evidence or theirs.by is None or theirs.by > ours.by):
            return False
        self.session.abort = theirs
        if not self.events.closing:
            self.journal.append(["S", frame])
        self.mesh.sent.append(frame)  # passed on, as any adopted abort
        for link in self.mesh.links.values():
            link.wake.set()
        self.owner.write_record()
        abort = self.session.abort
        self.events.emit(
            "claims",
            abort.by,
            "two claims met (the peers were cut off from each other): the claim of the lower "
            f"seat stands, {abort.describe(self.names, self.seat)}"
            if not abort.proven
            else "the game was stopped twice: a proof stands over a claim, "
            + abort.describe(self.names, self.seat),
        )
        self.events.emit("over")
        return True

    def _others_left(self, others: set[int], absent_since: dict[int, float]) -> bool:
        """Whether every peer we still wait for has been unreachable for ABSENT_GRACE: a
        resumed peer does not wait the full linger for peers that already left (they could
        not have finished without our frames, so they have them, or they gave up)."""
        now = time.monotonic()
        waiting = others - (self.mesh.done_from & self.mesh.told_done)
        for s in waiting:
            if s in self.mesh.links:
                absent_since.pop(s, None)
            else:
                absent_since.setdefault(s, now)
        return all(s in absent_since and now - absent_since[s] >= ABSENT_GRACE for s in waiting)


__all__ = ["ABORT_LINGER", "ABSENT_GRACE", "LAST_WORD", "EndingOwner", "GameEnd", "clock"]
