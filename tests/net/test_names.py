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
from rattus_net.kit.cells import cells, fit, pad
from rattus_net.kit.interface import WireValue
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
    "filler": ("Bob\u3164", "invisible character U+3164"),  # (looks like "Bob")
    "zero-width": ("B\u200bob", "invisible character U+200B"),
    "bidi isolate": ("\u2067Bob", "invisible character U+2067"),
    "braille blank": ("Bob\u2800", "invisible character U+2800"),
    "too wide": ("名" * 13, "26 cells wide on a terminal; at most 24"),
}


def _first_seat_named(core: LobbyCore, name: str) -> WireValue:
    """The table's state as it travels, with the first seat's name changed to ``name`` on the
    way (as a host that sends what it likes would)."""
    wire = core.state.to_wire()
    assert isinstance(wire, dict) and isinstance(wire["seats"], list)
    seat = wire["seats"][0]
    assert isinstance(seat, dict)
    seat["name"] = name
    return wire


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
    assert LobbyState.from_wire(core.state.to_wire()).table == "a.b.c"
    with pytest.raises(DecodeError, match="escape character"):
        LobbyState.from_wire(_first_seat_named(core, "evil\x1b]0;title\x07"))
    with pytest.raises(LobbyRefusal, match="table name"):
        LobbyCore.open("bad\ttable", host.public, TableOptions(players=2))


def test_names_are_normalised_and_look_alikes_are_one_name() -> None:
    assert check_name("Ｂｏｂ") == "Bob"  # fullwidth letters: NFKC
    assert check_name("Cafe\u0301") == "Café"  # composed
    assert check_name("名" * 12) == "名" * 12  # 24 cells: the most
    host = Identity.generate(os.urandom)
    core = LobbyCore.open("T", host.public, TableOptions(players=3))
    for name in ("Bob", "Ｂｏｂ"):
        core.handle(Identity.generate(os.urandom).public, "10.0.0.2", sit_message(name, 4000))
    assert [s.name for s in core.state.seats] == ["Bob", "Bob-2"]  # not two "Bob"s that differ
    wide = LobbyCore.open("T", host.public, TableOptions(players=3))
    for _ in range(2):
        wide.handle(Identity.generate(os.urandom).public, "10.0.0.2", sit_message("名" * 12, 4000))
    second = wide.state.seats[1].name
    assert second.endswith("-2") and cells(second) <= MAX_NAME  # (room made in cells too)
    assert LobbyState.from_wire(wide.state.to_wire()).seats[1].name == second


def test_a_name_from_a_peer_must_already_be_normal() -> None:
    """Every peer hashes the names into the game id: a guest never normalises a name the
    host sent (the two would play different games); it refuses one that is not normal."""
    host = Identity.generate(os.urandom)
    core = LobbyCore.open("T", host.public, TableOptions(players=2))
    core.handle(Identity.generate(os.urandom).public, "10.0.0.2", sit_message("Bob", 4000))
    with pytest.raises(DecodeError, match="normal form"):
        LobbyState.from_wire(_first_seat_named(core, "Ｂｏｂ"))


def test_columns_are_padded_by_terminal_cells() -> None:
    assert cells("Bob") == 3 and cells("ボブ") == 4 and cells("e\u0301") == 1
    assert cells(pad("ボブ", 6)) == 6 and pad("ボブ", 6) == "ボブ  "
    assert pad("Bob", 5, right=True) == "  Bob"
    assert fit("名" * 10, 7) == "名名名…" and fit("名" * 10, 8) == "名名名… "
    assert fit("Ann", 5) == "Ann  "
    rows = [pad(name, 10) + "|" for name in ("Bob", "ボブ", "Zoë", "e\u0301e\u0301")]
    assert len({cells(r) for r in rows}) == 1  # every column starts at the same cell
