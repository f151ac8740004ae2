"""Which addresses announced on the LAN a served game may connect to.

A served player's game (``rattus serve``, ``rattus web``) runs on the server's machine, and it
joins a LAN table by connecting to the address in the table's advert. Anyone on the LAN can
announce anything, so taken as it comes an advert would make the server connect wherever it
says: ``127.0.0.1:22``, a host of another network the server is on. A served game that may not
type addresses (:class:`~rattus_net.net.served.Served`) keeps an advert's address only if it
lies on the subnet of the interface the advert came in on, and is none of loopback,
link-local, multicast, unspecified, or one of the server's own addresses.

The interface an advert came in on is the one whose subnet holds the sender of the mDNS
packet that carried its address record (:class:`SourceWatch` notes each one); an address whose
packet was not seen is refused. (A sender that forges its packets' source on the LAN could
still name another of the server's subnets: the rule bounds what a LAN can reach, it is not
a firewall.)
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import ifaddr
from zeroconf import RecordUpdate, RecordUpdateListener, Zeroconf

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
ADDRESS_TYPES = (1, 28)
"""DNS record types A and AAAA."""
MAX_SOURCES = 4096
"""Address records remembered with their sender (a flood of them forgets the oldest)."""


@dataclass(frozen=True, slots=True)
class Interface:
    """One address of this machine, with its subnet."""

    address: IPAddress
    network: IPNetwork

    @classmethod
    def of(cls, text: str) -> Interface:
        """``"10.0.0.5/24"``: the address and its subnet."""
        iface = ipaddress.ip_interface(text)
        return cls(iface.ip, iface.network)


def local_interfaces() -> list[Interface]:
    """Every address of this machine with its subnet (IPv6 scopes dropped)."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            host = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            try:
                found.append(Interface.of(f"{host.split('%')[0]}/{ip.network_prefix}"))
            except ValueError:
                continue
    return found


def _address(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None


def why_refused(address: str, source: str | None, interfaces: Sequence[Interface]) -> str | None:
    """Why a served game may not connect to ``address``, announced in an mDNS packet from
    ``source`` (``None``: not seen), with this machine's ``interfaces``; ``None`` if it may."""
    ip = _address(address)
    if ip is None:
        return "not an address"
    if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
        return "a loopback, link-local, multicast or unspecified address"
    if any(i.address == ip for i in interfaces):
        return "one of this server's own addresses"
    sender = _address(source) if source is not None else None
    if sender is None:
        return "announced by no packet seen here"
    arrived = [i for i in interfaces if sender in i.network and not i.address.is_loopback]
    if not arrived:
        return "announced from off this server's networks"
    if not any(ip in i.network for i in arrived):
        return "not on the network it was announced on"
    return None


class SourceWatch(RecordUpdateListener):
    """Notes, for every address record zeroconf receives, who sent the packet that carried
    it: the one fact that says which interface an advert came in on.

    Zeroconf tells its record listeners of each packet's records while its listener still
    holds the packet (``last_message``, whose ``source`` is the sender), so the packet is
    found by the record itself."""

    def __init__(self) -> None:
        self.sources: dict[tuple[str, str], str] = {}  # (host name, address) -> sender

    def source(self, server: str, address: str) -> str | None:
        """Who announced ``address`` for the host name ``server`` (``None``: nobody seen)."""
        return self.sources.get((server.lower(), address))

    def async_update_records(self, zc: Zeroconf, now: float, records: list[RecordUpdate]) -> None:
        for update in records:
            record = update.new
            if record.type not in ADDRESS_TYPES:
                continue
            address = _address_text(getattr(record, "address", b""))
            sender = _sender(zc, record)
            if sender is None or address is None:
                continue
            key = (record.name.lower(), address)
            self.sources.pop(key, None)
            self.sources[key] = sender
            if len(self.sources) > MAX_SOURCES:
                del self.sources[next(iter(self.sources))]


def _address_text(packed: object) -> str | None:
    if not isinstance(packed, bytes):
        return None
    try:
        return str(ipaddress.ip_address(packed))
    except ValueError:
        return None


def _sender(zc: Zeroconf, record: object) -> str | None:
    protocols: Iterable[object] = getattr(getattr(zc, "engine", None), "protocols", ())
    for protocol in protocols:
        msg = getattr(protocol, "last_message", None)
        if msg is None or not any(r is record for r in msg.answers()):
            continue
        source = getattr(msg, "source", None)
        return str(source[0]) if source else None
    return None
