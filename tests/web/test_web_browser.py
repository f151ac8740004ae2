"""`rattus web` in a real browser: Debian's headless Chromium, driven over the DevTools
protocol, its keys going through the page's terminal client as a person's would.

One guest opens the page, sees the menu and plays an offline game to its end by keys; two
listed players (a players file, passwords) each in a page of his own: one hosts a table, the
other joins it from the list of this server's tables, they play it to its end, both pages say
FAIR, the records kept in their folders are the same and verify, and the end screen's download
brings the record to the browser. A wrong password is refused at the door, in words and in the
log. Screenshots are kept in ``test-artefacts/web/`` (or ``$RATTUS_ARTEFACTS/web``).
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

import pytest
from ssh.sshlib import keys_until

from protocol.verify import verify_record
from web.browser import Browser, Page, have_chromium
from web.webserver import WebServer

ROOT = Path(__file__).resolve().parents[2]
ARTEFACTS = Path(os.environ.get("RATTUS_ARTEFACTS", ROOT / "test-artefacts")) / "web"
MENU = r"Play against bots"

pytestmark = pytest.mark.slow  # processes, SSH or a browser

if not have_chromium():  # pragma: no cover - CI installs it (.ci/run)
    pytest.skip(
        "Chromium is not installed here (apt-get install chromium)", allow_module_level=True
    )


def download_done(folder: Path) -> bool:
    """The browser has finished the record's download into ``folder``: a whole file under its
    name, no part still being written."""
    files = list(folder.iterdir())
    return not any(p.suffix == ".crdownload" for p in files) and any(
        p.suffix == ".rattusnet" and p.stat().st_size > 0 for p in files
    )


async def enter(page: Page, url: str, name: str, password: str | None = None) -> None:
    """Through the door: a name (and a password), then the game's page."""
    await page.goto(url)
    await page.evaluate("document.getElementById('name').focus()")
    await page.type(name)
    if password is not None:
        await page.evaluate("document.getElementById('password').focus()")
        await page.type(password)
    await page.evaluate("document.getElementById('enter').click()")
    await page.wait_js(  # the game's page, or the door again saying why not
        "document.readyState === 'complete'"
        " && (location.pathname === '/play' || !!document.getElementById('why'))"
    )


async def play_to_the_end(pages: list[Page], until: str, seconds: float = 300) -> None:
    """Take every decision shown in any page until every page shows ``until``."""
    deadline = time.monotonic() + seconds
    done: set[int] = set()
    while len(done) < len(pages):
        for i, page in enumerate(pages):
            keys = keys_until(await page.text(), until, i, done)
            if keys is not None:
                await page.press(*keys)
                await asyncio.sleep(0.15)
        assert time.monotonic() < deadline, "\n\n".join([await p.text() for p in pages])
        await asyncio.sleep(0.05)


def test_a_guest_plays_an_offline_game_to_its_end_in_the_browser(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    server = WebServer(tmp_path / "state")
    servers.append(server)

    async def scenario() -> None:
        async with Browser(tmp_path / "profile") as browser:
            page = await browser.page()
            await enter(page, server.page, "gwen")
            await page.wait_for(MENU)
            await page.screenshot(ARTEFACTS / "menu.png")
            # past the game: 2 players, the easiest bots
            await page.press("Down", "Down", "Left", "Down", "Left")
            await page.wait_for(r"Players\s+< 2 >")
            await page.press("p")
            await play_to_the_end([page], "GAME OVER")
            await page.wait_for(r"GAME OVER")
            await page.screenshot(ARTEFACTS / "offline-end.png")
            await page.press("q")  # the game is left with q, and its page says so
            await page.wait_js("document.body.classList.contains('-closed')")
            await page.close()

    asyncio.run(scenario())
    assert re.search(r"gwen is playing \(guest\)", server.log())
    server.wait_line(r"gwen has left")
    assert not list((tmp_path / "state" / "web-guests").iterdir())  # nothing kept


def test_two_listed_players_host_and_join_a_table_in_two_pages(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    from rattus_net.web.players import PlayersFile

    players = tmp_path / "players"
    for name in ("Ann", "bob"):
        PlayersFile(players).add(name, f"{name.lower()}-secret-1")
    server = WebServer(tmp_path / "state", "--players", str(players))
    servers.append(server)
    downloads = tmp_path / "downloads"
    downloads.mkdir()

    async def scenario() -> None:
        async with Browser(tmp_path / "profile") as browser:
            stranger = await browser.page()
            await enter(stranger, server.page, "bob", "not-his-password")
            said = await stranger.text()
            assert "that name is not a player's here, or the password is not his" in said
            await stranger.close()

            host, guest = await browser.page(), await browser.page()
            await guest.call(
                "Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads)
            )
            await enter(host, server.page, "ann", "ann-secret-1")
            await enter(guest, server.page, "bob", "bob-secret-1")
            await host.wait_for(MENU)
            await host.press("h")
            await host.wait_for(r"Your name \(your login on this server\)")
            await host.wait_for(r"\bAnn\b")  # the name in the players file
            for _ in range(12):  # down the form to "Open the table"; two players
                screen = await host.text()
                if "> Open the table" in screen:
                    break
                if "> Players" in screen and "< 2 >" not in screen:
                    await host.press("Left")
                else:
                    await host.press("Down")
                await asyncio.sleep(0.15)
            await host.press("Enter")
            port = (await host.wait_for(r"Others join at [^\s,]+:(\d+)")).group(1)
            await guest.wait_for(MENU)
            await guest.press("j")
            await guest.wait_for(rf"Ann's table\s+Rattus Cartus\s+127\.0\.0\.1:{port}")
            await guest.screenshot(ARTEFACTS / "join.png")
            await guest.press("Down", "Enter")
            await host.wait_for(r"Seat 2\s+bob\b")
            await host.screenshot(ARTEFACTS / "lobby.png")
            await host.press("Space")
            await guest.press("Space")
            await play_to_the_end([host, guest], "GAME OVER")
            for page in (host, guest):
                await page.wait_for(r"Verification: FAIR", 90)
            await guest.wait_for(r"Record: d on this screen downloads it")
            await guest.screenshot(ARTEFACTS / "network-end.png")
            await guest.press("d")
            deadline = time.monotonic() + 30
            while not download_done(downloads):  # (the browser writes it, then names it)
                assert time.monotonic() < deadline, (list(downloads.iterdir()), server.log())
                await asyncio.sleep(0.1)
            for page in (host, guest):
                await page.close()

    asyncio.run(scenario())
    folders = tmp_path / "state" / "players"
    records = [
        next((folders / name / "data" / "games").glob("*/seat-*/record.rattusnet")).read_bytes()
        for name in ("ann", "bob")
    ]
    assert records[0] == records[1]
    [downloaded] = [p for p in downloads.iterdir() if p.suffix == ".rattusnet"]
    assert downloaded.read_bytes() == records[1]
    verdict = verify_record(records[0])
    assert verdict.fair, verdict.reason
    assert [p.lower() for p in verdict.players] == ["ann", "bob"]
    log = server.log()
    assert "refused 'bob' from 127.0.0.1: that name is not a player's here" in log
    assert "Ann is playing (kept)" in log


COPIED = """document.addEventListener("copy", (event) => {
  window.__copied = event.clipboardData.getData("text/plain");
})"""
"""Keeps what a copy put on the clipboard (after the terminal's own handler has put it)."""


def test_keys_reach_the_game_at_once_and_ctrl_c_copies_without_ending_it(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    server = WebServer(tmp_path / "state")
    servers.append(server)

    async def scenario() -> None:
        async with Browser(tmp_path / "profile") as browser:
            page = await browser.page()
            await enter(page, server.page, "gwen")
            await page.wait_for(MENU)
            await page.evaluate(COPIED)
            # no click, no focusing by the test: the page gave the terminal the keys
            await page.press("?", focus=False)
            await page.wait_for(r"Ctrl\+C\s+copy the text selected with Shift and the mouse")
            assert "quit Rattus Net" not in await page.text()
            await page.screenshot(ARTEFACTS / "keys-in-browser.png")
            await page.press("Escape", focus=False)
            await page.wait_for(MENU)
            screen = (await page.text()).splitlines()
            [row] = [i for i, line in enumerate(screen) if "Play against bots" in line]
            first = screen[row].index("Play against bots")
            await page.select(row, first, first + len("Play against bots"))
            await page.press("c", focus=False, modifiers=2)  # Ctrl+C
            copied = await page.wait_js("window.__copied")
            assert "Play against bots" in copied
            await page.press("?", focus=False)  # the game goes on
            await page.wait_for(r"Keys: ")
            assert not await page.evaluate("document.body.classList.contains('-closed')")
            await page.press("Escape")
            await page.wait_for(MENU)
            await page.press("q")  # q leaves (a guest with nothing saved: at once)
            await page.wait_js("document.body.classList.contains('-closed')")
            await page.close()

    asyncio.run(scenario())
    server.wait_line(r"gwen has left")
    assert server.log().count("gwen is playing") == 1


def test_a_reload_brings_the_visitor_back_to_his_running_game(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    server = WebServer(tmp_path / "state")
    servers.append(server)
    guests = tmp_path / "state" / "web-guests"

    async def scenario() -> None:
        async with Browser(tmp_path / "profile") as browser:
            page = await browser.page()
            await enter(page, server.page, "gwen")
            await page.wait_for(MENU)
            await page.press("Down", "Down", "Left", "Down", "Left")
            await page.wait_for(r"Players\s+< 2 >")
            await page.press("p")
            await page.wait_for(r"│ Hand \(\d")  # his decision: the game waits for him
            before = await page.text()
            [folder] = guests.iterdir()
            await page.reload()  # F5
            await page.wait_for(r"│ Hand \(\d")
            after = await page.text()
            assert MENU not in after
            hand = [line for line in before.splitlines() if "│ Hand (" in line]
            assert hand and hand == [line for line in after.splitlines() if "│ Hand (" in line]
            await page.screenshot(ARTEFACTS / "after-reload.png")
            server.wait_line(r"gwen is back")
            assert [folder] == list(guests.iterdir())  # his game's folder, still there
            await enter(page, server.page, "gwen")  # through the door again: his own game
            await page.wait_for(r"│ Hand \(\d")
            assert hand == [line for line in (await page.text()).splitlines() if "│ Hand (" in line]
            await page.press("?")  # and it answers keys
            await page.wait_for(r"Keys: ")
            await page.close()

    asyncio.run(scenario())
    server.wait_line(r"gwen left the page: the game waits \d+ s")
    log = server.log()
    assert log.count("gwen is playing") == 1 and "gwen has left" not in log


def test_a_stale_cookie_under_a_guests_name_cannot_end_the_game_of_whoever_has_it_now(
    tmp_path: Path, servers: list[WebServer]
) -> None:
    """Gwen logged in (and left); someone else logged in as gwen and plays. The first login's
    cookie, brought back, is sent to the door: his game goes on, his folder stays."""
    import aiohttp

    server = WebServer(tmp_path / "state")
    servers.append(server)
    guests = tmp_path / "state" / "web-guests"
    ws_url = server.page.replace("http://", "ws://") + "ws?width=100&height=30"
    origin = {"Origin": server.url}

    async def client() -> aiohttp.ClientSession:
        session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with session.post(server.url + "/login", data={"name": "gwen"}) as answer:
            assert answer.url.path == "/play", await answer.text()
        return session

    async def scenario() -> None:
        earlier = await client()
        now = await client()  # a login under a name nobody plays under: let in
        try:
            async with now.ws_connect(ws_url, headers=origin) as game:
                await game.receive_bytes(timeout=60)  # his game has started
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await earlier.ws_connect(ws_url, headers=origin)
                assert refused.value.status == 403
                assert not game.closed and len(list(guests.iterdir())) == 1
                await game.send_str('["stdin", "?"]')  # and it still answers
                while b"Keys: " not in await game.receive_bytes(timeout=30):
                    pass
        finally:
            await earlier.close()
            await now.close()

    asyncio.run(scenario())
    log = server.log()
    assert log.count("gwen is playing") == 1 and "logged in again" not in log
