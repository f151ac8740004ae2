"""The words of Rattus: one helper for sentences in the second person ("You start", "You
lose a cube", "after your turn"), used by the text table's log, a network table's lines and
the result; the result says why the game ended and which orders decided."""

from __future__ import annotations

import re

import pytest

from rattus_net.cli_rattus import play_bots
from rattus_net.games.rattus.game import Event, Result
from rattus_net.games.rattus.person import Persons, cap, third_person
from rattus_net.games.rattus.record import result_summary, summary_result
from rattus_net.games.rattus.report import event_text, result_text
from rattus_net.games.rattus.tablewords import RattusWords
from rattus_net.games.rattus.view import RattusView

from .helpers import COMPS


@pytest.mark.parametrize(
    ("verb", "third"),
    [
        ("lose", "loses"),
        ("pass", "passes"),
        ("have", "has"),
        ("carry", "carries"),
        ("play", "plays"),
    ],
)
def test_third_person(verb: str, third: str) -> None:
    assert third_person(verb) == third


def test_persons_speak_to_their_seat_and_of_the_others() -> None:
    p = Persons(("Ann", "Bob"), seat=0)
    assert p.says(0, "lose", "a cube") == "You lose a cube"
    assert p.says(1, "lose", "a cube") == "Bob loses a cube"
    assert p.says(0, "have", "to act") == "You have to act"
    assert (p.subject(0), p.object(0), p.possessive(0)) == ("You", "you", "your")
    assert (p.subject(1), p.object(1), p.possessive(1)) == ("Bob", "Bob", "Bob's")
    nobody = Persons(("Ann", "Bob"))
    assert nobody.says(0, "start") == "Ann starts"
    assert cap("your turn") == "Your turn" and cap("McKay's turn") == "McKay's turn"


SECOND_PERSON_SLIPS = re.compile(r"\bYou (\w+s)\b|\bYou's\b|\byou's\b")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_event_line_agrees_with_you(seed: int) -> None:
    """Every line of a whole game, told to each seat: never "You loses", "You's turn"."""
    game, _ = play_bots(["heuristic"] * 3, seed, COMPS)
    for seat in range(3):
        said = [event_text(e, game.config.players, seat) for e in RattusView(game, seat).events()]
        lines = [line for line in said if line]
        assert any(line.startswith("You ") for line in lines)
        for line in lines:
            slip = SECOND_PERSON_SLIPS.search(line)
            assert slip is None or slip.group(1) in ("was",), line
        words = RattusWords(game.config.players, seat).lines(RattusView(game, seat), 0)
        assert not any(SECOND_PERSON_SLIPS.search(line) for line in words)


def test_the_start_and_a_loss_in_the_second_person() -> None:
    names = ("Ann", "Bob")
    start = Event("first-player", 0, {})
    loss = Event("loss", 0, {"region": "Gallia", "why": "M"})
    end = Event("end-trigger", 0, {"reason": "cubes"})
    assert event_text(start, names, 0) == "You start"
    assert event_text(start, names, 1) == "Ann starts"
    assert event_text(loss, names, 0) == "  You lose a cube in Gallia (M)"
    assert event_text(loss, names, 1) == "  Ann loses a cube in Gallia (M)"
    assert event_text(end, names, 0) == (
        "the game ends after your turn: all 20 of your cubes are on the board and in the palace"
    )


def tied_result() -> Result:
    """Ann (seat 0) ended the game; Cid and Dan tie on 9: Cid, nearer Ann's left, wins."""
    return Result(
        board=(5, 3, 8, 9),
        palace=(1, 0, 1, 0),
        struck=(4, 6, 2, 3),
        final_order=(3, 2, 1),
        tie_order=(1, 2, 3, 0),
        winner=2,
        reason="supply",
        ender=0,
    )


def test_the_result_says_why_the_orders_and_the_tie_break() -> None:
    names = ("Ann", "Bob", "Cid", "Dan")
    lines = result_text(tied_result(), Persons(names))
    assert lines[0] == "The game ended after Ann's turn: the rat supply ran out."
    assert lines[1] == "Final round: Dan, Cid, Bob."
    assert "  Cid   9 cubes (8 on the board, 1 in the palace; 2 struck in the game)" in lines
    assert lines[-1] == (
        "Winner: Cid. Cid and Dan tied on 9 cubes: a tie goes to the player who would have had "
        "the next turn (from Ann's left: Bob, Cid, Dan, Ann)."
    )
    mine = result_text(tied_result(), Persons(names, 0))
    assert mine[0] == "The game ended after your turn: the rat supply ran out."
    assert mine[-1].endswith("(from your left: Bob, Cid, Dan, You).")


def test_a_stored_result_words_the_same() -> None:
    game, _ = play_bots(["random"] * 4, 7, COMPS)
    r = game.result
    assert r is not None
    again, names = summary_result(result_summary(game))
    assert again == r and names == game.config.players
