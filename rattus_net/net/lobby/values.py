"""What a lobby holds, as values: a table's options, its seats, its state, and their wire forms.

Every value here checks what a peer sent (``from_wire``: a ``DecodeError`` blames the peer)
and what a person chose (``check``: a ``LobbyRefusal`` says why in one line). A table's
options name its game and carry that game's own option values under their lobby keys
(``rattus_net/kit/options.py``): nothing here names a game or an option of one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from protocol.crypto.identity import PublicIdentity
from protocol.errors import DecodeError
from protocol.wire import WireValue
from rattus_net.kit.errors import SetupError
from rattus_net.kit.interface import BOT_KINDS, AnyGame
from rattus_net.kit.options import OptionValue
from rattus_net.kit.registry import default_game, game_titles, get_game, network_games
from rattus_net.net.handshake import field as body_field
from rattus_net.net.names import MAX_NAME, BadName, check_name

STARTED = "the game at this table has started"


class LobbyRefusal(Exception):
    """A lobby request was refused; ``reason`` is a one-line explanation for the user."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def clean_name(name: str, what: str = "player name") -> str:
    """``name`` checked by the one rule for names; LobbyRefusal saying what is wrong."""
    try:
        return check_name(name, what)
    except BadName as exc:
        raise LobbyRefusal(str(exc)) from None


def _wire_name(value: str, what: str, peer: str | None) -> str:
    """A name received from a peer: the same rule, a DecodeError (blame) if broken."""
    try:
        return check_name(value, what, exact=True)
    except BadName as exc:
        raise DecodeError(peer, str(exc)) from None


def network_game(name: str) -> AnyGame:
    """The game called ``name`` if it can be played at a network table (the game's
    ``network_play`` flag: the one place that says so, for the CLI and the TUI);
    LobbyRefusal in one line otherwise."""
    try:
        game = get_game(name)
    except ValueError as exc:
        raise LobbyRefusal(str(exc)) from None
    if not game.network_play:
        others = game_titles(network_games()) or "no game"
        raise LobbyRefusal(
            f"{game.title} cannot be played on the network yet (network tables play {others} "
            f"for now); play it against bots: rattus play --game {game.name}"
        )
    return game


SEAT_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple")
"""The disc colours a seat sits with at a network table, in the order they are offered: the
lobby's, whatever the game (a game whose configuration has colours checks a seat's against
its own list; the others ignore them)."""

MAX_GAME_NAME = 32
"""Longest game name read from a peer (ours are a few letters; a longer one is not a game)."""

OLD_FORM = (
    "the table's host runs an older version of Rattus Net (its lobby speaks another form): "
    "both players need the same version"
)


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Options of a table; the host may change them until somebody is ready. ``game`` names
    the game played (``""``: the default game); ``values`` its own table options by name (the
    game's options that have a lobby key): :meth:`check` completes them with their defaults
    and lets the game check each."""

    players: int = 3
    game: str = ""
    values: Mapping[str, OptionValue] = field(default_factory=dict)

    @classmethod
    def of(cls, game: str, players: int, **values: OptionValue) -> TableOptions:
        return cls(players, game, values)

    def check(self) -> TableOptions:
        game = network_game(self.game or default_game().name)
        if not game.min_players <= self.players <= game.max_players:
            raise LobbyRefusal(
                f"{game.title} is for {game.min_players} to {game.max_players} players"
            )
        table = {o.name for o in game.options.table}
        unknown = sorted(set(self.values) - table)
        if unknown:
            raise LobbyRefusal(f"a {game.title} table has no option {unknown[0]!r}")
        try:
            values = game.options.complete(self.values)
        except SetupError as exc:
            raise LobbyRefusal(str(exc)) from None
        return TableOptions(self.players, game.name, {k: values[k] for k in sorted(table)})

    @property
    def definition(self) -> AnyGame:
        return get_game(self.game or default_game().name)

    def words(self) -> str:
        """``4 players, random cards, supplies in turn``; ``3 players`` for a game without
        table options."""
        options = self.definition.options
        return options.summary(self.players, {**options.defaults(), **self.values})

    def to_wire(self) -> dict[str, WireValue]:
        game = self.definition
        return {
            "players": self.players,
            "game": game.name,
            "game_version": game.network_version,
            "options": {
                o.lobby_key: self.values.get(o.name, o.default)
                for o in game.options.table
                if o.lobby_key
            },
        }

    @classmethod
    def from_wire(cls, value: WireValue, peer: str | None = None) -> TableOptions:
        """Options a host sent. Another game, another version of ours, or the form of an
        older version of the program is refused in one line."""
        if not isinstance(value, dict):
            raise DecodeError(peer, "options must be a map")
        if set(value) != {"players", "game", "game_version", "options"}:
            raise DecodeError(peer, OLD_FORM)
        players = body_field(value, "players", int, peer=peer)
        name = body_field(value, "game", str, peer=peer, max_len=MAX_GAME_NAME)
        version = body_field(value, "game_version", int, peer=peer)
        options = body_field(value, "options", dict, peer=peer)
        assert isinstance(players, int) and isinstance(name, str) and isinstance(options, dict)
        try:
            game = get_game(name)
        except ValueError:
            raise DecodeError(
                peer, f"the table plays a game this program does not know ({name!r})"
            ) from None
        if version != game.network_version:
            raise DecodeError(
                peer,
                f"the table plays {game.title} version {version!r}; this program plays version "
                f"{game.network_version}",
            )
        keys = {o.lobby_key: o.name for o in game.options.table if o.lobby_key}
        if set(options) != set(keys):
            raise DecodeError(peer, f"the options of a {game.title} table are not the agreed keys")
        values: dict[str, OptionValue] = {}
        for key, option in keys.items():
            got = options[key]
            if not isinstance(got, bool | int | str) or (isinstance(got, str) and len(got) > 2000):
                raise DecodeError(peer, f"option {key!r} must be a short value")
            values[option] = got
        try:
            return cls(players, name, values).check()
        except LobbyRefusal as exc:
            raise DecodeError(peer, exc.reason) from None


@dataclass(frozen=True, slots=True)
class Seat:
    """One taken seat: who sits there (key), how to reach it for the game mesh, and status."""

    name: str
    colour: str
    sign_key: bytes
    host: str
    port: int
    bot: str | None = None
    ready: bool = False

    @property
    def fingerprint(self) -> str:
        return PublicIdentity(self.sign_key).fingerprint

    @property
    def public(self) -> PublicIdentity:
        return PublicIdentity(self.sign_key)

    def to_wire(self) -> dict[str, WireValue]:
        return {
            "name": self.name,
            "colour": self.colour,
            "sign": self.sign_key,
            "host": self.host,
            "port": self.port,
            "bot": self.bot,
            "ready": self.ready,
        }

    @classmethod
    def from_wire(cls, value: WireValue, peer: str | None = None) -> Seat:
        if not isinstance(value, dict):
            raise DecodeError(peer, "a seat must be a map")
        name = body_field(value, "name", str, peer=peer, max_len=MAX_NAME * 4)
        colour = body_field(value, "colour", str, peer=peer)
        sign = body_field(value, "sign", bytes, peer=peer)
        host = body_field(value, "host", str, peer=peer, max_len=64)
        port = body_field(value, "port", int, peer=peer)
        ready = body_field(value, "ready", bool, peer=peer)
        bot = value.get("bot")
        assert isinstance(name, str) and isinstance(colour, str) and isinstance(host, str)
        assert isinstance(sign, bytes) and isinstance(port, int)
        if bot is not None and bot not in BOT_KINDS:
            raise DecodeError(peer, "unknown bot kind")
        if colour not in SEAT_COLOURS or not 0 < port < 65536:
            raise DecodeError(peer, "bad colour or port")
        PublicIdentity.from_bytes(sign, peer=peer)
        name = _wire_name(name, "player name", peer)
        return cls(name, colour, sign, host, port, bot, bool(ready))


@dataclass(frozen=True, slots=True)
class LobbyState:
    """Everything a guest sees of the lobby; at the start it is the game's roster."""

    table: str
    host_fingerprint: str
    options: TableOptions
    seats: tuple[Seat, ...] = ()
    phase: str = "open"  # open, full, playing
    nonce: bytes = b""
    """Fresh 32 bytes drawn by the host at the start; with the roster it fixes the game id."""

    @property
    def free(self) -> int:
        return self.options.players - len(self.seats)

    def seat_of(self, fingerprint: str) -> int | None:
        for i, s in enumerate(self.seats):
            if s.fingerprint == fingerprint:
                return i
        return None

    def to_wire(self) -> dict[str, WireValue]:
        return {
            "table": self.table,
            "host": self.host_fingerprint,
            "options": self.options.to_wire(),
            "seats": [s.to_wire() for s in self.seats],
            "phase": self.phase,
            "nonce": self.nonce,
        }

    @classmethod
    def from_wire(cls, value: WireValue, peer: str | None = None) -> LobbyState:
        if not isinstance(value, dict):
            raise DecodeError(peer, "lobby state must be a map")
        table = body_field(value, "table", str, peer=peer)
        host = body_field(value, "host", str, peer=peer)
        seats = body_field(value, "seats", list, peer=peer, max_len=5)
        phase = body_field(value, "phase", str, peer=peer)
        nonce = body_field(value, "nonce", bytes, peer=peer, max_len=32)
        assert isinstance(table, str) and isinstance(host, str) and isinstance(seats, list)
        assert isinstance(phase, str) and isinstance(nonce, bytes)
        if phase not in ("open", "full", "playing"):
            raise DecodeError(peer, "unknown lobby phase")
        return cls(
            _wire_name(table, "table name", peer),
            host,
            TableOptions.from_wire(value.get("options"), peer),
            tuple(Seat.from_wire(s, peer) for s in seats),
            phase,
            nonce,
        )


def _phase(state: LobbyState) -> str:
    if state.phase == "playing":
        return "playing"
    return "full" if state.free <= 0 else "open"
