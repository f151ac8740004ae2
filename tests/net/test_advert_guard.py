"""LAN adverts cannot make a served game connect where they like: a browser in a game that may
join listed tables only keeps an advert's address if it is on the subnet of the interface the
advert came in on, and never loopback, link-local or the server's own (unit tests with fake
adverts, and real mDNS between network namespaces)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

from rattus_net.net import discovery
from rattus_net.net.advertguard import Interface, why_refused
from rattus_net.net.discovery import TableBrowser
from rattus_net.paths import ENV_JOIN

from .netns import NetnsLab, netns_available

# the server: on a LAN (eth0) and on an internal network (eth1)
SERVER = [Interface.of("127.0.0.1/8"), Interface.of("10.77.0.5/24"), Interface.of("10.88.0.2/24")]


@pytest.mark.parametrize(
    ("address", "source", "reason"),
    [
        ("10.77.0.9", "10.77.0.9", None),  # a host of the LAN, announced from the LAN
        ("10.77.0.30", "10.77.0.9", None),  # another host of that LAN
        ("10.88.0.7", "10.77.0.9", "not on the network it was announced on"),  # internal
        ("127.0.0.1", "10.77.0.9", "loopback"),
        ("169.254.3.4", "10.77.0.9", "link-local"),
        ("224.0.0.251", "10.77.0.9", "multicast"),
        ("0.0.0.0", "10.77.0.9", "unspecified"),
        ("10.77.0.5", "10.77.0.9", "this server's own"),
        ("10.88.0.2", "10.77.0.9", "this server's own"),
        ("8.8.8.8", "10.77.0.9", "not on the network"),
        ("10.77.0.9", None, "no packet seen"),
        ("10.77.0.9", "192.168.1.4", "off this server's networks"),
        ("::1", "10.77.0.9", "loopback"),
        ("fe80::1", "10.77.0.9", "link-local"),
        ("not-an-ip", "10.77.0.9", "not an address"),
    ],
)
def test_which_advert_addresses_a_served_game_may_connect_to(
    address: str, source: str | None, reason: str | None
) -> None:
    why = why_refused(address, source, SERVER)
    if reason is None:
        assert why is None
    else:
        assert why is not None and reason in why


FP = "0123456789abcdef"


class FakeZeroconf:
    zeroconf = None


def test_the_browser_of_a_served_game_keeps_only_the_allowed_addresses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The filter over the discovery layer, with fake adverts and senders: an advert whose
    addresses are all refused is not listed, and why is noted."""
    monkeypatch.setattr(discovery, "local_interfaces", lambda: SERVER)
    monkeypatch.setenv(ENV_JOIN, "listed")  # a served game (the server's default)
    browser = TableBrowser(FakeZeroconf())  # type: ignore[arg-type]
    assert browser.sources is not None  # guarded, as the environment says
    sent = {("cellar.local.", "10.77.0.9"): "10.77.0.9", ("probe.local.", "127.0.0.1"): "10.77.0.9",
            ("probe.local.", "10.88.0.7"): "10.77.0.9"}  # fmt: skip
    browser.sources.sources.update(sent)
    assert browser.allowed("Cellar._rattus", "Cellar.local.", ["10.77.0.9"]) == ["10.77.0.9"]
    assert browser.allowed("Probe._rattus", "probe.local.", ["127.0.0.1", "10.88.0.7"]) == []
    assert "Probe._rattus" in browser.rejected and "10.88.0.7" in browser.rejected["Probe._rattus"]
    # an address announced in a packet nobody saw (or for another host name) is refused too
    assert browser.allowed("Other._rattus", "other.local.", ["10.77.0.9"]) == []
    # a player at his own terminal, or a server allowing typed addresses: nothing is filtered
    monkeypatch.setenv(ENV_JOIN, "any")
    assert TableBrowser(FakeZeroconf()).sources is None  # type: ignore[arg-type]
    monkeypatch.delenv(ENV_JOIN)
    assert TableBrowser(FakeZeroconf()).sources is None  # type: ignore[arg-type]


ADVERTISE = textwrap.dedent(
    f"""
    import asyncio, os, sys
    from rattus_net.net.discovery import Advertiser, TableAdvert, new_zeroconf

    async def main():
        aiozc = new_zeroconf()
        adverts = []
        for i, address in enumerate(sys.argv[1:]):
            os.environ["RATTUS_LISTEN_ADDRESS"] = address  # the address the advert says
            fp = str(i) + "{FP[1:]}"  # (a host name of its own: rattus-<fp>.local)
            adv = Advertiser(aiozc, TableAdvert(f"T{{i}}", fp, 1, 2, "open", game="cartus"), 22)
            await adv.start()
            adverts.append(adv)
        print("up", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        for adv in adverts:
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
    print(json.dumps(sorted(t.host for t in tables)))
    """
)


@pytest.fixture(scope="module")
def lab() -> Iterator[NetnsLab]:
    reason = netns_available()
    if reason is not None:
        pytest.skip(f"real mDNS test needs network namespaces: {reason}")
    with NetnsLab(2, "g") as lab:
        # the browsing "server" is on an internal network too
        ns = lab.hosts[1]
        for args in (["link", "add", "int0", "type", "veth", "peer", "name", "int1"],
                     ["addr", "add", "10.88.0.2/24", "dev", "int0"],
                     ["link", "set", "int0", "up"], ["link", "set", "int1", "up"]):  # fmt: skip
            subprocess.run(["ip", "-n", ns, *args], check=True, capture_output=True)
        yield lab


def browse_in(lab: NetnsLab, join: str | None) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != ENV_JOIN}
    if join is not None:
        env[ENV_JOIN] = join
    out = lab.run(1, [sys.executable, "-c", BROWSE, "2.0"], timeout=30, env=env)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_real_adverts_for_loopback_or_another_network_are_not_offered_to_a_served_game(
    lab: NetnsLab,
) -> None:
    announced = [lab.addr(0), "127.0.0.1", "10.88.0.7", "10.77.0.2"]  # the last: the server's
    host = lab.popen(0, [sys.executable, "-c", ADVERTISE, *announced])
    assert host.stdout is not None and host.stdin is not None
    assert host.stdout.readline().strip() == "up", host.stderr.read() if host.stderr else ""
    assert browse_in(lab, None) == sorted(announced)  # a player at his own terminal: all
    assert browse_in(lab, "listed") == [lab.addr(0)]  # a served game: the LAN's host only
    host.stdin.write("\n")
    host.stdin.flush()
    host.wait(10)
