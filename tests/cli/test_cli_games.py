"""`--game` on the network commands, and game ids that name their game where they are listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rattus_net.cli import main
from rattus_net.games.rattus.definition import RattusDefinition
from rattus_net.net.persist import check_game_id, game_of, shown_game_id, split_game_id

GID = "0123456789abcdef" * 2
NOT_YET = "Rattus cannot be played on the network yet"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    "args",
    [
        ("host", "--game", "rattus", "--name", "Attic", "--players", "2"),
        ("host", "--game", "rattus", "--name", "Attic", "--players", "2", "--bot", "random"),
        ("join", "--game", "rattus", "127.0.0.1:9"),
        ("join", "--game", "rattus", "--table", "Attic", "--bot", "random"),
    ],
)
def test_a_game_whose_network_flag_is_off_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    monkeypatch.setattr(RattusDefinition, "network_play", False)  # (as before Rattus tables)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"rattus {args[0]}: {NOT_YET}")
    assert "rattus play --game rattus" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--simultaneous-supply",), "--simultaneous-supply is for --game cartus"),
        (
            ("--buildings", "first-game", "--simultaneous-supply"),
            "--buildings and --simultaneous-supply are for --game cartus",
        ),
        (("--players", "5", "--no-advertise"), "Rattus is for 2 to 4 players"),
    ],
)
def test_a_rattus_table_refuses_what_does_not_apply_to_it_in_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    extra: tuple[str, ...],
    message: str,
) -> None:
    monkeypatch.setenv("RATTUS_DATA_DIR", str(tmp_path))
    args = ["host", "--game", "rattus", "--name", "Attic", "--players", "2", "--bot", "random"]
    code, out, err = run(capsys, *args, *extra)
    assert code in (1, 2) and out == ""
    assert err.count("\n") == 1 and err.startswith("rattus host: ") and message in err


def test_host_and_join_document_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("host", "join"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        out = capsys.readouterr().out
        assert "--game {cartus,rattus}" in out


def test_game_ids_take_their_game_s_name_in_front() -> None:
    assert shown_game_id(GID, "cartus") == f"cartus-{GID}"
    assert shown_game_id(f"cartus-{GID}", "rattus") == f"rattus-{GID}"
    assert split_game_id(f"rattus-{GID}") == ("rattus", GID)
    assert split_game_id(GID) == (None, GID)
    assert check_game_id(f"cartus-{GID}") == check_game_id(GID) == GID
    assert game_of({"game": "rattus"}) == "rattus"
    assert game_of({}) is None and game_of({"game": "chess"}) is None  # (not resumable)


def _unfinished(data: Path, monkeypatch: pytest.MonkeyPatch, game: str | None = "cartus") -> None:
    """An unfinished game of ``game`` (``None``: as an older version saved it, without the
    game's name) in the data folder ``data``, which the commands then use."""
    monkeypatch.setenv("RATTUS_DATA_DIR", str(data))
    meta: dict[str, object] = {
        "table": "Attic",
        "seat": 0,
        "players": ["Ann", "Bob"],
        "status": "playing",
    }
    if game is not None:
        meta["game"] = game
    seat = data / "games" / GID / "seat-1"
    seat.mkdir(parents=True)
    (seat / "meta.json").write_text(json.dumps(meta))


def test_the_resume_list_names_each_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _unfinished(tmp_path, monkeypatch)
    code, out, _ = run(capsys, "resume")
    assert code == 0
    assert f"cartus-{GID}  Rattus Cartus at table 'Attic', seat of Ann, 2 players" in out


def test_the_resume_list_says_in_one_line_that_a_seat_naming_no_game_cannot_be_resumed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _unfinished(tmp_path, monkeypatch, game=None)
    code, out, _ = run(capsys, "resume")
    assert code == 0
    assert out.splitlines()[1:] == [
        f"{GID}  its seat names no game this program plays: it cannot be resumed"
    ]


def test_the_resume_list_refuses_a_nested_meta_json_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A meta.json nested deeper than JSON's recursion (or too large) is one line of the
    list, never a RecursionError."""
    _unfinished(tmp_path, monkeypatch)
    seat = tmp_path / "games" / GID / "seat-1"
    (seat / "meta.json").write_text('{"a": ' * 5_000 + "1" + "}" * 5_000)
    code, out, err = run(capsys, "resume")
    assert code == 0 and "Traceback" not in err
    assert out.splitlines()[1:] == [
        f"{GID}  {seat}: its meta.json nests more than 8 levels deep: it cannot be resumed"
    ]


def test_resume_refuses_an_id_of_another_game_or_no_id_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _unfinished(tmp_path, monkeypatch)
    code, _, err = run(capsys, "resume", f"rattus-{GID}", "--bot", "random")
    assert code == 2
    assert err == f"rattus resume: game {GID[:16]} is a game of Rattus Cartus, not Rattus\n"
    code, _, err = run(capsys, "resume", "cartus-../../etc")
    assert code == 2 and err.startswith("rattus resume: 'cartus-../../etc' is not a game id")


def test_selfplay_refuses_a_bot_the_game_does_not_offer_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game may offer fewer bots than the kit's three (``bot_kinds``)."""
    monkeypatch.setattr(RattusDefinition, "bot_kinds", ("random", "heuristic"))
    code, out, err = run(capsys, "selfplay", "--game", "rattus", "--players", "2",
                         "--bots", "random,search")  # fmt: skip
    assert code == 2 and out == ""
    assert err == "rattus selfplay: Rattus has no search bot; choose from random, heuristic\n"
