"""The parts of `rattus web` that need no browser: the players file, the door's pages."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from rattus_net.web import pages
from rattus_net.web.players import PlayersFile, PlayersFileError, check_password


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
