"""The schedule: which step comes next, and the messages we send without a decision.

The public engine's pending request decides the next step (``_schedule``): a decision is a
``move`` step (or, for a committed decision, ``supply-commit`` then ``supply-open``), a
shuffle a chain of ``shuffle`` steps, a reveal a ``shares`` step (or nothing, when no share
is missing), a public random number a commit-reveal round. ``_act`` sends our message for
the current step when it needs no decision of our player.
"""

from __future__ import annotations

from typing import Any

from protocol.crypto.elgamal import Ciphertext, card_point, decryption_share, generate_key
from protocol.crypto.shuffle import shuffle, shuffle_with_permutation
from protocol.crypto.transfer import encrypt_share
from protocol.errors import LocalProtocolError
from protocol.messages import (
    COMMIT_MOVES,
    HELLO,
    KEYS,
    MOVE,
    OPEN,
    OPEN_MOVES,
    PRIVATE_MIX,
    RAND_COMMIT,
    RAND_REVEAL,
    SHARES,
    SHUFFLE,
)
from protocol.randomness import commitment as rand_commitment
from protocol.requests import RequestSteps
from protocol.state import Step, be4, game_context, open_card_mask
from protocol.steps import StepChecks
from protocol.wire import WireValue
from rattus_net.kit.table import Rehandle, Reveal, Shuffle, TableRequest


class Schedule(StepChecks):
    """The step machine's schedule and our automatic messages."""

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
        elif k == PRIVATE_MIX:
            self._send(PRIVATE_MIX, self._my_mixing(st))
        elif k == OPEN:
            if self._my_open is None:
                raise LocalProtocolError("asked to open a play we did not make")
            handles, salt = self._my_open
            self._send(OPEN, {"h": list(handles), "s": salt})
        elif k == OPEN_MOVES:
            if self._my_committed is None:
                raise LocalProtocolError("asked to open a committed move we did not make")
            wire, salt = self._my_committed
            self._send(OPEN_MOVES, {"m": wire, "s": salt})
        elif k == KEYS:
            assert self._elg is not None
            self._send(KEYS, {"x": self._elg.data})
        # MOVE and COMMIT_MOVES wait for decide().

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
                    self._new_step(COMMIT_MOVES, tuple(deciders), now)
                else:
                    self._new_step(MOVE, (deciders[0],), now)
                return
            if p is None:
                raise LocalProtocolError("the engine waits for nobody and is not over")
            request: TableRequest = p
            if request.visit(RequestSteps(self, now)):  # (each kind's step: ``requests.py``)
                return

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
                hash_to_scalar(b"rattus-net/v1/initial-mask", ctx, be4(i)),
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
