"""What the peers agreed before the first message: the table and who sits at it.

``GameParams`` is the lobby's result: the engine configuration, each seat's public identity
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

from protocol.crypto.group import RandomSource
from protocol.crypto.identity import Identity, PublicIdentity
from protocol.errors import DecodeError, LocalProtocolError
from protocol.randomness import RandomStream
from protocol.wire import WireValue, encode_value
from rattus_net.engine.errors import RattusError
from rattus_net.games.cartus.config import BuildingSelection, GameConfig

_GAME_ID = b"rattus-net/v1/game-id\x00"
_SECRETS = b"rattus-net/v1/peer-secrets/"


@dataclass(frozen=True, slots=True)
class GameParams:
    """The agreed table: engine configuration, public identities by seat, lobby nonce."""

    config: GameConfig
    identities: tuple[PublicIdentity, ...]
    nonce: bytes

    def __post_init__(self) -> None:
        if len(self.identities) != len(self.config.players):
            raise LocalProtocolError("one identity per seat")
        if len(self.nonce) != 32:
            raise LocalProtocolError("the lobby nonce is 32 bytes")

    @property
    def n(self) -> int:
        return len(self.config.players)

    def to_wire(self) -> dict[str, WireValue]:
        c = self.config
        wire: dict[str, WireValue] = {
            "players": list(c.players),
            "buildings": c.buildings.describe(),
            "simultaneous_supply": c.simultaneous_supply,
            "first_player": c.first_player,
            "plague_survivors": c.plague_survivors,
            "sign_keys": [i.sign_key for i in self.identities],
            "nonce": self.nonce,
        }
        if c.colours:  # (absent from older records, whose game ids stay the same)
            wire["colours"] = list(c.colours)
        return wire

    @classmethod
    def from_wire(cls, value: WireValue) -> GameParams:
        """Parse received or recorded parameters; DecodeError if they are not valid."""
        keys = {
            "players",
            "buildings",
            "simultaneous_supply",
            "first_player",
            "plague_survivors",
            "sign_keys",
            "nonce",
        }
        if not isinstance(value, dict) or set(value) - {"colours"} != keys:
            raise DecodeError(None, "game parameters must be a map with the agreed keys")
        colours = value.get("colours", [])
        if not isinstance(colours, list) or not all(isinstance(c, str) for c in colours):
            raise DecodeError(None, "colours must be a list of colour names")
        players = value["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise DecodeError(None, "players must be a list of names")
        sel, first = value["buildings"], value["first_player"]
        simult, plague = value["simultaneous_supply"], value["plague_survivors"]
        if not isinstance(sel, str) or not isinstance(simult, bool):
            raise DecodeError(None, "bad building selection or options")
        if not isinstance(plague, bool):
            raise DecodeError(None, "bad plague option")
        if first is not None and (isinstance(first, bool) or not isinstance(first, int)):
            raise DecodeError(None, "first player must be a seat or nil")
        sign, nonce = value["sign_keys"], value["nonce"]
        if not isinstance(sign, list):
            raise DecodeError(None, "keys must be a list")
        if not isinstance(nonce, bytes) or len(nonce) != 32:
            raise DecodeError(None, "nonce must be 32 bytes")
        try:
            config = GameConfig(
                players=tuple(str(p) for p in players),
                buildings=BuildingSelection.parse(sel),
                simultaneous_supply=simult,
                first_player=first,
                plague_survivors=plague,
                mix_hands=True,  # every secure game mixes hands (docs/protocol.md section 4)
                colours=tuple(str(c) for c in colours),
            )
        except RattusError as exc:
            raise DecodeError(None, f"bad game configuration: {exc}") from None
        identities = []
        for s, sk in enumerate(sign):
            if not isinstance(sk, bytes):
                raise DecodeError(None, "keys must be bytes")
            identities.append(PublicIdentity.from_bytes(sk, peer=f"seat {s + 1}"))
        if len(identities) != len(config.players):
            raise DecodeError(None, "one identity per seat")
        return cls(config, tuple(identities), nonce)

    def game_id(self) -> bytes:
        """SHA-256 of the canonical encoding: binds every parameter of the game."""
        return hashlib.sha256(_GAME_ID + encode_value(self.to_wire())).digest()


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
