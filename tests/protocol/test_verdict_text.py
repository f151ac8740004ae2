"""What ``rattus verify`` prints is the game's own: Rattus speaks of cubes and the winner and
counts no hand-mixing proof (it has no hands); Rattus Cartus's report is the one it always
was; every string of a record is made safe before it reaches a terminal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from protocol.verdict import DAMAGED, FAIR, Verdict
from rattus_net.cli import main
from rattus_net.games.cartus.secure import CartusSecure, result_sentence
from rattus_net.games.rattus.secure import RattusSecure, result_lines

OLD_JSON_KEYS = {
    "kind", "fair", "players", "fingerprints", "game_id", "messages", "shuffles_verified",
    "shares_verified", "mixes_verified", "draws", "result", "seats", "cheater", "reason",
    "evidence", "notes", "seconds",
}  # fmt: skip


def test_a_rattus_record_verifies_in_rattus_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["selfplay", "--game", "rattus", "--players", "3", "--games", "1", "--seed", "3"]
    assert main([*args, "--secure", "--record-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    record = str(tmp_path / "game-3.rattusnet")
    assert main(["verify", record]) == 0
    text = capsys.readouterr().out
    assert main(["verify", record, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert text.startswith("FAIR") and "hand-mixing" not in text and "building" not in text
    result = data["result"]
    for name, total in result["cubes"].items():
        palace = result["palace"][name]
        board = f"{total - palace} on the board, {palace} in the palace"
        assert any(line.strip().startswith(name) and board in line for line in text.splitlines())
    assert f"Winner: {result['winner']}," in text or f"Winner: {result['winner']}." in text
    assert "The game ended after" in text and "Final round: " in text
    assert "{" not in text  # no raw dict
    # --json keeps every field and adds the game's words.
    assert set(data) >= OLD_JSON_KEYS and data["game"] == "rattus" and data["randoms"] > 0
    assert data["mixes_verified"] == 0
    assert [f"  {line}" for line in data["report"]] == text.splitlines()[4:]


def _rattus_result(cubes: dict[str, int], winner: str) -> dict[str, Any]:
    """A stored result (``result_summary``): Bob, the second seat, ended the game."""
    names = list(cubes)
    bob = names.index("Bob") if "Bob" in names else 1
    return {
        "cubes": cubes,
        "palace": {name: 1 for name in cubes},
        "struck": {name: 3 for name in cubes},
        "ended_by": names[bob],
        "reason": "supply",
        "final_round": [names[(bob - i) % len(names)] for i in range(1, len(names))],
        "tie_order": [names[(bob + i) % len(names)] for i in range(1, len(names) + 1)],
        "winner": winner,
    }


def test_rattus_result_says_when_the_tie_break_decided() -> None:
    plain = result_lines(_rattus_result({"Ann": 7, "Bob": 5}, "Ann"))
    assert plain == [
        "The game ended after Bob's turn: the rat supply ran out.",
        "Final round: Ann.",
        "  Ann   7 cubes (6 on the board, 1 in the palace; 3 struck in the game)",
        "  Bob   5 cubes (4 on the board, 1 in the palace; 3 struck in the game)",
        "Winner: Ann, with the most cubes (7).",
    ]
    tied = result_lines(_rattus_result({"Ann": 7, "Bob": 7, "Cy": 1}, "Ann"))
    # Bob ended the game: the tie goes from his left, Bob last (Cy, Ann, Bob): Ann wins.
    assert tied[-1] == (
        "Winner: Ann. Ann and Bob tied on 7 cubes: a tie goes to the player who would have had "
        "the next turn (from Bob's left: Cy, Ann, Bob)."
    )
    assert tied[1] == "Final round: Ann, Cy."
    assert "   1 cube  (0 on the board" in tied[4]


def test_foreign_names_in_a_rattus_result_cannot_drive_the_terminal() -> None:
    evil = "Eve\x1b[2J\u202e"
    v = Verdict(
        kind=FAIR,
        players=("Ann", evil),
        fingerprints=("aa", "bb"),
        game_id="00" * 32,
        result=_rattus_result({"Ann": 3, evil: 4}, evil),
        secure=RattusSecure(),
    )
    text, report = v.text(), v.to_dict()["report"]
    for out in (text, *report):
        assert "\x1b" not in out and "\u202e" not in out
    assert "Winner: Eve\\x1b[2J\\u202e" in text
    assert any("Eve\\x1b[2J\\u202e" in line and "4 cubes" in line for line in report)


def _cartus(kind: str, draws: int) -> Verdict:
    return Verdict(
        kind=kind,
        players=("Ann", "B\x07b"),
        fingerprints=("aa", "bb"),
        game_id="ab" * 32,
        messages=306,
        shuffles_verified=3,
        shares_verified=369,
        mixes_verified=22,
        draws=draws,
        randoms=2,
        result={"vp": {"Ann": 47, "B\x07b": 25}, "rats": {}, "nuns": 1, "dead": [], "winners": []},
        reason="bad",
        seconds=0.5,
        secure=CartusSecure(),
    )


def test_the_rattus_cartus_report_reads_as_sentences() -> None:
    """The lines of Rattus Cartus's report (the randoms not counted): the result a sentence,
    not a Python dict."""
    assert _cartus(FAIR, 9).text() == (
        f"FAIR: game {'ab' * 8} verified in 0.50 s\n"
        "  seat 1: Ann    (key aa)\n"
        "  seat 2: B\\x07b (key bb)\n"
        "  306 signed messages, 3 shuffle proofs, 22 hand-mixing proofs, 369 decryption-share "
        "proofs checked\n"
        "  9 building draws (commit-reveal rounds) checked\n"
        "  result: Ann 47 VP, B\\x07b 25 VP; nobody wins"
    )
    assert _cartus(DAMAGED, 0).text().splitlines()[1:] == [
        "  seat 1: Ann    (key aa)",
        "  seat 2: B\\x07b (key bb)",
        "  306 signed messages, 3 shuffle proofs, 22 hand-mixing proofs, 369 decryption-share "
        "proofs checked",
    ]


def test_the_rattus_cartus_result_names_the_winners_in_words() -> None:
    result = {"vp": {"Bob": 25, "Ann": 47, "Cy": 47}, "winners": ["Ann"]}
    assert result_sentence(result) == "Ann 47 VP, Cy 47 VP, Bob 25 VP; Ann wins"
    result["winners"] = ["Ann", "Cy"]
    assert result_sentence(result).endswith("; Ann and Cy share the win")
    assert "{" not in _cartus(FAIR, 0).text()
