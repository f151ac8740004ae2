"""The schedule: which step comes next, and the messages we send without a decision.

The public engine's pending request decides the next step (``advance``): a decision is a
``move`` step (or, for a committed decision, ``supply-commit`` then ``supply-open``), a
shuffle a chain of ``shuffle`` steps, a reveal a ``shares`` step (or nothing, when no share
is missing), a public random number a commit-reveal round. ``act`` sends our message for
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
from protocol.state import SessionState, Step, be4, game_context, open_card_mask
from protocol.steps import StepChecks
from protocol.wire import WireValue
from rattus_net.kit.table import Rehandle, Reveal, Shuffle, TableRequest


class Schedule:
    """The step machine's schedule and our automatic messages, over ``state``; a reveal that
    needs no message is answered by ``checks`` (as the step that turns cards up would)."""

    def __init__(self, state: SessionState, checks: StepChecks) -> None:
        self.state = state
        self.checks = checks

    def act(self) -> None:
        """Send our message for the current step if we owe one and need no decision."""
        st = self.state.step
        me = self.state.seat
        if st is None or me is None or me not in st.senders or self.state._sent_step == st.index:
            return
        if self.state.abort is not None:
            return
        k = st.kind
        if k == HELLO:
            ctx = game_context(self.state.game_id, b"elgamal", me)
            secret, ann = generate_key(self.state._stream(b"elgamal", 0), ctx)
            self.state._elg = secret
            self.state._send(HELLO, {"k": ann.to_bytes()})
        elif k == RAND_COMMIT:
            label, j, ctx = self.state._rand_round(st)
            mine = self.state._stream(label, j)(32)
            self.state._send(RAND_COMMIT, {"c": rand_commitment(mine, self.state.names[me], ctx)})
        elif k == RAND_REVEAL:
            label, j, _ = self.state._rand_round(st)
            self.state._send(RAND_REVEAL, {"r": self.state._stream(label, j)(32)})
        elif k == SHUFFLE:
            assert self.state.joint is not None
            deck, kidx = st.info["deck"], st.info["k"]
            ctx = game_context(self.state.game_id, b"shuffle", kidx, me)
            out, proof = shuffle(deck, self.state.joint, self.state._stream(b"shuffle", kidx), ctx)
            self.state._send(
                SHUFFLE, {"d": b"".join(c.to_bytes() for c in out), "p": proof.to_wire()}
            )
        elif k == SHARES:
            self.state._send(SHARES, self._my_shares(st))
        elif k == PRIVATE_MIX:
            self.state._send(PRIVATE_MIX, self._my_mixing(st))
        elif k == OPEN:
            if self.state._my_open is None:
                raise LocalProtocolError("asked to open a play we did not make")
            handles, salt = self.state._my_open
            self.state._send(OPEN, {"h": list(handles), "s": salt})
        elif k == OPEN_MOVES:
            if self.state._my_committed is None:
                raise LocalProtocolError("asked to open a committed move we did not make")
            wire, salt = self.state._my_committed
            self.state._send(OPEN_MOVES, {"m": wire, "s": salt})
        elif k == KEYS:
            assert self.state._elg is not None
            self.state._send(KEYS, {"x": self.state._elg.data})
        # MOVE and COMMIT_MOVES wait for decide().

    def _my_shares(self, st: Step) -> dict[str, WireValue]:
        assert self.state.seat is not None and self.state._elg is not None
        me = self.state.seat
        rand = self.state._stream(b"step", st.index)
        pub: list[WireValue] = []
        enc: list[WireValue] = []
        for h, mode, to in st.info["contrib"].get(me, ()):
            ct = self.state.cards[h]
            if mode == "pub":
                ctx = game_context(self.state.game_id, b"share", h, me)
                pub.append([h, decryption_share(self.state._elg, ct, rand, ctx).to_bytes()])
            else:
                key = self.state.keys[to]
                assert key is not None
                ctx = game_context(self.state.game_id, b"share-to", h, me, to, st.index)
                enc.append([h, encrypt_share(self.state._elg, ct.c1, key, rand, ctx).to_bytes()])
        return {"p": pub, "e": enc}

    def _my_mixing(self, st: Step) -> dict[str, WireValue]:
        """Mix our hand: permute and re-mask its ciphertexts with a shuffle proof. We knew the
        old faces, so our permutation tells us the face of each new card."""
        assert self.state.joint is not None and self.state.seat is not None
        req: Rehandle = st.info["req"]
        old_faces: list[int] = []
        for h in req.old:
            f = self.state.my_faces.get(h, self.state.public.faces.get(h))
            if f is None and self.state.game is not None:
                f = self.state.game.faces.get(h)
            if f is None:
                raise LocalProtocolError(f"we do not know the face of our card {h}")
            old_faces.append(f)
        ctx = game_context(self.state.game_id, b"mix", st.info["k"], st.index, self.state.seat)
        out, proof, perm = shuffle_with_permutation(
            st.info["deck"], self.state.joint, self.state._stream(b"mix", st.info["k"]), ctx
        )
        self.state._my_mix = (st.index, [old_faces[j] for j in perm])
        return {"d": b"".join(c.to_bytes() for c in out), "p": proof.to_wire()}

    def start(self, now: float) -> None:
        self.new_step(HELLO, tuple(range(self.state.n)), now)
        self.act()

    def new_step(self, kind: str, senders: tuple[int, ...], now: float, info: Any = None) -> None:
        index = self.state._steps
        self.state._steps += 1
        self.state._th_at[index] = (self.state.th, tuple(self.state.seen))
        self.state.step = Step(index, kind, senders, now, info)

    def advance(self, now: float) -> None:
        """Compute the next step from the public engine, answering what needs no messages."""
        g = self.state.public
        while True:
            if g.is_over:
                if all(k is not None for k in self.state.revealed_keys):
                    self.state.step = None
                    self.state.finished = True
                else:
                    self.new_step(KEYS, tuple(range(self.state.n)), now)
                return
            p = g.pending
            deciders = g.to_act()
            if deciders:
                if self.state.secure.committed(g):
                    self.new_step(COMMIT_MOVES, tuple(deciders), now)
                else:
                    self.new_step(MOVE, (deciders[0],), now)
                return
            if p is None:
                raise LocalProtocolError("the engine waits for nobody and is not over")
            request: TableRequest = p
            if request.visit(RequestSteps(self, now)):  # (each kind's step: ``requests.py``)
                return

    def lay_undecided(self, req: Shuffle) -> None:
        """A pile served by commit-reveal: its known faces lie face down in an order not
        decided yet. No message: each card is drawn when it is turned up."""
        if self.state.undecided or self.state.drawn_faces:
            raise LocalProtocolError(f"a second {req.pile} pile")
        self.state.pile_left = sorted(req.faces)
        self.state.pile_handles = req.handles
        self.state.undecided = frozenset(req.handles)
        self.state.record.shuffles.append((req.pile, req.faces, req.handles))
        self.state.public.answer(None)
        self.state._own_queue.append((req, None))

    def initial_deck(self, faces: tuple[int, ...], ctx: bytes) -> list[Ciphertext]:
        assert self.state.joint is not None
        from protocol.crypto.elgamal import mask
        from protocol.crypto.group import hash_to_scalar

        return [
            mask(
                card_point(f),
                self.state.joint,
                hash_to_scalar(b"rattus-net/v1/initial-mask", ctx, be4(i)),
            )
            for i, f in enumerate(faces)
        ]

    def mix_inputs(self, req: Rehandle) -> list[Ciphertext]:
        """The ciphertexts of a hand to mix. A card whose face is public and that has no
        ciphertext (taken openly from a supply pile) is masked with public randomness."""
        assert self.state.joint is not None
        from protocol.crypto.elgamal import mask

        out: list[Ciphertext] = []
        for h in req.old:
            ct = self.state.cards.get(h)
            if ct is None:
                face = self.state.public.faces.get(h)
                if face is None or h not in self.state.public.public:
                    raise LocalProtocolError(f"no ciphertext for handle {h}")
                ct = mask(card_point(face), self.state.joint, open_card_mask(self.state.game_id, h))
            out.append(ct)
        return out

    def contributions(self, req: Reveal) -> dict[int, list[tuple[int, str, int | None]]]:
        """Per seat, the shares it must send for this reveal: ``pub`` (broadcast with a DLEQ
        proof) or ``enc`` (encrypted to the receiver with a proof)."""
        out: dict[int, list[tuple[int, str, int | None]]] = {}
        to = req.to
        for h in req.handles:
            if h not in self.state.cards:
                raise LocalProtocolError(f"no ciphertext for handle {h}")
            u = self.state.unpublished[h]
            if to is None or to in u:
                for s in sorted(u):
                    if s != to:
                        out.setdefault(s, []).append((h, "pub", None))
            else:
                for s in sorted(u):
                    out.setdefault(s, []).append((h, "enc", to))
        return out
