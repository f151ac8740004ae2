"""`rattus selfplay --secure` and `rattus verify`: exit codes and one-line errors."""

from __future__ import annotations

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
    record = tmp_path / "game-9.rattus"
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
