"""Real mDNS and TCP between "machines": network namespaces joined by veths and a bridge.

A host in one namespace is found by `rattus tables` in another and joined by name from two
more; the whole game is played across the namespaces. Where avahi-browse and avahi-daemon are
installed, the advert is also checked with Avahi (an independent mDNS implementation).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from .netns import NetnsLab, netns_available
from .procs import assert_same_fair_records, env_for, finish, rattus, read_line, records_of

OPEN_LINE = re.compile(r"open on port (\d+)")


@pytest.fixture
def lab() -> Iterator[NetnsLab]:
    reason = netns_available()
    if reason is not None:
        pytest.skip(f"the LAN test needs network namespaces: {reason}")
    with NetnsLab(3, "g") as lab:
        yield lab


def test_a_table_found_with_zeroconf_is_played_across_namespaces(
    lab: NetnsLab, tmp_path: Path
) -> None:
    host = lab.popen(
        0,
        rattus(
            ["host", "--name", "Cellar", "--players", "3", "--bot", "random", "--port", "47000"]
        ),
        env=env_for(tmp_path / "h"),
    )
    assert read_line(host, OPEN_LINE, 20) == "47000"
    listed = lab.run(1, rattus(["tables", "--json", "--wait", "2"]), timeout=30,
                     env=env_for(tmp_path / "l"))  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    tables = json.loads(listed.stdout)
    assert [(t["name"], t["address"], t["seats_taken"], t["seats_free"]) for t in tables] == [
        ("Cellar", f"{lab.addr(0)}:47000", 1, 2)
    ]
    assert tables[0]["compatible"] and tables[0]["state"] == "open"
    text = lab.run(2, rattus(["tables"]), timeout=30, env=env_for(tmp_path / "l"))
    assert "Cellar" in text.stdout and "1/3 seated" in text.stdout
    if shutil.which("avahi-browse") and shutil.which("avahi-daemon"):
        check_with_avahi(lab, tmp_path)
    else:  # optional by design: .ci/run installs it; say so when it is missing
        warnings.warn("avahi-utils not installed: advert not cross-checked", stacklevel=1)
    guests = [
        lab.popen(
            i,
            rattus(["join", "--table", "Cellar", "--bot", "random"]),
            env=env_for(tmp_path / f"g{i}"),
        )
        for i in (1, 2)
    ]
    results = finish([host, *guests], 150)
    assert_same_fair_records(records_of(results), 3)


def check_with_avahi(lab: NetnsLab, tmp_path: Path) -> None:
    """Avahi, run in its own namespace, sees the same advert (TXT fields included)."""
    conf = tmp_path / "avahi-daemon.conf"
    conf.write_text("[server]\nuse-ipv6=no\nenable-dbus=yes\n[publish]\ndisable-publishing=yes\n")
    # avahi-daemon needs its own D-Bus system bus; inside the namespace we share the host's
    # filesystem, so only try where a system bus is running.
    if not Path("/run/dbus/system_bus_socket").exists():
        warnings.warn("no D-Bus system bus: advert not cross-checked with Avahi", stacklevel=1)
        return
    daemon = lab.popen(1, ["avahi-daemon", "--no-drop-root", "--no-chroot", "-f", str(conf)])
    try:
        time.sleep(2)
        out = lab.run(1, ["avahi-browse", "-rtp", "_rattus._tcp"], timeout=20)
        assert daemon.poll() is None, "avahi-daemon did not start in the namespace"
        assert "Cellar" in out.stdout and "fp=" in out.stdout, out.stdout + out.stderr
    finally:
        daemon.terminate()
        subprocess.run(["true"])
