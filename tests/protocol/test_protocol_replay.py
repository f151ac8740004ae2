"""`rattus replay` reads the signed record a network game writes: a finished one face by face,
an aborted one as every seat saw it, up to the abort."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recordkit import aborted_record, random_chooser, table

from protocol.memnet import MemoryNetwork
from protocol.verify import public_replay, verify_record
from rattus_net.cli import main


def _net(n: int = 3, seed: int = 5) -> MemoryNetwork:
    net = MemoryNetwork(*table(n, seed), timeout=5.0)
    net.keep_going = True
    return net


def test_a_finished_network_record_replays_face_by_face(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    net = _net(2, 3)
    net.run(random_chooser(2, 3))
    data = net.peers[0].record_bytes()
    path = tmp_path / "record.rattusnet"
    path.write_bytes(data)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "phase game over" in out and "Scoring:" in out and "did not end" not in out
    # the same as the face-level record `rattus verify --export` writes
    export = tmp_path / "export.json"
    assert main(["verify", str(path), "--export", str(export)]) == 0
    capsys.readouterr()
    assert main(["replay", str(export)]) == 0
    assert capsys.readouterr().out == out
    assert main(["replay", str(path), "--moves", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["round"] >= 1


def test_an_aborted_network_record_replays_up_to_the_abort(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = aborted_record()
    verdict = verify_record(data)
    assert not verdict.fair and verdict.engine_record is None
    game, stopped = public_replay(data)
    assert stopped is not None and "aborted" in stopped and "stalled" in stopped
    assert not game.is_over and len(game.history) > 0
    path = tmp_path / "record.rattusnet"
    path.write_bytes(data)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "did not end fairly" in out and "aborted" in out
    assert f"Round {game.round} of" in out and "Next to act:" in out
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["round"] == game.round and "aborted" in state["note"]
    # and stopped earlier on request
    early, _ = public_replay(data, 3)
    assert len(early.history) == 3


def test_bytes_that_are_no_record_are_refused_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "junk.rattusnet"
    path.write_bytes(b"\xff\x00 not a record")
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "not a game record" in err and "Traceback" not in err
