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
import subprocess
import sys
from pathlib import Path

import pytest

from .procs import (
    GAME_LINE,
    RECORD_LINE,
    assert_same_fair_records,
    env_for,
    finish,
    free_port,
    read_line,
    records_of,
    spawn,
)

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games

OPEN_LINE = re.compile(r"open on port (\d+)")

HOST_WITH_A_BOT = """
import asyncio, sys
from rattus_net.net import play
from rattus_net.net.botseats import BotSeats
from rattus_net.net.lobby import TableOptions

async def main(port):
    bots = BotSeats()  # a bot seat in this process, as a TUI host runs it
    async def bot():
        await asyncio.sleep(1.0)
        await play.join_game(("127.0.0.1", port), bot="random", name="Robo",
                             say=lambda line: None, hosted_by=0)
    bots.start(bot())
    outcome = await play.host_game("Bots", TableOptions(3), bot="random", port=port,
                                   advertise=False, say=lambda line: print(line, flush=True))
    print(play.describe(outcome), flush=True)

asyncio.run(main(int(sys.argv[1])))
"""


def test_the_bot_seats_a_process_hosted_come_back_with_it(tmp_path: Path) -> None:
    port = free_port()
    data = tmp_path / "h"
    host = subprocess.Popen([sys.executable, "-c", HOST_WITH_A_BOT, str(port)], env=env_for(data),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert read_line(host, OPEN_LINE, 20) == str(port)
    guest = spawn(["join", f"127.0.0.1:{port}", "--bot", "random", "--seed", "2"], tmp_path / "g")
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
    port = free_port()
    host = spawn(["host", "--name", "Port", "--players", "3", "--port", str(port), "--bot",
                  "random", "--no-advertise", "--seed", "1"], tmp_path / "h")  # fmt: skip
    assert read_line(host, OPEN_LINE, 20) == str(port)
    guests = [spawn(["join", f"127.0.0.1:{port}", "--bot", "random", "--seed", str(i)],
                    tmp_path / f"g{i}") for i in (1, 2)]  # fmt: skip
    procs = [host, *guests]
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
    assert_same_fair_records(records_of(results), 3)
    # resumed once more, the game over and the others gone: it ends at once (no lingering)
    again = spawn(["resume", game], tmp_path / f"g{victim}")
    [(rc, out, err)] = finish([again], 10)
    assert rc == 0 and "is already over" in out and RECORD_LINE.search(out), (out, err)


def test_waiting_players_can_wait_longer(tmp_path: Path) -> None:
    """5 minutes by default for a player whose program stopped; each "wait longer" adds 5."""
    from protocol.seeded import seeded_params
    from rattus_net.games.cartus.config import BuildingSelection, GameConfig
    from rattus_net.net.node import STALL_TIMEOUT, PeerNode, Setup

    config = GameConfig(players=("Ann", "Bob"), buildings=BuildingSelection.random_cards())
    params, secrets = seeded_params(config, 1, "cartus")
    setup = Setup(params, 0, secrets[0]._master, (("127.0.0.1", 1), ("127.0.0.1", 2)))
    node = PeerNode.create(setup, tmp_path)
    assert STALL_TIMEOUT == 300 and node.session.timeout == STALL_TIMEOUT
    gone = node.down_since[1]  # Bob has not connected (or dropped off) since then
    assert node.stall_left(1, gone + 100) == pytest.approx(200)
    node.session.tick(gone + 301, {1: gone})
    assert node.session.abort is not None  # past 5 minutes: the game ends, naming him
    other = PeerNode(setup, node.journal, node.dir)
    other.down_since[1] = gone
    other.session.tick(gone + 1, {1: gone})  # (the session's own step clock starts)
    other.wait_longer()
    assert other.stall_left(1, gone + 301) == pytest.approx(299)
    other.session.tick(gone + 301, {1: gone})
    assert other.session.abort is None  # the players chose to wait longer
    node.journal.close()
