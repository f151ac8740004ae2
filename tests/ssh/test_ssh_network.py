"""Two players, each with nothing but an ssh client, play a network game on one server: one
hosts a table from the menu, the other joins it by address, a bot takes the third seat, the
game is played to its end through the dialogs, and both players' records are the same and
verify as fair. On the way the guest's connection drops; he logs in again and the menu takes
him back to his seat."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from protocol.record import verify_record
from ssh.sshlib import Pane, Server, keygen, keys_for_screen

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


def open_a_table(pane: Pane) -> int:
    """From the menu: host a table of three with the defaults; returns its port."""
    pane.wait_for(r"Play against bots")
    pane.send("h")
    pane.wait_for(r"HOST A TABLE")
    for _ in range(10):  # every row as offered (your name: the SSH user name), down to:
        screen = pane.screen()
        if "> Open the table" in screen:
            break
        pane.send("Down")
        pane.wait_change(screen, 3)
    pane.send("Enter")
    return int(pane.wait_for(r"Others join at [^\s,]+:(\d+)").group(1))


def join_the_table(pane: Pane, port: int) -> None:
    pane.wait_for(r"Play against bots")
    pane.send("j")
    pane.wait_for(r"Address typed by hand")
    pane.send("Down")  # your name as offered (the SSH user name); the colour row
    time.sleep(0.2)
    pane.send("Down")  # the address row
    address = f"127.0.0.1:{port}"
    for _ in range(20):  # the field takes the keys once it has the focus
        pane.type(address)
        time.sleep(0.3)
        if address in pane.screen():
            break
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
            assert "THE GAME STOPPED" not in screen, screen
            if until in screen or i in done:
                done.add(i)
                continue
            keys = keys_for_screen(screen)
            if keys is not None:
                pane.send(*keys)
                pane.wait_change(screen, 1)
        time.sleep(0.02)


def test_two_ssh_players_and_a_bot_play_a_network_game_to_a_fair_end(
    tmp_path: Path, serve: list[Server]
) -> None:
    alice, bob = keygen(tmp_path / "alice"), keygen(tmp_path / "bob")
    server = Server(tmp_path / "state")
    serve.append(server)
    host = Pane(server.ssh(alice, "alice", "-tt"), cols=100, rows=32)
    guest = Pane(server.ssh(bob, "bob", "-tt"), cols=100, rows=32)
    try:
        port = open_a_table(host)
        join_the_table(guest, port)
        host.wait_for(r"Seat 2\s+Bob\b")
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
            r"> Back to the network game \(Rattus Cartus at .Alice's table., you are Bob\)"
        )
        guest.send("Enter")
        play_to_the_end([host, guest])
        for pane in (host, guest):
            pane.wait_for(r"Verification: FAIR", 60)
    finally:
        host.close()
        guest.close()
    players = tmp_path / "state" / "players"
    records = [
        next((players / name / "data" / "games").glob("*/seat-*/record.rattus")).read_bytes()
        for name in ("alice", "bob")
    ]
    assert records[0] == records[1]
    verdict = verify_record(records[0])
    assert verdict.fair, verdict.reason
    assert [p.lower() for p in verdict.players][:2] == ["alice", "bob"]
