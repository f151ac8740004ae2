"""`rattus web` over plain HTTP and its websocket, no browser: the real command, its game
processes watched in ``/proc``.

It answers only to its own names (no DNS rebinding: another Host is refused with 421, another
site's page with 403); each game runs with the limits given on the command line; a second
login under the same name ends the first game cleanly; and SIGTERM ends every game the server
started, even one that cannot quit by itself.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import aiohttp
import pytest
from ssh.sshlib import descendants, limits_of, terminate

from rattus_net.serve.limits import MIB
from web.webserver import WebServer

pytestmark = pytest.mark.slow  # processes

MENU = b"Play against bots"


def client() -> aiohttp.ClientSession:
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def login(http: aiohttp.ClientSession, server: WebServer, name: str, **form: str) -> None:
    async with http.post(f"{server.url}/login", data={"name": name, **form}) as r:
        assert r.status == 200 and r.url.path == "/play", await r.text()


async def until_menu(ws: aiohttp.ClientWebSocketResponse) -> None:
    seen = b""
    while MENU not in seen:
        msg = await asyncio.wait_for(ws.receive(), 60)
        assert msg.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), msg
        if msg.type == aiohttp.WSMsgType.BINARY:
            seen += msg.data


def test_only_requests_for_its_own_names_from_its_own_pages_are_answered(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    server = WebServer(tmp_path / "state", "--allow-host", "games.example.org")
    servers.append(server)
    port = server.port
    foreign = f"rebind.example:{port}"

    async def scenario() -> None:
        async with client() as http:

            async def status(method: str, path: str, **headers: str) -> int:
                async with http.request(
                    method, server.url + path, headers=headers, allow_redirects=False
                ) as r:
                    return r.status

            assert await status("GET", "/") == 200
            assert await status("GET", "/", Host=f"localhost:{port}") == 200
            assert await status("GET", "/", Host=f"[::1]:{port}") == 200
            assert await status("GET", "/", Host="games.example.org") == 200  # --allow-host
            assert await status("GET", "/", Host=foreign) == 421
            assert await status("GET", "/static/js/textual.js", Host=foreign) == 421
            assert await status("POST", "/login", Host=foreign) == 421
            # a form posted, or a websocket opened, by another site's page
            assert await status("POST", "/login", Origin=f"http://{foreign}") == 403
            assert await status("POST", "/login", Origin="null") == 403
            await login(http, server, "gwen")
            for headers, refused in (
                ({"Origin": f"http://{foreign}"}, 403),
                ({"Host": foreign}, 421),
            ):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
                    await http.ws_connect(f"{server.url}/ws", headers=headers)
                assert refusal.value.status == refused
            assert not server.games()
            own = {"Origin": server.url}
            async with http.ws_connect(f"{server.url}/ws", headers=own) as ws:
                await until_menu(ws)

    asyncio.run(scenario())
    log = server.log()
    assert f"refused '{foreign}' from 127.0.0.1: a request for another name" in log
    assert f"refused 'http://{foreign}' from 127.0.0.1: a request from another site's" in log


def test_games_run_with_the_limits_and_stopping_the_server_ends_them_all(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    """The game cannot quit when asked (stopped): SIGTERM to the server still ends it, and the
    server leaves no process behind."""
    server = WebServer(tmp_path / "state", "--session-memory", "300", "--session-nice", "7")
    servers.append(server)
    started: set[int] = set()

    async def scenario() -> None:
        async with client() as http:
            await login(http, server, "gwen")
            async with http.ws_connect(f"{server.url}/ws") as ws:
                await until_menu(ws)
                [game] = server.games()
                assert limits_of(game) == (f"{300 * MIB} {300 * MIB}", 7)
                started.update(descendants(server.proc.pid))
                os.kill(game, signal.SIGSTOP)
                server.proc.send_signal(signal.SIGTERM)
                await asyncio.get_running_loop().run_in_executor(None, server.proc.wait, 60)

    asyncio.run(scenario())
    assert len(started) == 2  # the preloaded parent and the game
    assert [pid for pid in started if Path(f"/proc/{pid}").exists()] == []
    assert server.proc.returncode == 0
    assert "Traceback" not in server.log() and "gwen has left" in server.log()


def test_a_second_login_ends_the_first_game_cleanly(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    from rattus_net.web.players import PlayersFile

    players = tmp_path / "players"
    PlayersFile(players).add("ann", "ann-secret-1")
    server = WebServer(tmp_path / "state", "--players", str(players))
    servers.append(server)

    async def scenario() -> None:
        async with client() as first, client() as second:
            await login(first, server, "ann", password="ann-secret-1")
            async with first.ws_connect(f"{server.url}/ws") as old:
                await until_menu(old)
                [old_game] = server.games()
                # (a login voids the older ones: the second comes while the first plays)
                await login(second, server, "ann", password="ann-secret-1")
                async with second.ws_connect(f"{server.url}/ws") as new:
                    await until_menu(new)
                    while not old.closed:  # what it had drawn, then its close
                        await asyncio.wait_for(old.receive(), 10)
                    [game] = server.games()
                    assert game != old_game and not Path(f"/proc/{old_game}").exists()

    asyncio.run(scenario())
    terminate(server.proc, 20)
    log = server.log()
    assert "Traceback" not in log and "RuntimeError" not in log
    assert log.count("ann has left") == 2
