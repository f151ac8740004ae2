"""A flood of connections that stall in the key exchange does not keep a real player out."""

from __future__ import annotations

import socket
import time
from pathlib import Path

from ssh.sshlib import Pane, Server, keygen, take_a_decision


def stalled_connection(port: int) -> socket.socket:
    """From another loopback address: say hello, then never go on with the key exchange."""
    s = socket.socket()
    s.bind(("127.0.0.2", 0))
    s.connect(("127.0.0.1", port))
    s.sendall(b"SSH-2.0-Stall\r\n")
    return s


def closed_by_server(s: socket.socket, seconds: float) -> bool:
    s.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not s.recv(65536):
                return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return False


def test_a_hundred_stalled_connections_do_not_stop_a_real_player(
    tmp_path: Path, serve: list[Server]
) -> None:
    key = keygen(tmp_path / "k")
    server = Server(tmp_path / "state", "--login-timeout", "4", "--per-address", "20")
    serve.append(server)
    flood = [stalled_connection(server.port) for _ in range(100)]
    try:
        # past 20 a minute, the flooding address is turned away at once
        assert closed_by_server(flood[-1], 5)
        pane = Pane(server.ssh(key, "ivy", "-tt"))
        try:
            pane.wait_for(r"Play against bots")
            pane.send("p")
            for _ in range(3):
                take_a_decision(pane)
            # the first 20 were let in, and are dropped when the login time is up
            assert closed_by_server(flood[0], 10)
            take_a_decision(pane)  # the player is still in the game
        finally:
            pane.close()
    finally:
        for s in flood:
            s.close()
