"""A peer that leaves and comes back keeps the whole table (separate processes, real sockets):
the bot seats a process hosted come back with its seat, a resumed peer whose port was taken
listens on another one and tells the others (signed), and a resumed peer whose game is over
does not wait for peers that already left."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
from pathlib import Path

import pytest

from .procs import (
    GAME_LINE,
    RECORD_LINE,
    assert_fair_game,
    assert_same_fair_records,
    finish,
    host_with_a_bot_seat,
    join_table,
    read_line,
    records_of,
    spawn,
    start_table,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


def test_the_bot_seats_a_process_hosted_come_back_with_it(tmp_path: Path) -> None:
    data = tmp_path / "h"
    host, port = host_with_a_bot_seat("", data)
    guest = join_table(port, tmp_path / "g", "--seed", "2")
    game = {read_line(p, GAME_LINE, 40) for p in (host, guest)}.pop()
    read_line(host, re.compile(r"^(round 4) of 9$"), 90)
    os.kill(host.pid, signal.SIGKILL)  # the host and its bot seat are gone
    host.wait(10)
    back = spawn(["resume", game], data)  # the host's seat (its bot's comes along)
    results = finish([back, guest], 150)
    assert "resumed at seat 1" in results[0][1], results[0]
    assert "the bot seats this seat hosted are back: 1" in results[0][1]
    assert "Robo dropped off the table" in results[1][1] and "Robo is back" in results[1][1]
    records = records_of(results)
    bot_record = next((data / "games" / game).glob("seat-*/record.rattusnet"), None)
    folders = sorted((data / "games" / game).glob("seat-*/record.rattusnet"))
    assert bot_record is not None and len(folders) == 2, folders
    assert_same_fair_records([*records, *(f.read_bytes() for f in folders)][:3], 3)
    assert len({*records, *(f.read_bytes() for f in folders)}) == 1


def seat_of(data: Path, game: str) -> tuple[int, int]:
    """(seat, listening port) of the seat journaled in ``data``."""
    [meta_path] = (data / "games" / game).glob("seat-*/meta.json")
    meta = json.loads(meta_path.read_text())
    return int(meta["seat"]), int(meta["listen"][1])


def test_a_resumed_peer_whose_port_is_taken_listens_on_another(tmp_path: Path) -> None:
    procs, _ = start_table(tmp_path, 3)
    game = {read_line(p, GAME_LINE, 40) for p in procs}.pop()
    # the victim: seat 2 of 3, whom seat 3 dials at its port
    victim = next(i for i in (1, 2) if seat_of(tmp_path / f"g{i}", game)[0] == 1)
    _, taken = seat_of(tmp_path / f"g{victim}", game)
    read_line(procs[victim], re.compile(r"^(round 4) of 9$"), 90)
    os.kill(procs[victim].pid, signal.SIGKILL)
    procs[victim].wait(10)
    squatter = socket.socket()  # another program takes the port meanwhile
    squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    squatter.bind(("0.0.0.0", taken))
    squatter.listen()
    try:
        procs[victim] = spawn(["resume", game], tmp_path / f"g{victim}")
        results = finish(procs, 150)
    finally:
        squatter.close()
    out = results[victim][1]
    assert "resumed at seat 2" in out
    moved = re.search(r"[Pp]ort (\d+) was taken: listening on port (\d+)", out)
    assert moved and int(moved.group(1)) == taken, out
    assert seat_of(tmp_path / f"g{victim}", game)[1] == int(moved.group(2))
    assert_fair_game(results, 3)
    # resumed once more, the game over and the others gone: it ends at once (no lingering)
    again = spawn(["resume", game], tmp_path / f"g{victim}")
    [(rc, out, err)] = finish([again], 10)
    assert rc == 0 and "is already over" in out and RECORD_LINE.search(out), (out, err)


def test_waiting_players_can_wait_longer(tmp_path: Path) -> None:
    """5 minutes by default for a player whose program stopped; each "wait longer" adds 5."""
    from protocol.seeded import seeded_params
    from rattus_net.games.cartus.config import BuildingSelection, GameConfig
    from rattus_net.net.node import STALL_TIMEOUT, PeerNode
    from rattus_net.net.seats import Setup

    config = GameConfig(players=("Ann", "Bob"), buildings=BuildingSelection.random_cards())
    params, secrets = seeded_params(config, 1, "cartus")
    setup = Setup(params, 0, secrets[0]._master, (("127.0.0.1", 1), ("127.0.0.1", 2)))
    node = PeerNode.create(setup, tmp_path)
    assert STALL_TIMEOUT == 300 and node.session.timeout == STALL_TIMEOUT
    gone = node.mesh.down_since[1]  # Bob has not connected (or dropped off) since then
    assert node.stall_left(1, gone + 100) == pytest.approx(200)
    node.session.tick(gone + 301, {1: gone})
    assert node.session.abort is not None  # past 5 minutes: the game ends, naming him
    other = PeerNode(setup, node.journal, node.dir)
    other.mesh.down_since[1] = gone
    other.session.tick(gone + 1, {1: gone})  # (the session's own step clock starts)
    other.wait_longer()
    assert other.stall_left(1, gone + 301) == pytest.approx(299)
    other.session.tick(gone + 301, {1: gone})
    assert other.session.abort is None  # the players chose to wait longer
    node.journal.close()
