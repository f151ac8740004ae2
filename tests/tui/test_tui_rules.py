"""The rules screen shows the rules of the game at hand: Rattus from the Rattus map, the game
chosen in the menu from the menu, and ``g`` switches to the other game's."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import pytest
from rattus_helpers import rattus_at
from textual.app import App
from textual.widgets import Markdown
from tui_helpers import opened, showing, sync

from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.ui.table import RattusMapScreen
from rattus_net.kit.registry import game_names, get_game
from tui.app import RattusNetApp
from tui.common.rules import RULES_FILE, RulesScreen, rules_text
from tui.shell.menu import MenuScreen

ROOT = Path(__file__).resolve().parents[2]


def shown_rules(app: App[None]) -> str:
    screen = app.screen
    assert isinstance(screen, RulesScreen)
    return screen.query_one(Markdown).source


@sync
async def test_r_on_the_rattus_map_shows_the_rules_of_rattus() -> None:
    app = RattusNetApp(table=rattus_at(Kind.TURN, players=3, seed=1))
    async with opened(app) as pilot:
        await pilot.press("escape")  # the dialog aside: the map
        assert isinstance(app.screen, RattusMapScreen)
        await pilot.press("r")
        await pilot.pause()
        assert shown_rules(app).startswith("# Rattus in brief")
        await pilot.press("escape")
        assert isinstance(app.screen, RattusMapScreen)


@sync
async def test_the_menu_shows_the_rules_of_the_game_chosen_and_g_the_other() -> None:
    app = RattusNetApp(seed=1)
    async with showing(app, MenuScreen) as (pilot, menu):
        assert "Rules of Rattus Cartus" in str(menu.query_one("#menu-body").render())
        await pilot.press("r")
        await pilot.pause()
        assert shown_rules(app).startswith("# Rattus Cartus in brief")
        await pilot.press("g")  # the other game's
        await pilot.pause()
        assert shown_rules(app).startswith("# Rattus in brief")
        await pilot.press("escape")
        menu.cursor = menu.items.index("game")
        await pilot.press("right")  # Game < Rattus >
        body = str(menu.query_one("#menu-body").render())
        assert "< Rattus >" in body and "Rules of Rattus\n" in body
        await pilot.press("r")
        await pilot.pause()
        assert shown_rules(app).startswith("# Rattus in brief")
        await pilot.press("g")
        await pilot.pause()
        assert shown_rules(app).startswith("# Rattus Cartus in brief")


@pytest.mark.parametrize("game", game_names())
def test_the_rules_of_each_game_are_lists_not_tables_and_are_packaged(game: str) -> None:
    """At 80 columns a Markdown table squeezes to a word per line: the rules use lists. The
    file (``rules.md`` of the game's screens) ships with the package (pyproject's package
    data of ``rattus_net.games``, which names no game)."""
    text = rules_text(game)
    assert text.startswith(f"# {get_game(game).title} in brief")
    assert "\n|" not in text
    assert max(len(line) for line in text.splitlines()) <= 100
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["rattus_net.games"]
    assert any(fnmatch.fnmatch(f"{game}/ui/{RULES_FILE}", p) for p in patterns)


def test_the_rattus_rules_give_the_projects_rulings() -> None:
    """What the printed rules leave open and the project ruled (rules/rattus.md section 6),
    and the reconstructed map and tokens a player may correct."""
    text = " ".join(rules_text("rattus").split())
    assert "You choose which one next whenever you can tell them apart" in text  # 6.1, 6.5
    assert "slot order" in text  # 6.1: the final outbreak
    assert "it must change the board" in text  # 6.2
    assert "even if you keep them where they are" in text  # 6.2: the Witch's look
    assert "they may be in one region" in text  # 6.3: the Witch
    assert "A struck cube goes back to its owner's supply" in text  # 6.4
    assert "purple **ring** that shows face down" in text  # 6.5
    assert "would have had the next turn" in text  # section 4: the tie-break
    assert "--components FILE" in text
    assert "`regions`" in text and "`neighbours`" in text and "pip show -f rattus-net" in text
    for card in ("King", "Knight", "Monk", "Merchant", "Peasant", "Witch"):
        assert f"**{card}:**" in text


@pytest.mark.parametrize("game", game_names())
def test_the_rules_stand_alone(game: str) -> None:
    """A player who installed the package has no repository: the rules send him to no file of
    it (``docs/``, the rules reference, a path up the tree), only to commands he has."""
    text = rules_text(game)
    for pointer in ("docs/", "../", "shared/", "README", ".md", "rules reference"):
        assert pointer not in text, pointer


def test_a_game_without_screens_has_its_rules_summary_in_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The summary is words, not screens: a game played on the generic table keeps its
    ``rules.md`` in its own folder (its ``ui`` one comes first when it has both)."""
    from rattus_net.kit import registry

    package = tmp_path / "far_rules"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from rattus_net.games.rattus.definition import RattusDefinition\n\n"
        "class FarGame(RattusDefinition):\n"
        "    name = 'far'\n"
        "    title = 'Far'\n\n"
        "GAME = FarGame()\n"
    )
    (package / RULES_FILE).write_text("# Far in brief\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import far_rules  # type: ignore[import-not-found]

    registry.games()
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    registry.register(far_rules.GAME)
    assert registry.game_package(far_rules.GAME) == "far_rules"
    assert registry.ui_module(far_rules.GAME) is None
    assert rules_text("far") == "# Far in brief\n"
    (package / RULES_FILE).unlink()
    assert rules_text("far") == "# Far\n\nThis game has no rules summary here yet."
