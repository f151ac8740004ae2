"""Hints where a Rattus player decides (``hints.py``): a class card's ability and risk from
the seat's view, and which plague moves ask for a second Enter."""

from __future__ import annotations

import pytest

from rattus_net.games.rattus.components import CARDS, CODE_OF, face_words
from rattus_net.games.rattus.game import Kind
from rattus_net.games.rattus.hints import ABILITIES, card_hint, card_risk, plague_warning
from rattus_net.games.rattus.moves import Place, Plague, Witch
from rattus_net.games.rattus.view import RattusView

from .helpers import COMPS, after_setup, give, leave, on_empty_board, put, resolve, seat_cubes


def test_face_words_name_the_symbols_after_their_cards() -> None:
    assert face_words("2 M Pea") == "2 M Peasant"
    assert face_words("1 Bou Chi") == "1 Merchant Knight"
    assert face_words("3 Chu Roy") == "3 Monk King"
    assert face_words("5 A") == "5 A"
    assert {t.words() for t in COMPS.tokens if "Mag" in t.symbols} == {
        face_words(t.text()) for t in COMPS.tokens if "Mag" in t.symbols
    }
    assert all("Mag" not in t.words().split() for t in COMPS.tokens)


@pytest.mark.parametrize("card", CARDS)
def test_at_the_start_every_token_is_hidden_and_the_risk_counts_the_cards_symbol(
    card: str,
) -> None:
    game, _ = after_setup(2)
    risk = card_risk(RattusView(game, 0), card)
    assert risk.hidden == len(COMPS.tokens)
    assert risk.marked == sum(1 for t in COMPS.tokens if CODE_OF[card] in t.symbols)
    assert 0 < risk.marked < risk.hidden


def test_the_hint_says_the_ability_and_the_risk() -> None:
    game, _ = after_setup(2)
    view = RattusView(game, 0)
    hint = card_hint(view, "Knight")
    ability, risk = hint.split("\n")
    assert ability == f"Knight: {ABILITIES['Knight']}."
    assert "tokens with the Knight symbol cost you a cube in their region" in risk
    r = card_risk(view, "Knight")
    assert f"{r.marked} of the {r.hidden} tokens hidden from you" in risk


def test_only_tokens_hidden_from_the_seat_count_a_witchs_look_and_turned_up_tokens_do_not() -> None:
    game, table, p = on_empty_board(2)
    q = 1 - p
    put(game, table, "Gallia", "2 M Roy", "3 Chu Roy")
    seat_cubes(game, "Gallia", {p: 1})
    give(game, p, "Witch")
    before = {s: card_risk(RattusView(game, s), "King") for s in (p, q)}
    game.apply(p, Witch(("Gallia", 1), ("Gallia", 2)))
    resolve(game, table)
    mine = card_risk(RattusView(game, p), "King")
    theirs = card_risk(RattusView(game, q), "King")
    # the looker knows two King tokens more; the other seat knows nothing new
    assert (mine.hidden, mine.marked) == (before[p].hidden - 2, before[p].marked - 2)
    assert theirs == before[q]


def _turn_view(n: int = 2) -> tuple[RattusView, int]:
    game, table, p = on_empty_board(n)
    put(game, table, "Gallia", "5 A", "2 M Pea")
    put(game, table, "Italia", "5 A")
    seat_cubes(game, "Gallia", {p: 3, 1 - p: 1})
    seat_cubes(game, "Italia", {1 - p: 2})
    seat_cubes(game, "Hispania", {p: 2})  # no tokens there
    view = RattusView(game, p)
    assert view.decision is not None and view.decision.kind is Kind.TURN
    return view, p


def test_moving_the_plague_onto_your_cubes_and_tokens_warns() -> None:
    view, _ = _turn_view()
    words = plague_warning(view, Plague("Gallia"))
    assert words == "Gallia holds 3 cubes of yours and 2 tokens: the outbreak there may strike you."
    knight = plague_warning(view, Plague("Gallia", via="Germania", knight=True))
    assert knight is not None and "with the Knight's +2" in knight


def test_no_warning_onto_others_cubes_onto_a_region_without_tokens_or_for_other_moves() -> None:
    view, _ = _turn_view()
    assert plague_warning(view, Plague("Italia")) is None  # only the others' cubes
    assert plague_warning(view, Plague("Hispania")) is None  # yours, but no token: no outbreak
    assert plague_warning(view, Plague("Germania")) is None  # nobody's
    assert plague_warning(view, Place("Gallia")) is None
    # the other seat has 1 cube in Gallia: it is warned too
    other = RattusView(view._game, 1 - view.seat)
    assert plague_warning(other, Plague("Gallia")) is not None


def test_in_the_final_round_only_the_knights_plus_two_onto_your_cubes_warns() -> None:
    """Every region breaks out at the end wherever the piece stands: moving it changes
    nothing but where the Knight's +2 counts."""
    game, table, p = on_empty_board(2)
    q = 1 - p
    give(game, q, "Knight")
    put(game, table, "Italia", "4 A")
    seat_cubes(game, "Italia", {q: 1})
    # p places his last cube and moves the plague: the game ends after his turn (end b)
    put(game, table, "Scandia", "5 A")
    leave(game, p, 1)
    game.apply(p, Place("Scandia"))
    game.plague = game.region("Anglia")
    game.apply(p, Plague("Gallia"))
    resolve(game, table)
    view = RattusView(game, q)
    assert view.decision is not None and view.decision.kind is Kind.FINAL
    assert view.decision.player == q
    assert plague_warning(view, Plague("Italia", via="Hispania")) is None
    words = plague_warning(view, Plague("Italia", via="Hispania", knight=True))
    assert words is not None and "Knight's +2" in words
