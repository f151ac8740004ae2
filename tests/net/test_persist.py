"""Journal: append + fsync, reload, a torn last record is cut, other damage is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rattus_net.net.persist import (
    ENV_DATA_DIR,
    Journal,
    JournalError,
    data_dir,
    game_dir,
    list_games,
    seat_dir,
    seat_dirs,
    write_json_atomic,
)


def test_records_survive_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "g" / "journal.bin"
    with Journal.open(path) as j:
        j.append({"kind": "start", "seat": 1})
        j.append([b"\x00" * 40, 7])
    with Journal.open(path) as j:
        assert j.records == [{"kind": "start", "seat": 1}, [b"\x00" * 40, 7]]
        j.append("third")
    assert len(Journal.open(path)) == 3


@pytest.mark.parametrize("cut", range(1, 12))
def test_a_torn_last_record_is_cut_off(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "journal.bin"
    with Journal.open(path) as j:
        j.append({"n": 1})
        j.append({"n": 2, "pad": "x" * 3})
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size - cut)
    with Journal.open(path) as j:
        assert j.records == [{"n": 1}]
        j.append({"n": 3})
    assert Journal.open(path).records == [{"n": 1}, {"n": 3}]


def test_a_half_overwritten_last_record_is_cut_but_damage_inside_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.bin"
    with Journal.open(path) as j:
        for i in range(3):
            j.append({"n": i})
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    assert Journal.open(path).records == [{"n": 0}, {"n": 1}]
    data = bytearray(path.read_bytes())
    data[10] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError, match="damaged record at byte 0"):
        Journal.open(path)


def test_data_dir_and_game_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_DATA_DIR, str(tmp_path))
    assert data_dir() == tmp_path
    d = game_dir("0123abcd")
    s2 = seat_dir("0123abcd", 1)
    write_json_atomic(s2 / "meta.json", {"table": "t", "seat": 1})
    assert s2 == d / "seat-2"
    assert list_games() == [("0123abcd", {"table": "t", "seat": 1, "dir": str(s2)})]
    for bad in ("../etc", "ABC", "", "12"):
        with pytest.raises(JournalError):
            game_dir(bad)
    monkeypatch.delenv(ENV_DATA_DIR)
    assert "rattus-net" in str(data_dir())


def test_journal_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "journal.bin"
    Journal.open(path).close()
    assert os.stat(path).st_mode & 0o077 == 0


def test_a_cut_tail_is_said_naming_the_file_and_a_whole_journal_says_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.bin"
    with Journal.open(path) as j:
        j.append(["setup", 1])
        j.append(["d", "pass"])
    whole = path.stat().st_size
    with Journal.open(path) as j:
        assert j.damage is None
    with open(path, "r+b") as f:
        f.truncate(whole - 3)  # inside the last record (the move)
    with Journal.open(path) as j:
        assert j.records == [["setup", 1]]
        assert j.damage is not None
        assert str(path) in j.damage and "cut or damaged" in j.damage
    with Journal.open(path) as j:  # cut once: the file is whole again
        assert j.damage is None


def test_a_game_id_with_a_trailing_newline_is_not_one() -> None:
    """Game ids name folders: the pattern must match the whole id, newline included."""
    from rattus_net.net.persist import JournalError, check_game_id

    assert check_game_id("cartus-0123456789abcdef") == "0123456789abcdef"
    with pytest.raises(JournalError, match="is not a game id"):
        check_game_id("cartus-0123456789abcdef\n")


def test_a_game_journaled_in_one_folder_for_every_seat_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    """That layout was never written by this version: not listed, never resumed."""
    from rattus_net.net.node import NodeError, find_seat

    d = game_dir("0123abcd", tmp_path)
    d.mkdir(parents=True)
    (d / "journal.bin").write_bytes(b"")
    write_json_atomic(d / "meta.json", {"table": "t", "game": "cartus", "status": "playing"})
    assert list_games(tmp_path) == []
    with pytest.raises(JournalError, match="one folder for every seat") as refused:
        seat_dirs("0123abcd", tmp_path)
    assert "\n" not in str(refused.value)
    with pytest.raises(NodeError, match=r"^game 0123abcd is journaled in one folder for every"):
        find_seat("0123abcd", tmp_path)
