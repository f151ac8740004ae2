"""Benchmark of the mental-poker primitives for an 84-card deck and 2 to 5 peers.

Prints wall-clock times and libsodium scalar-multiplication counts (the machine-independent
cost unit). Run: ``.venv/bin/python benchmarks/protocol_crypto.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import TypeVar

from protocol.crypto import elgamal
from protocol.crypto.group import OPS, G, Scalar, base_mul, hash_to_point
from protocol.crypto.shuffle import ShuffleProof, shuffle, verify_shuffle
from protocol.randomness import RandomStream

DECK = 84
T = TypeVar("T")


def measure(fn: Callable[[], T], repeat: int) -> tuple[T, float, tuple[int, int]]:
    """Result, best-of-``repeat`` seconds, and (variable-base, fixed-base) scalarmult counts."""
    best = float("inf")
    for _ in range(repeat):
        OPS.reset()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return result, best, (OPS.scalarmults, OPS.base_scalarmults)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rand = RandomStream(b"benchmark seed, not secret......")

    s = Scalar.random(rand)
    p = hash_to_point(b"bench", b"")
    n = 2000
    start = time.perf_counter()
    for _ in range(n):
        _ = s * p
    var_mul = (time.perf_counter() - start) / n
    start = time.perf_counter()
    for _ in range(n):
        base_mul(s)
    base_mul_t = (time.perf_counter() - start) / n
    print(f"one variable-base scalar multiplication: {ms(var_mul)}")
    print(f"one fixed-base scalar multiplication:    {ms(base_mul_t)}")
    print()
    header = (
        f"{'peers':>5} | {'mask deck':>11} | {'shuffle+prove':>13} | {'decode':>11} | "
        f"{'verify':>11} | "
        f"{'share+DLEQ':>11} | {'verify share':>12} | {'deck setup*':>11}"
    )
    print(header)
    print("-" * len(header))
    counts: dict[str, tuple[int, int]] = {}
    for peers in range(2, 6):
        secrets = [Scalar.random(rand) for _ in range(peers)]
        joint = elgamal.joint_key(x * G for x in secrets)
        deck, t_mask, c_mask = measure(
            lambda joint=joint: elgamal.initial_deck(DECK, joint, b"bench"), args.repeat
        )
        (out, proof), t_prove, c_prove = measure(
            lambda deck=deck, joint=joint: shuffle(deck, joint, rand, b"ctx"), args.repeat
        )
        _, t_verify, c_verify = measure(
            lambda deck=deck, out=out, joint=joint, proof=proof: verify_shuffle(
                deck, out, joint, proof, b"ctx", peer="p"
            ),
            args.repeat,
        )
        wire_deck = [ct.to_bytes() for ct in out]
        wire_proof = proof.to_wire()
        _, t_decode, _ = measure(
            lambda wire_deck=wire_deck, wire_proof=wire_proof: (
                [elgamal.Ciphertext.from_bytes(b) for b in wire_deck],
                ShuffleProof.from_wire(wire_proof),
            ),
            args.repeat,
        )
        share, t_share, c_share = measure(
            lambda out=out, x=secrets[0]: elgamal.decryption_share(x, out[0], rand, b"s"),
            args.repeat,
        )
        _, t_vshare, c_vshare = measure(
            lambda out=out, share=share, y=secrets[0] * G: elgamal.verify_share(
                y, out[0], share, b"s", peer="p"
            ),
            args.repeat,
        )
        # Every peer shuffles in turn and each shuffle is checked before the next one builds on it.
        setup = t_mask + peers * (t_prove + t_decode + t_verify)
        print(
            f"{peers:>5} | {ms(t_mask):>11} | {ms(t_prove):>13} | {ms(t_decode):>11} | "
            f"{ms(t_verify):>11} | "
            f"{ms(t_share):>11} | {ms(t_vshare):>12} | {ms(setup):>11}"
        )
        counts = {
            "mask deck": c_mask,
            "shuffle+prove": c_prove,
            "verify shuffle": c_verify,
            "decryption share+DLEQ": c_share,
            "verify share": c_vshare,
        }
    print()
    print("decode = checking group membership of the received deck and proof points.")
    print("* deck setup = mask + peers x (shuffle+prove + decode + verify): the critical path.")
    print("  Opening one card publicly costs each peer 1 share+DLEQ and (peers-1) share checks.")
    print()
    print(f"scalar multiplications for {DECK} cards (independent of the number of peers):")
    print(f"{'operation':>24} | {'variable-base':>13} | {'fixed-base':>10}")
    for name, (var, base) in counts.items():
        print(f"{name:>24} | {var:>13} | {base:>10}")


if __name__ == "__main__":
    main()
