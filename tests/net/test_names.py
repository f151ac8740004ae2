"""Names are checked at the edge by one rule: the command line (a clear error, exit 2, never a
traceback inside zeroconf) and the lobby (a guest's name, names in a state from the host)."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from protocol.crypto.identity import Identity
from protocol.errors import DecodeError
from rattus_net import cli
from rattus_net.net.lobby import LobbyCore, LobbyRefusal, LobbyState, TableOptions, sit_message
from rattus_net.net.names import MAX_NAME, BadName, check_name

from .procs import env_for, rattus

BAD = {
    "control": ("Den\x1b[31m", "escape character"),
    "newline": ("two\nlines", "newline"),
    "not UTF-8": ("caf\udce9", "not valid UTF-8"),
    "too long": ("x" * (MAX_NAME + 1), f"at most {MAX_NAME}"),
    "invisible": ("a\u202eb", "invisible character U+202E"),
    "empty": ("   ", "empty"),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_one_rule_one_message(case: str) -> None:
    text, words = BAD[case]
    with pytest.raises(BadName, match=re.escape(words)):
        check_name(text, "table name")
    assert check_name("  a.b.c Ünïcödé  ") == "a.b.c Ünïcödé"


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_the_command_line_refuses_a_bad_name_clearly(
    case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    text, words = BAD[case]
    for argv in (
        ["host", "--name", text, "--players", "2", "--bot", "random", "--no-advertise"],
        ["join", "127.0.0.1:9", "--player", text, "--bot", "random"],
        ["join", "--table", text, "--bot", "random"],
    ):
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
        assert "\x1b" not in err and "\n" not in err.rstrip("\n")


@pytest.mark.slow
def test_non_utf8_bytes_on_a_real_command_line(tmp_path: os.PathLike[str]) -> None:
    argv = [os.fsencode(a) for a in rattus(["host", "--players", "2", "--bot", "random"])]
    proc = subprocess.run([*argv, b"--name", b"caf\xe9"], env=env_for(tmp_path),  # type: ignore[arg-type]
                          capture_output=True, timeout=60)  # fmt: skip
    assert proc.returncode == 2
    assert b"not valid UTF-8" in proc.stderr and b"Traceback" not in proc.stderr


def test_the_lobby_refuses_bad_names_from_guests_and_hosts() -> None:
    host = Identity.generate(os.urandom)
    core = LobbyCore.open("a.b.c", host.public, TableOptions(players=3))
    guest = Identity.generate(os.urandom)
    with pytest.raises(LobbyRefusal, match=f"is 201 characters long; at most {MAX_NAME}"):
        core.handle(guest.public, "10.0.0.2", sit_message("y" * 201, 4000))
    with pytest.raises(LobbyRefusal, match="newline"):
        core.handle(guest.public, "10.0.0.2", sit_message("a\nb", 4000))
    core.handle(guest.public, "10.0.0.2", sit_message("Gus", 4000))
    wire = core.state.to_wire()
    assert LobbyState.from_wire(wire).table == "a.b.c"
    assert isinstance(wire, dict) and isinstance(wire["seats"], list)
    seat = wire["seats"][0]
    assert isinstance(seat, dict)
    seat["name"] = "evil\x1b]0;title\x07"
    with pytest.raises(DecodeError, match="escape character"):
        LobbyState.from_wire(wire)
    with pytest.raises(LobbyRefusal, match="table name"):
        LobbyCore.open("bad\ttable", host.public, TableOptions(players=2))
