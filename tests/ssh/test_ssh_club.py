"""`rattus serve` for a club, with the real OpenSSH client: every refusal said in words the
client shows (an authentication banner, or a disconnect's reason) and in one line of the
server's log; fair shares per key (names held, games running); a name claimed when its owner
first opens a game, not at login; typed addresses only where the server allows them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from ssh.sshlib import Pane, Server, Servers, keygen

pytestmark = pytest.mark.slow  # processes, SSH or a browser

MENU = r"Play against bots"


def attempt(server: Server, key: Path, user: str, *command: str) -> str:
    """Log in (no terminal) and return what the client printed on stderr; it must fail."""
    done = server.login(key, user, "-T", "-o", "LogLevel=INFO", command=command)
    assert done.returncode != 0, done
    return done.stderr + done.stdout


def test_every_refusal_is_said_to_the_client_and_logged(tmp_path: Path, serve: Servers) -> None:
    one, two, three = (keygen(tmp_path / n) for n in ("one", "two", "three"))
    server = Server(
        tmp_path / "state",
        "--max-sessions", "2", "--names-per-key", "2", "--sessions-per-key", "1",
    )  # fmt: skip
    serve.append(server)
    names = tmp_path / "state" / "names.json"
    ann = Pane(server.ssh(one, "ann", "-tt"))
    try:
        ann.wait_for(MENU)
        assert json.loads(names.read_text()) == {"ann": server_key(one)}

        said = attempt(server, one, "bea")  # the same key, a second game at once
        assert "rattus: this key has 1 games running here already" in said
        server.wait_line(r"refused 'bea' from 127\.0\.0\.1: this key has 1 games running")

        said = attempt(server, two, "ann")  # a key that does not own the name
        assert "rattus: the name ann belongs to another key here: choose another" in said
        server.wait_line(r"refused 'ann' from 127\.0\.0\.1: the name ann belongs to another key")

        said = attempt(server, two, "../etc")  # not a name at all
        assert "rattus: '../etc' cannot be a player name here" in said
        server.wait_line(r"refused '\.\./etc' from 127\.0\.0\.1: '\.\./etc' cannot be a player")

        # logging in claims nothing: a command is not a game
        listed = subprocess.run(
            server.ssh(three, "gus", command=("records",)), capture_output=True, text=True
        )
        assert listed.returncode == 0 and "No game records here yet." in listed.stdout
        nope = subprocess.run(
            server.ssh(three, "gus", command=("record", "nope")), capture_output=True, text=True
        )
        assert nope.returncode == 1 and nope.stdout == ""
        assert "there is no record 'nope' here (records lists yours)" in nope.stderr
        assert "gus" not in json.loads(names.read_text())

        cid = Pane(server.ssh(two, "cid", "-tt"))
        try:
            cid.wait_for(MENU)
            said = attempt(server, three, "dan")  # two games running: the server is full
            assert "rattus: the server is full (2 games running): try again later" in said
            server.wait_line(r"refused 'dan' from 127\.0\.0\.1: the server is full")
            # a served player types no address to join: he is shown the listed tables only
            cid.send("j")
            cid.wait_for(r"JOIN A TABLE")
            cid.wait_for(r"not typed addresses")
            assert "Address typed by hand" not in cid.screen()
        finally:
            cid.close()
    finally:
        ann.close()
    server.wait_line(r"(ann|cid) has left")  # (in either order)
    server.wait_line(r"(ann|cid) has left")
    bea = Pane(server.ssh(one, "bea", "-tt"))  # the key's second name: still its share
    try:
        bea.wait_for(MENU)
    finally:
        bea.close()
    server.wait_line(r"bea has left")
    said = attempt(server, one, "eve")  # a third name for the same key: one too many
    assert "rattus: this key holds 2 names here already (ann, bea), the most one key may" in said
    server.wait_line(r"refused 'eve' from 127\.0\.0\.1: this key holds 2 names here already")
    assert sorted(json.loads(names.read_text())) == ["ann", "bea", "cid"]


def server_key(path: Path) -> str:
    """The SHA256 fingerprint of a key as ``ssh-keygen -l`` (and the server) show it."""
    out = subprocess.run(
        ["ssh-keygen", "-l", "-f", f"{path}.pub"], capture_output=True, text=True, check=True
    )
    return out.stdout.split()[1]


def test_too_many_connections_from_one_address_are_turned_away_in_words(
    tmp_path: Path, serve: Servers
) -> None:
    key = keygen(tmp_path / "k")
    server = serve.start("--per-address", "1")
    attempt(server, key, "hal", "nothing")  # the one connection this minute (a bad command)
    said = attempt(server, key, "hal")
    assert "too many connections from your address: try again in a minute" in said
    server.wait_line(r"refused .hal. from 127\.0\.0\.1: too many connections from your address")


def test_a_typed_address_is_offered_only_where_the_server_allows_it(
    tmp_path: Path, serve: Servers
) -> None:
    key = keygen(tmp_path / "k")
    server = serve.start("--allow-join-address")
    pane = Pane(server.ssh(key, "ida", "-tt"))
    try:
        pane.wait_for(MENU)
        pane.send("j")
        pane.wait_for(r"Address typed by hand \(HOST:PORT\)")
    finally:
        pane.close()
