"""Proof nonces are bound to the full statement: a peer that re-runs a step after a crash
with other inputs (colluders fed it another deck) never reuses a nonce, so the two proofs
do not give away its secret key. Each attack is first shown to work against a prover that
draws its nonce from the step's stream alone (as before), then shown to fail."""

from __future__ import annotations

from protocol.crypto.elgamal import Ciphertext, card_point, decryption_share, generate_key, mask
from protocol.crypto.group import G, Scalar, base_mul, hash_to_scalar
from protocol.crypto.proofs import prove_schnorr
from protocol.crypto.shuffle import shuffle_with_permutation
from protocol.crypto.transfer import encrypt_share
from protocol.params import PeerSecrets
from protocol.session import game_context

GAME = bytes(range(32))


def _victim() -> tuple[PeerSecrets, Scalar]:
    secrets = PeerSecrets.from_seed(2026, 0)
    x, _ = generate_key(secrets.stream(b"elgamal/0"), game_context(GAME, b"elgamal", 0))
    return secrets, x


def _cards(*faces: int) -> list[Ciphertext]:
    secrets = PeerSecrets.from_seed(7, 1)
    _, ann = generate_key(secrets.stream(b"elgamal/0"), b"joint")
    return [mask(card_point(f), ann.public, Scalar.from_int(1000 + f)) for f in faces]


def _recover(c1: Scalar, s1: Scalar, c2: Scalar, s2: Scalar) -> Scalar:
    """The colluders' algebra: ``s = k + c x`` twice with one ``k`` gives ``x``."""
    return (s1 - s2) * (c1 - c2).invert()


def _old_dleq(x: Scalar, base: object, stream: PeerSecrets, ctx: bytes) -> tuple[Scalar, Scalar]:
    """The former prover: its nonce came from the step's stream only."""
    from protocol.crypto.group import Point

    assert isinstance(base, Point)
    k = Scalar.random(stream.stream(b"step/12"))
    public, result = base_mul(x), x * base
    t1, t2 = base_mul(k), k * base
    c = hash_to_scalar(
        b"rattus-net/v1/dleq", ctx, G.data, public.data, base.data, result.data, t1.data, t2.data
    )
    return c, k + c * x


def test_a_restarted_peer_sharing_another_card_at_the_same_step_keeps_its_key() -> None:
    secrets, x = _victim()
    ct1, ct2 = _cards(3, 9)
    ctx = game_context(GAME, b"share", 40, 0)
    # Against the old prover the recovery works: the attack is real.
    (c1, s1), (c2, s2) = (_old_dleq(x, ct.c1, secrets, ctx) for ct in (ct1, ct2))
    assert _recover(c1, s1, c2, s2) == x
    # Before the crash the peer shares card ct1 at step 12; after the restart the colluders
    # hand it ct2 for the same step: the same stream, another statement.
    first = decryption_share(x, ct1, secrets.stream(b"step/12"), ctx)
    again = decryption_share(x, ct2, secrets.stream(b"step/12"), ctx)
    guess = _recover(
        first.proof.challenge, first.proof.response, again.proof.challenge, again.proof.response
    )
    assert base_mul(guess) != base_mul(x) and guess != x
    # The same statement gives the same proof (a re-run sends the same message again).
    assert decryption_share(x, ct1, secrets.stream(b"step/12"), ctx) == first


def test_a_restarted_peer_giving_another_card_keeps_its_key() -> None:
    secrets, x = _victim()
    ct1, ct2 = _cards(4, 5)
    _, recipient = generate_key(PeerSecrets.from_seed(9, 2).stream(b"elgamal/0"), b"w")
    ctx = game_context(GAME, b"share-to", 17, 0, 2, 30)
    e1 = encrypt_share(x, ct1.c1, recipient.public, secrets.stream(b"step/30"), ctx)
    e2 = encrypt_share(x, ct2.c1, recipient.public, secrets.stream(b"step/30"), ctx)
    # s1 = w1 + c x in both proofs: one w1 would give x away.
    guess = _recover(e1.challenge, e1.s1, e2.challenge, e2.s1)
    assert guess != x
    assert e1.a != e2.a  # nor is the encryption randomness reused


def test_schnorr_nonces_depend_on_the_context() -> None:
    secrets, x = _victim()
    p1 = prove_schnorr(x, secrets.stream(b"elgamal/0"), b"context one")
    p2 = prove_schnorr(x, secrets.stream(b"elgamal/0"), b"context two")
    assert _recover(p1.challenge, p1.response, p2.challenge, p2.response) != x
    assert prove_schnorr(x, secrets.stream(b"elgamal/0"), b"context one") == p1


def test_a_shuffle_re_run_on_another_deck_uses_other_masks() -> None:
    """Same stream (so the same permutation, as seeded self-play needs), another input
    deck: the masks differ, so the outputs of the two runs cannot be matched card by card."""
    secrets, _ = _victim()
    _, ann = generate_key(PeerSecrets.from_seed(7, 1).stream(b"elgamal/0"), b"joint")
    deck1, deck2 = _cards(1, 2, 3, 4), _cards(5, 6, 7, 8)
    ctx = game_context(GAME, b"shuffle", 0, 0)
    out1, _, perm1 = shuffle_with_permutation(deck1, ann.public, secrets.stream(b"shuffle/0"), ctx)
    out2, _, perm2 = shuffle_with_permutation(deck2, ann.public, secrets.stream(b"shuffle/0"), ctx)
    assert perm1 == perm2
    for i, j in enumerate(perm1):
        assert out1[i].c1 - deck1[j].c1 != out2[i].c1 - deck2[j].c1
