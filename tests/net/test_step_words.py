"""What a player reads while a protocol step runs comes from his game when it says the step
in its own words (``GameType.step_words``), else from the words every game shares."""

from __future__ import annotations

from protocol.messages import CHAINED_KINDS, COMMIT_MOVES, PRIVATE_MIX, SHARES
from rattus_net.kit.registry import games, get_game
from rattus_net.net.netgame import STEP_WORDS, step_text


def test_each_game_names_only_steps_the_protocol_has() -> None:
    for game in games():
        assert set(game.game_type.step_words) <= CHAINED_KINDS, game.name
    assert set(STEP_WORDS) | {"shuffle"} == CHAINED_KINDS  # (a shuffle says its stage)


def test_a_game_s_own_words_for_a_step_and_the_shared_ones_for_the_rest() -> None:
    cartus, rattus = get_game("cartus"), get_game("rattus")
    assert step_text(cartus, COMMIT_MOVES, "cards") == "Choosing supplies"
    assert step_text(cartus, PRIVATE_MIX, "cards") == "Mixing a hand"
    assert step_text(rattus, COMMIT_MOVES, "tokens") == "Everyone choosing at once"
    assert step_text(rattus, SHARES, "tokens") == "Revealing tokens"
