"""`rattus selfplay --secure` and `rattus verify`: exit codes and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rattus_net.cli import main


def test_secure_selfplay_records_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--players", "2", "--games", "1", "--seed", "9"]
    assert main([*args, "--secure", "--record-dir", str(tmp_path)]) == 0
    secure = capsys.readouterr().out.splitlines()[0]
    assert main(args) == 0
    local = capsys.readouterr().out.splitlines()[0]
    assert secure == local  # the same game
    record = tmp_path / "game-9.rattusnet"
    export = tmp_path / "face.json"
    assert main(["verify", str(record), "--export", str(export)]) == 0
    assert capsys.readouterr().out.startswith("FAIR")
    assert main(["replay", str(export)]) == 0
    capsys.readouterr()
    bad = bytearray(record.read_bytes())
    bad[len(bad) // 3] ^= 4
    record.write_bytes(bytes(bad))
    code = main(["verify", str(record), "--json"])
    out, err = capsys.readouterr()
    assert code != 0 and (err.count("\n") == 1 or '"fair": false' in out)


def test_verify_of_something_that_is_not_a_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "rattus-record"}')
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a secure game record" in err
    assert main(["verify", str(tmp_path / "missing")]) == 1
    assert "no such file" in capsys.readouterr().err
    # what a record file's first byte says, not what msgpack makes of the rest
    notes = tmp_path / "notes.txt"
    for content, words in [
        (b"my notes about the game\n", "not a secure game record: it is a text file\n"),
        (b'{"format": "rattus-record"}', "it is a text file (it looks like a plain game record"),
        (b"", "not a secure game record: the file is empty\n"),
        (b"\x01\xff\xfe", "not a secure game record: it does not begin as one"),
    ]:
        notes.write_bytes(content)
        assert main(["verify", str(notes)]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and "trailing" not in err, err


def test_secure_selfplay_equals_local_with_heuristic_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Heuristic bots read what a seat can follow in other hands, which hand mixing changes:
    the local game mixes hands like the secure one, so the two stay the same game (this seed
    diverged when the local game did not mix)."""
    args = ["selfplay", "--players", "4", "--games", "1", "--seed", "9", "--bots", "heuristic"]
    assert main([*args, "--secure", "--json"]) == 0
    secure = json.loads(capsys.readouterr().out)["games"]
    assert main([*args, "--json"]) == 0
    local = json.loads(capsys.readouterr().out)["games"]
    assert [(g["vp"], g["rats"], g["moves"]) for g in secure] == [
        (g["vp"], g["rats"], g["moves"]) for g in local
    ]


def test_huge_and_deeply_nested_records_are_refused_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from protocol.record import MAX_RECORD_BYTES

    huge = tmp_path / "huge.rattusnet"
    with open(huge, "wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # sparse: refused on its size, never read
    nested_pack = tmp_path / "nested.rattusnet"
    nested_pack.write_bytes(b"\x91" * 100_000 + b"\xc0")
    nested_json = tmp_path / "nested.json"
    nested_json.write_text("[" * 100_000 + "]" * 100_000)
    big_json = tmp_path / "big.json"
    big_json.write_text('{"format": "rattus-record", "x": "' + "a" * (3 << 20) + '"}')
    for command, path, words in [
        ("verify", huge, "bytes, more than any game record needs"),
        ("verify", nested_pack, "not a secure game record"),
        ("replay", nested_json, "nested too deeply"),
        ("replay", big_json, "bytes, more than any game record needs"),
    ]:
        assert main([command, str(path)]) == 1
        out, err = capsys.readouterr()
        assert err.count("\n") == 1 and words in err, err
        assert "Traceback" not in out + err


def test_verify_json_gives_the_kind_the_seats_and_the_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from recordkit import honest, messages, pack

    record, _, _ = honest(2, 11)
    path = tmp_path / "cut.rattusnet"
    path.write_bytes(pack(record, messages(record)[:30]))
    assert main(["verify", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "damaged" and data["seats"] == [] and data["cheater"] is None
    assert data["evidence"] == []
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith("RECORD DAMAGED OR INCOMPLETE")
