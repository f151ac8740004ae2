"""The names `rattus web` answers to (DNS rebinding), decided from the headers alone."""

from __future__ import annotations

import socket

from rattus_net.web.hosts import AllowedHosts, host_name


def test_a_host_header_is_read_as_its_name_alone() -> None:
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1" and host_name("::1") == "::1"
    assert host_name("example.org.") == "example.org" and host_name("[bad") == ""


def test_a_loopback_server_answers_only_to_loopback_names_and_those_given() -> None:
    hosts = AllowedHosts("127.0.0.1", ["Games.Example.org"])
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "games.example.org"):
        assert hosts.allows(host), host
    for host in ("rebind.example:8000", "192.168.1.5:8000", "localhost.example", ""):
        assert not hosts.allows(host), host
    assert hosts.allows_origin("http://localhost:8000")
    assert hosts.allows_origin("https://games.example.org")
    for origin in ("http://rebind.example:8000", "null", "file://", "ftp://localhost"):
        assert not hosts.allows_origin(origin), origin


def test_a_server_on_one_address_answers_to_it_and_on_every_address_to_numbers() -> None:
    lan = AllowedHosts("192.168.1.5")
    assert lan.allows("192.168.1.5:8000")
    assert not lan.allows("localhost:8000") and not lan.allows("10.0.0.1:8000")
    everywhere = AllowedHosts("0.0.0.0")
    machine = socket.gethostname().lower()
    for host in ("10.0.0.1:8000", "[fe80::1]:8000", "localhost", machine, f"{machine}.local"):
        assert everywhere.allows(host), host
    assert not everywhere.allows("rebind.example:8000")
    assert AllowedHosts("myhost.lan").allows("MyHost.lan:8000")
