"""The checks of each protocol step: validate every message of a step, then change state.

:class:`StepChecks` works on the session's :class:`~protocol.state.SessionState`, which the
session hands it. :meth:`StepChecks.check` passes a step to its handler ``_step_<kind>``,
which gets the step's messages (one per sender, seat order), checks them completely (payload
shape, proofs, commitments, the engine's legality) and raises a
:class:`~protocol.faults.PeerFault` naming the seat at fault; the session rolls the step
back (``SessionState._restore``) on any error. It returns the next step of the same
exchange (``Successor``) or None to let the public engine decide.
"""

from __future__ import annotations

from typing import Any

from protocol.crypto.commit import check as check_commitment
from protocol.crypto.elgamal import (
    Ciphertext,
    DecryptionShare,
    KeyAnnouncement,
    joint_key,
    unmask,
    verify_key,
    verify_share,
)
from protocol.crypto.group import Point, Scalar, base_mul
from protocol.crypto.shuffle import ShuffleProof, verify_shuffle
from protocol.crypto.transfer import EncryptedShare, decrypt_share, verify_encrypted_share
from protocol.errors import CryptoError, LocalProtocolError, RemoteProtocolError
from protocol.faults import PeerFault
from protocol.messages import (
    COMMITMENT_DOMAIN,
    OPEN_MOVES,
    RAND_REVEAL,
    SHUFFLE,
    Signed,
    move_from_wire,
)
from protocol.randomness import CommitReveal, RandomStream, draw_without_replacement
from protocol.requests import pending_request
from protocol.state import SessionState, Step, Successor, face_of_point, game_context
from protocol.wire import encode_value
from rattus_net.kit.errors import IllegalMove
from rattus_net.kit.table import Open, PublicRandom, Rehandle, Reveal, Shuffle


class StepChecks:
    """The per-step message checks and the answers they give the engines, over ``state``."""

    def __init__(self, state: SessionState) -> None:
        self.state = state

    def check(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        """Check the messages of step ``st`` and change the state by them (see the module)."""
        handler = getattr(self, "_step_" + st.kind.replace("-", "_"))
        successor: Successor = handler(st, msgs)
        return successor

    def _step_hello(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        keys: list[Point] = []
        for s, m in sorted(msgs.items()):
            raw = self.state._payload(m, {"k"})["k"]
            ann = KeyAnnouncement.from_bytes(
                raw if isinstance(raw, bytes) else b"", peer=self.state.names[s]
            )
            verify_key(
                ann, game_context(self.state.game_id, b"elgamal", s), peer=self.state.names[s]
            )
            keys.append(ann.public)
        self.state.keys = list(keys)
        self.state.joint = joint_key(keys)
        return None

    def _step_rand_commit(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        digests: dict[str, bytes] = {}
        for s, m in sorted(msgs.items()):
            c = self.state._payload(m, {"c"})["c"]
            if not isinstance(c, bytes) or len(c) != 32:
                raise PeerFault(s, self.state.names[s], "commitment must be 32 bytes", m.frame)
            digests[self.state.names[s]] = c
        self.state._rand_commits = digests
        return RAND_REVEAL, tuple(range(self.state.n)), st.info

    def _step_rand_reveal(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        _, _, ctx = self.state._rand_round(st)
        rand = CommitReveal(self.state.names, ctx)
        for name in self.state.names:
            rand.add_commitment(name, self.state._rand_commits[name])
        for s, m in sorted(msgs.items()):
            r = self.state._payload(m, {"r"})["r"]
            rand.add_reveal(self.state.names[s], r if isinstance(r, bytes) else b"")
        if self.state._draws_pile(st):
            self._answer_draw(pending_request(self.state.public, Reveal), rand.seed())
            return None
        req = pending_request(self.state.public, PublicRandom)
        value = RandomStream(rand.seed()).randbelow(req.bound)
        self.state._randoms += 1
        self.state._rand_commits = {}
        self.state.record.randoms.append(value)
        self.state.public.answer(value)
        self.state._own_queue.append((req, value))
        return None

    def _answer_draw(self, req: Reveal, seed: bytes) -> None:
        """Turn up building cards: drawn uniformly, in handle order, from the faces left."""
        faces, left = draw_without_replacement(
            RandomStream(seed), self.state.pile_left, len(req.handles)
        )
        self.state.pile_left = left
        self.state.undecided = self.state.undecided.difference(req.handles)
        self.state.drawn_faces.update(zip(req.handles, faces, strict=True))
        self.state._draws += 1
        self.state._rand_commits = {}
        self.state.record.draws.append((req.handles, tuple(faces)))
        self.state.record.reveals.append((req.handles, req.to))
        self.state.record.reveal_moves.append(len(self.state.public.history))
        self.state.ops["draws"] += 1
        self.state.public.answer(list(faces))
        self.state._own_queue.append((req, list(faces)))

    def _step_shuffle(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        assert self.state.joint is not None
        ((s, m),) = msgs.items()
        name = self.state.names[s]
        p = self.state._payload(m, {"d", "p"})
        deck_in: list[Ciphertext] = st.info["deck"]
        raw = p["d"]
        if not isinstance(raw, bytes) or len(raw) != 64 * len(deck_in):
            raise PeerFault(s, name, "shuffled deck has the wrong size", m.frame)
        out = [Ciphertext.from_bytes(raw[i : i + 64], peer=name) for i in range(0, len(raw), 64)]
        proof = ShuffleProof.from_wire(p["p"], peer=name)
        if not self.state._own(s):
            ctx = game_context(self.state.game_id, b"shuffle", st.info["k"], s)
            verify_shuffle(deck_in, out, self.state.joint, proof, ctx, peer=name)
            self.state.ops["shuffles_verified"] += 1
        stage = st.info["stage"] + 1
        if stage < self.state.n:
            return SHUFFLE, (stage,), {"deck": out, "k": st.info["k"], "stage": stage}
        req = pending_request(self.state.public, Shuffle)
        for h, ct in zip(req.handles, out, strict=True):
            self.state.cards[h] = ct
            self.state.unpublished[h] = frozenset(range(self.state.n))
        self.state._shuffles += 1
        self.state.record.shuffles.append((req.pile, req.faces, req.handles))
        self.state.public.answer(None)
        self.state._own_queue.append((req, None))
        return None

    def _step_shares(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        req = pending_request(self.state.public, Reveal)
        contrib = st.info["contrib"]
        new_pub: dict[int, dict[int, Point]] = {}
        new_enc: dict[int, list[tuple[int, int, EncryptedShare]]] = {}
        for s, m in sorted(msgs.items()):
            name = self.state.names[s]
            p = self.state._payload(m, {"p", "e"})
            want = contrib[s]
            want_pub = [h for h, mode, _ in want if mode == "pub"]
            want_enc = [(h, to) for h, mode, to in want if mode == "enc"]
            got_pub, got_enc = p["p"], p["e"]
            if not isinstance(got_pub, list) or not isinstance(got_enc, list):
                raise PeerFault(s, name, "shares must be lists", m.frame)
            if len(got_pub) != len(want_pub) or len(got_enc) != len(want_enc):
                raise PeerFault(s, name, "wrong number of shares", m.frame)
            key = self.state.keys[s]
            assert key is not None
            for item, h in zip(got_pub, want_pub, strict=True):
                if not isinstance(item, list) or len(item) != 2 or item[0] != h:
                    raise PeerFault(s, name, "shares for the wrong cards", m.frame)
                raw = item[1]
                share = DecryptionShare.from_bytes(
                    raw if isinstance(raw, bytes) else b"", peer=name
                )
                if not self.state._own(s):
                    ctx = game_context(self.state.game_id, b"share", h, s)
                    verify_share(key, self.state.cards[h], share, ctx, peer=name)
                    self.state.ops["shares_verified"] += 1
                new_pub.setdefault(h, {})[s] = share.share
            for item, (h, to) in zip(got_enc, want_enc, strict=True):
                if not isinstance(item, list) or len(item) != 2 or item[0] != h:
                    raise PeerFault(s, name, "shares for the wrong cards", m.frame)
                raw = item[1]
                es = EncryptedShare.from_bytes(raw if isinstance(raw, bytes) else b"", peer=name)
                to_key = self.state.keys[to]
                assert to_key is not None
                if not self.state._own(s):
                    ctx = game_context(self.state.game_id, b"share-to", h, s, to, st.index)
                    verify_encrypted_share(key, self.state.cards[h].c1, to_key, es, ctx, peer=name)
                    self.state.ops["shares_verified"] += 1
                new_enc.setdefault(h, []).append((s, to, es))
        # Everything checked: record the shares.
        for h, shares in new_pub.items():
            self.state.pub[h] = {**self.state.pub.get(h, {}), **shares}
            self.state.unpublished[h] = self.state.unpublished[h] - frozenset(shares)
        for h, items in new_enc.items():
            self.state.enc[h] = self.state.enc.get(h, ()) + tuple(items)
        self.answer_reveal(req)
        return None

    def _try_face(self, h: int) -> int | None:
        """The face of handle ``h`` if we can compute it from what we hold."""
        ct = self.state.cards[h]
        shares = list(self.state.pub.get(h, {}).values())
        missing = set(self.state.unpublished[h])
        if (
            self.state.seat is not None
            and self.state.seat in missing
            and self.state._elg is not None
        ):
            shares.append(self.state._elg * ct.c1)
            missing.discard(self.state.seat)
        if missing and self.state.seat is not None and self.state._elg is not None:
            for frm, to, es in self.state.enc.get(h, ()):
                if to == self.state.seat and frm in missing:
                    shares.append(decrypt_share(self.state._elg, es))
                    missing.discard(frm)
        if missing:
            return None
        face = face_of_point(self.state.secure, unmask(ct, shares))
        if face is None:
            raise CryptoError(None, f"card {h} does not decrypt to a card")
        return face

    def answer_reveal(self, req: Reveal) -> None:
        faces: list[int | None] = []
        mine: list[int | None] = []
        for h in req.handles:
            if req.to is None:
                f = self._try_face(h)
            elif req.to == self.state.seat:
                f = self.state.my_faces.get(h)
                if f is None:
                    f = self._try_face(h)
            else:
                f = None
            if f is not None and (req.to is None or req.to == self.state.seat):
                self.state.my_faces[h] = f
            if req.to is None:
                if f is None:
                    raise LocalProtocolError(f"public reveal of {h} incomplete")
                faces.append(f)
            else:
                faces.append(None)
            mine.append(f if (req.to is None or req.to == self.state.seat) else None)
        self.state.record.reveals.append((req.handles, req.to))
        self.state.record.reveal_moves.append(len(self.state.public.history))
        self.state.public.answer(faces)
        self.state._own_queue.append((req, mine))

    def _step_private_mix(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        assert self.state.joint is not None
        ((s, m),) = msgs.items()
        name = self.state.names[s]
        p = self.state._payload(m, {"d", "p"})
        req = pending_request(self.state.public, Rehandle)
        assert req == st.info["req"]
        deck_in: list[Ciphertext] = st.info["deck"]
        raw = p["d"]
        if not isinstance(raw, bytes) or len(raw) != 64 * len(deck_in):
            raise PeerFault(s, name, "mixed hand has the wrong size", m.frame)
        out = [Ciphertext.from_bytes(raw[i : i + 64], peer=name) for i in range(0, len(raw), 64)]
        proof = ShuffleProof.from_wire(p["p"], peer=name)
        if not self.state._own(s):
            ctx = game_context(self.state.game_id, b"mix", st.info["k"], st.index, s)
            try:
                verify_shuffle(deck_in, out, self.state.joint, proof, ctx, peer=name)
            except RemoteProtocolError as exc:
                raise PeerFault(s, name, f"hand mixing: {exc.reason}", m.frame) from None
            self.state.ops["mixes_verified"] += 1
        mine: list[int | None] = [None] * len(req.new)
        if s == self.state.seat:
            if self.state._my_mix is None or self.state._my_mix[0] != st.index:
                raise LocalProtocolError("our own hand mixing is unknown")
            mine = list(self.state._my_mix[1])
        # Everything checked: the new cards are masked afresh, every share is needed again.
        for h, ct in zip(req.new, out, strict=True):
            self.state.cards[h] = ct
            self.state.unpublished[h] = frozenset(range(self.state.n))
        for h, f in zip(req.new, mine, strict=True):
            if f is not None:
                self.state.my_faces[h] = f
        self.state._mixes += 1
        self.state.record.mixes.append((len(self.state.public.history), s, req.old, req.new))
        self.state.public.answer([None] * len(req.new))
        self.state._own_queue.append((req, mine))
        return None

    def _step_open(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        ((s, m),) = msgs.items()
        name = self.state.names[s]
        p = self.state._payload(m, {"h", "s"})
        handles, salt = p["h"], p["s"]
        if not isinstance(handles, list) or not all(
            isinstance(h, int) and not isinstance(h, bool) for h in handles
        ):
            raise PeerFault(s, name, "an opening lists handles", m.frame)
        if not isinstance(salt, bytes):
            raise PeerFault(s, name, "an opening has a salt", m.frame)
        if s not in self.state._enter_commit:
            raise PeerFault(s, name, "opening without a commitment", m.frame)
        digest, domain, index = self.state._enter_commit[s]
        check_commitment(digest, encode_value(handles), salt, peer=name, domain=domain)
        req = pending_request(self.state.public, Open)
        opened = [int(h) for h in handles if isinstance(h, int)]
        self.state.public.answer(opened)  # the engine checks the cards were in the hand
        del self.state._enter_commit[s]
        self.state.record.openings[index] = tuple(opened)
        if s != self.state.seat:
            self.state._own_queue.append((req, opened))
        return None

    def _apply_move(self, seat: int, move: Any, own_move: Any) -> None:
        self.state.public.apply(seat, move)
        if self.state.game is not None:
            self.state._settle_own()
            self.state.game.apply(seat, own_move if own_move is not None else move)

    def _step_move(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        ((s, m),) = msgs.items()
        name = self.state.names[s]
        p = self.state._payload(m, {"m"})
        move, commitment = move_from_wire(p["m"], name, self.state.secure)
        try:
            own_move = self.state._my_move if s == self.state.seat else None
            index = len(self.state.public.history)
            self._apply_move(s, move, own_move)
        except IllegalMove as exc:
            raise PeerFault(s, name, f"illegal move: {exc}", m.frame) from None
        if commitment is not None:  # a move with a hidden part: opened at the Open request
            domain = game_context(self.state.game_id, b"enter", st.index, s)
            self.state._enter_commit[s] = (commitment, domain, index)
        if s == self.state.seat:
            self.state._my_move = None
        return None

    def _step_commit_moves(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        commits: dict[int, tuple[bytes, bytes]] = {}
        for s, m in sorted(msgs.items()):
            c = self.state._payload(m, {"c"})["c"]
            if not isinstance(c, bytes) or len(c) != 32:
                raise PeerFault(s, self.state.names[s], "commitment must be 32 bytes", m.frame)
            commits[s] = (c, game_context(self.state.game_id, COMMITMENT_DOMAIN, st.index, s))
        self.state._move_commits = commits
        return OPEN_MOVES, st.senders, None

    def _step_open_moves(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        moves: dict[int, Any] = {}
        for s, m in sorted(msgs.items()):
            name = self.state.names[s]
            p = self.state._payload(m, {"m", "s"})
            salt = p["s"]
            if not isinstance(salt, bytes):
                raise PeerFault(s, name, "an opening has a salt", m.frame)
            digest, domain = self.state._move_commits[s]
            check_commitment(digest, encode_value(p["m"]), salt, peer=name, domain=domain)
            move, commitment = move_from_wire(p["m"], name, self.state.secure)
            if commitment is not None:
                raise PeerFault(s, name, "a committed decision has no hidden part", m.frame)
            moves[s] = move  # the engine checks each when it is applied, below
        for s, move in sorted(moves.items()):
            try:
                self._apply_move(s, move, move)
            except IllegalMove as exc:
                raise PeerFault(
                    s, self.state.names[s], f"illegal move: {exc}", msgs[s].frame
                ) from None
        self.state._move_commits = {}
        self.state._my_move = None
        return None

    def _step_keys(self, st: Step, msgs: dict[int, Signed]) -> Successor:
        revealed: list[Scalar | None] = [None] * self.state.n
        for s, m in sorted(msgs.items()):
            raw = self.state._payload(m, {"x"})["x"]
            x = Scalar.from_bytes(raw if isinstance(raw, bytes) else b"", peer=self.state.names[s])
            if base_mul(x) != self.state.keys[s]:
                raise PeerFault(
                    s, self.state.names[s], "published key does not match its share", m.frame
                )
            revealed[s] = x
        self.state.revealed_keys = revealed
        return None
