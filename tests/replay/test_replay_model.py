"""The replay model (rattus_net/kit/replay.py) and the record files it reads
(rattus_net/replays.py): both games, offline records and saves, network records finished and
aborted."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from recordkit import aborted_record, random_chooser

from protocol.memnet import MemoryNetwork
from protocol.seeded import seeded_params
from rattus_net.games.cartus.config import BuildingSelection, GameConfig
from rattus_net.kit.errors import RecordError
from rattus_net.kit.registry import get_game
from rattus_net.kit.replay import EVERYTHING, replay_record
from rattus_net.kit.saves import save_body, write_file
from rattus_net.replays import (
    REPLAYS_DIR,
    keep_finished,
    open_replay,
    recent_games,
    signed_replay,
)
from rattus_net.selfplay import play_game


@lru_cache(maxsize=4)
def finished(name: str, players: int = 3, seed: int = 4) -> tuple[Any, str]:
    game = get_game(name)
    played = play_game(game, players, seed, ["heuristic"], {})
    return played.game, game.record_of(played.game, played.table, {})


@pytest.mark.parametrize("name", ["cartus", "rattus"])
def test_every_move_is_a_step_with_the_game_after_it(name: str) -> None:
    end, text = finished(name)
    game = get_game(name)
    replay = replay_record(game, text, {})
    assert len(replay) == len(end.history) + 1  # the start, then each move
    assert replay.steps[0].seat is None and replay.steps[0].turn == 0
    for step, (seat, move) in zip(replay.steps[1:], end.history, strict=True):
        assert step.seat == seat
        assert step.text == f"{end.config.players[seat]}: {game.format_move(move)}"
    # each step's game is the record replayed to that move
    record = game.read_record(text, {})
    for i in (1, len(replay) // 2, replay.last):
        upto, _ = record.replay(i)
        assert game.state_dict(replay.steps[i].state) == game.state_dict(upto)
    assert replay.steps[-1].state.is_over
    assert game.outcome(replay.steps[-1].state) == game.outcome(end)
    # turns and rounds only grow; a turn is one seat's
    turns = [s.turn for s in replay.steps]
    rounds = [s.round for s in replay.steps]
    assert turns == sorted(turns) and rounds == sorted(rounds) and replay.turns > 1
    for a, b in zip(replay.steps[1:], replay.steps[2:], strict=False):
        if a.turn == b.turn:
            assert a.seat == b.seat


@pytest.mark.parametrize("name", ["cartus", "rattus"])
def test_the_log_of_each_step_is_told_as_the_viewpoint_read_it(name: str) -> None:
    end, text = finished(name)
    replay = replay_record(get_game(name), text, {})
    seat1 = replay.lines(1, you=1)
    told = [line for lines in seat1 for line in lines]
    # the same lines as the seat's words tell the whole game at once
    words = get_game(name).table_words(end.config.players, 1)
    assert told == words.lines(get_game(name).view(end, 1), 0)
    assert any("You" in line for line in told)
    everything = [line for lines in replay.lines(EVERYTHING) for line in lines]
    assert everything and not any(line.startswith("You ") for line in everything)


@pytest.mark.parametrize(("name", "seed"), [("cartus", 5), ("rattus", 4)])
def test_only_the_seat_the_owner_played_is_you_whatever_the_viewpoint(name: str, seed: int) -> None:
    """Seen as another seat, that seat's moves (its private ones too: the Cartus game has
    Swords given to seat 1) are told with its name; the owner's seat is "you" from every
    viewpoint; without an owner nobody is."""
    end, text = finished(name, 3, seed)
    assert name == "rattus" or any(e.private_to == 1 for e in end.log)
    game = get_game(name)
    replay = replay_record(game, text, {})
    names = end.config.players

    def told(viewpoint: int, you: int | None) -> list[str]:
        return [line for lines in replay.lines(viewpoint, you=you) for line in lines]

    def yous(lines: list[str]) -> list[str]:
        return [line for line in lines if line.startswith("You ") or " you " in line]

    as_seat1 = told(1, you=0)
    # the same events as seat 1 read them, none lost (its private ones are there too)
    assert len(as_seat1) == len(told(1, you=1))
    assert any(line.lower().startswith(f"{names[1]} ") for line in as_seat1)
    assert yous(as_seat1)  # seat 0, the owner, is "you" (his public moves)
    mine = game.table_words(names, 0)
    assert as_seat1 == mine.lines(game.view(end, 1), 0)
    # no owner: nobody is "you", seen as a seat or with everything
    assert not any(line.startswith("You ") for line in told(1, you=None))
    assert not any(line.startswith("You ") for line in told(EVERYTHING, you=None))
    assert any(line.startswith("You ") for line in told(EVERYTHING, you=2))


@pytest.mark.parametrize(("name", "seed", "players"), [("cartus", 109, 3), ("rattus", 2, 3)])
def test_the_last_step_says_the_tie_break_the_game_report_says(
    name: str, seed: int, players: int
) -> None:
    """A game whose tie for the win was broken: its last step says who won and why, in the
    words ``rattus replay`` prints; no other step, and no game won outright, says one."""
    end, text = finished(name, players, seed)
    game = get_game(name)
    replay = replay_record(game, text, {})
    names = end.config.players
    tie = replay.tie_break(replay.last, names)
    assert tie is not None and "tied on" in tie and tie.startswith("Winner")
    assert tie.split(". ", 1)[1] in " ".join(game.state_text(end).split())
    assert replay.tie_break(replay.last - 1, names) is None
    _, outright = finished(name)
    plain = replay_record(game, outright, {})
    assert plain.tie_break(plain.last, plain.names) is None


def test_a_seat_sees_its_own_hand_and_everything_sees_every_face() -> None:
    _, text = finished("cartus")
    replay = replay_record(get_game("cartus"), text, {})
    i = 1
    hands = [replay.view(i, s).hand for s in range(3)]
    assert all(hands) and hands[0] != hands[1]
    assert replay.view(i, 0).nun_row_known == {}  # nobody looked yet
    assert len(replay.view(i, EVERYTHING).nun_row_known) == 5  # everything: the whole row


def test_rattus_everything_shows_the_face_down_tokens() -> None:
    _, text = finished("rattus")
    replay = replay_record(get_game("rattus"), text, {})
    seat = replay.view(3, 0)
    every = replay.view(3, EVERYTHING)
    regions = range(len(seat.regions))
    assert all(t is None for r in regions for t in seat.tokens(r))
    assert all(t is not None for r in regions for t in every.tokens(r))


def test_moving_by_turns_rounds_and_jumps() -> None:
    _, text = finished("rattus")
    r = replay_record(get_game("rattus"), text, {})
    i = r.next_turn(0)
    assert r.steps[i].turn == 1
    j = r.next_turn(i)
    assert r.steps[j].turn == 2 and r.previous_turn(j) == i
    assert r.previous_turn(j + 1) == j or r.steps[j + 1].turn != 2
    assert r.next_turn(r.last) == r.last and r.previous_turn(0) == 0
    three = r.find_round(3)
    assert three is not None and r.steps[three].round == 3
    assert r.steps[three - 1].round < 3
    assert r.find_round(99) is None and r.find_turn(10_000) is None
    assert r.steps[r.find_turn(5) or 0].turn == 5
    assert r.where(0).startswith(f"step 0/{r.last}  turn 0/{r.turns}")


def test_bad_records_are_record_errors(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"game": "rattus", "moves": ["Nobody: pass"]}')
    with pytest.raises(RecordError):
        open_replay(path)
    path.write_text("hello")
    with pytest.raises(RecordError, match="not JSON"):
        open_replay(path)
    with pytest.raises(RecordError, match="no such file"):
        open_replay(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="directory"):
        open_replay(tmp_path)
    path.write_bytes(b"\xff\x00 not a record")
    with pytest.raises(RecordError, match=r"x\.json: not a game record"):
        open_replay(path)


def test_saves_and_kept_games_are_listed_and_open(tmp_path: Path) -> None:
    end, text = finished("cartus")
    kept = keep_finished("cartus", text, tmp_path)
    assert kept.parent == tmp_path / REPLAYS_DIR
    # an unfinished game's save
    game = get_game("rattus")
    played = play_game(game, 3, 9, ["random"], {})
    record = game.read_record(game.record_of(played.game, played.table, {}), {})
    half, table = record.replay(10)
    body = save_body(game, half, table, names=("You", "A", "B"), bots="random",
                     human_seat=0, values={})  # fmt: skip
    write_file(tmp_path / "offline-rattus.json", body)
    listed = recent_games(tmp_path)
    by_title = {g.title: g for g in listed}
    assert set(by_title) == {"Rattus Cartus", "Rattus"}
    winner = end.config.players[get_game("cartus").outcome(end).winners[0]]
    assert by_title["Rattus Cartus"].result == f"won by {winner}"
    assert by_title["Rattus"].result.startswith("unfinished")
    assert by_title["Rattus"].players == ("You", "A", "B")
    assert len(open_replay(by_title["Rattus"].path)) == 11
    assert open_replay(kept).steps[-1].state.is_over


# --- network records ----------------------------------------------------------------------------


def _network(n: int = 2, seed: int = 3) -> MemoryNetwork:
    config = GameConfig(GameConfig.default_names(n), BuildingSelection.random_cards())
    net = MemoryNetwork(*seeded_params(config, seed, "cartus"), timeout=5.0)
    net.keep_going = True
    return net


def test_a_finished_network_record_knows_every_face_the_game_had() -> None:
    """No protocol change is needed for "everything": the peers publish their keys after
    the game, and the verifier's face-level record holds every face, equal to the game's."""
    net = _network()
    net.run(random_chooser(2, 3))
    replay = signed_replay(net.peers[0].record_bytes())
    assert replay.note is None
    cartus = get_game("cartus")
    last = replay.steps[-1].state
    for seat, peer in enumerate(net.peers):
        own = peer.game  # the seat's own engine: its hand's faces as it had them
        assert sorted(replay.view(replay.last, seat).hand) == sorted(cartus.view(own, seat).hand)
        assert replay.view(replay.last, seat).nun_row_known.items() >= (
            cartus.view(own, seat).nun_row_known.items()
        )
    assert cartus.outcome(last) == cartus.outcome(net.peers[0].game)
    # every card the record dealt is known in the last state
    assert all(h in last.faces for hand in last.hands for h in hand)


def test_an_aborted_network_record_replays_what_was_revealed_up_to_the_abort() -> None:
    replay = signed_replay(aborted_record())
    assert replay.note is not None and "did not end fairly" in replay.note
    last = replay.steps[-1].state
    assert not last.is_over and len(replay) > 3
    assert len(replay.steps[-1].state.history) == len(replay.steps[-1].state.history)
    # nobody's hand is known: its faces were never revealed to the record
    assert all(replay.view(replay.last, s).hand == [] for s in range(3))
    assert json.dumps(replay.lines(EVERYTHING)[-1])


def test_a_game_without_screens_of_its_own_replays_on_the_generic_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The third, test-only game: the same steps, its own words, the generic board."""
    import io

    from rattus_net.kit import registry

    # importing the game registers it: for this test only (the others know two games)
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))

    from games.thirdgame.definition import NibbleDefinition
    from rich.console import Console

    from rattus_net.kit.play import play_to_end
    from tui.common.replay import boards_of

    nibble = NibbleDefinition()
    game = nibble.new_game(nibble.configure(("Ann", "Bob"), {}))
    table = nibble.local_table(2)
    bots = [nibble.make_bot("random", s) for s in range(2)]
    play_to_end(game, table, lambda g, s: bots[s].choose(nibble.view(g, s)))
    replay = replay_record(nibble, nibble.record_of(game, table, {}), {})
    assert len(replay) == len(game.history) + 1 and replay.steps[-1].state.is_over
    told = [line for lines in replay.lines(0, you=0) for line in lines]
    assert told == nibble.table_words(("Ann", "Bob"), 0).lines(nibble.view(game, 0), 0)
    assert not any("You" in line for lines in replay.lines(EVERYTHING) for line in lines)
    boards = boards_of(nibble)
    console = Console(width=80, file=io.StringIO(), record=True)
    console.print(boards.replay_board(replay.view(1, EVERYTHING), 80))
    assert "Players: Ann, Bob" in console.export_text()


def test_network_records_are_listed_with_the_players_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = _network()
    net.run(random_chooser(2, 3))
    folder = tmp_path / "games" / ("ab" * 32) / "seat-2"
    folder.mkdir(parents=True)
    (folder / "record.rattusnet").write_bytes(net.peers[1].record_bytes())
    (folder / "meta.json").write_text(json.dumps({"seat": 1, "status": "finished"}))
    [listed] = recent_games(tmp_path)
    assert listed.title == "Rattus Cartus" and listed.players == ("P1", "P2")
    assert listed.result == "network game, finished, not verified yet" and listed.seat == 1
    # the winners the seat's meta.json names are never shown: only a verified verdict's
    outcome = get_game("cartus").outcome(net.peers[1].game)
    assert outcome is not None
    winners = list(outcome.winners)
    liar = next(s for s in range(2) if [s] != winners)
    meta = {"seat": 1, "status": "finished", "winners": [liar]}
    (folder / "meta.json").write_text(json.dumps(meta))
    [listed] = recent_games(tmp_path)
    assert listed.result == "network game, finished, not verified yet"
    # once the record is verified here (a replay of it opened), its verdict is kept by the
    # record's hash and the list names the record's winners
    monkeypatch.setenv("RATTUS_DATA_DIR", str(tmp_path))
    open_replay(folder / "record.rattusnet")
    [kept] = (tmp_path / "verdicts").iterdir()
    assert kept.name == f"{hashlib.sha256(net.peers[1].record_bytes()).hexdigest()}.json"
    [listed] = recent_games(tmp_path)
    names = ", ".join(f"P{s + 1}" for s in winners)
    won = f"won by {names}" if winners else "nobody won"
    assert listed.result == f"network game, {won} (verified)"
    # a kept verdict that is damaged (a seat the game has not): unverified again
    kept.write_text(json.dumps({"kind": "fair", "winners": [9]}))
    [listed] = recent_games(tmp_path)
    assert listed.result == "network game, finished, not verified yet"
    (folder / "meta.json").write_text("{damaged")
    [listed] = recent_games(tmp_path)
    assert listed.seat is None and listed.result == "network game, played"
    # a meta.json nested deeper than the JSON parser's recursion: refused, the game listed
    (folder / "meta.json").write_text("[" * 20_000 + "]" * 20_000)
    [listed] = recent_games(tmp_path)
    assert listed.seat is None and listed.result == "network game, played"
