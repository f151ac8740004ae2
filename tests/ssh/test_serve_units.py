"""The pure parts of `rattus serve`: names, who owns them, and the per-address limit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rattus_net.serve.identity import BadNameError, NameClaims, check_name, folder_name
from rattus_net.serve.limits import RateLimiter


@pytest.mark.parametrize("name", ["alice", "Bob_2", "x", "a-b", "0racle", "A" * 24])
def test_safe_names_are_accepted(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name",
    ["", "..", "../etc", "a/b", "-rf", "_x", "a b", "ünï", "a" * 25, "a\x1b[2J", ".ssh", "alice\n"],
)
def test_odd_names_are_refused_clearly(name: str) -> None:
    with pytest.raises(BadNameError, match="cannot be a player name here") as err:
        check_name(name)
    assert "\x1b" not in str(err.value)  # a name never drives the client's terminal


def test_the_first_key_claims_a_name_whatever_its_case(tmp_path: Path) -> None:
    claims = NameClaims(tmp_path / "names.json")
    assert claims.owner("Alice") is None and claims.may_use("alice", "SHA256:a")
    assert claims.claim("Alice", "SHA256:a")
    assert claims.claim("alice", "SHA256:a")  # again: still hers
    assert not claims.claim("ALICE", "SHA256:b")
    assert not claims.may_use("alice", "SHA256:b") and claims.may_use("aLiCe", "SHA256:a")
    assert json.loads((tmp_path / "names.json").read_text()) == {"alice": "SHA256:a"}
    assert NameClaims(tmp_path / "names.json").owner("alice") == "SHA256:a"  # kept
    assert folder_name("Alice") == "alice"


def test_a_damaged_names_file_is_refused_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "names.json"
    path.write_text("[1, 2]")
    with pytest.raises(OSError, match="not a names file"):
        NameClaims(path).claim("alice", "SHA256:a")
    assert path.read_text() == "[1, 2]"


def test_connections_per_address_per_minute() -> None:
    limit = RateLimiter(3)
    assert all(limit.allow("10.0.0.1", t) for t in (0.0, 1.0, 2.0))
    assert not limit.allow("10.0.0.1", 3.0)  # a fourth within the minute
    assert limit.allow("10.0.0.2", 3.0)  # another address is not held up
    assert limit.allow("10.0.0.1", 60.5)  # the first has left the window
    assert limit.allow("10.0.0.1", 61.0)  # and the second
    assert not limit.allow("10.0.0.1", 61.5)


def test_the_limiter_forgets_quiet_addresses() -> None:
    limit = RateLimiter(2)
    for i in range(1000):
        limit.allow(f"10.0.{i // 256}.{i % 256}", float(i % 10))
    limit.allow("10.9.9.9", 200.0)
    assert len(limit._seen) == 1


def test_serve_mistakes_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rattus_net import cli

    state = ["--state-dir", str(tmp_path / "state"), "--listen", "127.0.0.1"]
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert cli.main(["serve", "--max-sessions", "0"]) == 2
    keys = tmp_path / "keys"
    keys.write_text("ssh-ed25519 AAAA")
    assert cli.main(["serve", "--open", "--authorized-keys", str(keys), *state]) == 2
    assert cli.main(["serve", "--authorized-keys", str(tmp_path / "none"), *state]) == 1
    assert cli.main(["serve", "--authorized-keys", str(keys), *state]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "a port is 0 to 65535" in err and "must be 1 to 10000" in err
    assert "--open and --authorized-keys exclude each other" in err
    assert err.count("cannot read the authorized keys") == 2
    host_key = tmp_path / "state" / "host_key_ed25519"
    host_key.parent.mkdir(parents=True, exist_ok=True)
    host_key.write_text("x")
    host_key.chmod(0o644)
    assert cli.main(["serve", *state, "--port", "0"]) == 1
    assert "may be read by others" in capsys.readouterr().err


def test_a_game_sees_only_its_players_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rattus_net.serve.session import Player, game_environment

    monkeypatch.setenv("SECRET_TOKEN", "x")
    monkeypatch.setenv("RATTUS_DATA_DIR", "/the/servers/own")
    player = Player("Alice", "SHA256:a", tmp_path / "alice", kept=True)
    env = game_environment(player, "screen-256color")
    assert "SECRET_TOKEN" not in env
    assert env["USER"] == env["LOGNAME"] == "Alice" and env["TERM"] == "screen-256color"
    assert env["RATTUS_DATA_DIR"] == str(tmp_path / "alice" / "data")
    assert env["RATTUS_CONFIG_DIR"] == str(tmp_path / "alice" / "config")
    assert env["HOME"] == str(tmp_path / "alice")
    assert game_environment(player, "x\x1b]0;owned\x07")["TERM"] == "xterm-256color"
    # the whole string must be a terminal name: a trailing newline is not one
    assert game_environment(player, "xterm\n")["TERM"] == "xterm-256color"


def test_a_game_may_open_typed_paths_only_in_its_players_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The TUI confines the verify dialog's paths to ``RATTUS_FILES_ROOT``: the session sets
    it to the player's folder (absolute, as the game runs inside it), whatever the server's
    own environment says, under the name the TUI reads."""
    from rattus_net.serve.session import ENV_FILES_ROOT, Player, game_environment
    from tui.paths import ENV_FILES_ROOT as TUI_NAME

    assert ENV_FILES_ROOT == TUI_NAME
    monkeypatch.setenv(ENV_FILES_ROOT, "/")
    monkeypatch.chdir(tmp_path)
    player = Player("Bob", "SHA256:b", Path("state/players/bob"), kept=True)
    env = game_environment(player, "xterm")
    assert env[ENV_FILES_ROOT] == env["HOME"] == str(tmp_path / "state/players/bob")
    assert env["RATTUS_DATA_DIR"] == str(tmp_path / "state/players/bob/data")
