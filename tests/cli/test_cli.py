"""The `rattus` command: selfplay, replay, and one-line errors for user mistakes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rattus_net.cli import main
from rattus_net.games.cartus.record import GameRecord


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_selfplay_prints_results_and_throughput(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "selfplay", "--players", "3", "--games", "2", "--seed", "5")
    assert code == 0
    assert out.count("\ngame ") + out.startswith("game ") == 2
    assert "games/s" in out
    assert "seat 3 (random)" in out


def test_selfplay_json_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        code, out, _ = run(capsys, "selfplay", "--players", "4", "--games", "3", "--json")
        assert code == 0
        data = json.loads(out)
        runs.append(data["games"])
        assert data["summary"]["games"] == 3
        assert sum(data["summary"]["wins"].values()) <= 3
    assert runs[0] == runs[1]
    assert [g["seed"] for g in runs[0]] == [0, 1, 2]


def test_selfplay_records_replay_to_the_same_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        capsys,
        "selfplay",
        "--players",
        "2",
        "--games",
        "2",
        "--json",
        "--record-dir",
        str(tmp_path),
    )
    assert code == 0
    games = json.loads(out)["games"]
    for g in games:
        record = GameRecord.loads(Path(g["record"]).read_text())
        assert record.result is not None
        assert record.result["winners"] == g["winners"]
        code, out, _ = run(capsys, "replay", g["record"], "--json")
        assert code == 0
        state = json.loads(out)
        assert state["phase"] == "game over"
        assert state["scoring"]["winners"] == g["winners"]
        assert list(state["scoring"]["totals"].values()) == g["vp"]


def test_replay_text_shows_the_scoring_breakdown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "selfplay", "--players", "4", "--games", "1", "--record-dir", str(tmp_path))
    code, out, _ = run(capsys, "replay", str(tmp_path / "game-0.json"))
    assert code == 0
    for words in ("Influence:", "Peasantry", "population", "Sword", "Gold", "tokens", "total"):
        assert words in out
    assert "Plague: the nun row" in out
    assert "Winner:" in out or "nobody wins" in out


def test_replay_mid_game_shows_state_and_who_acts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "selfplay", "--players", "3", "--games", "1", "--record-dir", str(tmp_path))
    path = tmp_path / "game-0.json"
    code, out, _ = run(capsys, "replay", str(path), "--moves", "2")
    assert code == 0
    assert "Round 1 of 9" in out
    assert "Next to act:" in out
    assert "hand" in out and "rats" in out
    # The same through a record that simply stops.
    data = json.loads(path.read_text())
    data["moves"] = data["moves"][:2]
    del data["result"]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(data))
    code, out2, _ = run(capsys, "replay", str(cut))
    assert code == 0 and out2 == out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["selfplay", "--players", "6"], "2 to 5 players"),
        (["selfplay", "--games", "0"], "at least 1"),
        (["selfplay", "--bots", "wizard"], "unknown bot"),
        (["selfplay", "--players", "3", "--bots", "random,random"], "one per seat"),
        (["selfplay", "--buildings", "farm,moon"], "unknown building"),
        (["replay"], "required"),
        (["frobnicate"], "invalid choice"),
        (["join", ""], "the address is empty: give the host's HOST:PORT"),
        (["join", "nothing"], "'nothing' is not HOST:PORT"),
    ],
)
def test_bad_arguments_give_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _out, err = run(capsys, *args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        (b"\xff\xfe\x00garbage", "not a game record"),
        (b"[1, 2", "not JSON"),
        (b'{"format": "chess"}', "format"),
        (b'{"format": "rattus-record", "version": 9}', "version"),
        (b'{"format": "rattus-record", "version": 2, "players": ["A"]}', "players"),
        (
            b'{"format": "rattus-record", "version": 2, "players": ["A", "B"],'
            b' "moves": ["C: pass"]}',
            "not one of the players",
        ),
        (
            b'{"format": "rattus-record", "version": 2, "players": ["A", "B"],'
            b' "moves": ["A: fly away"]}',
            "not a move",
        ),
        (
            b'{"format": "rattus-record", "version": 2, "players": ["A", "B"],'
            b' "moves": ["B: supply 1"]}',
            "illegal",
        ),
        (
            b'{"format": "rattus-record", "version": 2, "players": ["A", "B"],'
            b' "cards": {"nun_row": ["Chu4", "Chu4", "Chu4", "Chu4", "Chu4"]}}',
            "more Chu4 cards than the game has",
        ),
        (b'{"format": "rattus-record", "version": 1, "players": ["A", "B"]}', "ruling 17"),
        (
            b'{"format": "rattus-record", "version": 2, "players": ["A", "B"], "seed": true}',
            '"seed" must be an integer, not true',
        ),
        (
            b'{"format": "rattus-record", "version": 2, "players": ["A", "B"],'
            b' "cards": {"reshuffles": [["Pea0"], []]}}',
            "cards.reshuffles[1] is empty",
        ),
        (
            b'{"format": "rattus-record", "version": 2, "players": ["A", "B"],'
            b' "moves": ["A: supply 1"], "result": {"vp": {}, "rats": {}, "nuns": 0,'
            b' "dead": [], "winners": []}}',
            "the record states a result but stops in round 1",
        ),
    ],
)
def test_bad_records_give_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    path = tmp_path / "record.json"
    if content is not None:
        path.write_bytes(content)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_console_script_and_module_entry_point(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rattus_net", "selfplay", "--games", "1", "--players", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "games/s" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "rattus_net", "replay", str(tmp_path / "missing.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().startswith("rattus:")
    assert "Traceback" not in proc.stderr


def test_network_seats_can_ask_for_a_colour(capsys: pytest.CaptureFixture[str]) -> None:
    from rattus_net.cli import build_parser

    args = build_parser().parse_args(
        ["join", "127.0.0.1:7000", "--bot", "random", "--colour", "green"]
    )
    assert args.colour == "green"
    args = build_parser().parse_args(["host", "--name", "T", "--players", "2", "--bot", "random"])
    assert args.colour is None  # the first free colour
    code, _, err = run(capsys, "host", "--name", "T", "--players", "2", "--colour", "pink")
    assert code == 2 and "invalid choice: 'pink'" in err and len(err.strip().splitlines()) == 1


def test_a_reader_that_goes_away_gets_no_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rattus verify R | head -3``: once ``head`` has gone, the rest of the output meets a
    closed pipe. That ends the command quietly, not with "rattus: [Errno 32] Broken pipe"."""
    import io
    import os

    sink = os.open(tmp_path / "gone", os.O_WRONLY | os.O_CREAT)

    class ClosedPipe(io.StringIO):
        def write(self, s: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

        def fileno(self) -> int:
            return sink

    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    code = main(["selfplay", "--players", "2", "--games", "1", "--seed", "1", "--bots", "random"])
    assert code == 1
    assert capsys.readouterr().err == ""
    os.close(sink)
