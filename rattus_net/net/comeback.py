"""A peer back in its game: resumed from its journal, or woken after a pause.

Either may have missed what happened while it was away: the others may have dropped its
links, judged it, stopped the game, or be waiting for it. So it judges nobody (no stall
claim) until a peer of the game has answered since it came back (:meth:`Comeback._reached`),
gives up without a record when nobody answers within the stall timeout
(:meth:`Comeback._alone`), and a resumed peer decides nothing until every other peer has said
what it holds of its frames (:meth:`Comeback._gate`, :meth:`Comeback._may_decide`; the
sans-IO part is :mod:`rattus_net.net.recovery`).
"""

from __future__ import annotations

import time
from typing import Any

from protocol.session import Session
from rattus_net.kit.interface import GameDefinition
from rattus_net.net.ending import ABSENT_GRACE, GameEnd, clock
from rattus_net.net.pausewatch import PauseWatch
from rattus_net.net.recovery import DECIDE, Adopt, Recovery

STAGGER = 2.0
"""Seconds each seat waits longer than the one before it before it ends the game blaming a
peer that is gone: the lowest seat still there signs the abort, and the others, a little
later, adopt it instead of signing claims of their own at the same moment."""


class Comeback(GameEnd):
    """The comeback rules of a :class:`~rattus_net.net.node.PeerNode` (which sets these)."""

    session: Session
    definition: GameDefinition[Any, Any, Any, Any]
    recovery: Recovery
    held: dict[int, int]
    together: frozenset[int]
    answered: set[int]
    away: bool
    alone: bool
    pauses: PauseWatch

    def _recovery_news(self) -> None:
        raise NotImplementedError

    def _checkclock(self) -> None:
        """Notice a pause: the process was stopped and woken (SIGSTOP and SIGCONT, say), as
        the pause watch saw it (:mod:`rattus_net.net.pausewatch`). See :meth:`_came_back`."""
        gap = self.pauses.take()
        if gap > 0:
            self._came_back(gap)

    def _came_back(self, gap: float) -> None:
        """We were away for ``gap`` seconds while the others went on: they may have dropped
        our links, judged us, stopped the game, or be waiting for us. That time did not pass
        for the game here (the step's and the links' clocks move on by ``gap``), every link is
        renewed so that each side says again what it holds, and, as for a resumed peer,
        nobody is judged (no stall claim) until a peer has answered since; the first one hands
        us the game's abort if they stopped it."""
        self.away = True
        self.answered.clear()
        self._since = time.monotonic()
        self._said_alone = False
        self.session.pause(gap)
        self.down_since = {s: t + gap for s, t in self.down_since.items()}
        for link in list(self.links.values()):
            link.conn.abort()  # (half-dead after the pause: renewed at once)
        self._emit(
            "paused",
            None,
            f"this program was paused for {clock(gap)} (stopped, or the computer held): "
            "reconnecting, and asking the others what they hold before judging anyone",
        )

    def _absent(self) -> dict[int, float]:
        """Since when each seat whose link is down counts as gone, for the stall timeout:
        staggered by our seat (:data:`STAGGER`), so that one abort is signed, not several."""
        return {s: t + self.seat * STAGGER for s, t in self.down_since.items()}

    def _reached(self) -> bool:
        """Whether we may judge who stalls: neither resumed nor back from a pause, or some
        peer of the game outside this process has answered (``H``) since we came back."""
        if not self.resumed and not self.away:
            return True
        return any(s not in self.together for s in self.answered)

    def _alone(self) -> bool:
        """Whether a resumed peer that has reached nobody of its game gives up waiting.

        Its game may have been aborted by the others while it was away (they waited for it,
        then stopped the game with a signed abort, and left). Blaming them as stalled would
        write a record that contradicts theirs, so a resumed peer that no other peer has
        answered (``H``) never writes a stall claim: it says that nobody else of the game is
        online, and after its stall timeout it ends without a record, the game kept
        resumable; the first peer it reaches later hands it the signed abort, if there is
        one. The seats resumed in the same process (:attr:`together`) do not count: a host's
        bot seats answer it at once, and know no more than it does. A peer back from a pause
        (:meth:`_came_back`) is treated the same way."""
        if self._reached():
            return False
        waited = time.monotonic() - self._since
        if waited >= min(ABSENT_GRACE, self.session.timeout / 2) and not self._said_alone:
            self._said_alone = True
            left = max(0.0, self.session.timeout - waited)
            self._emit(
                "alone",
                None,
                "nobody else of this game is online (they may have ended it while you were "
                f"away); waiting {clock(left)} for them, then the game is kept for later "
                "(rattus resume)",
            )
        if waited <= self.session.timeout:
            return False
        self.alone = True
        return True

    _said_alone = False
    _since = 0.0
    _abort_kept = False  # our own abort is journaled (see _flush_outgoing)

    def _gate(self) -> bool:
        """Whether every other peer still in the game has said what it holds of ours (a
        resumed peer sends and decides nothing before). A peer gone longer than the stall
        timeout meanwhile is blamed, as :meth:`Session.tick` does for a peer gone while it
        owes a message; a resumed peer that nobody has answered yet blames nobody."""
        waiting = set(range(self.n)) - {self.seat} - set(self.held) - self.done_from
        if not waiting:
            return True
        if not self._reached():
            return False  # nobody reached yet: no stall claim either (see _alone)
        now = time.monotonic()
        gone = sorted(s for s in waiting if now - self._absent().get(s, now) > self.session.timeout)
        if gone:
            step = self.session.step.index if self.session.step else -1
            self.session.stop(
                f"stalled: gone while {self.names[self.seat]} waited to hear what it holds "
                f"of its messages (step {step})",
                gone[0],
            )
            self._flush_outgoing()
        return False

    def _may_decide(self) -> bool:
        """Whether our player may decide now (a new message of ours would be signed).

        A journal is never trusted past damage: a resumed peer decides nothing until every
        other peer still in the game has said (``H``) how many of our frames it holds
        (:meth:`_gate`), and until every frame it made since it came back has gone out
        (see :class:`~rattus_net.net.recovery.Recovery`). If a peer holds our frame for this
        decision, our decision was sent already and is lost here: it is made again from the
        copy a peer sends back (``R``/``Y``), to the very same signed message
        (:meth:`_adopt`), never decided anew (a second, different message for one sequence
        number would be an equivocation naming the honest player)."""
        if not self.resumed:
            return True
        if not self._gate():
            return False
        verdict = self.recovery.decision(time.monotonic(), self.done_from)
        self._recovery_news()
        if isinstance(verdict, Adopt):
            self._adopt(verdict.move)
            return False
        if self.session.abort is not None:
            self._flush_outgoing()  # (the recovery step stopped the game)
        return verdict == DECIDE

    def _adopt(self, move: Any) -> None:
        """Make again the decision ``move`` whose signed message another peer holds and our
        journal lost: journaled first, like any decision, and signed to the very same bytes
        (the recovery step sends it only if it is the copy, byte for byte)."""
        # (journaled before it is signed and sent)
        self.journal.append(["d", self.definition.format_move(move)])
        self.session.decide(move, time.monotonic())
        self._flush_outgoing()
        self._emit(
            "journal",
            self.seat,
            f"your move ({self.definition.format_move(move)}), lost from your journal, was "
            "recovered from the other peers: the same signed message, journaled again",
        )


__all__ = ["STAGGER", "Comeback"]
