"""Discovery: bounded TXT parsing, and real mDNS between network namespaces."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from protocol.wire import PROTOCOL_VERSION
from rattus_net.net.discovery import (
    AdvertError,
    NoLoop,
    TableAdvert,
    clean_table_name,
    new_zeroconf,
)
from rattus_net.net.lobby import TableOptions
from rattus_net.net.names import BadName, instance_label
from rattus_net.net.tables import HostLobby

from .netns import NetnsLab, netns_available

FP = "0123456789abcdef"


def test_txt_round_trip_and_compatibility() -> None:
    advert = TableAdvert("Kitchen", FP, 2, 1, "open", game="cartus")
    txt = {k.encode(): v.encode() for k, v in advert.to_txt().items()}
    back = TableAdvert.from_txt(txt)
    assert back == advert and back.compatible
    old = TableAdvert.from_txt({**txt, b"v": str(PROTOCOL_VERSION + 1).encode()})
    assert not old.compatible


def test_adverts_name_the_game_and_older_ones_are_refused_in_one_line() -> None:
    advert = TableAdvert("Kitchen", FP, 2, 1, "open", game="cartus")
    txt = advert.to_txt()
    assert (txt["game"], txt["gv"]) == ("cartus", "1")
    back = TableAdvert.from_txt(txt)
    assert (back.game, back.game_version, back.game_title) == ("cartus", 1, "Rattus Cartus")
    for left_out in ("game", "gv"):
        older = {k.encode(): v.encode() for k, v in txt.items() if k != left_out}
        with pytest.raises(AdvertError, match="not an advert of this version"):
            TableAdvert.from_txt(older)


def test_a_table_of_a_game_not_played_here_is_listed_but_not_compatible(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rattus_net.games.rattus.definition import RattusDefinition

    version = RattusDefinition.game_type.network_version
    assert TableAdvert("Board", FP, 1, 2, "open", game="rattus", game_version=version).compatible
    old = TableAdvert("Board", FP, 1, 2, "open", game="rattus", game_version=1)
    assert old.why_not() == (
        "table 'Board' plays Rattus version 1; this program plays version 2: update one of them"
    )
    monkeypatch.setattr(RattusDefinition, "network_play", False)  # (a game not played here)
    rattus = TableAdvert("Board", FP, 1, 2, "open", game="rattus", game_version=version)
    back = TableAdvert.from_txt(rattus.to_txt())
    assert back.game == "rattus" and back.game_title == "Rattus"
    assert not back.compatible and "not on the network yet" in (back.incompatibility or "")
    newer = TableAdvert.from_txt({**rattus.to_txt(), "game": "cartus", "gv": "7"})
    assert not newer.compatible and newer.incompatibility == "Rattus Cartus version 7"
    other = TableAdvert.from_txt({**rattus.to_txt(), "game": "chess"})
    assert other.game_title == "chess" and not other.compatible
    assert other.incompatibility == "unknown game 'chess'"
    # and why it cannot be joined, in one line, before connecting
    assert back.why_not() == "table 'Board' plays Rattus, which cannot be played on the network yet"
    assert newer.why_not() == (
        "table 'Board' plays Rattus Cartus version 7; this program plays version 1: "
        "update one of them"
    )
    assert other.why_not() == "table 'Board' plays a game this program does not know ('chess')"
    assert TableAdvert("T", FP, 1, 1, "open", game="cartus").why_not() is None


@pytest.mark.parametrize(
    ("key", "value", "match"),
    [
        (b"game", b"Rattus Cartus", "'game'"),
        (b"game", b"\x1b[31m", "'game'"),
        (b"gv", b"-1", "'gv'"),
        (b"v", b"x", "'v'"),
        (b"v", b"9" * 40, "'v'"),
        (b"v", "²".encode(), "'v'"),  # (isdigit() says yes, int() raised: issue 23)
        (b"v", "١".encode(), "'v'"),
        (b"v", b"+1", "'v'"),
        (b"gv", "①".encode(), "'gv'"),
        (b"taken", "⁰".encode(), "'taken'"),
        (b"fp", b"nothex", "fingerprint"),
        (b"state", b"exploded", "state"),
        (b"taken", b"9", "out of range"),
        (b"name", b"\x00\x01", "name"),
        (b"name", b"x" * 500, "too long"),
    ],
)
def test_bad_txt_records_are_refused(key: bytes, value: bytes, match: str) -> None:
    txt = {
        k.encode(): v.encode()
        for k, v in TableAdvert("T", FP, 1, 1, "open", game="cartus").to_txt().items()
    }
    txt[key] = value
    with pytest.raises(AdvertError, match=match):
        TableAdvert.from_txt(txt)


def test_table_names_follow_the_one_rule_and_keep_their_dots() -> None:
    assert clean_table_name("  a.b.c  ") == "a.b.c"
    for bad in ("a.b\x07c", "x" * 25, "\x00 ", "two\nlines", "bad\udcff"):
        with pytest.raises(BadName):
            clean_table_name(bad)
    advert = TableAdvert("a.b.c", FP, 1, 2, "open", game="cartus")
    txt = {k.encode(): v.encode() for k, v in advert.to_txt().items()}
    assert TableAdvert.from_txt(txt).name == "a.b.c"  # listed as it is called
    with pytest.raises(AdvertError, match="UTF-8"):
        TableAdvert.from_txt({**txt, b"name": b"caf\xe9"})
    # the DNS-SD label has no dot (it would split the label) and fits 63 bytes in any script
    assert instance_label("a.b.c", FP) == "a b c 01234567"
    assert len(instance_label("🐀" * 24, FP).encode()) <= 63


ADVERTISE = textwrap.dedent(
    f"""
    import asyncio, sys
    from rattus_net.net.discovery import Advertiser, TableAdvert, new_zeroconf

    async def main():
        aiozc = new_zeroconf()
        adv = Advertiser(aiozc, TableAdvert("Cellar", "{FP}", 1, 2, "open", game="cartus"), 4321)
        await adv.start()
        print("up", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await adv.update(seats_taken=2, seats_free=1)
        print("updated", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await adv.stop()
        await aiozc.async_close()

    asyncio.run(main())
    """
)

BROWSE = textwrap.dedent(
    """
    import asyncio, json, sys
    from rattus_net.net.discovery import browse
    tables = asyncio.run(browse(float(sys.argv[1])))
    print(json.dumps([[t.name, t.host, t.port, t.seats_taken, t.fingerprint] for t in tables]))
    """
)


@pytest.fixture(scope="module")
def lab() -> object:
    reason = netns_available()
    if reason is not None:
        pytest.skip(f"real mDNS test needs network namespaces: {reason}")
    with NetnsLab(3, "d") as lab:
        yield lab


def browse_in(lab: NetnsLab, host: int, seconds: float) -> list[list[object]]:
    out = lab.run(host, [sys.executable, "-c", BROWSE, str(seconds)], timeout=30)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_a_table_is_found_from_other_namespaces_and_updates_live(lab: NetnsLab) -> None:
    host = lab.popen(0, [sys.executable, "-c", ADVERTISE])
    assert host.stdout is not None and host.stdin is not None
    assert host.stdout.readline().strip() == "up"
    found = browse_in(lab, 1, 1.5)
    assert found == [["Cellar", lab.addr(0), 4321, 1, FP]], found
    assert browse_in(lab, 2, 1.5) == found
    host.stdin.write("\n")
    host.stdin.flush()
    assert host.stdout.readline().strip() == "updated"
    assert browse_in(lab, 1, 1.5)[0][3] == 2
    host.stdin.write("\n")
    host.stdin.flush()
    host.wait(10)
    assert browse_in(lab, 2, 1.0) == []


@pytest.mark.parametrize("field", ["fp", "game"])
def test_a_txt_field_with_a_trailing_newline_is_refused(field: str) -> None:
    """The patterns match the whole field: ``$`` alone would let ``"...\\n"`` through."""
    txt = TableAdvert("Kitchen", FP, 2, 1, "open", game="cartus").to_txt()
    with pytest.raises(AdvertError):
        TableAdvert.from_txt({**txt, field: txt[field] + "\n"})


def test_zeroconf_is_made_only_on_the_loop_that_uses_it(tmp_path: Path) -> None:
    """Made outside a running loop, zeroconf would run on a loop of its own, and awaiting its
    adverts from the screen's loop fails: so it cannot be made there, and a lobby made before
    any loop runs (as `rattus host` makes it) makes its zeroconf only when it opens."""
    with pytest.raises(NoLoop):
        new_zeroconf()
    lobby = HostLobby("Early", TableOptions(2), "Hana", root=tmp_path)  # (no loop runs here)
    assert lobby.advertise and lobby._announcement is None
