"""Limits of `rattus serve`: a flood of stalled connections does not keep a real player out; a
connection that asks for no game is dropped; one connection opens one session."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest

from ssh.sshlib import Pane, Servers, keygen, take_a_decision

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games


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
    tmp_path: Path, serve: Servers
) -> None:
    key = keygen(tmp_path / "k")
    server = serve.start("--login-timeout", "4", "--per-address", "20")
    flood = [stalled_connection(server.port) for _ in range(100)]
    # logged in, but asks for no game (ssh -N): dropped too once the login time is up
    idle = subprocess.Popen(
        server.ssh(key, "jack", "-N", "-o", "LogLevel=INFO"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
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
        _, err = idle.communicate(timeout=20)
        assert idle.returncode == 255 and "no game was asked for" in err
    finally:
        idle.kill()
        for s in flood:
            s.close()


def test_one_connection_opens_one_session(tmp_path: Path, serve: Servers) -> None:
    """A player cannot fill the server's game slots from a single connection."""
    import asyncio

    import asyncssh

    key = keygen(tmp_path / "k")
    server = serve.start()

    async def two_sessions() -> tuple[str, str]:
        async with asyncssh.connect(
            "127.0.0.1",
            server.port,
            username="kim",
            client_keys=[str(key)],
            known_hosts=None,
            agent_path=None,
        ) as conn:
            first = await conn.run()  # no terminal: refused with a line, but a session
            try:
                await conn.run()
            except asyncssh.ChannelOpenError as exc:
                return str(first.stdout), exc.reason
            return str(first.stdout), "opened"

    first, second = asyncio.run(two_sessions())
    assert "use ssh -t" in first
    assert second != "opened"
