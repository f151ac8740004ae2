"""One save format for every game: written whole, off the game's thread, never moving back;
a damaged, foreign or unplayable save is refused in one line; a Rattus game played with a
components file of one's own carries it in its save."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from savewrites import Writes

import rattus_net.kit.saves as saves
from rattus_net.games.rattus.loader import default_text
from rattus_net.kit.offline import OfflineSetup, OfflineTable
from rattus_net.kit.registry import game_names
from rattus_net.kit.saves import KIND, VERSION, SaveError, SaveWriter, read_save, save_path


def human_decisions(table: Any, n: int, rng: random.Random) -> int:
    """Play like a table screen does (``play``, then ``advance``); count the decisions."""
    done = 0
    while done < n and not table.is_over:
        legal = table.definition.legal(table.game, table.seat)
        table.play(legal[rng.randrange(len(legal))])
        table.advance()
        table.wait_saved()  # (so that no state is skipped as an older one: exact counts)
        done += 1
    return done


@pytest.mark.parametrize("game", game_names())
def test_the_game_is_saved_once_per_human_decision_by_the_save_thread(
    tmp_path: Path, writes: Writes, game: str
) -> None:
    path = tmp_path / "save.json"
    setup = OfflineSetup(game, 3, "random", 5)
    table = OfflineTable.new(setup, save_to=path, advance=False)
    table.clock = lambda: 0.0  # the bots never take long here: no save while they play
    table.advance()
    table.wait_saved()
    assert human_decisions(table, 8, random.Random(2)) == 8
    assert len(writes.threads) == 1 + 8  # the start, then once per decision
    assert set(writes.threads) == {"rattus-save-writer"}  # never the thread that plays


def test_the_next_decision_does_not_wait_for_the_disk(tmp_path: Path, writes: Writes) -> None:
    path = tmp_path / "save.json"
    table = OfflineTable.new(OfflineSetup("cartus", 3, "random", 6), save_to=path, advance=False)
    table.clock = lambda: 0.0
    writes.gate.clear()  # the disk is stuck
    table.advance()
    assert table.my_turn and writes.threads == []  # awaited again; nothing written yet
    assert writes.entered.wait(30)  # the writer has taken that state (and is stuck with it)
    table.play(table.definition.legal(table.game, 0)[0])
    table.advance()  # the next decision comes while the first save still waits
    assert table.my_turn and writes.threads == []
    writes.gate.set()
    saved = read_save(path)  # reading waits for the writes handed over
    assert saved is not None
    again = OfflineTable.continued(saved)
    assert again.game.pending == table.game.pending  # the newest state, not the first
    assert len(writes.threads) == 2  # the first state, then the newest


def test_an_older_state_never_overwrites_a_newer_one(tmp_path: Path, writes: Writes) -> None:
    path = tmp_path / "save.json"
    writer = SaveWriter(path)
    writes.gate.clear()
    writer.submit({"n": 0})
    assert writes.entered.wait(30)
    for n in range(1, 5):  # handed over while the first is being written
        writer.submit({"n": n})
    writes.gate.set()
    writer.wait()
    assert json.loads(path.read_text()) == {"n": 4}
    assert writer.submitted == 5 and writer.writes == len(writes.threads) == 2
    writer.submit(None)  # the game is over: the save goes
    writer.wait()
    assert not path.exists() and writer.problem is None


def _body(**changes: Any) -> str:
    table = OfflineTable.new(OfflineSetup("cartus", 3, "random", 1))
    body = saves.save_body(
        table.definition,
        table.game,
        table.table,
        names=table.names,
        bots="random",
        human_seat=0,
        values=table.values,
    )
    assert body is not None
    body.update(changes)
    return json.dumps({k: v for k, v in body.items() if v is not None})


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "damaged (not JSON)"),
        (json.dumps({"kind": "other"}), "written by another version"),
        (json.dumps({"kind": KIND, "version": VERSION + 1}), "written by another version"),
        (json.dumps({"kind": "rattus-offline-save", "version": 2}), "another version"),
        (_body(game="chess"), "of a game this program lacks ('chess')"),
        (_body(names="Ann"), "damaged (bad names)"),
        (_body(bots="genius"), "damaged (bad bots)"),
        (_body(human_seat=3), "damaged (bad seat)"),
        (_body(human_seat=True), "damaged (bad seat)"),
        (_body(values={"buildings": [1]}), "damaged (bad options)"),
        (_body(record=None), "damaged (no record)"),
    ],
)
def test_damaged_or_foreign_saves_are_refused_plainly(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "save.json"
    assert read_save(path) is None
    path.write_text(text)
    with pytest.raises(SaveError, match=re.escape(words)):
        read_save(path)


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ('{"format": "x"}', "does not replay: not a game record"),
        ("{not json", "does not replay"),
    ],
)
def test_a_save_whose_record_does_not_replay_cannot_be_continued(
    tmp_path: Path, record: str, words: str
) -> None:
    path = tmp_path / "save.json"
    path.write_text(_body(record=record))
    saved = read_save(path)
    assert saved is not None and saved.describe() == "Rattus Cartus, round 1 of 9, 3 players"
    with pytest.raises(SaveError, match=re.escape(words)):
        OfflineTable.continued(saved)


def test_each_game_has_its_save_file(tmp_path: Path) -> None:
    paths = {save_path(game, tmp_path) for game in game_names()}
    assert paths == {tmp_path / "offline-cartus.json", tmp_path / "offline-rattus.json"}


def test_a_users_components_file_is_embedded_in_the_save(tmp_path: Path) -> None:
    """Rattus with a components file of one's own: the save's record carries the file's
    content, so the game continues the same (even once the file is gone)."""
    custom = json.loads(default_text())
    custom["neighbours"]["Anglia"][0]["tag"] = "I"  # a file of one's own
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(custom))
    path = tmp_path / "save.json"
    setup = OfflineSetup("rattus", 2, "random", 3, {"components": str(mine)})
    table = OfflineTable.new(setup, save_to=path)
    human_decisions(table, 6, random.Random(1))
    record = json.loads(json.loads(path.read_text())["record"])
    assert record["components"] == custom
    mine.unlink()
    saved = read_save(path)
    assert saved is not None
    again = OfflineTable.continued(saved)
    assert again.definition.state_dict(again.game) == table.definition.state_dict(table.game)
