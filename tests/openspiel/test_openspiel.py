"""Both games as OpenSpiel games: loading, OpenSpiel's own API test, ISMCTS and random bots
to the end, resampling and stable action numbers (``rattus_net/openspiel``)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the open_spiel wheel is not installed here")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from rattus_net.kit.registry import get_game  # noqa: E402
from rattus_net.openspiel.codec import make_codec  # noqa: E402
from rattus_net.openspiel.game import register_games  # noqa: E402

NAMES = register_games()


def chance(state: Any, rs: Any) -> None:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(int(rs.choice(actions, p=probs)))


def faces(state: Any) -> dict[int, int]:
    """Every face a state (or a sample's table) has decided, by piece."""
    core = state._core
    out = dict(core.engine.faces)
    out.update(core.faces)
    out.update(getattr(core.oracle, "face_of", {}))
    return out


def test_both_games_load_with_their_player_counts() -> None:
    assert set(NAMES) == {"rattus_net_cartus", "rattus_net_rattus"}
    for name, lo, hi in (("rattus_net_cartus", 2, 5), ("rattus_net_rattus", 2, 4)):
        for n in (lo, hi):
            assert pyspiel.load_game(f"{name}(players={n})").num_players() == n
        with pytest.raises(pyspiel.SpielError):
            pyspiel.load_game(f"{name}(players={hi + 1})")


@pytest.mark.parametrize("name", ["rattus_net_cartus", "rattus_net_rattus"])
def test_openspiel_random_simulation_test_with_serialisation(name: str) -> None:
    for n in (2, 3):
        game = pyspiel.load_game(f"{name}(players={n})")
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["rattus_net_cartus(players=2)", "rattus_net_rattus(players=3)"])
def test_openspiel_ismcts_and_random_bot_play_to_the_end(name: str) -> None:
    game = pyspiel.load_game(name)
    rs = np.random.RandomState(7)
    search = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 2, random_state=rs)
    bots = [search] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, game.num_players())]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rs)
        else:
            action = int(bots[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0) or sum(returns) == 0.0
    assert all(r in (0.0, 1.0) or 0 < r < 1 for r in returns)


@pytest.mark.parametrize("name", ["rattus_net_cartus(players=3)", "rattus_net_rattus(players=2)"])
def test_resampled_states_keep_the_seats_information_and_hide_the_rest(name: str) -> None:
    game = pyspiel.load_game(name)
    rs = np.random.RandomState(3)
    state = game.new_initial_state()
    differed = False
    for _ in range(150):
        if state.is_terminal():
            break
        if state.is_chance_node():
            chance(state, rs)
            continue
        seat = state.current_player()
        sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.legal_actions() == state.legal_actions()
        real, dealt = faces(state), faces(sample)
        differed |= any(real[h] != dealt[h] for h in real.keys() & dealt.keys())
        state.apply_action(int(rs.choice(state.legal_actions())))
    assert differed, "no sample ever dealt a hidden face differently"


@pytest.mark.parametrize("name", ["rattus_net_cartus(players=2)", "rattus_net_rattus(players=2)"])
def test_an_action_number_means_the_same_move_wherever_it_is_legal(name: str) -> None:
    """Across two games of different seeds, every legal action keeps one name (its move)."""
    game = pyspiel.load_game(name)
    names: dict[int, str] = {}
    for seed in (1, 2):
        rs = np.random.RandomState(seed)
        state = game.new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                break
            if state.is_chance_node():
                chance(state, rs)
                continue
            for a in state.legal_actions():
                text = state.action_to_string(state.current_player(), a)
                assert names.setdefault(a, text) == text
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert len(names) > 10


def test_a_spelt_move_is_the_move_the_game_plays() -> None:
    """Every legal move of a Rattus Cartus seat spells to actions the codec reads back."""
    cartus = get_game("cartus")
    game = cartus.new_game(cartus.configure(["A", "B"], {}))
    table = cartus.local_table(5)
    cartus.settle(game, table)
    seen_kinds = set()
    for _ in range(40):
        if game.is_over:
            break
        seat = game.to_act()[0]
        view = cartus.view(game, seat)
        codec = make_codec(cartus, view)
        space = view.legal()
        seen_kinds.add(space.kind)
        for i in range(0, len(space), max(1, len(space) // 50)):
            move = space[i]
            spelt = codec.spell(move)
            for k in range(len(spelt)):
                assert spelt[k] in codec.next_actions(view, spelt[:k])
                assert codec.move_of(view, spelt[: k + 1]) == (
                    move if k == len(spelt) - 1 else None
                )
        game.apply(seat, space[0])
        cartus.settle(game, table)
    assert len(seen_kinds) >= 2
