"""Whole games between bots, any game: for ``rattus selfplay``, tests and benchmarks.

Seat ``s`` is played by a bot of ``kinds[s]`` named ``{kind}-{s + 1}``, seeded from the game's
seed, so a seed fixes the whole game. When the game's options are those a network table plays,
the local table draws its chance as the honest seeded peers of a secure game would
(``protocol/seeded.py``), so the local game and the secure game of one seed are the same game
(:func:`play_secure_game` plays the latter, every seat a protocol endpoint in memory).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rattus_net.kit.errors import SetupError
from rattus_net.kit.interface import AnyGame, Table
from rattus_net.kit.options import OptionValues
from rattus_net.kit.play import play_to_end

if TYPE_CHECKING:
    from protocol.session import Session


@dataclass
class SelfplayGame:
    seed: int
    game: Any  # the game's state, finished
    table: Table
    bots: list[str]


@dataclass
class SecureSelfplayGame:
    seed: int
    game: Any  # seat 0's own engine (every peer ends with the same public state)
    sessions: list[Session]
    record: bytes  # the signed record (rattus verify)
    bots: list[str]


def seat_bots(kinds: Sequence[str], players: int) -> list[str]:
    """One bot kind per seat: a single kind fills every seat."""
    if len(kinds) == 1:
        return list(kinds) * players
    if len(kinds) != players:
        raise ValueError(f"give one bot kind, or one per seat ({players})")
    return list(kinds)


def secure_options(game: AnyGame, values: OptionValues) -> bool:
    """Whether a network table plays a game of these option values: every option that
    configures the game but is not a table option is at its default."""
    defaults = game.options.defaults()
    return game.network_play and all(
        o.lobby_key is not None or values.get(o.name, defaults[o.name]) == defaults[o.name]
        for o in game.options.options
        if o.configures
    )


def setup_seats(
    game: AnyGame, players: int, seed: int, kinds: Sequence[str], values: OptionValues
) -> tuple[list[str], Any, list[Any]]:
    """Bot kinds per seat, the configuration and the seeded bots of a self-play game (the
    local and the secure game of one seed share them)."""
    names = seat_bots(kinds, players)
    config = game.configure(tuple(f"{k}-{s + 1}" for s, k in enumerate(names)), values)
    if secure_options(game, values):
        # A secure game may play a configuration otherwise (Rattus Cartus mixes hands: no
        # handle may tell where a card came from); the local game does too, to stay equal.
        config = game.secure().secure_config(config)
    bots = [game.make_bot(k, seed * 7919 + s) for s, k in enumerate(names)]
    return names, config, bots


def play_game(
    game: AnyGame, players: int, seed: int, kinds: Sequence[str], values: OptionValues
) -> SelfplayGame:
    """Play one seeded game between bots; the seed fixes the faces and every bot's choices."""
    names, config, bots = setup_seats(game, players, seed, kinds, values)
    chance = None
    if secure_options(game, values):
        from protocol.seeded import SeededChance, seeded_params

        chance = SeededChance(*seeded_params(config, seed, game.name))
    state = game.new_game(config)
    table = game.local_table(seed, chance)
    views = [game.view(state, s) for s in range(players)]
    play_to_end(state, table, lambda _, seat: bots[seat].choose(views[seat]))
    return SelfplayGame(seed, state, table, names)


def play_secure_game(
    game: AnyGame, players: int, seed: int, kinds: Sequence[str], values: OptionValues
) -> SecureSelfplayGame:
    """The game of :func:`play_game` with every seat a separate protocol endpoint over an
    in-memory network (full cryptography). Each bot decides from its OWN peer's engine."""
    from protocol.memnet import MemoryNetwork
    from protocol.seeded import seeded_params

    if not secure_options(game, values):
        raise SetupError(f"--secure plays {game.title} as a network table plays it")
    names, config, bots = setup_seats(game, players, seed, kinds, values)
    params, secrets = seeded_params(config, seed, game.name)
    net = MemoryNetwork(params, secrets)
    net.run(lambda state, seat: bots[seat].choose(game.view(state, seat)))
    first = net.peers[0]
    if first.abort is not None or not first.finished or first.game is None:
        raise SetupError(f"the secure game of seed {seed} stopped: {first.abort}")
    return SecureSelfplayGame(seed, first.game, net.peers, first.record_bytes(), names)
