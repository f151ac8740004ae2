"""How the protocol answers each kind of table request: the one place in ``protocol/`` that
knows the kinds (``rattus_net/kit/table.py`` lists them and says what the kit does with each).

* :class:`RequestSteps`: the step a peer starts when the public engine asks for it (a chain of
  shuffles, a round of shared random numbers, the shares that turn a card up, a private mix of
  a hand, the opening of committed face-down cards), or the answer it gives at once with no
  message (a pile laid face down whose order is drawn later, a reveal nobody owes a share of).
* :class:`AuditAnswers`: what the information audit records of it, playing without
  cryptography (``audit.py``).
* :func:`pending_request`: the pending request of a step handler, of the kind the step answers
  (a step of another kind pending is our own bug, said in one line).

A new kind of request is a class in the kit's ``table.py`` and a method in each class here;
the type checker names every one that lacks it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from protocol.crypto.shuffle import random_permutation
from protocol.errors import LocalProtocolError
from protocol.messages import OPEN, PRIVATE_MIX, RAND_COMMIT, SHARES, SHUFFLE
from protocol.state import game_context
from rattus_net.kit.table import Open, PublicRandom, Rehandle, Reveal, Shuffle, TableRequest

if TYPE_CHECKING:
    from protocol.audit import AuditTable
    from protocol.schedule import Schedule

R = TypeVar("R", bound=TableRequest)


def pending_request(game: Any, kind: type[R]) -> R:
    """``game``'s pending request, which must be of ``kind`` (the step that answers it)."""
    req = game.pending
    if not isinstance(req, kind):
        raise LocalProtocolError(f"a {kind.__name__} step while the engine asks {req!r}")
    return req


class RequestSteps:
    """The protocol's answer to each kind of request, for :meth:`Schedule.advance`: each
    method starts the request's step and returns ``True``, or answers the engine at once with
    no message and returns ``False`` (the schedule looks at the engine again)."""

    def __init__(self, schedule: Schedule, now: float) -> None:
        self.sch = schedule
        self.s = schedule.state
        self.now = now

    def shuffle(self, req: Shuffle) -> bool:
        sch, s = self.sch, self.s
        if req.pile in s.drawn_piles:
            sch.lay_undecided(req)
            return False
        assert s.joint is not None
        k = s._shuffles
        deck = sch.initial_deck(req.faces, game_context(s.game_id, b"deck", k))
        sch.new_step(SHUFFLE, (0,), self.now, {"deck": deck, "k": k, "stage": 0})
        return True

    def reveal(self, req: Reveal) -> bool:
        sch, s = self.sch, self.s
        if s.undecided.intersection(req.handles):
            if req.to is not None or not s.undecided.issuperset(req.handles):
                raise LocalProtocolError(f"a drawn pile's pieces are only drawn publicly: {req!r}")
            sch.new_step(RAND_COMMIT, tuple(range(s.n)), self.now, {"draw": req.handles})
            return True
        contrib = sch.contributions(req)
        if contrib:
            sch.new_step(SHARES, tuple(sorted(contrib)), self.now, {"contrib": contrib})
            return True
        sch.checks.answer_reveal(req)
        return False

    def public_random(self, req: PublicRandom) -> bool:
        self.sch.new_step(RAND_COMMIT, tuple(range(self.s.n)), self.now)
        return True

    def open(self, req: Open) -> bool:
        self.sch.new_step(OPEN, (req.seat,), self.now)
        return True

    def rehandle(self, req: Rehandle) -> bool:
        sch, s = self.sch, self.s
        info = {"deck": sch.mix_inputs(req), "k": s._mixes, "req": req}
        sch.new_step(PRIVATE_MIX, (req.seat,), self.now, info)
        return True


class AuditAnswers:
    """What :class:`~protocol.audit.AuditTable` records of each kind of request, as a secure
    session would, before its inner table answers; a method returns the answer when the audit
    gives one of its own (a hand mixed with the peer's permutation), else ``None``."""

    def __init__(self, table: AuditTable, game: Any) -> None:
        self.t = table
        self.game = game

    def shuffle(self, req: Shuffle) -> list[int] | None:
        if req.pile not in self.t.secure.drawn_piles:
            self.t.flow.masked.update(req.handles)
        return None

    def reveal(self, req: Reveal) -> list[int] | None:
        flow = self.t.flow
        flow.reveals.append((tuple(req.handles), req.to))
        flow.reveal_moves.append(len(self.game.history))
        return None

    def public_random(self, req: PublicRandom) -> list[int] | None:
        return None

    def open(self, req: Open) -> list[int] | None:
        return None

    def rehandle(self, req: Rehandle) -> list[int] | None:
        t, flow = self.t, self.t.flow
        k = len(flow.mixes)
        flow.mixes.append((len(self.game.history), req.seat, tuple(req.old), tuple(req.new)))
        flow.masked.update(req.new)
        if t.secrets is None:
            return None
        # As the seat's peer mixes: the permutation of its ``mix/k`` stream.
        fo, known = t.inner.face_of, self.game.faces
        old = [fo[h] if h in fo else known[h] for h in req.old]
        stream = t.secrets[req.seat].stream(b"mix/" + str(k).encode())
        faces = [old[j] for j in random_permutation(len(old), stream)]
        fo.update(zip(req.new, faces, strict=True))
        return faces
