"""Lobby: the sans-IO rules, the link handshake, and host + guests over loopback."""

from __future__ import annotations

import asyncio
import os

import pytest
from waits import until

from protocol.crypto.identity import Identity
from protocol.errors import DecodeError, RemoteProtocolError
from protocol.wire import encode_message
from rattus_net.games.rattus.definition import RattusDefinition
from rattus_net.net.handshake import Handshake, HandshakeError
from rattus_net.net.lobby import (
    HostedTable,
    LobbyCore,
    LobbyRefusal,
    LobbyState,
    Seat,
    TableOptions,
    colour_message,
    join_table,
    ready_message,
    sit_message,
)
from rattus_net.net.transport import TransportLimits

FAST = TransportLimits(connect_timeout=2.0, idle_timeout=3.0, keepalive=0.5, write_timeout=2.0)


def ident() -> Identity:
    return Identity.generate(os.urandom)


def test_seats_colours_names_ready_and_start() -> None:
    host = ident()
    core = LobbyCore.open("Kitchen", host.public, TableOptions(players=3))
    a, b, c, d = ident(), ident(), ident(), ident()
    core.sit(a.public, "Ann", "10.0.0.1", 4000, colour="blue")
    seat_b = core.sit(b.public, "Ann", "10.0.0.2", 4000, colour="blue")
    assert seat_b.name == "Ann-2" and seat_b.colour == "red"
    with pytest.raises(LobbyRefusal, match="already has a seat"):
        core.sit(a.public, "Again", "10.0.0.1", 4000)
    core.sit(c.public, "Cid", "10.0.0.3", 4000, bot="random")
    assert core.state.phase == "full"
    with pytest.raises(LobbyRefusal, match="full"):
        core.sit(d.public, "Dan", "10.0.0.4", 4000)
    for who in (a, b):
        core.set_ready(who.fingerprint, True)
    assert not core.can_start
    with pytest.raises(LobbyRefusal, match="ready"):
        core.start(bytes(32))
    core.set_ready(c.fingerprint, True)
    # changing the options un-readies everybody
    core.set_options(TableOptions.of("cartus", 3, buildings="first-game", simultaneous_supply=True))
    assert not core.can_start
    with pytest.raises(LobbyRefusal, match="already seated"):
        core.set_options(TableOptions(players=2))
    with pytest.raises(LobbyRefusal, match="2 to 5"):
        core.set_options(TableOptions(players=6))
    with pytest.raises(LobbyRefusal, match="building"):
        core.set_options(TableOptions.of("cartus", 3, buildings="nonsense"))
    for who in (a, b, c):
        core.set_ready(who.fingerprint, True)
    state = core.start(os.urandom(32))
    assert state.phase == "playing"
    assert LobbyState.from_wire(state.to_wire()) == state
    with pytest.raises(LobbyRefusal, match="started"):
        core.sit(d.public, "Dan", "x", 1)


def test_leaving_frees_the_seat_and_unreadies_the_rest() -> None:
    core = LobbyCore.open("T", ident().public, TableOptions(players=2))
    a, b = ident(), ident()
    core.sit(a.public, "A", "h", 1)
    core.sit(b.public, "B", "h", 2)
    core.set_ready(a.fingerprint, True)
    core.leave(b.fingerprint)
    assert core.state.phase == "open" and not core.state.seats[0].ready


def test_a_seat_changes_to_a_free_colour_and_keeps_its_ready() -> None:
    core = LobbyCore.open("T", ident().public, TableOptions(players=3))
    a, b = ident(), ident()
    core.sit(a.public, "A", "h", 1, colour="red")
    core.sit(b.public, "B", "h", 2, colour="blue")
    core.set_ready(a.fingerprint, True)
    assert core.set_colour(a.fingerprint, "green")
    assert [s.colour for s in core.state.seats] == ["green", "blue"]
    assert core.state.seats[0].ready
    assert not core.set_colour(a.fingerprint, "blue")  # B's: nothing changes
    assert core.state.seats[0].colour == "green"
    core.handle(b.public, "h", colour_message("red"))
    assert core.state.seats[1].colour == "red"
    with pytest.raises(LobbyRefusal, match="no colour"):
        core.set_colour(a.fingerprint, "pink")
    with pytest.raises(LobbyRefusal, match="take a seat"):
        core.set_colour(ident().fingerprint, "yellow")
    with pytest.raises(RemoteProtocolError):
        core.handle(b.public, "h", colour_message("pink"))
    core.sit(ident().public, "C", "h", 3)
    for seat in core.state.seats:
        core.set_ready(seat.fingerprint, True)
    core.start(os.urandom(32))
    with pytest.raises(LobbyRefusal, match="started"):
        core.set_colour(a.fingerprint, "purple")


def test_guest_messages_are_checked() -> None:
    core = LobbyCore.open("T", ident().public, TableOptions(players=2))
    a = ident()
    core.handle(a.public, "10.0.0.9", sit_message("A", 5000, "green", "random"))
    assert core.state.seats[0].host == "10.0.0.9" and core.state.seats[0].bot == "random"
    core.handle(a.public, "10.0.0.9", ready_message())
    assert core.state.seats[0].ready
    core.handle(a.public, "10.0.0.9", ready_message(False))  # taken back before the start
    assert not core.state.seats[0].ready
    core.handle(a.public, "10.0.0.9", ready_message())
    for bad in (
        b"\x00garbage",
        encode_message("lobby/sit", {"name": 3, "port": 1}),
        encode_message("lobby/ready", {"ready": 1}),
        encode_message("lobby/start", {}),
    ):
        with pytest.raises(RemoteProtocolError):
            core.handle(a.public, "h", bad)


def test_handshake_proves_both_keys_and_binds_the_purpose() -> None:
    a, b = ident(), ident()
    ha = Handshake(a, "game/1", os.urandom)
    hb = Handshake(b, None, os.urandom, expect={a.fingerprint})
    ra, rb = hb.receive(ha.hello()), ha.receive(hb.hello())
    assert ra is not None and rb is not None
    assert ha.receive(ra) is None and hb.receive(rb) is None
    assert ha.done and hb.done and hb.purpose == "game/1"
    assert ha.remote == b.public and hb.remote == a.public
    # an unexpected key is refused
    hc = Handshake(b, None, os.urandom, expect={"0" * 16})
    with pytest.raises(HandshakeError, match="not expected"):
        hc.receive(Handshake(a, "lobby", os.urandom).hello())
    # a signature made for another link does not verify here
    h1, h2 = Handshake(a, "lobby", os.urandom), Handshake(b, None, os.urandom)
    h2.receive(h1.hello())
    h1.receive(h2.hello())
    other = Handshake(a, "lobby", os.urandom)
    Handshake(b, None, os.urandom).receive(other.hello())
    replayed = other.receive(Handshake(b, None, os.urandom).hello())
    assert replayed is not None
    with pytest.raises(HandshakeError, match="signature"):
        h2.receive(replayed)


def test_host_and_guests_meet_and_start_over_loopback() -> None:
    async def main() -> None:
        host_id = ident()
        table = HostedTable(host_id, "Loop", TableOptions(players=3), FAST)
        port = await table.open("127.0.0.1", 0)
        table.core.sit(host_id.public, "Host", "", port)
        table.core.set_ready(host_id.fingerprint, True)
        g1, g2 = ident(), ident()
        states = await asyncio.gather(
            join_table(
                "127.0.0.1",
                port,
                g1,
                "One",
                6001,
                expect_fingerprint=host_id.fingerprint,
                limits=FAST,
            ),
            join_table("127.0.0.1", port, g2, "Two", 6002, bot="random", limits=FAST),
        )
        started = await asyncio.wait_for(table.started, 2)
        assert states[0] == states[1] == started
        assert [s.name for s in started.seats] == ["Host", "One", "Two"]
        assert started.seats[2].bot == "random" and started.seats[1].host == "127.0.0.1"
        assert len(started.nonce) == 32
        # a late guest is refused with a clear reason
        with pytest.raises(LobbyRefusal, match="started"):
            await join_table("127.0.0.1", port, ident(), "Late", 6003, limits=FAST)
        # a guest expecting another host key is refused before sitting
        with pytest.raises(LobbyRefusal, match="advertised key"):
            await join_table(
                "127.0.0.1",
                port,
                ident(),
                "X",
                6004,
                expect_fingerprint="0123456789abcdef",
                limits=FAST,
            )
        await table.close()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_a_guest_takes_back_ready_over_loopback() -> None:
    """``join_table`` with ``ready_changed``: the player's "ready" and "not ready" reach the
    host at once; the chosen colour is the seat's."""

    async def main() -> None:
        host_id = ident()
        table = HostedTable(host_id, "Loop", TableOptions(players=2), FAST)
        port = await table.open("127.0.0.1", 0)
        table.core.sit(host_id.public, "Host", "", port, colour="red")
        ready, changed = asyncio.Event(), asyncio.Event()
        guest = ident()
        joined = asyncio.ensure_future(
            join_table(
                "127.0.0.1",
                port,
                guest,
                "Gus",
                6001,
                colour="purple",
                limits=FAST,
                ready=ready,
                ready_changed=changed,
            )
        )

        def seat() -> Seat:
            i = table.core.state.seat_of(guest.fingerprint)
            assert i is not None
            return table.core.state.seats[i]

        await until(lambda: len(table.core.state.seats) == 2, 5)
        assert seat().colour == "purple"
        ready.set()
        changed.set()
        await until(lambda: seat().ready, 5)
        ready.clear()
        changed.set()
        await until(lambda: not seat().ready, 5)
        table.core.set_ready(host_id.fingerprint, True)
        await asyncio.sleep(0.2)
        assert not table.started.done()  # the guest is not ready: no start
        ready.set()
        changed.set()
        state = await asyncio.wait_for(joined, 5)
        assert state.phase == "playing" and state.seats[1].colour == "purple"
        await table.close()

    asyncio.run(asyncio.wait_for(main(), 20))


def test_the_table_names_its_game_and_its_options_by_their_lobby_keys() -> None:
    core = LobbyCore.open(
        "T", ident().public, TableOptions.of("cartus", 2, simultaneous_supply=True)
    )
    wire = core.state.to_wire()
    options = wire["options"]
    assert options == {
        "players": 2,
        "game": "cartus",
        "game_version": 1,
        "options": {"buildings": "random-cards", "simultaneous": True},
    }
    back = LobbyState.from_wire(wire).options
    assert back == core.state.options
    assert back.values == {"buildings": "random-cards", "simultaneous_supply": True}


def test_the_options_form_of_an_older_version_is_refused_in_one_line() -> None:
    older = {"players": 2, "buildings": "random-cards", "simultaneous": False, "game": "cartus"}
    with pytest.raises(DecodeError, match="older version of Rattus Net") as refused:
        TableOptions.from_wire(older)
    assert "\n" not in refused.value.reason


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"game": "chess"}, "does not know"),
        ({"game": "x" * 200}, "game"),
        ({"game_version": 9}, "Rattus Cartus version 9; this program plays version 1"),
        ({"game_version": "1"}, "game_version"),
        (
            {"game": "rattus", "game_version": 2, "players": 2, "options": {}},
            "Rattus cannot be played on the network yet",
        ),
        (
            {"game": "rattus", "game_version": 2, "players": 5, "options": {}},
            "Rattus is for 2 to 4 players",
        ),
        (  # a table of the old Rattus rules (struck cubes left the game)
            {"game": "rattus", "game_version": 1, "players": 2, "options": {}},
            "the table plays Rattus version 1; this program plays version 2",
        ),
        ({"game": "rattus", "game_version": 2}, "not the agreed keys"),  # Cartus's options
        ({"options": {"buildings": "moon"}}, "not the agreed keys"),
        ({"options": {"buildings": "moon", "simultaneous": False}}, "unknown building"),
        ({"options": {"buildings": "first-game", "simultaneous": 1}}, "must be a bool"),
    ],
)
def test_a_table_of_another_game_or_version_is_refused_in_one_line(
    change: dict[str, object], match: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if "network yet" in match:  # (a game whose network play does not exist)
        monkeypatch.setattr(RattusDefinition, "network_play", False)
    options = {**TableOptions(players=2).to_wire(), **change}
    with pytest.raises(DecodeError, match=match):
        TableOptions.from_wire(options)  # type: ignore[arg-type]


def test_a_game_s_tables_wait_for_its_network_play_behind_one_flag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(RattusDefinition, "network_play", False)
    with pytest.raises(LobbyRefusal, match="rattus play --game rattus") as refused:
        TableOptions(players=2, game="rattus").check()
    assert "network tables play Rattus Cartus" in refused.value.reason
    # the same flag turns it on: the game's own player counts apply then
    monkeypatch.setattr(RattusDefinition, "network_play", True)
    assert TableOptions(players=4, game="rattus").check().game == "rattus"
    with pytest.raises(LobbyRefusal, match="Rattus is for 2 to 4 players"):
        TableOptions(players=5, game="rattus").check()


def test_a_table_takes_only_its_own_game_s_options() -> None:
    """A Rattus table has no option but its players: Rattus Cartus's are refused, the
    table's state carries the game and the options words say only the players."""
    from rattus_net.net.tables import options_words

    with pytest.raises(LobbyRefusal, match="a Rattus table has no option 'buildings'"):
        TableOptions.of("rattus", 3, buildings="first-game").check()
    checked = TableOptions(3, "rattus").check()
    assert checked == TableOptions(3, "rattus", {})
    core = LobbyCore.open("Board", ident().public, checked)
    back = LobbyState.from_wire(core.state.to_wire())
    assert back.options.game == "rattus" and back.options.definition.title == "Rattus"
    assert options_words(back.options) == "3 players"
    assert options_words(TableOptions(3).check()) == "3 players, random cards, supplies in turn"
    assert TableOptions(3).check().game == "cartus"  # (the default game)
    core.set_options(TableOptions(2, "rattus"))
    assert core.state.options == TableOptions(2, "rattus")


def test_a_started_rattus_table_gives_rattus_parameters_and_its_advert_names_the_game() -> None:
    from protocol.params import GameParams
    from rattus_net.games.rattus.game import RattusConfig
    from rattus_net.games.rattus.loader import default_components
    from rattus_net.games.rattus.secure import fingerprint
    from rattus_net.net import play

    a, b = ident(), ident()
    core = LobbyCore.open("Board", a.public, TableOptions(2, game="rattus"))
    advert = play.table_advert("Board", a.fingerprint, core.state)
    assert (advert.to_txt()["game"], advert.to_txt()["gv"]) == ("rattus", "2")
    core.sit(a.public, "Ann", "", 4000)
    core.sit(b.public, "Bob", "10.0.0.2", 4001)
    core.set_ready(a.fingerprint, True)
    core.set_ready(b.fingerprint, True)
    state = core.start(os.urandom(32))
    params = play.game_params(state)
    assert params.game == "rattus" and isinstance(params.config, RattusConfig)
    assert params.config.players == ("Ann", "Bob")
    wire = params.to_wire()
    assert isinstance(wire, dict) and wire["components"] == fingerprint(default_components())
    assert GameParams.from_wire(wire).game_id() == params.game_id()  # (every seat agrees)
    assert play.advert_changes(state)["game"] == "rattus"
    cartus = LobbyCore.open("Kitchen", a.public, TableOptions(2))
    assert play.table_advert("Kitchen", a.fingerprint, cartus.state).game == "cartus"
    assert play.advert_changes(cartus.state)["game"] == "cartus"


def test_join_tries_again_when_the_table_drops_it_before_the_handshake() -> None:
    """A host whose port is full of strangers drops a guest before its link is authenticated
    (it makes room from the connections that have come least far): the guest tries again with
    backoff, saying so each time; nobody answering at all ends at once."""
    from rattus_net.net.lobby import authenticate
    from rattus_net.net.lobby.guest import _enter
    from rattus_net.net.transport import DEFAULT_TRANSPORT, Connection, Listener, Unreachable

    from .procs import free_port

    host = Identity.generate(os.urandom)

    async def go() -> list[str]:
        dropped = [0]

        async def handler(conn: Connection) -> None:
            if dropped[0] < 2:
                dropped[0] += 1
                conn.abort()
                return
            await authenticate(conn, host, None)
            await asyncio.sleep(1.0)

        listener = Listener(handler)
        port = await listener.start("127.0.0.1", 0)
        said: list[str] = []
        guest = Identity.generate(os.urandom)
        conn, hs = await _enter(
            "127.0.0.1", port, guest, None, DEFAULT_TRANSPORT, 10.0, said.append
        )
        assert hs.remote == host.public
        conn.abort()
        await listener.close()
        nobody: list[str] = []
        with pytest.raises(Unreachable):
            await _enter(
                "127.0.0.1", free_port(), guest, None, DEFAULT_TRANSPORT, 10.0, nobody.append
            )
        assert not nobody
        return said

    said = asyncio.run(go())
    assert len(said) == 2 and all("trying again in" in line for line in said), said
    assert said[0].startswith("could not get into the table at 127.0.0.1:")
