"""Information audit: which card faces a peer can compute from what it received.

Given a verified game (an observer session that processed the whole transcript) and one
seat's ElGamal secret, :func:`computable_faces` tries, for every masked card, everything the
seat holds: the public decryption shares, its own share, and the shares encrypted to it. The
tests compare the result with what rules section 8 entitles the seat to know (every public
reveal, plus the reveals addressed to it: its draws, its looks, the cards given to it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from protocol.crypto.elgamal import unmask
from protocol.crypto.group import Point, Scalar
from protocol.crypto.transfer import decrypt_share
from protocol.params import PeerSecrets
from protocol.requests import AuditAnswers
from protocol.session import Session, face_of_point
from rattus_net.kit.registry import get_game
from rattus_net.kit.table import TableRequest


def computable_faces(session: Session, seat: int, secret: Scalar) -> dict[int, int]:
    """Handle -> face for every card ``seat`` can open with its secret and the transcript."""
    out: dict[int, int] = {}
    for h, ct in session.cards.items():
        shares: list[Point] = []
        have: set[int] = set()
        for s, d in session.pub.get(h, {}).items():
            shares.append(d)
            have.add(s)
        if seat not in have:
            shares.append(secret * ct.c1)
            have.add(seat)
        for frm, to, es in session.enc.get(h, ()):
            if to == seat and frm not in have:
                shares.append(decrypt_share(secret, es))
                have.add(frm)
        if len(have) < session.n:
            continue
        face = face_of_point(session.secure, unmask(ct, shares))
        if face is not None:
            out[h] = face
    return out


def entitled_handles(session: Session, seat: int) -> set[int]:
    """Masked cards ``seat`` may know by rules section 8: public reveals and its own.
    (Building cards are never masked: they are drawn by commit-reveal when turned up.)"""
    out: set[int] = set()
    for handles, to in session.record.reveals:
        if to is None or to == seat:
            out.update(h for h in handles if h in session.cards)
    return out


def known_by_mixing(session: Session, seat: int) -> set[int]:
    """Cards ``seat`` knows without being able to decrypt them: the new cards of its own
    mixed hands (it chose the permutation and knew the old faces)."""
    return {h for _, s, _, new in session.record.mixes if s == seat for h in new}


def retired_handles(session: Session) -> set[int]:
    """Handles that left the game when their hand was mixed."""
    return {h for _, _, old, _ in session.record.mixes for h in old}


def played_handles(session: Session) -> list[tuple[int, int, tuple[int, ...]]]:
    """``(move index, seat, handles)`` for every card a player took from his hand and showed
    or passed on (Rattus Cartus: given, laid face down, discarded, played as a Pass)."""
    out: list[tuple[int, int, tuple[int, ...]]] = []
    for i, (seat, move) in enumerate(session.public.history):
        handles = session.secure.hand_handles(move, session.record.openings.get(i, ()))
        if handles:
            out.append((i, seat, handles))
    return out


@dataclass
class HandleFlow:
    """What the linkage audit reads: every card played from a hand (``played``: move index,
    seat, handles), every reveal (handles, receiver or None for everybody) with the number of
    moves played before it, every mixed hand (moves before it, seat, old and new handles) and
    the handles that are ciphertexts (``masked``; a card taken openly from a supply pile is
    not, until its hand is mixed)."""

    played: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    reveals: list[tuple[tuple[int, ...], int | None]] = field(default_factory=list)
    reveal_moves: list[int] = field(default_factory=list)
    mixes: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)
    masked: set[int] = field(default_factory=set)

    @classmethod
    def of_session(cls, session: Session) -> HandleFlow:
        rec = session.record
        return cls(
            played_handles(session),
            list(rec.reveals),
            list(rec.reveal_moves),
            list(rec.mixes),
            set(session.cards),
        )


def linkage_violations(session: Session) -> list[str]:
    """:func:`linkage_problems` of a verified (or played) secure game."""
    return linkage_problems(HandleFlow.of_session(session))


def linkage_problems(flow: HandleFlow) -> list[str]:
    """Every card a player gives away, lays, discards or plays as a Pass that some other peer
    can link to something it saw before the move (empty for a fair, mixed game).

    A handle moved by seat ``s`` at move ``i`` is linkable when, before move ``i``,

    * its face was public or was revealed to another peer (a card taken openly from a supply
      pile keeps its public face; a card another peer gave ``s`` was revealed to ``s`` but
      the giver knows it), or
    * it is not one of the new handles of ``s``'s latest mixed hand (or, if ``s`` was never
      mixed, of its starting hand): then everybody sees which draw, supply take or gift it
      came from.
    """
    problems: list[str] = []
    reveals = list(zip(flow.reveals, flow.reveal_moves, strict=True))
    for i, seat, handles in flow.played:
        mixes = [new for at, s, _, new in flow.mixes if s == seat and at <= i]
        if mixes:
            allowed = set(mixes[-1])
        else:
            allowed = {h for (hs, to), at in reveals if to == seat and at == 0 for h in hs}
        for h in handles:
            if h not in allowed:
                problems.append(f"move {i}: card {h} of seat {seat} keeps a handle from before")
            for (hs, to), at in reveals:
                if at <= i and h in hs and to != seat:
                    who = "everybody" if to is None else f"seat {to}"
                    problems.append(f"move {i}: card {h} of seat {seat} was shown to {who}")
                    break
            if h not in flow.masked:
                problems.append(f"move {i}: card {h} of seat {seat} has a public face")
    return problems


class AuditTable:
    """A local table (no cryptography; ``inner``: the game's own local table) that records
    the :class:`HandleFlow` of its game as a secure session would: the engine asks the same
    table requests, so the linkage audit of thousands of games runs in seconds. Play with
    :func:`play_audited`. ``secrets`` given: hands are mixed with the peers' permutations."""

    def __init__(
        self,
        inner: Any,
        *,
        secrets: Sequence[PeerSecrets] | None = None,
        game: str,
    ) -> None:
        self.inner = inner
        self.secure = get_game(game).secure()
        self.flow = HandleFlow()
        self.secrets = secrets

    def value_for(self, game: Any) -> Any:
        req: TableRequest = game.pending
        own = req.visit(AuditAnswers(self, game))  # (what each kind records: ``requests.py``)
        return own if own is not None else self.inner.value_for(game)

    def answer(self, game: Any) -> None:
        game.answer(self.value_for(game))


def play_audited(game: Any, table: AuditTable, choose: Callable[[Any, int], Any]) -> Any:
    """Play ``game`` to its end on ``table``, recording the handles behind every card played
    from a hand (what the other peers of a secure game receive)."""
    secure = table.secure
    while not game.is_over:
        deciders = game.to_act()
        if not deciders:
            table.answer(game)
            continue
        seat = deciders[0]
        move = choose(game, seat)
        public, hidden = secure.public_move(game, seat, move)
        handles = secure.hand_handles(public, hidden or ())
        if handles:
            table.flow.played.append((len(game.history), seat, tuple(handles)))
        game.apply(seat, move)
    return game
