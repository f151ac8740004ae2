"""`rattus serve` with the real OpenSSH client: the menu over SSH, an offline game that
survives a dropped connection, names owned by keys, the host key, resizes, refusals, limits.

Every client runs in a tmux pane (a real terminal whose screen is read back as text) and logs
in with a key generated for the test; the server listens on loopback only, on a port the
system picks."""

from __future__ import annotations

import re
import stat
import subprocess
import time
from pathlib import Path

import pytest

from ssh.sshlib import Pane, Server, Servers, keygen, parents, take_a_decision

pytestmark = pytest.mark.slow  # processes, namespaces, SSH or whole games

MENU = r"Play against bots"


def test_an_offline_game_survives_a_dropped_connection_and_the_name_is_the_keys(
    tmp_path: Path, serve: Servers
) -> None:
    alice, mallory = keygen(tmp_path / "alice"), keygen(tmp_path / "mallory")
    server = serve.start()
    pane = Pane(server.ssh(alice, "alice", "-tt"))
    try:
        pane.wait_for(MENU)
        pane.send("h")  # the SSH user name is the player's name, fixed
        pane.wait_for(r"Your name \(your login on this server\)[^A-Za-z]*alice\b")
        pane.send("Escape")
        pane.wait_for(MENU)
        pane.send("p")  # a game against bots, offline
        decided = [take_a_decision(pane) for _ in range(4)]
        assert any("Phase B" in s for s in decided) and any("Phase C" in s for s in decided)
        while "Round 2/9" not in pane.screen():
            take_a_decision(pane)
        server.wait_line(r"alice is playing")
        pane.kill_client()  # the connection drops mid-game
        server.wait_line(r"alice has left")
    finally:
        pane.close()
    saves = tmp_path / "state" / "players" / "alice" / "data"
    assert (saves / "offline-cartus.json").is_file()

    again = Pane(server.ssh(alice, "alice", "-tt"))
    try:
        again.wait_for(r"> Continue the saved game of Rattus Cartus \(round 2 of 9, 3 players\)")
        again.send("Enter")
        again.wait_for(r"Round 2/9")
        take_a_decision(again)  # and play goes on
    finally:
        again.close()

    refused = server.login(mallory, "alice", "-tt", "-o", "LogLevel=INFO")
    assert refused.returncode == 255
    assert "the name alice belongs to another key here" in refused.stderr
    assert "Permission denied" in refused.stderr
    # not even with other letters' case: the folder would be the same
    assert server.login(mallory, "ALICE", "-T").returncode == 255


def test_the_host_key_is_made_once_kept_owner_only_and_shown_as_ssh_shows_it(
    tmp_path: Path, serve: Servers
) -> None:
    key = keygen(tmp_path / "k")
    first = Server(tmp_path / "state")
    printed = first.fingerprint
    first.stop()
    host_key = tmp_path / "state" / "host_key_ed25519"
    assert stat.S_IMODE(host_key.stat().st_mode) == 0o600
    second = serve.start()
    assert second.fingerprint == printed and "kept in" in "".join(second.lines)
    seen = second.login(key, "bob", "-T", "-o", "LogLevel=DEBUG")
    assert f"Server host key: ssh-ed25519 {printed}" in seen.stderr


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (here: the games a server runs)."""
    return [kid for kid, parent in parents().items() if parent == pid]


def test_a_resize_reaches_the_app_and_a_stopping_server_says_so(
    tmp_path: Path, serve: Servers
) -> None:
    key = keygen(tmp_path / "k")
    server = serve.start()
    pane = Pane(server.ssh(key, "carol", "-tt"), cols=90, rows=26)

    def footer_on_last_row(rows: int) -> None:
        deadline = time.monotonic() + 15
        while True:  # the app draws its footer on the last row of the window it knows
            lines = pane.screen().splitlines()
            if (
                len(lines) == rows
                and "q Quit" in lines[-1]
                and sum("q Quit" in x for x in lines) == 1
            ):
                return
            assert time.monotonic() < deadline, "\n".join(lines)
            time.sleep(0.05)

    try:
        pane.wait_for(MENU)
        footer_on_last_row(26)
        pane.resize(130, 40)
        footer_on_last_row(40)
        # stopping the server tells the player and ends his game's process
        # the game: forked by the server's preloaded parent (a child of the server)
        [game] = [g for parent in children(server.proc.pid) for g in children(parent)]
        out = server.stop()
        assert server.proc.returncode == 0 and "rattus serve: stopping" in out
        pane.wait_for(r"rattus: the server is stopping \(your game is kept\)")
        assert not Path(f"/proc/{game}").exists()
    finally:
        pane.close()


def test_a_stopping_servers_last_words_wait_for_a_slow_client(
    tmp_path: Path, serve: Servers
) -> None:
    """A client that reads slowly (its window full when the server stops) still gets the
    reason: the exit status goes out at once, the words wait for the window, and the server
    waits for them rather than ending with them unsent."""
    import asyncio

    import asyncssh

    key = keygen(tmp_path / "k")
    server = serve.start()

    class Slow(asyncssh.SSHClientSession[bytes]):
        """Reads nothing until told: the server may send no more than the window."""

        def __init__(self) -> None:
            self.got = bytearray()

        def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:
            chan.pause_reading()

        def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
            self.got += data

    async def session() -> bytes:
        async with asyncssh.connect(
            "127.0.0.1", server.port, username="nell", client_keys=[str(key)],
            known_hosts=None, agent_path=None,
        ) as conn:  # fmt: skip
            chan, slow = await conn.create_session(
                Slow, term_type="xterm", term_size=(90, 26), encoding=None, window=512
            )
            await asyncio.to_thread(server.wait_line, r"nell is playing", 30)
            await asyncio.sleep(3)  # the menu is drawn: more than the window, most unsent
            stopping = asyncio.get_running_loop().run_in_executor(None, server.stop)
            await asyncio.to_thread(server.wait_line, r"stopping", 30)
            await asyncio.to_thread(server.wait_line, r"nell has left", 30)  # hung up
            chan.resume_reading()
            await asyncio.wait_for(chan.wait_closed(), 30)
            await stopping
            return bytes(slow.got)

    got = asyncio.run(session())
    assert b"rattus: the server is stopping (your game is kept)" in got
    assert server.proc.returncode == 0


def test_only_the_game_runs(tmp_path: Path, serve: Servers) -> None:
    """No terminal: one clear line. No commands, no SFTP, no forwarding, no odd names."""
    key = keygen(tmp_path / "k")
    server = serve.start()

    def run(
        *args: str, user: str = "dave", command: tuple[str, ...] = ()
    ) -> subprocess.CompletedProcess[str]:
        return server.login(key, user, *args, command=command)

    no_tty = run("-T")
    assert no_tty.returncode == 1
    assert no_tty.stdout == "rattus: the game needs a terminal: use ssh -t\n"
    command = run("-T", command=("cat", "/etc/passwd"))
    assert command.returncode == 1 and "root:" not in command.stdout
    assert "this server runs the game and two commands: records, record ID" in command.stderr
    with_tty = run("-tt", command=("sh",))
    assert with_tty.returncode == 1 and "runs the game and two commands" in with_tty.stderr
    sftp = run("-s", command=("sftp",))
    assert sftp.returncode != 0 and "subsystem request failed" in sftp.stderr
    tunnel = run("-W", f"127.0.0.1:{server.port}", "-o", "LogLevel=INFO")
    assert tunnel.returncode == 255 and "open failed" in tunnel.stderr
    remote = run("-N", "-R", "0:127.0.0.1:9", "-o", "ExitOnForwardFailure=yes")
    assert remote.returncode == 255
    odd = run("-T", "-o", "LogLevel=INFO", user="../etc")
    assert odd.returncode == 255 and "cannot be a player name here" in odd.stderr
    assert not (tmp_path / "state" / "players").exists()  # nobody got a folder


def test_authorized_keys_and_the_session_limit(tmp_path: Path, serve: Servers) -> None:
    erin, frank, stranger = (keygen(tmp_path / n) for n in ("erin", "frank", "stranger"))
    allowed = tmp_path / "authorized_keys"
    allowed.write_text(Path(f"{erin}.pub").read_text() + Path(f"{frank}.pub").read_text())
    server = serve.start("--authorized-keys", str(allowed), "--max-sessions", "1")
    refused = server.login(stranger, "stranger", "-tt", "-o", "LogLevel=INFO")
    assert refused.returncode == 255 and "Permission denied" in refused.stderr
    assert "this key may not enter here" in refused.stderr
    pane = Pane(server.ssh(erin, "erin", "-tt"))
    try:
        pane.wait_for(MENU)
        full = server.login(
            frank, "frank", "-tt", "-o", "LogLevel=INFO"
        )  # refused at login, in the banner
        assert full.returncode == 255 and "the server is full (1 games running)" in full.stderr
        # the same player coming back takes his own place instead
        again = Pane(server.ssh(erin, "erin", "-tt"))
        try:
            pane.wait_for(r"you logged in again elsewhere")
            again.wait_for(MENU)
        finally:
            again.close()
    finally:
        pane.close()


def test_open_entry_keeps_nothing_and_idle_sessions_close(tmp_path: Path, serve: Servers) -> None:
    owner = keygen(tmp_path / "owner")
    server = serve.start("--open", "--idle-timeout", "3")
    pane = Pane(server.ssh(owner, "gina", "-tt"))  # gina's name is now her key's
    try:
        pane.wait_for(MENU)
    finally:
        pane.close()
    taken = server.login(None, "gina", "-tt", "-o", "LogLevel=INFO")
    assert taken.returncode == 255 and "belongs to a key here" in taken.stderr
    guest = Pane(server.ssh(None, "hugo", "-tt"))
    try:
        guest.wait_for(MENU)
        [folder] = (tmp_path / "state" / "open").iterdir()  # a temporary folder of his own
        assert folder.name.startswith("hugo-")
        # names are the login: another guest may not take the name while hugo plays
        other = server.login(None, "hugo", "-tt")
        assert other.returncode == 1 and "someone plays as hugo here now" in other.stdout
        server.wait_line(r"refused 'hugo' from 127\.0\.0\.1: someone plays as hugo")
        guest.wait_for(r"idle for 3 s: disconnected \(your game is kept\)", 20)
        server.wait_line(r"hugo has left")
    finally:
        guest.close()
    assert not list((tmp_path / "state" / "open").iterdir())  # nothing kept
    assert re.search(r"hugo is playing \(no key, nothing kept\)", "".join(server.lines))
