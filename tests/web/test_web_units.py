"""The parts of `rattus web` that need no browser: the players file, the door's pages, the
logins (tokens, expiry) and a game's life apart from its page."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path
from typing import Any, cast

import pytest

from rattus_net.web import pages
from rattus_net.web.games import TERMINAL_MODES, Games, NameInPlay, Session
from rattus_net.web.players import PlayersFile, PlayersFileError, check_password
from rattus_net.web.visits import Visitor, Visitors


def test_a_players_file_keeps_salted_scrypt_hashes_owner_only(tmp_path: Path) -> None:
    players = PlayersFile(tmp_path / "players")
    assert players.add("Ann", "correct horse") and players.add("bob", "battery staple")
    assert not players.add("ANN", "another one!")  # the same player: a new password
    text = players.path.read_text()
    assert "correct horse" not in text and text.count("scrypt$16384$8$1$") == 2
    assert stat.S_IMODE(players.path.stat().st_mode) == 0o600
    assert players.check("ann", "another one!") == "ANN"  # his name as last written
    assert players.check("ann", "correct horse") is None
    assert players.check("bob", "battery staple") == "bob"
    assert players.check("carol", "battery staple") is None  # not a player here
    assert players.check("../x", "whatever") is None
    first, second = (line.split()[1] for line in text.splitlines())
    assert first.split("$")[4] != second.split("$")[4]  # a salt of its own
    assert not check_password("x", "md5$abc") and not check_password("x", "scrypt$bad")


def test_bad_players_and_bad_files_are_refused_in_one_line(tmp_path: Path) -> None:
    players = PlayersFile(tmp_path / "players")
    with pytest.raises(ValueError, match="at least 8 characters"):
        players.add("ann", "short")
    with pytest.raises(ValueError, match="cannot be a player name here"):
        players.add("ann smith", "long enough")
    players.path.write_text("ann plaintext\n")
    with pytest.raises(PlayersFileError, match="line 1: no password hash"):
        players.load()
    with pytest.raises(PlayersFileError, match="cannot read the players file"):
        PlayersFile(tmp_path / "none").load()


def test_the_door_escapes_what_it_shows() -> None:
    html = pages.door(passwords=True, why="<script>x</script>", name='"><b>')
    assert "<script>x" not in html and "&lt;script&gt;" in html and "&quot;&gt;&lt;b&gt;" in html
    assert 'type="password"' in html and "googleapis" not in html
    assert 'type="password"' not in pages.door(passwords=False)
    game = pages.game("ws://127.0.0.1:8000/ws", "/static/")
    assert 'data-session-websocket-url="ws://127.0.0.1:8000/ws"' in game


def test_web_mistakes_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rattus_net import cli

    state = ["--state-dir", str(tmp_path / "state")]
    assert cli.main(["web", "--add-player", "ann", *state]) == 2
    bad = tmp_path / "players"
    bad.write_text("ann nothing\n")
    assert cli.main(["web", "--players", str(bad), "--port", "0", *state]) == 1
    err = capsys.readouterr().err
    assert "--add-player needs --players FILE" in err and "no password hash" in err
    assert "Traceback" not in err


def test_a_new_login_under_a_name_voids_the_older_ones_and_logins_expire() -> None:
    """A stale cookie (an earlier login under a name someone else has since logged in under,
    or a login past its time) finds no visitor: it can reach nobody's game."""
    visitors = Visitors(seconds=100.0)
    earlier = Visitor("gwen", kept=False, address="10.0.0.1")
    stale = visitors.login(earlier, now=0.0)
    assert visitors.get(stale, now=1.0) is earlier
    now_playing = Visitor("GWEN", kept=False, address="10.0.0.2")  # the same name, any case
    token = visitors.login(now_playing, now=2.0)
    assert token != stale and visitors.get(stale, now=3.0) is None
    assert visitors.get(token, now=3.0) is now_playing
    other = visitors.login(Visitor("ann", kept=True, address="10.0.0.3"), now=4.0)
    assert visitors.get(token, now=5.0) is now_playing  # another name leaves his be
    assert visitors.get(token, now=102.0) is None  # past its time
    assert visitors.get(other, now=104.0) is None
    assert visitors.get("made-up", now=5.0) is None


def test_logins_remembered_are_bounded() -> None:
    visitors = Visitors(limit=3)
    tokens = [visitors.login(Visitor(f"p{i}", False, "a"), now=0.0) for i in range(5)]
    assert [visitors.get(t, now=1.0) is not None for t in tokens] == [
        False,
        False,
        True,
        True,
        True,
    ]


class FakeGame:
    """A running game's app, as a page drives it: what it was told, and whether it ended."""

    def __init__(self) -> None:
        self.sizes: list[tuple[int, int]] = []
        self.ended = False

    async def send_bytes(self, data: bytes) -> bool:
        return True

    async def set_terminal_size(self, width: int, height: int) -> None:
        self.sizes.append((width, height))

    async def blur(self) -> None:
        pass

    async def focus(self) -> None:
        pass

    async def end(self) -> None:
        self.ended = True


class FakePage:
    """A page's websocket: what it was sent, and whether (and why) it was closed."""

    def __init__(self) -> None:
        self.closed = False
        self.why = b""
        self.sent: list[bytes] = []

    async def send_bytes(self, data: bytes) -> None:
        self.sent.append(data)

    async def close(self, message: bytes = b"") -> None:
        self.closed, self.why = True, message


def test_a_game_outlives_its_page_for_the_grace_then_ends(tmp_path: Path) -> None:
    """Within the grace the same visitor's new page gets the game back, drawn afresh (the
    terminal's modes, then a resize round that redraws it all); a game no page comes back to
    ends: its app stopped, its name free, a guest's folder removed."""
    said: list[str] = []

    async def scenario() -> None:
        games = Games(said.append, idle_timeout=3600.0, grace=3600.0)
        home = tmp_path / "gwen-1"
        home.mkdir()
        visitor = Visitor("gwen", kept=False, address="127.0.0.1")
        first, second = FakePage(), FakePage()
        game = FakeGame()
        session = Session(visitor, home, cast(Any, first), service=game)
        games.add(session)
        games.detach(session, cast(Any, first))  # F5: the page has gone
        assert session.websocket is None and session.grace is not None
        assert await games.running(visitor) is session
        await games.attach(session, cast(Any, second), 100, 30)
        assert session.websocket is second and session.grace is None
        assert second.sent[0] == TERMINAL_MODES.encode()
        assert game.sizes == [(100, 31), (100, 30)] and not game.ended
        # another login under a guest's name in play cannot take it
        with pytest.raises(NameInPlay):
            await games.running(Visitor("gwen", kept=False, address="127.0.0.2"))
        games.grace = 0.01
        games.detach(session, cast(Any, second))
        await asyncio.wait_for(session.done.wait(), 30)
        assert game.ended and not home.exists() and not games.sessions

    asyncio.run(scenario())
    assert said[-1] == "rattus web: gwen has left" and "rattus web: gwen is back" in said


def test_a_listed_players_new_login_ends_his_game_elsewhere(tmp_path: Path) -> None:
    async def scenario() -> None:
        games = Games(lambda line: None, idle_timeout=3600.0)
        older, newer = Visitor("ann", True, "a"), Visitor("Ann", True, "b")
        page, game = FakePage(), FakeGame()
        session = Session(older, tmp_path, cast(Any, page), service=game)
        games.add(session)
        assert await games.running(newer) is None
        assert page.closed and page.why == b"you logged in again elsewhere" and game.ended
        assert tmp_path.exists()  # his folder is kept

    asyncio.run(scenario())
