"""Cryptographic building blocks of the protocol: group, ElGamal, proofs, shuffle, identities.

Everything here is deterministic given its inputs: randomness is passed in as a
:data:`~protocol.crypto.group.RandomSource` (``os.urandom`` in production, a seeded stream in
tests), so every test and every replay is reproducible.
"""
