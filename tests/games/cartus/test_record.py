"""Game records: round trips, replay reproduces the game, a situation can be set up by hand."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.choices import legal_choices
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.moves import Enter, Supply
from rattus_net.games.cartus.record import GameRecord
from rattus_net.kit.errors import RecordError
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end

from .helpers import plague_variant_game


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

    play_to_end(game, table, choose)
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
    assert data["format"] == "rattus-record" and data["version"] == 2
    assert len(data["buildings"]) == 30
    assert len(data["cards"]["nun_row"]) == 5
    assert set(data["cards"]["hands"]) == {"P1", "P2", "P3"}
    assert all(m.split(": ")[0] in {"P1", "P2", "P3"} for m in data["moves"])
    assert data["result"]["winners"] == [game.config.players[s] for s in game.result.winners]


def test_situation_set_up_by_hand() -> None:
    """Fix the nun row, both hands and the first buildings; the rest follows the seed."""
    record = GameRecord.from_dict(
        {
            "format": "rattus-record",
            "version": 2,
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
    data = {"format": "rattus-record", "version": 2, "players": ["A", "B", "C"], "seed": 9}
    a, ta = GameRecord.from_dict(data).replay()
    b, tb = GameRecord.from_dict(data).replay()
    assert [ta.face_of[h] for h in a.nun_row] == [tb.face_of[h] for h in b.nun_row]
    assert ta.chance.shuffles == tb.chance.shuffles
    _c, tc = GameRecord.from_dict({**data, "seed": 10}).replay()
    assert ta.chance.shuffles[0] != tc.chance.shuffles[0]


def test_an_illegal_move_names_its_number() -> None:
    data = {
        "format": "rattus-record",
        "version": 2,
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


# --- what a record must hold (issue 14) ------------------------------------------------------


def _finished_record() -> dict:  # type: ignore[type-arg]
    game, table = random_game(2, 5)
    return json.loads(GameRecord.from_game(game, table).dumps())  # type: ignore[no-any-return]


def test_a_version_1_record_is_refused_in_one_line() -> None:
    data = {**_finished_record(), "version": 1}
    with pytest.raises(RecordError, match=r"version 1 was written before actions became optional"):
        GameRecord.from_dict(data)


def test_a_stated_result_with_moves_that_stop_early_is_refused() -> None:
    data = _finished_record()
    game, _ = GameRecord.from_dict(data).replay()
    cut = next(i for i, (_, m) in enumerate(game.history) if isinstance(m, Enter) and i > 40)
    part, _ = GameRecord.from_dict(data).replay(upto=cut)
    data["moves"] = data["moves"][:cut]
    with pytest.raises(RecordError, match=rf"states a result but stops in round {part.round}$"):
        GameRecord.from_dict(data).replay()
    del data["result"]  # without a result, a record that stops midway is a position
    assert not GameRecord.from_dict(data).replay()[0].is_over


def test_a_differing_result_names_the_field_and_both_values() -> None:
    data = _finished_record()
    nuns = data["result"]["nuns"]
    data["result"]["nuns"] = nuns + 1
    with pytest.raises(
        RecordError, match=rf'"result.nuns" says {nuns + 1} but the moves give {nuns}'
    ):
        GameRecord.from_dict(data).replay()
    data["result"]["nuns"] = nuns
    data["result"]["winners"] = ["nobody"]
    with pytest.raises(RecordError, match=r'"result.winners" says \["nobody"\] but the moves give'):
        GameRecord.from_dict(data).replay()


@pytest.mark.parametrize("seed", [True, 1.5, "3"])
def test_the_seed_must_be_an_integer(seed: object) -> None:
    data = {"format": "rattus-record", "version": 2, "players": ["A", "B"], "seed": seed}
    with pytest.raises(RecordError, match='"seed" must be an integer'):
        GameRecord.from_dict(data)


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ({"reshuffles": [["Pea0"], []]}, r"cards.reshuffles\[1\] is empty"),
        ({"reshuffles": [["Pea0"] * 5]}, r"cards.reshuffles\[0\]: more Pea0 cards"),
        (
            {"nun_row": ["Pea0", "Pea0", "Pea0", "Pea0", "Pea1"], "reshuffles": [["Pea1", "Pea1"]]},
            r"cards.reshuffles\[0\]: more Pea1 cards than can be discarded",
        ),
        ({"nun_rows": ["Pea0"]}, r"cards.nun_rows is not a card list"),
    ],
)
def test_every_cards_entry_is_checked_even_if_never_reached(cards: dict, words: str) -> None:  # type: ignore[type-arg]
    data = {"format": "rattus-record", "version": 2, "players": ["A", "B"], "cards": cards}
    with pytest.raises(RecordError, match=words):
        GameRecord.from_dict(data)


def test_an_unused_reshuffle_of_a_finished_game_is_refused() -> None:
    data = _finished_record()
    used = len(data["cards"].get("reshuffles", []))
    data["cards"]["reshuffles"] = [*data["cards"].get("reshuffles", []), ["Pea0"]]
    with pytest.raises(RecordError, match=rf"cards.reshuffles\[{used}\] is never used"):
        GameRecord.from_dict(data).replay()


def test_plague_variant_survivors_are_survivors_in_the_record_and_report() -> None:
    """With no nuns in the nun row the plague kills everybody who kept a rat; in the variant
    the fewest rats survive, and the record and the report say so (not "dead")."""
    from rattus_net.games.cartus.report import result_dict, result_text

    game, table = plague_variant_game()
    r = game.result
    assert r.nuns == 0 and min(r.rats) > 0 and r.variant_survivors
    survivors = [s for s in range(3) if r.rats[s] == min(r.rats)]
    assert [s for s in range(3) if not r.dead[s]] == survivors
    assert set(r.winners) <= set(survivors)
    text = GameRecord.from_game(game, table).dumps()
    stated = json.loads(text)["result"]
    names = ("Ann", "Bob", "Cid")
    assert stated["dead"] == [names[s] for s in range(3) if s not in survivors]
    again, _ = GameRecord.loads(text).replay()  # the correct result is accepted
    assert again.result == r
    assert result_dict(again, again.result)["dead"] == stated["dead"]
    report = result_text(again, again.result)
    died = next(line for line in report.splitlines() if "Died of the plague" in line)
    assert all(names[s] not in died for s in survivors)
    assert "the fewest rats survive" in report
