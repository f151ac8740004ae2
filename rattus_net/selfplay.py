"""Whole games between bots on the local table: for `rattus selfplay`, tests and benchmarks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rattus_net.bots import Bot, make_bot
from rattus_net.engine.chance import ChanceSource
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.local import LocalTable
from rattus_net.games.cartus.view import PlayerView

if TYPE_CHECKING:
    from protocol.session import Session


@dataclass
class SelfplayGame:
    seed: int
    game: Game
    table: LocalTable
    bots: list[str]


def seat_bots(kinds: Sequence[str], players: int) -> list[str]:
    """One bot kind per seat: a single kind fills every seat."""
    if len(kinds) == 1:
        return list(kinds) * players
    if len(kinds) != players:
        raise ValueError(f"give one bot kind, or one per seat ({players})")
    return list(kinds)


def _seats(
    players: int,
    seed: int,
    kinds: Sequence[str],
    selection: BuildingSelection | None,
    simultaneous_supply: bool,
) -> tuple[list[str], GameConfig, list[Bot]]:
    """Bot kinds per seat, the game's configuration and the seeded bots of a self-play game
    (the local and the secure game of one seed share them)."""
    names = seat_bots(kinds, players)
    config = GameConfig(
        players=tuple(f"{k}-{s + 1}" for s, k in enumerate(names)),
        buildings=selection or BuildingSelection.random_cards(),
        simultaneous_supply=simultaneous_supply,
        # Secure games mix hands (no handle may tell where a card came from); mixing changes
        # what a seat can follow in other hands, so the local game mixes too, to stay equal.
        mix_hands=True,
    )
    return names, config, [make_bot(k, seed * 7919 + s) for s, k in enumerate(names)]


def play_game(
    players: int,
    seed: int,
    kinds: Sequence[str],
    selection: BuildingSelection | None = None,
    simultaneous_supply: bool = False,
) -> SelfplayGame:
    """Play one seeded game between bots; the seed fixes the cards and every bot's choices."""
    names, config, bots = _seats(players, seed, kinds, selection, simultaneous_supply)
    game = Game(config)
    table = LocalTable(seed, chance_source=_seeded_chance(config, seed))
    game.attach(table)
    views = [PlayerView(game, s) for s in range(players)]
    while not game.is_over:
        d = game.decision
        assert d is not None  # the attached table answers every request
        seat = d.players[0]
        game.apply(seat, bots[seat].choose(views[seat]))
    return SelfplayGame(seed, game, table, names)


def _seeded_chance(config: GameConfig, seed: int) -> ChanceSource:
    """The chance honest seeded peers of a secure game produce, so that the local game and
    the secure game of one seed are the same game (see protocol/seeded.py)."""
    from protocol.seeded import SeededChance, seeded_params

    return SeededChance(*seeded_params(config, seed))


@dataclass
class SecureSelfplayGame:
    seed: int
    game: Game  # seat 0's own engine (every peer ends with the same public state)
    sessions: list[Session]
    record: bytes  # the signed record (rattus verify)
    bots: list[str]


def play_secure_game(
    players: int,
    seed: int,
    kinds: Sequence[str],
    selection: BuildingSelection | None = None,
    simultaneous_supply: bool = False,
) -> SecureSelfplayGame:
    """The game of :func:`play_game` with every seat a separate protocol endpoint over an
    in-memory network (full cryptography). Each bot decides from its OWN peer's engine."""
    from protocol.memnet import MemoryNetwork
    from protocol.seeded import seeded_params

    names, config, bots = _seats(players, seed, kinds, selection, simultaneous_supply)
    params, secrets = seeded_params(config, seed)
    net = MemoryNetwork(params, secrets)
    net.run(lambda game, seat: bots[seat].choose(PlayerView(game, seat)))
    first = net.peers[0]
    if first.abort is not None or not first.finished or first.game is None:
        raise RuntimeError(f"secure game {seed} did not finish: {first.abort}")
    return SecureSelfplayGame(seed, first.game, net.peers, first.record_bytes(), names)
