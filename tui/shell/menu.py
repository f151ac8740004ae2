"""The main menu: play against bots, host or join a network table, verify a record, read the
rules, quit; and the ways back into a game left unfinished.

Every game comes from the registry (``rattus_net/kit/registry.py``): its title and player
counts, its own choices for a game against bots (the options of its schema a player picks
from a list), its save, and whether its tables can be played on the
network, which the Host and Join rows say. Nothing here names a game.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from rattus_net.bots import BOT_KINDS, BOT_LEVELS
from rattus_net.kit.interface import AnyGame
from rattus_net.kit.offline import OfflineSetup, default_bot_kind
from rattus_net.kit.options import Option, OptionValue
from rattus_net.kit.registry import game_titles, games, network_games
from rattus_net.kit.saves import SavedGame, SaveError, read_save, save_path
from rattus_net.settings import load_settings, read_settings, save_settings
from tui.common.gameui import continue_offline, new_offline, table_screen
from tui.common.network import network_of
from tui.common.rules import RulesScreen
from tui.shell.forms import ROW_KEYS, chosen_options, stepped
from tui.shell.host import HostScreen
from tui.shell.join import JoinScreen
from tui.shell.replays import ReplaysScreen
from tui.shell.resume import UnfinishedNetworkGame, unfinished_network_game
from tui.shell.verify import VerifyScreen

OPTION = "option:"
"""The menu's items for a game's own options are named by this and the option's name."""


def menu_options(game: AnyGame) -> tuple[Option, ...]:
    """The options of ``game`` the menu offers for a game against bots: those ``rattus play``
    takes that set the game up and are chosen from a list (or turned on and off)."""
    return tuple(
        o for o in chosen_options(game.options.for_command("play")) if o.configures and o.remember
    )


class MenuScreen(Screen[None]):
    """Play against bots (the game, players, bot kind and the game's own choices), host or
    join a network table, verify a record, read the rules, quit."""

    HELP_TITLE = "the main menu"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Select", show=False),  # (said on the screen)
        Binding("p", "play", "Play"),
        Binding("h", "host", "Host"),
        Binding("j", "join", "Join"),
        Binding("v", "verify", "Verify"),
        Binding("e", "replays", "Replay"),
        Binding("r", "rules", "Rules"),
        Binding("q", "quit_app", "Quit"),
        *ROW_KEYS,
    ]

    # the game first, as on the host form: its row stays put while Left/Right change it (the
    # game's own choices below it come and go with it)
    BEFORE = ("play", "game", "players", "bots")  # then the chosen game's own choices
    AFTER = ("host", "join", "replays", "verify", "rules", "quit")

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.cursor = 0
        self.games = games()
        self.game = 0  # index in ``games``
        self.saves: dict[str, SavedGame] = {}  # game name -> its saved game against bots
        self.unfinished: UnfinishedNetworkGame | None = None
        # the player's last choices (rattus_net.settings); a damaged file is only a note
        self.settings, problem = read_settings()
        self.note = problem or ""
        # the game chosen last (the first one the first time, or if it is no longer known)
        names = [g.name for g in self.games]
        if self.settings.game in names:
            self.game = names.index(self.settings.game)
        first = self.chosen
        self.players = min(first.max_players, max(first.min_players, self.settings.players))
        # the bots chosen last (a game that does not offer them gets its default instead)
        self.bots = self.settings.bots if self.settings.bots in BOT_KINDS else default_bot_kind()
        # each game's own choices, kept in the settings (its play defaults the first time)
        self.values: dict[str, dict[str, OptionValue]] = {}
        for g in self.games:
            kept = self.settings.options(g.name)
            self.values[g.name] = {
                o.name: kept.get(o.name, o.default_for("play")) for o in menu_options(g)
            }
        self.items: tuple[str, ...] = self._game_items()
        # a second Enter on "Play" replaces the saved game; a second q quits with a game
        # unfinished (any other key forgets)
        self._replace_armed = False
        self._quit_armed = False

    @property
    def chosen(self) -> AnyGame:
        """The game "Play against bots" plays (and whose rules the menu shows)."""
        return self.games[self.game % len(self.games)]

    @property
    def choices(self) -> dict[str, OptionValue]:
        """The chosen game's own choices (``{"buildings": "first-game"}``)."""
        return self.values[self.chosen.name]

    def choose_game(self, name: str) -> None:
        """Offer ``name`` under "Play against bots" (back from one of its games)."""
        self.game = next(i for i, g in enumerate(self.games) if g.name == name)

    def _game_items(self) -> tuple[str, ...]:
        own = tuple(OPTION + o.name for o in menu_options(self.chosen))
        return self.BEFORE + own + self.AFTER

    def _option(self, item: str) -> Option | None:
        name = item.removeprefix(OPTION) if item.startswith(OPTION) else None
        return next((o for o in menu_options(self.chosen) if o.name == name), None)

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(id="menu-title")
            yield Static(id="menu-body")
            yield Static(id="menu-help")
        yield Footer()

    def on_mount(self) -> None:
        title = Text("RATTUS NET\n", style="bold")
        title.append(f"{game_titles()}: the plague, the princes and the rats.\n")
        self.query_one("#menu-title", Static).update(title)
        self.look_for_save()

    def on_screen_suspend(self) -> None:
        self._away = True

    def on_screen_resume(self) -> None:
        if getattr(self, "_away", False):  # back from a game, the rules, a form...
            self.note = ""  # what was said before is stale now
            self._replace_armed = self._quit_armed = False
        self.look_for_save()  # back from a game: saved, finished or given up

    def on_key(self, event: events.Key) -> None:
        """Any key but the one asked for again forgets a pending question."""
        if event.key not in ("enter", "p") and self._replace_armed:
            self._replace_armed = False
            self.note = ""
            self.redraw()
        quit_row = event.key == "enter" and self.items[self.cursor] == "quit"
        if event.key != "q" and not quit_row and self._quit_armed:
            self._quit_armed = False
            self.note = ""
            self.redraw()

    def look_for_save(self) -> None:
        """Offer "Continue" for each game saved against bots, and "Back to the network game"
        when a network game a person played here stopped before its end."""
        self.saves = {}
        for g in self.games:
            try:
                saved = read_save(save_path(g.name))
            except SaveError as exc:
                saved, self.note = None, f"{exc}."
            if saved is not None:
                self.saves[g.name] = saved
        self.unfinished = unfinished_network_game()
        before = self.items
        self.items = (
            (("network",) if self.unfinished else ())
            + tuple(f"continue-{g.name}" for g in self.games if g.name in self.saves)
            + self._game_items()
        )
        if self.items != before:
            current = before[self.cursor] if self.cursor < len(before) else None
            self.cursor = self.items.index(current) if current == "game" else 0
        self.redraw()

    @property
    def bot_kind(self) -> str:
        """The bots chosen, if the chosen game offers them, else that game's default."""
        kinds = self.chosen.bot_kinds
        return self.bots if self.bots in kinds else default_bot_kind(kinds)

    def _network_note(self) -> str:
        """`` (<the network games> only)`` on Host and Join while the chosen game's tables cannot
        be played on the network (its ``network_play`` flag is off)."""
        if self.chosen.network_play:
            return ""
        return f" ({game_titles(network_games())} only)"

    def _bots_word(self) -> str:
        """``1 bot``, ``2 bots``..."""
        n = self.players - 1
        return f"{n} bot" if n == 1 else f"{n} bots"

    def redraw(self) -> None:
        labels = {
            "network": "Back to the network game"
            + (f" ({self.unfinished.describe()})" if self.unfinished else ""),
            "play": "Play against bots" + (" (a new game)" if self.saves else ""),
            "game": f"  Game         < {self.chosen.title} >",
            "players": f"  Players      < {self.players} >  (you and {self._bots_word()})",
            "bots": f"  Bots         < {BOT_LEVELS[self.bot_kind]} ({self.bot_kind}) >",
            # say which games network tables play while another one is chosen
            "host": "Host a table on the network" + self._network_note(),
            "join": "Join a table on the network" + self._network_note(),
            "replays": "Replays of your games",
            "verify": "Verify a game record",
            "rules": f"Rules of {self.chosen.title}",
            "quit": "Quit",
        }
        for name, saved in self.saves.items():
            title = saved.definition.title  # (the game first: "of Rattus" tells them apart)
            labels[f"continue-{name}"] = f"Continue the saved game of {title} ({saved.details()})"
        for o in menu_options(self.chosen):
            value = o.words(self.choices[o.name])
            labels[OPTION + o.name] = f"  {o.label or o.name:<12} < {value} >"
        t = Text()
        for i, item in enumerate(self.items):
            sel = i == self.cursor
            t.append("> " if sel else "  ", style="bold")
            t.append(labels[item], style="reverse bold" if sel else "")
            t.append("\n")
        self.query_one("#menu-body", Static).update(t)
        help_text = Text(
            "Up/Down choose, Left/Right or +/- change a setting, Enter select.\n"
            "A game against bots is offline; host or join to play over the network.",
            style="italic",
        )
        if self.note:
            help_text.append("\n" + self.note, style="bold")
        self.query_one("#menu-help", Static).update(help_text)

    def action_cursor(self, delta: int) -> None:
        self.cursor = (self.cursor + delta) % len(self.items)
        self.redraw()

    def action_change(self, delta: int) -> None:
        item = self.items[self.cursor]
        option = self._option(item)
        if item == "game":
            self.game = (self.game + delta) % len(self.games)
            self.players = min(self.players, self.chosen.max_players)
            self.players = max(self.players, self.chosen.min_players)
            self.remember()  # (the game shown first next time)
            self.look_for_save()
        elif item == "players":
            top, low = self.chosen.max_players, self.chosen.min_players
            self.players = min(top, max(low, self.players + delta))
        elif item == "bots":
            kinds = self.chosen.bot_kinds  # (those the chosen game offers)
            self.bots = kinds[(kinds.index(self.bot_kind) + delta) % len(kinds)]
        elif option is not None:
            self.choices[option.name] = stepped(option, self.choices[option.name], delta)
        self.redraw()

    def action_select(self) -> None:
        item = self.items[self.cursor]
        if item == "network":
            self.action_network()
        elif item.startswith("continue-"):
            self.continue_game(item.removeprefix("continue-"))
        elif item in ("play", "game", "players", "bots") or self._option(item) is not None:
            self.action_play()
        elif item == "host":
            self.action_host()
        elif item == "join":
            self.action_join()
        elif item == "replays":
            self.action_replays()
        elif item == "verify":
            self.action_verify()
        elif item == "rules":
            self.action_rules()
        else:
            self.action_quit_app()

    def action_play(self) -> None:
        saved = self.saves.get(self.chosen.name)
        if saved is not None and not self._replace_armed:
            self._replace_armed = True
            self.note = (
                f"A new game replaces the saved one ({saved.describe()}). "
                "Press Enter again to start anew, or choose Continue."
            )
            self.redraw()
            return
        self._replace_armed = False
        self.note = ""
        self.remember()
        setup = OfflineSetup(
            self.chosen.name, self.players, self.bot_kind, self.seed, dict(self.choices)
        )
        table = new_offline(setup, save_to=save_path(setup.game))
        self.app.push_screen(table_screen(table))

    def remember(self) -> None:
        """Keep the menu's choices for next time (a config dir that cannot be written only
        costs the convenience), over what the forms kept meanwhile (name, colour...)."""
        settings = replace(
            load_settings(), players=self.players, bots=self.bot_kind, game=self.chosen.name
        )
        for name, kept in self.values.items():
            settings = settings.with_options(name, kept) if kept else settings
        self.settings = settings
        with contextlib.suppress(OSError):
            save_settings(self.settings)

    def continue_game(self, game: str) -> None:
        """Back to ``game``'s saved game against bots, where it stopped."""
        saved = self.saves.get(game)
        if saved is None:
            return
        try:
            table = continue_offline(saved, save_to=save_path(game))
        except SaveError as exc:
            self.note = f"{exc}."
            self.redraw()
            return
        self.app.push_screen(table_screen(table))

    def action_network(self) -> None:
        """Reload the unfinished network game from its journal (in a thread: replaying a long
        journal takes a moment) and sit back down at its table."""
        if self.unfinished is None:
            return
        self.note = "Reloading the game from its journal..."
        self.redraw()
        self.run_worker(self._back_to(self.unfinished.game_id), group="resume", exclusive=True)

    async def _back_to(self, game_id: str) -> None:
        from rattus_net.net.netgame import NetworkGame, problem_text
        from rattus_net.net.node import PeerNode

        try:
            node = await asyncio.to_thread(PeerNode.load, game_id)
        except Exception as exc:
            self.note = f"The game cannot be resumed: {problem_text(exc)}"
            self.redraw()
            return
        self.note = ""
        game = NetworkGame(node)
        game.start(network_of(self.app))
        self.app.push_screen(table_screen(game))

    def action_rules(self) -> None:
        """The rules of the game chosen under "Play against bots"."""
        self.app.push_screen(RulesScreen(self.chosen.name))

    def action_host(self) -> None:
        """The host form, on the game chosen here if its tables can be played on the network
        (else on the first that can: the Host row says which)."""
        self.app.push_screen(HostScreen(game=self.chosen.name))

    def action_join(self) -> None:
        self.app.push_screen(JoinScreen())

    def action_verify(self) -> None:
        self.app.push_screen(VerifyScreen())

    def action_replays(self) -> None:
        self.app.push_screen(ReplaysScreen())

    def action_quit_app(self) -> None:
        if (self.saves or self.unfinished is not None) and not self._quit_armed:
            self._quit_armed = True
            what = "an offline game is saved" if self.saves else "a network game is unfinished"
            self.note = f"Quit? {what[:1].upper()}{what[1:]}: press q again to quit."
            self.redraw()
            return
        self.app.exit()


__all__ = ["OPTION", "MenuScreen", "menu_options"]
