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
    from tui.shell.paths import ENV_FILES_ROOT as TUI_NAME

    assert ENV_FILES_ROOT == TUI_NAME
    monkeypatch.setenv(ENV_FILES_ROOT, "/")
    monkeypatch.chdir(tmp_path)
    player = Player("Bob", "SHA256:b", Path("state/players/bob"), kept=True)
    env = game_environment(player, "xterm")
    assert env[ENV_FILES_ROOT] == env["HOME"] == str(tmp_path / "state/players/bob")
    assert env["RATTUS_DATA_DIR"] == str(tmp_path / "state/players/bob/data")


def test_a_key_holds_at_most_its_share_of_names(tmp_path: Path) -> None:
    claims = NameClaims(tmp_path / "names.json")
    assert claims.claim("ann", "SHA256:a", most=2) and claims.claim("bea", "SHA256:a", most=2)
    assert not claims.claim("cid", "SHA256:a", most=2)  # a third one
    assert claims.claim("ann", "SHA256:a", most=2)  # one it holds is still its own
    assert claims.names_of("SHA256:a") == ["ann", "bea"] and claims.owner("cid") is None


def test_the_limiter_counts_refusals_for_the_minute() -> None:
    limit = RateLimiter(1)
    assert limit.allow("10.0.0.1", 0.0)
    assert not limit.allow("10.0.0.1", 1.0) and not limit.allow("10.0.0.1", 2.0)
    assert limit.refused("10.0.0.1") == 2 and limit.refused("10.0.0.2") == 0
    assert limit.allow("10.0.0.1", 70.0) and limit.refused("10.0.0.1") == 0


def _seat(data: Path, digits: str, record: bytes | None, seat: int = 1) -> Path:
    folder = data / "games" / digits / f"seat-{seat}"
    folder.mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({"game": "cartus", "status": "finished"}))
    (folder / "journal.bin").write_bytes(b"journal")
    if record is not None:
        (folder / "record.rattusnet").write_bytes(record)
    return folder


def test_records_lists_and_streams_only_the_players_own(tmp_path: Path) -> None:
    from rattus_net.serve.records import answer, is_command

    alice, bob = tmp_path / "alice" / "data", tmp_path / "bob" / "data"
    _seat(alice, "0123456789abcdef", b"alice's record")
    _seat(bob, "fedcba9876543210", b"bob's record")
    how = "ssh -p 2222 alice@host"
    listed = answer("records", alice, how)
    assert listed.status == 0 and b"cartus-0123456789abcdef" in listed.out
    assert (
        b"fedcba98" not in listed.out and b"Fetch one: ssh -p 2222 alice@host record" in listed.out
    )
    assert answer("record 0123456789abcdef", alice, how).out == b"alice's record"
    assert answer("record cartus-01234567", alice, how).out == b"alice's record"  # its start
    assert answer("record 01234567 journal", alice, how).out == b"journal"
    theirs = answer("record fedcba9876543210", alice, how)  # Bob's game: not in her folder
    assert theirs.status == 1 and "no record of a game fedcba9876543210 here" in theirs.err
    for bad in ("records\n", "ls", "records; cat x", "", "record"):
        assert not is_command(bad)
        refused = answer(bad, alice, how)
        assert refused.status == 1 and refused.out == b"" and "two commands" in refused.err
    for asked in ("record nope", "record ../../bob", "record 0123", "record \x1b[2J journal"):
        assert not is_command(asked)  # (nothing of it is looked up)
        missing = answer(asked, alice, how)
        assert missing.status == 1 and missing.out == b"", missing
        assert missing.err.startswith("there is no ") and "\x1b" not in missing.err
    assert "there is no record 'nope' here" in answer("record nope", alice, how).err
    assert "nothing is kept for you" in answer("records", None, how).err


def test_a_game_cut_off_lists_its_journal_and_has_no_record(tmp_path: Path) -> None:
    from rattus_net.serve.records import answer

    data = tmp_path / "data"
    _seat(data, "00112233", None)
    assert b"journal only" in answer("records", data, "ssh").out
    assert "no record of a game 00112233" in answer("record 00112233", data, "ssh").err


def test_the_tables_hosted_on_a_server_are_listed_while_their_host_runs(tmp_path: Path) -> None:
    import os
    import subprocess

    from rattus_net.net.discovery import TableAdvert
    from rattus_net.net.servertables import ServerTables

    listing = ServerTables(tmp_path)
    advert = TableAdvert(
        "Kitchen", "0123456789abcdef", 1, 2, "open", host="127.0.0.1", port=7000, game="cartus"
    )
    listing.publish(advert)
    [found] = listing.tables()
    assert (found.name, found.address, found.seats_free) == ("Kitchen", "127.0.0.1:7000", 2)
    listing.withdraw(advert.fingerprint)
    assert listing.tables() == []
    # a host that died without withdrawing its table: not listed
    gone = subprocess.Popen(["true"])
    gone.wait()
    entry = json.loads(
        (listing.publish(advert), (tmp_path / "0123456789abcdef.json").read_text())[1]
    )
    entry["pid"] = gone.pid
    (tmp_path / "0123456789abcdef.json").write_text(json.dumps(entry))
    assert listing.tables() == [] and os.getpid() != gone.pid
    (tmp_path / "x.json").write_text("{not json")  # a damaged entry is skipped
    assert listing.tables() == []


def test_the_server_tells_its_games_what_it_allows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rattus_net.net.served import Served, listen_host

    for key in ("RATTUS_PLAYER", "RATTUS_LISTEN_ADDRESS", "RATTUS_JOIN", "RATTUS_SERVER_TABLES"):
        monkeypatch.delenv(key, raising=False)
    for key in ("RATTUS_IN_BROWSER", "RATTUS_NOT_KEPT", "RATTUS_RECORD_COMMAND"):
        monkeypatch.delenv(key, raising=False)
    assert Served.from_environment() == Served() and listen_host() == "0.0.0.0"
    served = Served("alice", "127.0.0.1", False, tmp_path, "ssh -p 1 alice@h record {id} > g")
    for key, value in served.environment().items():
        monkeypatch.setenv(key, value)
    assert Served.from_environment() == served and listen_host() == "127.0.0.1"
    assert served.record_line("abcd", tmp_path / "x") == "ssh -p 1 alice@h record abcd > g"
    assert Served().record_line("abcd", tmp_path / "x") == str(tmp_path / "x")
    guest = Served("gwen", in_browser=True, kept=False)  # rattus web's guest
    for key in served.environment():
        monkeypatch.delenv(key)
    for key, value in guest.environment().items():
        monkeypatch.setenv(key, value)
    assert Served.from_environment() == guest


def test_both_servers_take_the_game_process_limits_from_their_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rattus_net import cli
    from rattus_net.cli.main import build_parser
    from rattus_net.serve.command import process_limits
    from rattus_net.serve.limits import MIB, ProcessLimits

    for command in ("serve", "web"):
        given = build_parser().parse_args(
            [command, "--session-memory", "64", "--session-nice", "5"]
        )
        assert process_limits(given) == ProcessLimits(memory=64 * MIB, nice=5)
        assert process_limits(build_parser().parse_args([command])) == ProcessLimits(512 * MIB, 10)
        assert (
            process_limits(build_parser().parse_args([command, "--session-memory", "0"])).memory
            == 0
        )  # no cap
        assert cli.main([command, "--session-nice", "20"]) == 2
    err = capsys.readouterr().err
    assert err.count("must be 0 to 19") == 2 and "Traceback" not in err


def test_a_nested_meta_json_is_refused_in_one_line(tmp_path: Path) -> None:
    """A meta.json nested thousands deep (or too large) never reaches the JSON parser's
    recursion: `records` lists the seat in one line, the resume list says it cannot be
    resumed, the recent games skip it."""
    from rattus_net.net.persist import MAX_META_BYTES, list_games, unfinished_games
    from rattus_net.replays import recent_games
    from rattus_net.serve.records import answer

    data = tmp_path / "data"
    _seat(data, "0123456789abcdef", b"a record")
    deep = _seat(data, "fedcba9876543210", b"a record")
    (deep / "meta.json").write_text("[" * 20_000 + "]" * 20_000)
    big = _seat(data, "00112233", b"a record")
    (big / "meta.json").write_text(json.dumps({"game": "cartus", "pad": "x" * MAX_META_BYTES}))
    refused = {gid: meta["refused"] for gid, meta in list_games(data) if "refused" in meta}
    assert refused == {
        "fedcba9876543210": "its meta.json nests more than 8 levels deep",
        "00112233": f"its meta.json is larger than {MAX_META_BYTES} bytes",
    }
    assert {gid for gid, _ in unfinished_games(data)} == set(refused)
    listed = answer("records", data, "ssh").out.decode()
    assert "cartus-0123456789abcdef" in listed
    deep_line = "seat-1: its meta.json nests more than 8 levels deep, left alone"
    assert any(
        line.startswith("fedcba9876543210 ") and line.endswith(deep_line)
        for line in listed.splitlines()
    ), listed
    assert recent_games(data) == []  # (none of these records decodes: listed without error)
