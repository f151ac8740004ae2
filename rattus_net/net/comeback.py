"""A peer back in its game: resumed from its journal, or woken after a pause.

Either may have missed what happened while it was away: the others may have dropped its
links, judged it, stopped the game, or be waiting for it. So it judges nobody (no stall
claim) until a peer of the game has answered since it came back (:meth:`Comeback.reached`),
gives up without a record when nobody answers within the stall timeout
(:meth:`Comeback.alone`), and a resumed peer decides nothing until every other peer has said
what it holds of its frames (:meth:`Comeback.gate`, :meth:`Comeback.may_decide`; the
sans-IO part is :mod:`rattus_net.net.recovery`).
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from protocol.session import Session
from rattus_net.kit.interface import GameDefinition
from rattus_net.net.ending import ABSENT_GRACE, clock
from rattus_net.net.events import NodeEvents
from rattus_net.net.mesh import Mesh
from rattus_net.net.pausewatch import PauseWatch
from rattus_net.net.persist import Journal
from rattus_net.net.recovery import DECIDE, Adopt, Recovery

STAGGER = 2.0
"""Seconds each seat waits longer than the one before it before it ends the game blaming a
peer that is gone: the lowest seat still there signs the abort, and the others, a little
later, adopt it instead of signing claims of their own at the same moment."""


class ComebackOwner(Protocol):
    """What the comeback rules need from the node that owns them."""

    def flush_outgoing(self) -> None:
        """Hand what the session made to the recovery step and the links."""

    def recovery_news(self) -> None:
        """Say what the recovery step found, and ask back the frame of ours it lacks."""


class Comeback:
    """The comeback rules of a node (:class:`~rattus_net.net.node.PeerNode`): when a peer
    back in its game may judge, decide, or give up."""

    def __init__(
        self,
        owner: ComebackOwner,
        session: Session,
        mesh: Mesh,
        recovery: Recovery,
        definition: GameDefinition[Any, Any, Any, Any],
        journal: Journal,
        events: NodeEvents,
        *,
        together: frozenset[int] = frozenset(),
    ) -> None:
        self.owner = owner
        self.session = session
        self.mesh = mesh
        self.recovery = recovery
        self.definition = definition
        self.journal = journal
        self.events = events
        self.together = together
        """Seats resumed with this one in the same process (a host's bot seats, or a bot
        seat's host and fellow bots): hearing from them is not reaching the game (see
        :meth:`alone`)."""
        self.resumed = False  # resumed from the journal (set by PeerNode.load)
        self.answered: set[int] = set()  # seats that said what they hold since we came back
        self.away = False  # paused (the clock jumped): see came_back
        self.gave_up = False  # resumed, and nobody of the game reached: see alone
        self.pauses = PauseWatch()
        self.since = 0.0  # when we came back (the node's start, or the end of a pause)
        self._said_alone = False

    @property
    def seat(self) -> int:
        return self.mesh.seat

    @property
    def n(self) -> int:
        return self.mesh.n

    @property
    def names(self) -> tuple[str, ...]:
        return self.events.names

    def checkclock(self) -> None:
        """Notice a pause: the process was stopped and woken (SIGSTOP and SIGCONT, say), as
        the pause watch saw it (:mod:`rattus_net.net.pausewatch`). See :meth:`came_back`."""
        gap = self.pauses.take()
        if gap > 0:
            self.came_back(gap)

    def came_back(self, gap: float) -> None:
        """We were away for ``gap`` seconds while the others went on: they may have dropped
        our links, judged us, stopped the game, or be waiting for us. That time did not pass
        for the game here (the step's and the links' clocks move on by ``gap``), every link is
        renewed so that each side says again what it holds, and, as for a resumed peer,
        nobody is judged (no stall claim) until a peer has answered since; the first one hands
        us the game's abort if they stopped it."""
        self.away = True
        self.answered.clear()
        self.since = time.monotonic()
        self._said_alone = False
        self.session.pause(gap)
        self.mesh.down_since = {s: t + gap for s, t in self.mesh.down_since.items()}
        for link in list(self.mesh.links.values()):
            link.conn.abort()  # (half-dead after the pause: renewed at once)
        self.events.emit(
            "paused",
            None,
            f"this program was paused for {clock(gap)} (stopped, or the computer held): "
            "reconnecting, and asking the others what they hold before judging anyone",
        )

    def absent(self) -> dict[int, float]:
        """Since when each seat whose link is down counts as gone, for the stall timeout:
        staggered by our seat (:data:`STAGGER`), so that one abort is signed, not several."""
        return {s: t + self.seat * STAGGER for s, t in self.mesh.down_since.items()}

    def reached(self) -> bool:
        """Whether we may judge who stalls: neither resumed nor back from a pause, or some
        peer of the game outside this process has answered (``H``) since we came back."""
        if not self.resumed and not self.away:
            return True
        return any(s not in self.together for s in self.answered)

    def alone(self) -> bool:
        """Whether a resumed peer that has reached nobody of its game gives up waiting.

        Its game may have been aborted by the others while it was away (they waited for it,
        then stopped the game with a signed abort, and left). Blaming them as stalled would
        write a record that contradicts theirs, so a resumed peer that no other peer has
        answered (``H``) never writes a stall claim: it says that nobody else of the game is
        online, and after its stall timeout it ends without a record, the game kept
        resumable; the first peer it reaches later hands it the signed abort, if there is
        one. The seats resumed in the same process (:attr:`together`) do not count: a host's
        bot seats answer it at once, and know no more than it does. A peer back from a pause
        (:meth:`came_back`) is treated the same way."""
        if self.reached():
            return False
        waited = time.monotonic() - self.since
        if waited >= min(ABSENT_GRACE, self.session.timeout / 2) and not self._said_alone:
            self._said_alone = True
            left = max(0.0, self.session.timeout - waited)
            self.events.emit(
                "alone",
                None,
                "nobody else of this game is online (they may have ended it while you were "
                f"away); waiting {clock(left)} for them, then the game is kept for later "
                "(rattus resume)",
            )
        if waited <= self.session.timeout:
            return False
        self.gave_up = True
        return True

    def gate(self) -> bool:
        """Whether every other peer still in the game has said what it holds of ours (a
        resumed peer sends and decides nothing before). A peer gone longer than the stall
        timeout meanwhile is blamed, as :meth:`Session.tick` does for a peer gone while it
        owes a message; a resumed peer that nobody has answered yet blames nobody."""
        waiting = set(range(self.n)) - {self.seat} - set(self.recovery.held) - self.mesh.done_from
        if not waiting:
            return True
        if not self.reached():
            return False  # nobody reached yet: no stall claim either (see alone)
        now = time.monotonic()
        gone = sorted(s for s in waiting if now - self.absent().get(s, now) > self.session.timeout)
        if gone:
            step = self.session.step.index if self.session.step else -1
            self.session.stop(
                f"stalled: gone while {self.names[self.seat]} waited to hear what it holds "
                f"of its messages (step {step})",
                gone[0],
            )
            self.owner.flush_outgoing()
        return False

    def may_decide(self) -> bool:
        """Whether our player may decide now (a new message of ours would be signed).

        A journal is never trusted past damage: a resumed peer decides nothing until every
        other peer still in the game has said (``H``) how many of our frames it holds
        (:meth:`gate`), and until every frame it made since it came back has gone out
        (see :class:`~rattus_net.net.recovery.Recovery`). If a peer holds our frame for this
        decision, our decision was sent already and is lost here: it is made again from the
        copy a peer sends back (``R``/``Y``), to the very same signed message
        (:meth:`adopt`), never decided anew (a second, different message for one sequence
        number would be an equivocation naming the honest player)."""
        if not self.resumed:
            return True
        if not self.gate():
            return False
        verdict = self.recovery.decision(time.monotonic(), self.mesh.done_from)
        self.owner.recovery_news()
        if isinstance(verdict, Adopt):
            self.adopt(verdict.move)
            return False
        if self.session.abort is not None:
            self.owner.flush_outgoing()  # (the recovery step stopped the game)
        return verdict == DECIDE

    def adopt(self, move: Any) -> None:
        """Make again the decision ``move`` whose signed message another peer holds and our
        journal lost: journaled first, like any decision, and signed to the very same bytes
        (the recovery step sends it only if it is the copy, byte for byte)."""
        # (journaled before it is signed and sent)
        self.journal.append(["d", self.definition.format_move(move)])
        self.session.decide(move, time.monotonic())
        self.owner.flush_outgoing()
        self.events.emit(
            "journal",
            self.seat,
            f"your move ({self.definition.format_move(move)}), lost from your journal, was "
            "recovered from the other peers: the same signed message, journaled again",
        )


__all__ = ["STAGGER", "Comeback", "ComebackOwner"]
