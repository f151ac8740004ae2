"""Game records: round trips, replay reproduces the game, a situation can be set up by hand."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rattus_net.engine import data as D
from rattus_net.engine.choices import legal_choices
from rattus_net.engine.config import BuildingSelection, GameConfig
from rattus_net.engine.game import Game
from rattus_net.engine.local import LocalTable, run
from rattus_net.engine.moves import Enter, Supply
from rattus_net.engine.record import GameRecord, RecordError


def random_game(n: int, seed: int, simultaneous: bool = False) -> tuple[Game, LocalTable]:
    rng = random.Random(seed)
    game = Game(
        GameConfig(
            GameConfig.default_names(n),
            BuildingSelection.random_cards(),
            simultaneous_supply=simultaneous,
        )
    )
    table = LocalTable(seed)

    def choose(g: Game, seat: int):  # type: ignore[no-untyped-def]
        space = legal_choices(g, seat)
        return space[rng.randrange(len(space))]

    run(game, table, choose)
    return game, table


@settings(max_examples=12, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000), simultaneous=st.booleans())
def test_replaying_a_record_reproduces_the_game(n: int, seed: int, simultaneous: bool) -> None:
    game, table = random_game(n, seed, simultaneous)
    text = GameRecord.from_game(game, table).dumps()
    again, _ = GameRecord.loads(text).replay()
    assert again.history == game.history
    assert again.result == game.result
    assert again.influence == game.influence and again.rats == game.rats
    # The text is stable: reading and writing gives the same bytes.
    assert GameRecord.loads(text).dumps() == text


def test_record_is_readable_json_with_names() -> None:
    game, table = random_game(3, 11)
    data = json.loads(GameRecord.from_game(game, table).dumps())
    assert data["format"] == "rattus-record" and data["version"] == 1
    assert len(data["buildings"]) == 30
    assert len(data["cards"]["nun_row"]) == 5
    assert set(data["cards"]["hands"]) == {"P1", "P2", "P3"}
    assert all(m.split(": ")[0] in {"P1", "P2", "P3"} for m in data["moves"])
    assert data["result"]["winners"] == [game.config.players[s] for s in game.result.winners]


def test_a_changed_result_is_refused() -> None:
    game, table = random_game(2, 3)
    data = json.loads(GameRecord.from_game(game, table).dumps())
    data["result"]["nuns"] += 1
    with pytest.raises(RecordError, match="result differs"):
        GameRecord.from_dict(data).replay()


def test_situation_set_up_by_hand() -> None:
    """Fix the nun row, both hands and the first buildings; the rest follows the seed."""
    record = GameRecord.from_dict(
        {
            "format": "rattus-record",
            "version": 1,
            "players": ["Ann", "Bob"],
            "first_player": "Bob",
            "cards": {
                "nun_row": ["Chu4", "Chu4", "Roy4", "Mag0", "Pea0"],
                "hands": {
                    "Ann": ["Pea1", "Pea2", "Pea3", "Pea4", "Pea0"],
                    "Bob": ["Roy0", "Roy1", "Roy2", "Roy3", "Mag4"],
                },
                "deck": ["Bou0", "Bou1"],
                "building_deck": ["Farm/A", "Palace/D"],
            },
            "moves": ["Bob: supply 1", "Ann: supply 2 look 1"],
        }
    )
    game, table = record.replay()
    faces = table.face_of  # the nun row is face down: only the table knows it
    assert [faces[h] for h in game.nun_row] == [
        D.parse_face(c) for c in ("Chu4", "Chu4", "Roy4", "Mag0", "Pea0")
    ]
    assert game.start_player == 1
    assert [D.building_card_code(faces[h]) for h in game.row] == ["Farm/A", "Palace/D"]
    # Bob drew the top two deck cards with Farm/A's "draw 4": Bou0, Bou1 and two more.
    bob = sorted(D.face_code(faces[h]) for h in game.hands[1])
    assert "Bou0" in bob and "Bou1" in bob and len(bob) == 9
    # Ann looked at nun-row position 1 (Palace/D: draw 2, look at 1).
    assert game.nun_row[0] in game.seen[0]
    # The game goes on from there with moves written by hand.
    game.apply(1, Enter(0, (D.parse_face("Roy0"),)))
    assert game.laid[1]


def test_same_seed_fills_unfixed_cards_the_same_way() -> None:
    data = {"format": "rattus-record", "version": 1, "players": ["A", "B", "C"], "seed": 9}
    a, ta = GameRecord.from_dict(data).replay()
    b, tb = GameRecord.from_dict(data).replay()
    assert [ta.face_of[h] for h in a.nun_row] == [tb.face_of[h] for h in b.nun_row]
    assert ta.chance.shuffles == tb.chance.shuffles
    _c, tc = GameRecord.from_dict({**data, "seed": 10}).replay()
    assert ta.chance.shuffles[0] != tc.chance.shuffles[0]


def test_an_illegal_move_names_its_number() -> None:
    data = {
        "format": "rattus-record",
        "version": 1,
        "players": ["A", "B"],
        "moves": ["A: supply 1", "B: supply 9"],
    }
    with pytest.raises(RecordError, match=r"move 2 \(B: supply 9\) is illegal"):
        GameRecord.from_dict(data).replay()


def test_replay_stops_where_asked() -> None:
    game, table = random_game(4, 21)
    record = GameRecord.from_game(game, table)
    part, _ = record.replay(upto=5)
    assert len(part.history) == 5 and not part.is_over
    assert part.history == game.history[:5]
    assert Supply in {type(m) for _, m in part.history}
