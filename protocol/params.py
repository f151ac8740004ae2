"""What the peers agreed before the first message: the table and who sits at it.

``GameParams`` is the lobby's result: the game's name and configuration, each seat's public identity
(Ed25519 verification key) and a fresh lobby nonce. Its canonical encoding hashes
to the **game id**, which every signed message carries and every proof context starts with, so a
message or proof from one game can never be used in another, and changing any parameter of a
recorded game breaks every signature check against it.

``PeerSecrets`` derives every secret a peer needs (its identity, its ElGamal key share, its
shuffle permutations and masks, its commit-reveal secrets, proof nonces, commitment salts) from
one 32-byte master secret, with a label per use. In production the master comes from
``os.urandom``; seeded self-play derives it from the seed, which is how a local game and a
secure game of the same seed end up the same game (see ``protocol/seeded.py``).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from functools import cache
from typing import Any

from protocol.crypto.group import RandomSource
from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError, LocalProtocolError
from protocol.randomness import RandomStream
from protocol.wire import WireValue, encode_value
from rattus_net.engine.errors import RattusError
from rattus_net.games import DEFAULT_GAME, get_game
from rattus_net.games.base import SecureGame, WireError
from rattus_net.kit.registry import game_names

_GAME_ID = b"rattus-net/v1/game-id\x00"
_SECRETS = b"rattus-net/v1/peer-secrets/"


@dataclass(frozen=True, slots=True)
class GameParams:
    """The agreed table: the game's name and configuration (its players and options), public
    identities by seat, lobby nonce. ``config`` is the configuration object of the game
    named ``game`` (a Rattus Cartus ``GameConfig``, a ``RattusConfig``...)."""

    config: Any
    identities: tuple[PublicIdentity, ...]
    nonce: bytes
    game: str = DEFAULT_GAME

    def __post_init__(self) -> None:
        if self.game not in game_names():  # (asked now: a game may register later)
            raise LocalProtocolError(f"unknown game {self.game!r}")
        if len(self.identities) != len(self.players):
            raise LocalProtocolError("one identity per seat")
        if len(self.nonce) != 32:
            raise LocalProtocolError("the lobby nonce is 32 bytes")

    @property
    def secure(self) -> SecureGame:
        """The game, as the network table plays it."""
        return _secure(self.game)

    @property
    def players(self) -> tuple[str, ...]:
        return self.secure.players(self.config)

    @property
    def n(self) -> int:
        return len(self.players)

    def to_wire(self) -> dict[str, WireValue]:
        # Rattus Cartus parameters carry no name (so their game ids are those of the records
        # written before there were other games); any other game's name is in them.
        wire: dict[str, WireValue] = {} if self.game == DEFAULT_GAME else {"game": self.game}
        wire.update(self.secure.config_to_wire(self.config))
        wire["sign_keys"] = [i.sign_key for i in self.identities]
        wire["nonce"] = self.nonce
        return wire

    @classmethod
    def from_wire(cls, value: WireValue) -> GameParams:
        """Parse received or recorded parameters; DecodeError if they are not valid."""
        if not isinstance(value, dict) or not {"sign_keys", "nonce"} <= set(value):
            raise DecodeError(None, "game parameters must be a map with the agreed keys")
        game, sign, nonce = value.get("game", DEFAULT_GAME), value["sign_keys"], value["nonce"]
        if not isinstance(game, str) or game not in game_names():
            raise DecodeError(None, f"unknown game {str(game)[:40]!r}")
        if not isinstance(sign, list):
            raise DecodeError(None, "keys must be a list")
        if not isinstance(nonce, bytes) or len(nonce) != 32:
            raise DecodeError(None, "nonce must be 32 bytes")
        options = {k: v for k, v in value.items() if k not in ("game", "sign_keys", "nonce")}
        try:
            config = _secure(game).config_from_wire(options)
        except WireError as exc:
            raise DecodeError(None, str(exc)) from None
        except RattusError as exc:
            raise DecodeError(None, f"bad game configuration: {exc}") from None
        identities = []
        for s, sk in enumerate(sign):
            if not isinstance(sk, bytes):
                raise DecodeError(None, "keys must be bytes")
            identities.append(PublicIdentity.from_bytes(sk, peer=f"seat {s + 1}"))
        if len(identities) != len(_secure(game).players(config)):
            raise DecodeError(None, "one identity per seat")
        return cls(config, tuple(identities), nonce, game)

    def game_id(self) -> bytes:
        """SHA-256 of the canonical encoding: binds every parameter of the game."""
        return hashlib.sha256(_GAME_ID + encode_value(self.to_wire())).digest()


@cache
def _secure(name: str) -> SecureGame:
    return get_game(name).secure()


class PeerSecrets:
    """Every secret of one peer, derived from a 32-byte master with HMAC-SHA256 per label."""

    __slots__ = ("_master",)

    def __init__(self, master: bytes) -> None:
        if len(master) != 32:
            raise LocalProtocolError("the master secret is 32 bytes")
        self._master = master

    @classmethod
    def generate(cls, rand: RandomSource) -> PeerSecrets:
        return cls(rand(32))

    @classmethod
    def from_seed(cls, seed: int, seat: int) -> PeerSecrets:
        """Seeded self-play only: the master of ``seat`` in the game of ``seed``."""
        text = f"rattus-net/v1/selfplay/{seed}/{seat}".encode()
        return cls(hashlib.sha256(text).digest())

    def stream(self, label: bytes) -> RandomStream:
        """An independent deterministic stream for one use (``b"shuffle/3"``...)."""
        return RandomStream(hmac.new(self._master, _SECRETS + label, hashlib.sha256).digest())

    def identity(self) -> Identity:
        return Identity.generate(self.stream(b"identity"))
