"""A complete three-peer mental-poker flow over the wire encodings, as the session will run it."""

from __future__ import annotations

import pytest

from protocol import wire
from protocol.crypto import elgamal
from protocol.crypto.elgamal import Ciphertext
from protocol.crypto.group import Scalar
from protocol.crypto.identity import Identity
from protocol.crypto.shuffle import ShuffleProof, shuffle, verify_shuffle
from protocol.errors import CryptoError, ProofError
from protocol.randomness import RandomStream

DECK = 12
GAME = b"game-42"


class Peer:
    def __init__(self, seat: int) -> None:
        self.name = f"seat{seat}"
        self.rand = RandomStream(f"peer {seat} secret randomness".encode())
        self.identity = Identity.generate(self.rand)
        self.secret, self.announcement = elgamal.generate_key(
            self.rand, GAME + b"/key/" + self.name.encode()
        )


def send(kind: str, body: dict[str, wire.WireValue]) -> wire.Message:
    """Everything crosses the wire: encode, then decode as a receiving peer would."""
    return wire.decode_message(wire.encode_message(kind, body))


def decode_deck(value: wire.WireValue, peer: str) -> list[Ciphertext]:
    assert isinstance(value, list)
    return [elgamal.Ciphertext.from_bytes(item, peer=peer) for item in value]  # type: ignore[arg-type]


def test_three_peer_game() -> None:
    peers = [Peer(i) for i in range(3)]
    publics = {}
    for p in peers:
        msg = send("key", {"k": p.announcement.to_bytes()})
        ann = elgamal.KeyAnnouncement.from_bytes(msg.body["k"], peer=p.name)  # type: ignore[arg-type]
        elgamal.verify_key(ann, GAME + b"/key/" + p.name.encode(), peer=p.name)
        publics[p.name] = ann.public
    joint = elgamal.joint_key(publics.values())

    # Each peer in turn shuffles with proof; everyone verifies every shuffle.
    deck = elgamal.initial_deck(DECK, joint, GAME)
    for p in peers:
        ctx = GAME + b"/shuffle/" + p.name.encode()
        out, proof = shuffle(deck, joint, p.rand, ctx)
        msg = send("shuffle", {"deck": [ct.to_bytes() for ct in out], "proof": proof.to_wire()})
        received = decode_deck(msg.body["deck"], p.name)
        verify_shuffle(
            deck,
            received,
            joint,
            ShuffleProof.from_wire(msg.body["proof"], peer=p.name),
            ctx,
            peer=p.name,
        )
        deck = received

    # Private draw: seat1 draws the top card. The others publish their shares (with proofs):
    # what is left is a ciphertext under seat1's key share alone.
    drawer = peers[1]
    top = deck[0]
    ctx = GAME + b"/draw/0"
    shares = [elgamal.own_share(drawer.secret, top)]
    published = []
    for p in peers:
        if p is drawer:
            continue
        msg = send("share", {"s": elgamal.decryption_share(p.secret, top, p.rand, ctx).to_bytes()})
        share = elgamal.DecryptionShare.from_bytes(msg.body["s"], peer=p.name)  # type: ignore[arg-type]
        elgamal.verify_share(publics[p.name], top, share, ctx, peer=p.name)
        shares.append(share.share)
        published.append(share.share)
    drawn = elgamal.open_card(top, shares, DECK)
    # A bystander holds every published share and its own, but not the drawer's.
    bystander = peers[0]
    with pytest.raises(CryptoError):
        guess = [elgamal.own_share(bystander.secret, top), *published]
        elgamal.open_card(top, guess, DECK)

    # Public reveal of the rest: every peer publishes a share with a DLEQ proof.
    revealed = []
    for pos, ct in enumerate(deck[1:], start=1):
        ctx = GAME + b"/reveal/" + str(pos).encode()
        public_shares = []
        for p in peers:
            msg = send(
                "reveal", {"s": elgamal.decryption_share(p.secret, ct, p.rand, ctx).to_bytes()}
            )
            share = elgamal.DecryptionShare.from_bytes(msg.body["s"], peer=p.name)  # type: ignore[arg-type]
            elgamal.verify_share(publics[p.name], ct, share, ctx, peer=p.name)
            public_shares.append(share.share)
        revealed.append(elgamal.open_card(ct, public_shares, DECK))

    assert sorted([drawn, *revealed]) == list(range(DECK))
    assert [drawn, *revealed] != list(range(DECK))  # it really was shuffled


def test_cheating_peer_is_named() -> None:
    peers = [Peer(i) for i in range(3)]
    joint = elgamal.joint_key(p.announcement.public for p in peers)
    deck = elgamal.initial_deck(DECK, joint, GAME)
    out, proof = shuffle(deck, joint, peers[0].rand, b"ctx")
    # seat2 substitutes its own wrong share for a public reveal.
    ct = out[0]
    honest = elgamal.decryption_share(peers[2].secret, ct, peers[2].rand, b"r")
    lie = elgamal.DecryptionShare(Scalar.from_int(5) * ct.c1, honest.proof)
    with pytest.raises(ProofError) as info:
        elgamal.verify_share(peers[2].announcement.public, ct, lie, b"r", peer="seat2")
    assert info.value.peer == "seat2"
    # seat0's shuffle, replayed over a deck with one card swapped, names seat0.
    tampered = [elgamal.mask(elgamal.card_point(0), joint, Scalar.from_int(9)), *out[1:]]
    with pytest.raises(ProofError) as info:
        verify_shuffle(deck, tampered, joint, proof, b"ctx", peer="seat0")
    assert info.value.peer == "seat0"
