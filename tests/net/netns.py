"""A private LAN made of network namespaces, for real mDNS and TCP between "machines".

Layout: one *switch* namespace holding a bridge, and ``n`` host namespaces, each with an
``eth0`` veth whose other end is plugged into the bridge. Hosts get 10.77.0.(i+1)/24. No link
touches the root namespace, so nothing a test sends can leave the lab (the safety rule: only
loopback or namespaces we create). Names carry the pid, so parallel test workers do not
collide, and :meth:`close` always deletes every namespace (which deletes their links) and
kills every process started in them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


def netns_available() -> str | None:
    """None if we can create namespaces here, else the reason why not (for a skip)."""
    if sys.platform != "linux":
        return "network namespaces need Linux"
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is not installed"
    if os.geteuid() != 0:
        return "creating network namespaces needs root"
    name = f"rtn{os.getpid()}probe"
    probe = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if probe.returncode != 0:
        return f"ip netns add failed: {probe.stderr.strip()}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


class NetnsLab:
    """``with NetnsLab(3) as lab: lab.popen(0, [...])``; ``lab.addr(i)`` is host i's IPv4."""

    def __init__(self, hosts: int, tag: str = "") -> None:
        self.prefix = f"rtn{os.getpid()}{tag}"
        self.switch = f"{self.prefix}sw"
        self.hosts = [f"{self.prefix}h{i}" for i in range(hosts)]
        self.procs: list[subprocess.Popen[str]] = []

    def addr(self, i: int) -> str:
        return f"10.77.0.{i + 1}"

    def __enter__(self) -> NetnsLab:
        try:
            self._build()
        except BaseException:
            self.close()
            raise
        return self

    def _build(self) -> None:
        _ip("netns", "add", self.switch)
        _ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        _ip("-n", self.switch, "link", "set", "br0", "up")
        for i, ns in enumerate(self.hosts):
            _ip("netns", "add", ns)
            port = f"p{i}"
            _ip("link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", port,
                "netns", self.switch)  # fmt: skip
            _ip("-n", self.switch, "link", "set", port, "master", "br0")
            _ip("-n", self.switch, "link", "set", port, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "addr", "add", f"{self.addr(i)}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")
            _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")

    def popen(
        self,
        host: int,
        argv: Sequence[str],
        *,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        stdout: int | None = subprocess.PIPE,
    ) -> subprocess.Popen[str]:
        """Start ``argv`` inside host ``host``'s namespace (killed at :meth:`close`)."""
        proc = subprocess.Popen(
            ["ip", "netns", "exec", self.hosts[host], *argv],
            env=env,
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.procs.append(proc)
        return proc

    def run(
        self, host: int, argv: Sequence[str], *, timeout: float, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["ip", "netns", "exec", self.hosts[host], *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def close(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            with contextlib.suppress(Exception):
                proc.communicate(timeout=5)
        for ns in [*self.hosts, self.switch]:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)

    def __exit__(self, *exc: object) -> None:
        self.close()
