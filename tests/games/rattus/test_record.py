"""Rattus records: written from a game, read back, replayed to the same result; the commands
``rattus selfplay/replay/play --game rattus``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rattus_net.cli import main
from rattus_net.cli_rattus import InputEnded, play_bots, play_terminal
from rattus_net.engine.errors import RecordError
from rattus_net.games.rattus.game import Kind, RattusGame
from rattus_net.games.rattus.moves import StartPlace, format_move
from rattus_net.games.rattus.record import RattusRecord, result_summary
from rattus_net.games.rattus.view import RattusView

from .helpers import COMPS


def test_record_round_trip_and_replay_give_the_same_game() -> None:
    game, table = play_bots(["heuristic", "random", "random"], 11, COMPS)
    text = RattusRecord.from_game(game, table).dumps()
    obj = json.loads(text)
    assert obj["game"] == "rattus" and obj["format"] == "rattus-record"
    assert len(obj["tokens"]["start"]) == 12 and len(obj["tokens"]["supply"]) == 37
    assert obj["moves"][0].startswith("Player ")
    record = RattusRecord.loads(text, COMPS)
    again, table2 = record.replay()
    assert again.is_over and result_summary(again) == result_summary(game)
    assert again.history == game.history
    assert RattusRecord.from_game(again, table2).dumps() == text


def test_replay_stops_where_asked() -> None:
    game, table = play_bots(["random", "random"], 3, COMPS)
    record = RattusRecord.from_game(game, table)
    part, _ = record.replay(10)
    assert not part.is_over and len(part.history) == 10
    assert part.decision is not None


def test_a_record_whose_result_differs_is_refused() -> None:
    game, table = play_bots(["random", "random"], 5, COMPS)
    obj = json.loads(RattusRecord.from_game(game, table).dumps())
    obj["result"]["winner"] = obj["players"][1 - game.config.players.index(obj["result"]["winner"])]
    with pytest.raises(RecordError, match="stored result"):
        RattusRecord.from_dict(obj, COMPS).replay()


def test_a_record_with_an_illegal_move_names_it() -> None:
    game, table = play_bots(["random", "random"], 5, COMPS)
    obj = json.loads(RattusRecord.from_game(game, table).dumps())
    name = obj["moves"][0].split(": ")[0]
    obj["moves"][0] = f"{name}: place Narnia Gallia"
    obj.pop("result")
    with pytest.raises(RecordError, match=r"move 1 \(.*place Narnia Gallia\): 'Narnia'"):
        RattusRecord.from_dict(obj, COMPS).replay()


def test_a_hand_written_record_without_token_order_replays_from_its_seed() -> None:
    obj = {"format": "rattus-record", "version": 2, "game": "rattus", "players": ["A", "B"]}
    a, _ = RattusRecord.from_dict({**obj, "seed": 4}, COMPS).replay()
    b, _ = RattusRecord.from_dict({**obj, "seed": 4}, COMPS).replay()
    assert a.plague == b.plague and a.first_player == b.first_player
    assert a.decision is not None and a.decision.kind is Kind.START


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"game": "cartus"}, '"game" must be "rattus"'),
        ({"players": ["A"]}, "2 to 4 different names"),
        ({"tokens": {"start": ["1 A"]}}, "tokens.start must list the 12 tokens"),
        ({"moves": ["Z: done"]}, "'Z' is not one of the players"),
        ({"moves": ["A: fly"]}, "move 1: 'fly' is not a move"),
    ],
)
def test_bad_records_name_the_field(edit: dict[str, object], message: str) -> None:
    obj = {"format": "rattus-record", "version": 2, "game": "rattus", "players": ["A", "B"]}
    with pytest.raises(RecordError, match=message):
        RattusRecord.from_dict({**obj, **edit}, COMPS)


def test_a_record_stores_why_the_game_ended_and_both_orders() -> None:
    game, table = play_bots(["random"] * 4, 2, COMPS)
    r = game.result
    assert r is not None
    obj = json.loads(RattusRecord.from_game(game, table).dumps())
    names = game.config.players
    assert obj["version"] == 2
    assert obj["result"]["reason"] == r.reason
    assert obj["result"]["ended_by"] == names[r.ender]
    assert obj["result"]["final_round"] == [names[s] for s in r.final_order]
    assert obj["result"]["tie_order"] == [names[s] for s in r.tie_order]
    assert obj["result"]["tie_order"][-1] == names[r.ender]
    assert "dead" not in obj["result"] and set(obj["result"]["struck"]) == set(names)


def test_selfplay_writes_records_that_replay_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "selfplay",
            "--game",
            "rattus",
            "--players",
            "3",
            "--games",
            "2",
            "--bots",
            "heuristic",
            "--record-dir",
            str(tmp_path),
            "--json",
        ]
    )
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    first = data["games"][0]
    assert data["summary"]["game"] == "rattus" and len(first["cubes"]) == 3
    # How the games ended, and how often a tie decided (rules section 4).
    ends = data["summary"]["ended_by"]
    reasons = [g["reason"] for g in data["games"]]
    assert ends["supply"] == reasons.count("supply") / 2
    assert ends["all_cubes_out"] == reasons.count("cubes") / 2
    assert data["summary"]["tie_rate"] == sum(g["tied"] for g in data["games"]) / 2
    code = main(["replay", first["record"]])
    out, _ = capsys.readouterr()
    assert code == 0
    assert f"Winner: {first['winner']}" in out and "palace" in out
    assert "The game ended after" in out
    code = main(["replay", first["record"], "--moves", "12", "--json"])
    state = json.loads(capsys.readouterr()[0])
    assert state["game"] == "rattus" and "to_act" in state and "result" not in state


def test_selfplay_refuses_five_players(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["selfplay", "--game", "rattus", "--players", "5", "--games", "1"])
    assert code == 1 and "2 to 4 players" in capsys.readouterr()[1]


class BotInput(io.StringIO):
    """Standard input typed by a heuristic bot reading seat 0's view (a full game)."""

    def __init__(self) -> None:
        super().__init__()
        from rattus_net.bots.rattus import RattusHeuristicBot

        self.bot = RattusHeuristicBot(1)
        self.game: RattusGame | None = None
        # commands, a bad move, a move by number
        self.lines = ["help", "moves", "neighbours", "narnia", "1"]

    def readline(self, size: int | None = -1) -> str:
        if self.lines:
            return self.lines.pop(0) + "\n"
        assert self.game is not None
        return format_move(self.bot.choose(RattusView(self.game, 0))) + "\n"


def test_play_in_the_terminal_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = BotInput()
    out = io.StringIO()
    import rattus_net.cli_rattus as cr

    real = cr.RattusGame

    def capture(config: object) -> RattusGame:
        game = real(config)  # type: ignore[arg-type]
        stdin.game = game
        return game

    monkeypatch.setattr(cr, "RattusGame", capture)
    game = play_terminal(2, "random", 1, COMPS, stdin, out)
    text = out.getvalue()
    assert game.is_over and "Winner:" in text
    assert "not allowed: 'narnia'" in text and "plague REGION" in text
    assert "1. place Anglia Anglia" in text
    mine = next(m for s, m in game.history if s == 0)
    assert mine == StartPlace(("Anglia", "Anglia"))  # typed as "1"
    # "neighbours" (in the help) lists which regions neighbour which, in play only.
    assert "neighbours\n(which regions neighbour which)" in text
    assert "Anglia    Gallia~, Scandia~" in text
    assert "Hungaria  Germania, Italia, Polonia\n" in text  # Bulgaria, Tartaria: not in play
    # The narration speaks to the player in the second person.
    assert "You start" in text or "Bot 1 starts" in text
    assert "You starts" not in text and "You loses" not in text and "You's" not in text
    assert "ringed" in text  # the rings: on the board (@) and counted in the supply


def test_play_ends_cleanly_when_input_ends(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(InputEnded):
        play_terminal(2, "random", 1, COMPS, io.StringIO("nonsense\n"), io.StringIO())
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        code = main(["play", "--game", "rattus", "--players", "2", "--seed", "1"])
    finally:
        sys.stdin = old
    _, err = capsys.readouterr()
    assert code == 1 and "input ended" in err and "Traceback" not in err


def test_components_is_refused_for_rattus_cartus(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["selfplay", "--components", "x.json", "--games", "1"])
    assert code == 2 and "--components is for --game rattus" in capsys.readouterr()[1]


def test_a_game_with_a_users_components_replays_from_its_record_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rattus_net.games.rattus.loader import default_text

    obj = json.loads(default_text())
    for t in obj["tokens"]:
        if not t["start"]:
            t["face"] = "1 A"  # a deadly variant: every normal token strikes everyone
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(obj))
    records = tmp_path / "records"
    code = main(
        [
            "selfplay",
            "--game",
            "rattus",
            "--players",
            "2",
            "--games",
            "1",
            "--json",
            "--components",
            str(mine),
            "--record-dir",
            str(records),
        ]
    )
    assert code == 0
    path = json.loads(capsys.readouterr()[0])["games"][0]["record"]
    saved = json.loads(Path(path).read_text())
    assert saved["components"]["tokens"][20]["face"] == "1 A"
    assert all(t == "1 A" for t in saved["tokens"]["supply"])
    assert main(["replay", path]) == 0  # without --components: the record carries them
    assert "Winner:" in capsys.readouterr()[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "rattus-record", "version": 1, "game": "chess"}', "unknown game 'chess'"),
        ('{"format": "rattus-record", "version": 3, "game": "rattus"}', "unsupported record"),
        ('{"format": "rattus-record", "version": true, "game": "rattus"}', "unsupported record"),
        (
            '{"format": "rattus-record", "version": 1, "game": "rattus", "players": ["A", "B"]}',
            "version 1 was played under the old rules",
        ),
        ("{oops", "not JSON"),
    ],
)
def test_replay_of_a_bad_record_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(text)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr()[1]
    assert message in err and err.strip().count("\n") == 0
