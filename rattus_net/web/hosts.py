"""The names this web server answers to: a guard against DNS rebinding.

A page of any site a person on this machine (or this LAN) visits can make its own name resolve
to this server's address, then talk to the server as if it were that site: open a guest game
here and, through it, use this machine's network. Its requests still carry that site's name
(the Host header, and the Origin of its scripts' requests), so the server answers only requests
for its own names:

- the listen address as given (``127.0.0.1``, ``192.168.1.5``, a host name);
- on loopback: ``localhost`` and the loopback addresses;
- listening on every address: any address written as numbers (a browser sends one only when
  that is where it connected, so no other site can name it), ``localhost``, and this machine's
  host name (and its ``.local`` name on the LAN);
- the names given with ``--allow-host`` (a reverse proxy's public name, say).

Another Host is refused with 421 (not this server's), a browser request from another site's
page (its Origin) with 403. Pure functions of the headers, tested without a server.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

WILDCARDS = ("", "0.0.0.0", "::")


def host_name(host: str) -> str:
    """The name in a Host header or an Origin's host part, without its port, brackets or
    trailing dot, in lower case; ``""`` if there is none."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else ""
    name, colon, port = host.rpartition(":")
    if colon and port.isdigit() and ":" not in name:
        host = name
    return host.rstrip(".")


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return None


class AllowedHosts:
    """The names a server listening on ``listen`` answers to, and ``extra`` ones."""

    def __init__(self, listen: str, extra: Iterable[str] = ()) -> None:
        listen = host_name(listen)
        self.wildcard = listen in WILDCARDS
        self.names = {host_name(name) for name in extra} - {""}
        address = _address(listen)
        self.loopback = self.wildcard or (address is not None and address.is_loopback)
        if listen and not self.wildcard:
            self.names.add(str(address) if address is not None else listen)
        if self.loopback:
            self.names.add("localhost")
        if self.wildcard:
            machine = host_name(socket.gethostname())
            self.names |= {machine, f"{machine}.local"} - {"", ".local"}

    def allows(self, host: str) -> bool:
        """Whether a request for ``host`` (a Host header) is for this server."""
        name = host_name(host)
        if name in self.names:
            return True
        address = _address(name)
        if address is None:
            return False
        if self.wildcard or (self.loopback and address.is_loopback):
            return True
        return str(address) in self.names

    def allows_origin(self, origin: str) -> bool:
        """Whether a browser request from a page of ``origin`` (an Origin header) comes from
        this server's own pages (``null``, a page of no site, does not)."""
        try:
            parts = urlsplit(origin.strip())
        except ValueError:
            return False
        return parts.scheme in ("http", "https") and self.allows(parts.netloc)
