"""End of the game: every scoring category with its ties, the plague and the winner (rules 7).

Each test plays a game to its end, then sets the end-of-game state it needs (influence, hands,
rats, VP tokens) and scores it again with ``scoring.score``, which reads only that state."""

from __future__ import annotations

from collections.abc import Sequence

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.data import FLUTE, GOLD, JOKER, PASS, SWORD, Building
from rattus_net.games.cartus.game import Game
from rattus_net.games.cartus.scoring import Result, gold_points, majority, score

from .helpers import NUN_ROW_10, P, Scenario, run_to_end

WITH_TREASURY = [
    Building.FARM,
    Building.MARKETPLACE,
    Building.MONASTERY,
    Building.CASTLE,
    Building.FORTUNE_TELLER,
    Building.TREASURY,
]


def finished(n: int, treasury: bool = False, survivors: bool = False) -> Game:
    """A finished game with a blank end state: no influence, empty hands, no rats, no VP."""
    buildings = WITH_TREASURY if treasury else list(D.FIRST_GAME)
    sc = Scenario(n, buildings=buildings, plague_survivors=survivors)
    run_to_end(sc)
    g = sc.game
    assert g.is_over
    g.influence = [[0] * n for _ in range(6)]
    g.arrival = [[0] * n for _ in range(6)]
    g.hands = [[] for _ in range(n)]
    g.rats = [0] * n
    g.vp = [0] * n
    return g


def set_hands(g: Game, hands: Sequence[Sequence[int]]) -> None:
    """Give each seat a hand of these faces (new handles, faces public as at the end)."""
    nxt = max(g.faces) + 1000
    for seat, faces in enumerate(hands):
        g.hands[seat] = []
        for f in faces:
            g.faces[nxt] = f
            g.public.add(nxt)
            g.hands[seat].append(nxt)
            nxt += 1


def set_track(g: Game, klass: int, spaces: Sequence[int], arrived: Sequence[int] = ()) -> None:
    """Influence per seat on one track; ``arrived`` orders discs that share a space (seats
    listed first got there first)."""
    g.influence[klass] = list(spaces)
    order = list(arrived) + [s for s in range(g.n) if s not in arrived]
    for t, s in enumerate(order):
        g.arrival[klass][s] = t + 1


def test_influence_10_5_2_with_four_players() -> None:
    g = finished(4)
    set_track(g, 0, [3, 7, 1, 5])
    r = score(g)
    assert r.classes[0].vp == (2, 10, 0, 5)
    assert r.classes[0].ranking == (1, 3, 0, 2)


def test_influence_third_place_scores_with_five_players() -> None:
    g = finished(5)
    set_track(g, 2, [1, 2, 3, 4, 5])
    assert score(g).classes[2].vp == (0, 0, 2, 5, 10)


def test_influence_no_third_place_with_three_players() -> None:
    g = finished(3)
    set_track(g, 1, [3, 2, 1])
    assert score(g).classes[1].vp == (10, 5, 0)


def test_influence_two_players_10_and_5() -> None:
    g = finished(2)
    set_track(g, 1, [1, 2])
    assert score(g).classes[1].vp == (5, 10)


def test_no_influence_scores_nothing() -> None:
    g = finished(4)
    set_track(g, 3, [0, 4, 0, 0])
    assert score(g).classes[3].vp == (0, 10, 0, 0)
    assert score(g).classes[4].vp == (0, 0, 0, 0)


def test_influence_ties_are_never_shared_the_lower_disc_ranks_higher() -> None:
    g = finished(4)
    set_track(g, 5, [4, 4, 4, 1], arrived=[2, 0, 1])
    assert score(g).classes[5].vp == (5, 2, 10, 0)


def test_hand_majority_population_and_jokers_3_vp() -> None:
    g = finished(3)
    set_hands(g, [[P(0), JOKER], [P(1), SWORD, FLUTE, PASS, GOLD], []])
    r = score(g)
    assert r.hand_counts["population"] == (2, 1, 0)
    assert r.categories["population"] == (3, 0, 0)


def test_hand_majority_tie_every_tied_player_1_vp() -> None:
    g = finished(3)
    set_hands(g, [[P(0)], [JOKER], []])
    assert score(g).categories["population"] == (1, 1, 0)


def test_special_majorities_2_vp_tie_1_vp() -> None:
    g = finished(3)
    set_hands(g, [[SWORD, SWORD, FLUTE], [SWORD, FLUTE, PASS], [PASS, FLUTE]])
    r = score(g)
    assert r.categories["Sword"] == (2, 0, 0)
    assert r.categories["Flute"] == (1, 1, 1)
    assert r.categories["Pass"] == (0, 1, 1)


def test_a_majority_needs_at_least_one_card() -> None:
    g = finished(3)
    set_hands(g, [[], [], []])
    r = score(g)
    for kind in ("population", "Sword", "Flute", "Pass", "Gold"):
        assert r.categories[kind] == (0, 0, 0)


def test_gold_scores_only_if_a_treasury_was_in_the_game() -> None:
    g = finished(3)
    set_hands(g, [[GOLD, GOLD], [GOLD], []])
    assert score(g).categories["Gold"] == (0, 0, 0)
    g = finished(3, treasury=True)
    set_hands(g, [[GOLD, GOLD], [GOLD], []])
    assert score(g).categories["Gold"] == (6, 3, 0)


def test_gold_tie_for_most_splits_9_rounded_down_and_no_second() -> None:
    g = finished(4, treasury=True)
    set_hands(g, [[GOLD, GOLD], [GOLD, GOLD], [GOLD], []])
    assert score(g).categories["Gold"] == (4, 4, 0, 0)
    set_hands(g, [[GOLD], [GOLD], [GOLD], []])
    assert score(g).categories["Gold"] == (3, 3, 3, 0)
    set_hands(g, [[GOLD], [GOLD], [GOLD], [GOLD]])
    assert score(g).categories["Gold"] == (2, 2, 2, 2)


def test_gold_tie_for_second_splits_3_rounded_down() -> None:
    g = finished(4, treasury=True)
    set_hands(g, [[GOLD, GOLD], [GOLD], [GOLD], []])
    assert score(g).categories["Gold"] == (6, 1, 1, 0)
    set_hands(g, [[GOLD, GOLD], [GOLD], [GOLD], [GOLD]])
    assert score(g).categories["Gold"] == (6, 1, 1, 1)


def test_gold_no_second_place_with_two_players() -> None:
    g = finished(2, treasury=True)
    set_hands(g, [[GOLD, GOLD], [GOLD]])
    assert score(g).categories["Gold"] == (6, 0)


def test_gold_second_place_needs_a_gold_card() -> None:
    assert gold_points([1, 0, 0]) == [6, 0, 0]
    assert majority([0, 0], 3, 1) == [0, 0]


def test_vp_tokens_are_1_vp_each() -> None:
    g = finished(3)
    g.vp = [4, 0, 1]
    r = score(g)
    assert r.categories["tokens"] == (4, 0, 1)
    assert r.totals == (4, 0, 1)


def test_totals_add_every_category() -> None:
    g = finished(4, treasury=True)
    set_track(g, 0, [3, 2, 1, 0])
    set_hands(g, [[GOLD], [SWORD], [P(0)], []])
    g.vp = [0, 0, 0, 5]
    r = score(g)
    assert r.totals == (10 + 6, 5 + 2, 2 + 3, 5)


# --- the plague and the winner -------------------------------------------------------------------


def nuns_of_default_row() -> int:
    return sum(D.face_nuns(f) for f in NUN_ROW_10)


def test_plague_kills_players_with_more_rats_than_nuns() -> None:
    g = finished(3)
    nuns = nuns_of_default_row()
    g.rats = [nuns, nuns + 1, 0]
    g.vp = [1, 5, 0]
    r = score(g)
    assert r.nuns == nuns == 10
    assert r.dead == (False, True, False)
    assert r.winners == (0,)  # Bob had the most VP but died


def test_winner_tie_goes_to_fewer_rats_then_shared() -> None:
    g = finished(3)
    g.vp = [3, 3, 1]
    g.rats = [5, 4, 0]
    assert score(g).winners == (1,)
    g.rats = [4, 4, 0]
    assert score(g).winners == (0, 1)


def test_the_tie_break_is_said_by_the_report_and_the_end_screen() -> None:
    """A tie on VP broken by rats: ``rattus replay``'s report, the end screen and the
    replay's last step say who tied and what decided, in the report's one wording."""
    from rattus_net.games.cartus.definition import CartusGame
    from rattus_net.games.cartus.report import result_text, tie_break_text
    from rattus_net.games.cartus.ui.render import verdict
    from rattus_net.games.cartus.view import PlayerView

    g = finished(3)
    names = g.config.players
    g.vp = [3, 3, 1]
    g.rats = [5, 4, 0]
    g.result = score(g)
    tie = tie_break_text(g.result, names)
    assert tie == (
        f"{names[0]} and {names[1]} tied on {g.result.totals[0]} VP: a tie goes to the one "
        f"with fewer rats ({names[0]} 5, {names[1]} 4)."
    )
    assert f"  {tie}" in result_text(g, g.result).splitlines()
    assert f"Tie-break: {tie}" in verdict(PlayerView(g, 2)).plain
    assert CartusGame().tie_break(g, names, None) == f"Winner: {names[1]}. {tie}"
    g.rats = [4, 4, 0]
    g.result = score(g)
    shared = tie_break_text(g.result, names)
    assert shared is not None and shared.endswith("tied on rats too and share the win.")
    g.vp = [3, 2, 1]
    g.result = score(g)
    assert tie_break_text(g.result, names) is None
    assert "Tie-break" not in verdict(PlayerView(g, 2)).plain
    assert CartusGame().tie_break(g, names, None) is None


def test_everybody_dead_nobody_wins() -> None:
    g = finished(3)
    g.rats = [11, 12, 13]
    r = score(g)
    assert r.dead == (True, True, True)
    assert r.winners == ()


def test_survivors_variant_fewest_rats_survive() -> None:
    g = finished(3, survivors=True)
    g.rats = [11, 12, 11]
    g.vp = [1, 9, 2]
    r: Result = score(g)
    assert r.variant_survivors
    assert r.winners == (2,)
    assert r.dead == (False, True, False)  # the fewest rats survive: survivors, not dead


def test_survivors_variant_is_off_by_default() -> None:
    g = finished(3)
    g.rats = [11, 12, 11]
    r = score(g)
    assert not r.variant_survivors and r.dead == (True, True, True) and r.winners == ()


def test_the_end_of_a_played_game_turns_everything_up() -> None:
    sc = Scenario(3)
    run_to_end(sc)
    g = sc.game
    assert all(h in g.public for hand in g.hands for h in hand)
    assert all(h in g.public for h in g.nun_row)
    assert g.result.nun_row == NUN_ROW_10
