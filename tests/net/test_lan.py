"""Real mDNS and TCP between "machines": network namespaces joined by veths and a bridge.

A host in one namespace is found by `rattus tables` in another and joined by name from two
more; the whole game is played across the namespaces. Where avahi-browse and avahi-daemon are
installed, the advert is also checked with Avahi (an independent mDNS implementation).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from protocol.wire import PROTOCOL_VERSION

from .netns import NetnsLab, netns_available
from .procs import (
    OPEN_LINE,
    assert_fair_game,
    env_for,
    finish,
    rattus,
    read_line,
)
from .terminal import Terminal

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


@pytest.fixture
def lab() -> Iterator[NetnsLab]:
    reason = netns_available()
    if reason is not None:
        pytest.skip(f"the LAN test needs network namespaces: {reason}")
    with NetnsLab(3, "g") as lab:
        yield lab


WATCHER = """
import asyncio, json, sys
from rattus_net.net.discovery import TableBrowser, new_zeroconf
async def main():
    zc = new_zeroconf(); b = TableBrowser(zc); await b.start()
    while True:
        print(json.dumps(sorted([t.name, t.fingerprint] for t in b.tables.values())), flush=True)
        await asyncio.sleep(0.5)
asyncio.run(main())
"""


def wait_tables(watcher: subprocess.Popen[str], want: Callable[[list[list[str]]], bool],
                timeout: float) -> float:  # fmt: skip
    """Seconds until the running browser's table list satisfies ``want``."""
    assert watcher.stdout is not None
    start = time.monotonic()
    seen: list[list[str]] = []
    while time.monotonic() - start < timeout:
        line = watcher.stdout.readline()
        assert line, "the browser stopped"
        seen = json.loads(line)
        if want(seen):
            return time.monotonic() - start
    raise AssertionError(f"the browser still shows {seen}")


def test_a_table_found_with_zeroconf_is_played_across_namespaces(
    lab: NetnsLab, tmp_path: Path
) -> None:
    """A table named with dots is listed and joined by its name; a second table of the same
    name makes `join --table` refuse and list both keys; SIGTERM withdraws an advert at once
    from a running browser."""
    name = "Cel.lar"
    host = lab.popen(
        0,
        rattus(["host", "--name", name, "--players", "3", "--bot", "random", "--port", "47000"]),
        env=env_for(tmp_path / "h"),
    )
    assert read_line(host, OPEN_LINE, 20) == "47000"
    listed = lab.run(1, rattus(["tables", "--json", "--wait", "2"]), timeout=30,
                     env=env_for(tmp_path / "l"))  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    tables = json.loads(listed.stdout)
    assert [(t["name"], t["address"], t["seats_taken"], t["seats_free"]) for t in tables] == [
        (name, f"{lab.addr(0)}:47000", 1, 2)
    ]
    assert tables[0]["compatible"] and tables[0]["state"] == "open"
    assert (tables[0]["game"], tables[0]["game_version"]) == ("cartus", 1)
    text = lab.run(2, rattus(["tables"]), timeout=30, env=env_for(tmp_path / "l"))
    assert name in text.stdout and "1/3 seated" in text.stdout
    assert "Rattus Cartus" in text.stdout
    if all(shutil.which(tool) for tool in ("avahi-browse", "avahi-daemon", "dbus-daemon")):
        check_with_avahi(lab, tmp_path, name, port=47000, seats=(1, 2))
    else:  # optional by design: .ci/run installs them; say so when they are missing
        warnings.warn("Avahi or D-Bus not installed: advert not cross-checked", stacklevel=1)
    watcher = lab.popen(2, [sys.executable, "-c", WATCHER], env=env_for(tmp_path / "w"))
    twin = lab.popen(
        1,
        rattus(["host", "--name", name, "--players", "2", "--bot", "random", "--port", "47001"]),
        env=env_for(tmp_path / "t"),
    )
    assert read_line(twin, OPEN_LINE, 20) == "47001"
    wait_tables(watcher, lambda seen: len(seen) == 2, 20)
    refused = lab.run(2, rattus(["join", "--table", name, "--bot", "random"]), timeout=60,
                      env=env_for(tmp_path / "r"))  # fmt: skip
    assert refused.returncode == 1, refused.stdout
    assert f"2 tables are called {name!r}" in refused.stderr, refused.stderr
    assert refused.stderr.count("key ") == 2 and "Traceback" not in refused.stderr
    twin.send_signal(signal.SIGTERM)
    assert twin.wait(20) == 1
    assert "stopped by SIGTERM; the table is withdrawn" in twin.communicate()[1]
    gone = wait_tables(watcher, lambda seen: len(seen) == 1, 10)
    print(f"a table withdrawn by SIGTERM left the running browser after {gone:.1f} s")
    watcher.kill()
    guests = [
        lab.popen(
            i,
            rattus(["join", "--table", name, "--bot", "random"]),
            env=env_for(tmp_path / f"g{i}"),
        )
        for i in (1, 2)
    ]
    results = finish([host, *guests], 150)
    assert_fair_game(results, 3)


def test_a_browser_drops_a_table_whose_host_vanished(lab: NetnsLab, tmp_path: Path) -> None:
    """A host killed without a goodbye (kill -9): running browsers drop its table once its
    short-lived records expire, instead of listing it for 75 minutes."""
    watcher = lab.popen(1, [sys.executable, "-c", WATCHER], env=env_for(tmp_path / "w"))
    host = lab.popen(
        0,
        rattus(["host", "--name", "Gone", "--players", "2", "--bot", "random"]),
        env=env_for(tmp_path / "h"),
    )
    read_line(host, OPEN_LINE, 20)
    wait_tables(watcher, lambda seen: len(seen) == 1, 20)
    host.kill()
    gone = wait_tables(watcher, lambda seen: not seen, 60)
    print(f"a killed host's table left the running browser after {gone:.1f} s")
    watcher.kill()


def check_with_avahi(
    lab: NetnsLab, tmp_path: Path, name: str, *, port: int, seats: tuple[int, int]
) -> None:
    """Avahi, run in its own namespace, sees the same advert (TXT fields included).

    The check brings its own D-Bus bus and its own ``/run``: it must not depend on (or disturb)
    a system bus or an Avahi daemon of the machine running the tests, which may be missing,
    stale or already own Avahi's bus name.
    """
    bus_socket = tmp_path / "bus"
    bus_conf = tmp_path / "bus.conf"
    bus_conf.write_text(BUS_CONF.format(socket=bus_socket))
    conf = tmp_path / "avahi-daemon.conf"
    conf.write_text("[server]\nuse-ipv6=no\nenable-dbus=yes\n[publish]\ndisable-publishing=yes\n")
    env = {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": f"unix:path={bus_socket}"}
    bus = lab.popen(1, ["dbus-daemon", "--nofork", f"--config-file={bus_conf}"], env=env)
    deadline = time.monotonic() + 10
    while not bus_socket.exists():
        assert bus.poll() is None, f"dbus-daemon did not start: {bus.communicate()[1]}"
        assert time.monotonic() < deadline, "dbus-daemon did not open its socket"
        time.sleep(0.05)
    # `ip netns exec` gives the command its own mount namespace: a fresh /run there keeps
    # Avahi's pid file apart from any daemon on the machine.
    start = (
        "mount -t tmpfs rattus-run /run && mkdir /run/avahi-daemon && "
        f"exec avahi-daemon --no-drop-root --no-chroot --no-rlimits -f {conf}"
    )
    daemon = lab.popen(1, ["sh", "-c", start], env=env)
    try:
        resolved: list[str] = []
        for _ in range(20):  # the daemon needs a moment to start and to hear the advert
            time.sleep(0.5)
            assert daemon.poll() is None, f"avahi-daemon stopped: {daemon.communicate()[1]}"
            out = lab.run(1, ["avahi-browse", "-rtp", "_rattus._tcp"], timeout=20, env=env)
            # "=" lines are resolved services: ...;host;address;port;"txt" "txt" ...
            resolved = [line for line in out.stdout.splitlines() if line.startswith("=")]
            if resolved:
                break
        assert len(resolved) == 1, resolved
        fields = resolved[0].split(";")
        assert fields[7:9] == [lab.addr(0), str(port)], fields
        txt = set(re.findall(r'"([^"]*)"', fields[9]))
        taken, free = seats
        want = {f"name={name}", "state=open", f"taken={taken}", f"free={free}"}
        want.add(f"v={PROTOCOL_VERSION}")
        assert want <= txt, txt
        assert any(item.startswith("fp=") for item in txt), txt
    finally:
        daemon.terminate()
        bus.terminate()


def test_rattus_host_in_a_terminal_is_announced_on_the_lan(lab: NetnsLab, tmp_path: Path) -> None:
    """`rattus host` as a person types it (the TUI, in a pseudo-terminal): its lobby says
    nothing about the LAN going wrong, and `rattus tables` and Avahi on another machine of the
    LAN both see the table."""
    argv = rattus(["host", "--name", "Lan", "--players", "2", "--player", "Hana", "--port",
                   "47003"])  # fmt: skip
    env = {**env_for(tmp_path / "h"), "TERM": "xterm-256color"}
    term = Terminal(["ip", "netns", "exec", lab.hosts[0], *argv], env)
    try:
        term.wait_screen(["LOBBY: Lan", "47003", "Hana"], 30)
        listed = lab.run(1, rattus(["tables", "--json", "--wait", "3"]), timeout=30,
                         env=env_for(tmp_path / "l"))  # fmt: skip
        assert listed.returncode == 0, listed.stderr
        tables = json.loads(listed.stdout)
        assert [(t["name"], t["address"], t["seats_free"]) for t in tables] == [
            ("Lan", f"{lab.addr(0)}:47003", 1)
        ], term.screen()
        if all(shutil.which(tool) for tool in ("avahi-browse", "avahi-daemon", "dbus-daemon")):
            check_with_avahi(lab, tmp_path, "Lan", port=47003, seats=(1, 1))
        else:  # optional by design: .ci/run installs them; say so when they are missing
            warnings.warn("Avahi or D-Bus not installed: advert not cross-checked", stacklevel=1)
        screen = term.screen()
        for word in ("Not announced", "Task", "Future", "Traceback"):
            assert word not in screen, screen
    finally:
        term.close()


BUS_CONF = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


TUI_HOST = """
import asyncio
from rattus_net.cli.signals import goodbyes_on_signals
from rattus_net.net.lobby import TableOptions
from rattus_net.net.tables import HostLobby

async def main():
    lobby = HostLobby("Tui", TableOptions(2), "Hana", port=47002)
    await lobby.open()
    print("open", flush=True)
    await asyncio.sleep(3600)

with goodbyes_on_signals():  # (what the program's entry point puts around its screen)
    asyncio.run(main())
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_tui_host_stopped_by_a_signal_withdraws_its_table(
    lab: NetnsLab, tmp_path: Path, sig: signal.Signals
) -> None:
    """The TUI's host (its lobby, without the screen) says goodbye before the signal ends it:
    a running browser drops the table at once (not after the ~20 s of a vanished host)."""
    watcher = lab.popen(1, [sys.executable, "-c", WATCHER], env=env_for(tmp_path / "w"))
    host = lab.popen(0, [sys.executable, "-c", TUI_HOST], env=env_for(tmp_path / "h"))
    assert host.stdout is not None and host.stdout.readline().strip() == "open"
    wait_tables(watcher, lambda seen: len(seen) == 1, 20)
    host.send_signal(sig)
    assert host.wait(10) == -sig  # the signal still ends it, as it would have
    gone = wait_tables(watcher, lambda seen: not seen, 8)
    print(f"a TUI host's table left the running browser {gone:.1f} s after {sig.name}")
    watcher.kill()
