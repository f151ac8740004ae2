"""Seeded games: the peers of a seeded secure game, and the same chance for a local table.

In seeded self-play every seat's master secret is derived from the game's seed
(:meth:`PeerSecrets.from_seed`). An honest peer then shuffles with the permutation drawn from its
``shuffle/k`` stream and commits to the secret of its ``random/j`` stream, so the card order and
every public random number of the secure game are a function of the seed. :class:`SeededChance`
computes exactly that function, with the same code, for ``LocalTable(chance_source=...)``: the
shuffled order is the composition of the seats' permutations in seat order, a public random number
is the commit-reveal result of the seats' secrets. The building pile is never shuffled: the local
table asks :meth:`SeededChance.draw` for each building card turned up, which draws it from the
cards left with the seed of that draw's commit-reveal round (the seats' ``building/j`` secrets),
as the secure session does. A peer mixes its hand with the permutation of
its ``mix/k`` stream (a namespace of its own, so the deck shuffles keep their streams); a local
table, which sees every card, keeps the hand's order instead, which changes no face, move or
result. So ``rattus selfplay --seed S`` and
``rattus selfplay --seed S --secure`` play the same game.

Only for self-play, tests and benchmarks: a real peer's master secret comes from ``os.urandom``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from protocol.crypto.shuffle import random_permutation
from protocol.params import GameParams, PeerSecrets
from protocol.randomness import CommitReveal, RandomStream, draw_without_replacement
from protocol.randomness import commitment as rand_commitment
from protocol.session import draw_context, game_context
from rattus_net.kit.registry import get_game


def seeded_params(config: Any, seed: int, game: str) -> tuple[GameParams, list[PeerSecrets]]:
    """The table of a seeded game of ``game`` (configured by ``config``): every seat's
    secrets and the agreed parameters."""
    secure = get_game(game).secure()
    secrets = [PeerSecrets.from_seed(seed, s) for s in range(len(secure.players(config)))]
    identities = tuple(sec.identity().public for sec in secrets)
    nonce = hashlib.sha256(f"rattus-net/v1/selfplay-nonce/{seed}".encode()).digest()
    return GameParams(secure.secure_config(config), identities, nonce, game), secrets


class SeededChance:
    """What honest seeded peers produce, for a local table (``engine.local.ChanceSource``,
    with the optional ``drawn_piles`` / ``draw`` hook for the building pile)."""

    def __init__(self, params: GameParams, secrets: list[PeerSecrets]) -> None:
        self.drawn_piles = params.secure.drawn_piles
        self.game_id = params.game_id()
        self.names = params.players
        self.secrets = secrets
        self._shuffles = 0
        self._randoms = 0
        self._draws = 0

    def shuffle(self, pile: str, faces: tuple[int, ...]) -> tuple[int, ...]:
        k = self._shuffles
        self._shuffles += 1
        n = len(faces)
        perms = [
            random_permutation(n, sec.stream(b"shuffle/" + str(k).encode())) for sec in self.secrets
        ]
        order = []
        for i in range(n):
            j = i
            for perm in reversed(perms):  # seat 0 shuffles first: out[i] = in[perm[i]]
                j = perm[j]
            order.append(faces[j])
        return tuple(order)

    def random(self, bound: int, purpose: str) -> int:
        j = self._randoms
        self._randoms += 1
        ctx = game_context(self.game_id, b"random", j)
        return RandomStream(self._seed(ctx, b"random/" + str(j).encode())).randbelow(bound)

    def draw(self, pile: str, positions: tuple[int, ...], left: tuple[int, ...]) -> tuple[int, ...]:
        """The faces of the pile's cards at ``positions`` turned up now, drawn from ``left``
        (the faces not drawn yet, sorted) as the secure session draws them."""
        j = self._draws
        self._draws += 1
        seed = self._seed(draw_context(self.game_id, j, positions), b"building/" + str(j).encode())
        faces, _ = draw_without_replacement(RandomStream(seed), left, len(positions))
        return tuple(faces)

    def _seed(self, ctx: bytes, label: bytes) -> bytes:
        """The seed of a commit-reveal round in which every seat reveals its ``label`` secret."""
        rounds = CommitReveal(self.names, ctx)
        secrets = [sec.stream(label)(32) for sec in self.secrets]
        for name, secret in zip(self.names, secrets, strict=True):
            rounds.add_commitment(name, rand_commitment(secret, name, ctx))
        for name, secret in zip(self.names, secrets, strict=True):
            rounds.add_reveal(name, secret)
        return rounds.seed()
