"""The plague as a seat knows it (``outlook.py``): its rats against the nuns seen, and the worst
case of the nun-row cards it has not seen, from its own view only."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.outlook import PlagueOutlook, Verdict, plague_outlook, unseen_pool

from .helpers import NUN_ROW_10, B, C, K, M, P, Scenario, set_rats

ROW = [D.Building.FORTUNE_TELLER, D.Building.PALACE]


def test_nothing_seen_the_whole_row_is_unknown() -> None:
    sc = Scenario(3, hands=[[P(4), B(4), C(4), K(4), M(4)]], rows=[ROW])
    o = plague_outlook(sc.view(0))
    assert (o.seen, o.seen_nuns, o.unseen) == (0, 0, 5)
    # 24 cards with no nun exist: the worst case is 0; the most, five 4-nun cards
    assert (o.fewest, o.most) == (0, 20)
    assert (o.rats, o.worst, o.best) == (10, 0, 20)
    assert o.verdict is Verdict.AT_RISK


def test_known_and_unknown_positions_after_a_look() -> None:
    """Seat 0 looks at positions 1 and 2 (Peasantry 4, Bourgeoisie 4): 8 nuns known, the three
    others unknown to it, whatever they really are (here 1, 1 and 0)."""
    sc = Scenario(3, nun_row=NUN_ROW_10, hands=[[M(0)]], rows=[ROW])
    sc.round([(0, 0, [M(0)]), (1, 0, []), (2, 1, [])])
    view = sc.view(0)
    assert sorted(view.nun_row_known) == [0, 1]
    o = plague_outlook(view)
    assert (o.seen, o.seen_nuns, o.unseen, o.fewest) == (2, 8, 3, 0)
    assert o.most == 12 and o.worst == 8 and o.best == 20
    set_rats(sc.game, 0, 8)
    assert plague_outlook(sc.view(0)).verdict is Verdict.SAFE  # 8 rats: not more than 8 nuns
    set_rats(sc.game, 0, 9)
    assert plague_outlook(sc.view(0)).verdict is Verdict.AT_RISK


def test_the_outlook_never_reads_the_hidden_nun_row() -> None:
    """Two games that differ only in the nun-row cards seat 0 has not seen give it the same
    outlook."""
    outlooks = []
    for row in (NUN_ROW_10, (P(4), B(4), C(0), K(0), M(0))):
        sc = Scenario(3, nun_row=row, hands=[[M(0)]], rows=[ROW])
        sc.round([(0, 0, [M(0)]), (1, 0, []), (2, 1, [])])
        outlooks.append(plague_outlook(sc.view(0)))
    assert outlooks[0] == outlooks[1]


@dataclass
class SeenView:
    """The parts of a seat's view the outlook reads (a seat that has seen many cards)."""

    hand: list[int] = field(default_factory=list)
    laid: list[int] = field(default_factory=list)
    discard_pile: list[int] = field(default_factory=list)
    known_in_hands: dict[int, list[int]] = field(default_factory=dict)
    nun_row_known: dict[int, int] = field(default_factory=dict)
    rats: list[int] = field(default_factory=lambda: [7, 0])
    seat: int = 0


def zero_nun_cards() -> list[int]:
    return [f for f in D.population_faces() if D.face_nuns(f) == 0]


def test_the_worst_case_counts_only_cards_that_can_still_lie_in_the_row() -> None:
    """Every card with no nun is seen elsewhere (hand, discard pile, another hand): the two
    unseen cards show at least one nun each."""
    zeros = zero_nun_cards()
    assert len(zeros) == 24
    view = SeenView(
        hand=[*zeros[:4], D.SWORD, D.JOKER],
        discard_pile=zeros[4:20],
        known_in_hands={1: zeros[20:24]},
        nun_row_known={0: P(4), 2: C(3), 4: K(1)},
    )
    pool = unseen_pool(view)  # type: ignore[arg-type]
    assert all(D.face_nuns(f) > 0 for f in pool)
    assert sum(pool.values()) == 84 - 24 - 3
    o = plague_outlook(view)  # type: ignore[arg-type]
    assert (o.seen_nuns, o.unseen, o.fewest, o.most) == (8, 2, 2, 8)
    assert (o.worst, o.rats) == (10, 7) and o.verdict is Verdict.SAFE


def test_rats_a_choice_would_leave_are_marked_as_after() -> None:
    view = SeenView(nun_row_known={0: P(4)})
    assert not plague_outlook(view).after  # type: ignore[arg-type]
    o = plague_outlook(view, rats=5)  # type: ignore[arg-type]
    assert o.after and o.rats == 5 and "(after this)" in o.words()


@pytest.mark.parametrize(
    ("rats", "verdict", "second_line"),
    [
        (6, Verdict.SAFE, "Worst case 8 nuns vs your 6 rats: safe, 2 rats to spare."),
        (8, Verdict.SAFE, "Worst case 8 nuns vs your 8 rats: safe, no rat to spare."),
        (11, Verdict.AT_RISK, "Worst case 8 nuns vs your 11 rats: 3 too many; up to 20 nuns."),
        (21, Verdict.DOOMED, "Worst case 8 nuns vs your 21 rats: dead even at best: 20 nuns."),
    ],
)
def test_the_words_say_the_known_nuns_and_the_worst_case(
    rats: int, verdict: Verdict, second_line: str
) -> None:
    o = PlagueOutlook(rats=rats, seen=2, seen_nuns=8, unseen=3, fewest=0, most=12)
    assert o.verdict is verdict
    first, second = o.words().split("\n")
    assert first == "Plague: nuns seen 8 (2 of 5 cards); the 3 unseen: 0 to 12 more."
    assert second == second_line


def test_the_whole_row_seen_leaves_no_case() -> None:
    o = PlagueOutlook(rats=10, seen=5, seen_nuns=10, unseen=0, fewest=0, most=0)
    assert o.verdict is Verdict.SAFE
    assert o.words().split("\n")[1] == "10 nuns vs your 10 rats: at the plague you survive."
    dead = PlagueOutlook(rats=11, seen=5, seen_nuns=10, unseen=0, fewest=0, most=0)
    assert dead.verdict is Verdict.DOOMED and "you die" in dead.words()
