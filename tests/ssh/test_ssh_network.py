"""Two players, each with nothing but an ssh client, play a network game on one server: one
hosts a table from the menu, the other joins it from the list of the server's tables (a
served player types no address), a bot takes the third seat, the game is played to its end
through the dialogs, and both players' records are the same and verify as fair. Each sits
under his login (the name is shown, not editable); the table listens only on the server's
own address. On the way the guest's connection drops; he logs in again and the menu takes
him back to his seat. The end screen names the command that fetches the record, and that
command (and ``records``) gives it."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest

from protocol.verify import verify_record
from ssh.sshlib import Pane, Servers, keygen, keys_until

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


def open_a_table(pane: Pane) -> int:
    """From the menu: host a table of three with the defaults; returns its port."""
    pane.wait_for(r"Play against bots")
    pane.send("h")
    pane.wait_for(r"HOST A TABLE")
    # the name is the login: shown, and no row of the form edits it
    pane.wait_for(r"Your name \(your login on this server\)[^A-Za-z]*Alice\b")
    for _ in range(10):  # every row as offered, down to:
        screen = pane.screen()
        if "> Open the table" in screen:
            break
        pane.send("Down")
        pane.wait_change(screen, 3)
    pane.send("Enter")
    return int(pane.wait_for(r"Others join at [^\s,]+:(\d+)").group(1))


def join_the_table(pane: Pane, port: int) -> None:
    """From the menu: join the table listed as hosted on this server (no address typed)."""
    pane.wait_for(r"Play against bots")
    pane.send("j")
    pane.wait_for(rf"Alice's table\s+Rattus Cartus\s+127\.0\.0\.1:{port}")
    screen = pane.screen()
    assert "Address typed by hand" not in screen and "not typed addresses" in screen
    pane.type("Mallory")  # no name field takes keys
    pane.send("Down")  # from the colour row to the table
    pane.wait_for(r"> Alice's table")
    assert "Mallory" not in pane.screen()
    pane.send("Enter")
    pane.wait_for(rf"Host 127\.0\.0\.1:{port}")


def play_to_the_end(panes: list[Pane], seconds: float = 300, until: str = "GAME OVER") -> None:
    """Take every decision shown in any pane until every one shows ``until``."""
    deadline = time.monotonic() + seconds
    done: set[int] = set()
    while len(done) < len(panes):
        assert time.monotonic() < deadline, "\n\n".join(p.screen() for p in panes)
        for i, pane in enumerate(panes):
            screen = pane.screen()
            # ("Not allowed" may show for a moment: an Enter meant for the table can reach a
            # dialog that opened meanwhile; the dialog is then simply decided again)
            keys = keys_until(screen, until, i, done)
            if keys is not None:
                pane.send(*keys)
                pane.wait_change(screen, 1)
        time.sleep(0.02)


def test_two_ssh_players_and_a_bot_play_a_network_game_to_a_fair_end(
    tmp_path: Path, serve: Servers
) -> None:
    alice, bob = keygen(tmp_path / "alice"), keygen(tmp_path / "bob")
    server = serve.start()
    host = Pane(server.ssh(alice, "Alice", "-tt"), cols=100, rows=32)
    guest = Pane(server.ssh(bob, "bob", "-tt"), cols=100, rows=32)
    try:
        port = open_a_table(host)
        # the table listens on the server's own address (127.0.0.1), not on every one
        with pytest.raises(ConnectionRefusedError), socket.socket() as probe:
            probe.connect(("127.0.0.2", port))
        join_the_table(guest, port)
        host.wait_for(r"Seat 1\s+Alice\b")
        host.wait_for(r"Seat 2\s+bob\b")
        for _ in range(5):  # an easy (random) bot: quick to think
            if "add a bot (easy" in host.screen():
                break
            host.send("k")
            time.sleep(0.1)
        host.send("b")  # a bot takes the third seat
        host.wait_for(r"Seat 3 .*\(bot: ")
        host.send("Space")
        guest.send("Space")
        play_to_the_end([host, guest], until="Round 3/")
        guest.kill_client()  # Bob's connection drops in round 3; his seat waits for him
        guest.close()
        guest = Pane(server.ssh(bob, "bob", "-tt"), cols=100, rows=32)
        guest.wait_for(
            r"> Back to the network game \(Rattus Cartus at .Alice's table., you are bob\)"
        )
        guest.send("Enter")
        play_to_the_end([host, guest])
        for pane in (host, guest):
            pane.wait_for(r"Verification: FAIR", 60)
        # the end screen names the command that fetches the record, not a server path
        command = guest.wait_for(
            r"Record: (ssh -p \d+ bob@127\.0\.0\.1 record ([0-9a-f]{16})) > game\.rattusnet"
        )
        assert "state/players" not in guest.screen()
    finally:
        host.close()
        guest.close()
    players = tmp_path / "state" / "players"
    records = [
        next((players / name / "data" / "games").glob("*/seat-*/record.rattusnet")).read_bytes()
        for name in ("alice", "bob")
    ]
    assert records[0] == records[1]
    # what the end screen said, run as it says (with this test's key and options)
    fetched = subprocess.run(
        server.ssh(bob, "bob", command=("record", command.group(2))),
        capture_output=True,
        timeout=30,
    )
    assert fetched.returncode == 0 and fetched.stdout == records[1]
    listed = server.login(bob, "bob", command=("records",))
    assert listed.returncode == 0 and command.group(2) in listed.stdout
    server.wait_line(r"bob ran 'records'")
    verdict = verify_record(records[0])
    assert verdict.fair, verdict.reason
    assert [p.lower() for p in verdict.players][:2] == ["alice", "bob"]
