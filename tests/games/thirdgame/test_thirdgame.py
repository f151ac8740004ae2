"""Nibble, a game that exists only in the tests, goes through every path the shipped games do:
registered from its own folder, it plays through ``rattus selfplay``, ``selfplay --secure`` and
``rattus verify``, ``rattus replay``, ``host``/``join`` between processes, the TUI's menu, host
form and lobby, and a whole game against bots on the TUI's generic table. Nothing outside its
folder names it: these tests guard the game interface (``rattus_net/kit/interface.py``)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import random
import re
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from waits import until

import games.thirdgame
from games.thirdgame.bots import make_bot
from games.thirdgame.game import NibbleConfig, NibbleGame, format_move, parse_move
from games.thirdgame.view import NibbleView, determinize
from games.thirdgame.words import NibbleWords
from rattus_net.kit import registry
from rattus_net.kit.errors import BadChoice, MoveSyntaxError, NotYourTurn, RecordError, SetupError
from rattus_net.kit.interface import AnyGame, Budget
from rattus_net.kit.local import LocalTable
from rattus_net.kit.play import play_to_end
from rattus_net.paths import RECORD_FILE, RECORD_SUFFIX

NIBBLE = registry.unregister("nibble")
"""The game, registered when its package was imported (as for the tests' imports of its parts
here): taken out again, so that only the tests that ask for it (``nibble``) see it."""
FOLDER = Path(games.thirdgame.__file__).parent
TESTS = FOLDER.parent.parent
MODULE = "games.thirdgame"


@contextlib.asynccontextmanager
async def at_the_menu(seed: int) -> AsyncIterator[tuple[Any, Any, Any]]:
    """The app at 80x24 with its menu drawn: (app, pilot, menu)."""
    from tui.app import RattusNetApp
    from tui.shell.menu import MenuScreen

    app = RattusNetApp(seed=seed)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        yield app, pilot, app.screen


@pytest.fixture
def nibble() -> Iterator[AnyGame]:
    """Nibble in the registry for one test (the other tests of this process see the shipped
    games only)."""
    with registry.registered(NIBBLE) as game:
        yield game


def cli(*args: str) -> tuple[int, str]:
    """``rattus <args>`` in this process: its exit status and what it printed."""
    from rattus_net.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(list(args))
    return rc, out.getvalue()


# --- registration ------------------------------------------------------------------------


def test_the_game_joins_the_registry_from_its_own_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Named in RATTUS_NET_GAMES, the module registers the game beside the shipped ones, last
    in the menu (its declared order)."""
    for name in [m for m in sys.modules if m == MODULE or m.startswith(MODULE + ".")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setenv("RATTUS_NET_GAMES", MODULE)
    with registry.discovering_again():
        assert registry.game_names() == ("cartus", "rattus", "nibble")
        game = registry.get_game("nibble")
        assert (game.title, game.min_players, game.max_players) == ("Nibble", 2, 3)
        assert game.network_play and registry.default_game().name == "cartus"
        assert registry.ui_module(game) is None  # no screens: the TUI's generic table


def test_the_rules_modules_are_pure() -> None:
    """The same check as the shipped games' rules (``tests/kit/test_purity.py``)."""
    from kit.test_purity import FORBIDDEN, global_random_uses, imports

    for name in ("game", "view", "words", "record", "secure", "definition"):
        path = FOLDER / f"{name}.py"
        bad = [i for i in imports(path) if i.split(".")[0] in FORBIDDEN]
        assert not bad and not global_random_uses(path), (path.name, bad)


# --- the rules ---------------------------------------------------------------------------


def test_a_game_deals_hides_and_ends_by_the_rules() -> None:
    game = NibbleGame(NibbleConfig(("Ann", "Bob", "Cy")))
    table = LocalTable(5)
    table.settle(game)
    assert [len(h) for h in game.hands] == [2, 2, 2] and len(game.deck) == 3
    first = game.first
    assert game.to_act() == (first,) and game.round == 1
    other = (first + 1) % 3
    with pytest.raises(NotYourTurn):
        game.apply(other, "draw")
    with pytest.raises(BadChoice):
        game.apply(first, "take")  # type: ignore[arg-type]
    assert game.to_act() == (first,) and not game.history  # unchanged
    view = NibbleView(game, first)
    assert view.legal() == ["draw", "pass"] and len(view.hand) == 2
    # a seat sees its own cards only: another seat's were revealed to it alone
    assert not set(game.hands[other]) & (game.seen[first] | game.public)
    game.apply(first, "draw")
    table.settle(game)
    assert len(game.hands[first]) == 3 and len(game.deck) == 2
    play_to_end(game, table, lambda g, seat: "draw" if g.legal(seat)[0] == "draw" else "pass")
    r = game.result
    assert r is not None and len(game.deck) == 0
    assert sorted(c for hand in r.hands for c in hand) == list(range(1, 10))
    for hand, score in zip(r.hands, r.scores, strict=True):
        assert score == (0 if sum(hand) > 15 else sum(hand))
    assert r.winners == tuple(s for s in range(3) if r.scores[s] == max(r.scores))


def test_moves_and_setup_errors() -> None:
    assert [parse_move(format_move(m)) for m in ("draw", "pass")] == ["draw", "pass"]
    assert parse_move(" Draw ") == "draw"
    with pytest.raises(MoveSyntaxError, match="'draw' or 'pass'"):
        parse_move("nibble")
    for players in (("A",), ("A", "B", "C", "D"), ("A", "A")):
        with pytest.raises(SetupError):
            NibbleConfig(players)


def test_a_drawn_card_cannot_be_drawn_from_an_empty_deck() -> None:
    """Once the deck is empty, only passing is legal."""
    game = NibbleGame(NibbleConfig(("A", "B", "C")))
    table = LocalTable(1)
    play_to_end(game, table, lambda g, s: "draw", until=lambda g: not g.deck)
    table.settle(game)  # (the last card drawn is turned up to its holder)
    seat = game.to_act()[0]
    assert game.legal(seat) == ["pass"]
    words = NibbleWords(game.config.players, seat)
    assert words.decision(NibbleView(game, seat)).startswith("pass, the deck is empty (your")
    with pytest.raises(BadChoice):
        game.apply(seat, "draw")


def test_the_search_bot_samples_only_what_its_seat_cannot_see() -> None:
    game = NibbleGame(NibbleConfig(("A", "B")))
    LocalTable(2).settle(game)
    seat = game.to_act()[0]
    view = NibbleView(game, seat)
    rng = random.Random(0)
    samples = [determinize(view, rng)[0] for _ in range(30)]
    mine = {h: game.faces[h] for h in game.hands[seat]}
    other = game.hands[1 - seat][0]
    assert all({h: s.faces[h] for h in mine} == mine for s in samples)
    assert len({s.faces[other] for s in samples}) > 1  # the other hand is dealt again
    assert all(sorted(s.faces.values()) == list(range(1, 10)) for s in samples)
    before = (dict(game.faces), [list(h) for h in game.hands], list(game.deck))
    bots = [make_bot("search", 7, Budget(iterations=60)) for _ in range(2)]
    chosen = [bot.choose(view) for bot in bots]
    assert chosen[0] == chosen[1] and chosen[0] in view.legal()  # seeded: the same choice
    assert (game.faces, game.hands, game.deck) == before  # the real game untouched


# --- the commands ------------------------------------------------------------------------


def test_selfplay_records_and_replay(nibble: AnyGame, tmp_path: Path) -> None:
    rc, out = cli(
        "selfplay", "--game", "nibble", "--players", "3", "--games", "3",
        "--bots", "random,heuristic,random", "--json", "--record-dir", str(tmp_path),
    )  # fmt: skip
    assert rc == 0
    report = json.loads(out)
    assert len(report["games"]) == 3 and report["summary"]["spoilt_hands"] >= 0
    wins = report["summary"]["wins"]
    assert sum(wins.values()) >= 3 and len(wins) == 3
    record = tmp_path / "game-0.json"
    rc, text = cli("replay", str(record))
    assert rc == 0 and text.startswith("Nibble: game over")
    rc, text = cli("replay", "--json", str(record))
    scores = json.loads(text)["result"]["scores"]
    assert list(scores.values()) == report["games"][0]["scores"]
    rc, text = cli("replay", "--json", "--moves", "1", str(record))
    assert rc == 0 and json.loads(text)["round"] == 1
    broken = json.loads(record.read_text())
    broken["deck"] = [1, 1, 2, 3, 4, 5, 6, 7, 8]
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    with pytest.raises(RecordError, match="deck"):
        nibble.read_record((tmp_path / "broken.json").read_text(), {})


def test_secure_selfplay_is_verified_fair_and_replays(nibble: AnyGame, tmp_path: Path) -> None:
    """Every seat a protocol endpoint (mental-poker shuffle, private and public reveals, a
    commit-reveal random number); the signed record is FAIR, names the result, replays, and
    the same seed played locally is the same game."""
    rc, out = cli(
        "selfplay", "--game", "nibble", "--players", "3", "--games", "1", "--secure",
        "--json", "--record-dir", str(tmp_path),
    )  # fmt: skip
    assert rc == 0
    secure = json.loads(out)["games"][0]
    rc, local = cli("selfplay", "--game", "nibble", "--players", "3", "--games", "1", "--json")
    assert json.loads(local)["games"][0]["scores"] == secure["scores"]
    record = tmp_path / f"game-0{RECORD_SUFFIX}"
    rc, verdict = cli("verify", str(record))
    assert rc == 0 and verdict.startswith("FAIR")
    assert "3 shuffle proofs" in verdict and "1 public random numbers" in verdict
    assert f"winner: {' and '.join(secure['winners'])}" in verdict
    rc, replayed = cli("replay", str(record))
    assert rc == 0 and replayed.startswith("Nibble: game over")
    tampered = bytearray(record.read_bytes())
    tampered[len(tampered) // 2] ^= 1
    (tmp_path / f"bad{RECORD_SUFFIX}").write_bytes(bytes(tampered))
    rc, verdict = cli("verify", str(tmp_path / f"bad{RECORD_SUFFIX}"))
    assert rc != 0 and not verdict.startswith("FAIR")


def test_a_game_against_bots_is_saved_and_continued(nibble: AnyGame, tmp_path: Path) -> None:
    """The kit's offline table saves the game as it goes (its record) and continues it where
    it stopped, the human's cards and the moves played the same."""
    from rattus_net.kit.offline import OfflineSetup, OfflineTable
    from rattus_net.kit.saves import read_save

    path = tmp_path / "nibble.save"
    table = OfflineTable.new(OfflineSetup("nibble", 3, "heuristic", 8), save_to=path)
    assert table.my_turn and table.awaited().startswith("Your turn: draw or pass")
    table.apply("draw")
    saved = read_save(path)
    assert saved is not None and saved.game == "nibble"
    assert saved.describe() == "Nibble, round 2 of 3, 3 players"
    again = OfflineTable.continued(saved)
    assert again.view.hand == table.view.hand and len(again.view.hand) == 3
    assert again.game.history == table.game.history and again.my_turn
    again.apply("pass")
    again.apply("pass")
    assert again.is_over and again.definition.outcome(again.game) is not None


# --- the TUI -----------------------------------------------------------------------------


def run(coro: Any) -> None:
    asyncio.run(coro)


def test_the_menu_the_host_form_and_the_lobby_offer_it(
    nibble: AnyGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Markdown, Static

    import tui.shell.host as host_module
    from tui.common.rules import RulesScreen
    from tui.shell.host import HostScreen
    from tui.shell.lobby import LobbyScreen
    from tui.shell.menu import MenuScreen

    made: list[Any] = []

    class QuietHost(host_module.HostLobby):  # type: ignore[misc,name-defined]
        def __init__(self, *a: Any, **kw: Any) -> None:
            kw["advertise"] = False
            super().__init__(*a, **kw)
            made.append(self)

    monkeypatch.setattr(host_module, "HostLobby", QuietHost)

    def text(screen: Any, selector: str) -> str:
        return str(screen.query_one(selector, Static).render())

    async def go() -> None:
        async with at_the_menu(1) as (app, pilot, menu):
            assert [g.name for g in menu.games] == ["cartus", "rattus", "nibble"]
            menu.cursor = menu.items.index("game")
            await pilot.press("left")  # from the first game back round to the last
            assert menu.chosen.name == "nibble" and menu.players <= 3
            assert "Game         < Nibble >" in text(menu, "#menu-body")
            assert "Rules of Nibble" in text(menu, "#menu-body")
            await pilot.press("r")  # its rules summary, from its folder
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            rules = app.screen.query_one(Markdown).source
            assert rules.startswith("# Nibble in brief") and "more than 15" in rules
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            host = app.screen
            assert isinstance(host, HostScreen) and host.chosen.name == "nibble"
            assert host.rows == ("table", "player", "game", "colour", "players", "open")
            assert "Game           < Nibble >" in text(host, "#form-body")
            host.cursor = host.rows.index("open")
            host.focus_row()
            await pilot.press("enter")
            await until(
                lambda: made and made[0].hosted is not None and isinstance(app.screen, LobbyScreen),
                10,
                why="the table did not open",
                pause=lambda: pilot.pause(0.05),
            )
            assert made[0].options.game == "nibble"
            body = text(app.screen, "#lobby-body")
            assert "Game: Nibble\nOptions: 3 players" in body and "Seat 3  (free)" in body
            await pilot.press("p")  # players: 3 -> 2 (the game's range)
            await pilot.pause()
            assert made[0].options.players == 2
            assert "Options: 2 players" in text(app.screen, "#lobby-body")
            await pilot.press("b")  # a bot takes the free seat
            await until(
                lambda: len(made[0].state.seats) >= 2,
                10,
                why="no bot sat down",
                pause=lambda: pilot.pause(0.05),
            )
            assert "bot:" in text(app.screen, "#lobby-body")
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen) and made[0].closed

    run(go())


@pytest.mark.slow
def test_a_whole_game_against_bots_in_the_tui(nibble: AnyGame) -> None:
    """Started from the menu, played on the generic table by key presses to its end screen."""
    from textual.widgets import Static

    from tui.common.generic import GenericEnd, GenericTable, MoveDialog

    async def go() -> None:
        async with at_the_menu(4) as (app, pilot, menu):
            menu.choose_game("nibble")
            menu.players = 3
            menu.look_for_save()  # (the menu's rows for the game chosen, redrawn)
            await pilot.press("p")
            await pilot.pause()
            assert any(isinstance(s, GenericTable) for s in app.screen_stack)
            rng = random.Random(4)
            deadline = time.monotonic() + 120
            moves = 0
            while not isinstance(app.screen, GenericEnd):
                assert time.monotonic() < deadline, "the game did not end"
                screen = app.screen
                if isinstance(screen, MoveDialog):
                    rows = screen.rows()
                    assert rows in (["draw", "pass"], ["pass"])
                    assert screen.heading().startswith(
                        "Draw or pass (your cards: "
                        if len(rows) == 2
                        else "Pass, the deck is empty"
                    )
                    await pilot.press(str(rng.randrange(len(rows)) + 1), "enter")
                    moves += 1
                await pilot.pause(0.05)
            assert moves == 3  # one decision a round
            end = app.screen
            result = str(end.query_one("#g-result", Static).render())
            assert "Winner: " in result and "scores" in result
            assert any(line == "The hands are turned up." for line in end.log_lines)

    run(go())


@pytest.mark.slow
def test_a_network_game_in_the_tui_against_a_hosted_bot(nibble: AnyGame, tmp_path: Path) -> None:
    """The host's app opens a Nibble table, seats a bot from the lobby and plays on the generic
    table by key presses; the end screen has the verifier's FAIR verdict and the result."""
    from rattus_net.net.lobby import TableOptions
    from rattus_net.net.netgame import NetworkGame
    from rattus_net.net.tables import HostLobby
    from tui.app import RattusNetApp
    from tui.common.generic import GenericEnd, MoveDialog

    async def go() -> None:
        lobby = HostLobby(
            "Loopback", TableOptions.of("nibble", 2), "Hana", advertise=False, root=tmp_path
        )
        app = RattusNetApp(lobby=lobby)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(lambda: lobby.hosted is not None, 120, why="the table did not open")
            await pilot.press("b")
            await until(lambda: len(lobby.state.seats) >= 2, 120, why="no bot sat down")
            deadline = time.monotonic() + 120
            await pilot.press("space")  # ready: the game starts
            while not isinstance(app.screen, GenericEnd):
                assert time.monotonic() < deadline, "the game did not end"
                if isinstance(app.screen, MoveDialog):
                    await pilot.press("1", "enter")  # draw while the deck lasts
                await pilot.pause(0.05)
            end = app.screen
            seat = end.controller
            assert isinstance(seat, NetworkGame)
            while seat.verdict is None:
                assert time.monotonic() < deadline, "no verdict"
                await pilot.pause(0.1)
            verdict = seat.verdict
            assert verdict.fair and verdict.randoms == 1 and verdict.shuffles_verified == 2
            assert verdict.result is not None and "You draw." in end.log_lines
            winners = " and ".join(verdict.result["winners"])
            assert f"winner: {winners}" in end.log_lines
            await pilot.press("escape")
            await app.workers.wait_for_complete()

    run(go())


# --- host and join, separate processes ------------------------------------------------------


@pytest.mark.slow
def test_host_and_join_over_loopback_as_separate_processes(nibble: AnyGame, tmp_path: Path) -> None:
    """A host and two joiners, each a ``rattus`` process with a bot seat, loading the game from
    RATTUS_NET_GAMES: the three records are the same and FAIR, and ``rattus verify`` says so."""
    import subprocess

    from net.procs import (
        GAME_LINE,
        assert_same_fair_records,
        finish,
        free_port,
        rattus,
        read_line,
        records_of,
    )

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS), env.get("PYTHONPATH")) if p)
    env["RATTUS_NET_GAMES"] = MODULE
    env["PYTHONUNBUFFERED"] = "1"

    def spawn(args: list[str], name: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            rattus(args),
            env={**env, "RATTUS_DATA_DIR": str(tmp_path / name)},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    port = free_port()
    host = spawn(
        ["host", "--game", "nibble", "--name", "Nibbles", "--players", "3", "--port", str(port),
         "--bot", "heuristic", "--no-advertise", "--seed", "1"],
        "host",
    )  # fmt: skip
    read_line(host, re.compile(r"^table 'Nibbles' open on port (\d+)"), 60)
    address = f"127.0.0.1:{port}"
    guests = [
        spawn(["join", address, "--bot", kind, "--seed", str(i)], f"guest{i}")
        for i, kind in enumerate(("random", "search"))
    ]
    procs = [host, *guests]
    try:
        read_line(host, GAME_LINE, 60)
        results = finish(procs, 180)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    records = records_of(results)
    assert_same_fair_records(records, 3)
    path = tmp_path / RECORD_FILE
    path.write_bytes(records[0])
    verify = subprocess.run(
        rattus(["verify", str(path)]), env=env, capture_output=True, text=True, timeout=60
    )
    assert verify.returncode == 0 and verify.stdout.startswith("FAIR"), verify.stderr
    assert "winner: " in verify.stdout
