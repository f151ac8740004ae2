"""The shell's screens: the main menu, the rules, the full log.

Each game's own screens (its table, its dialogs, its end) are in its package (``tui.cartus``,
``tui.rattus``), reached through ``tui.games``; the network screens (host, join, lobby, verify)
are in ``tui.netscreens``."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from importlib import resources
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, RichLog, Static

from rattus_net.bots import BOT_KINDS, BOT_LEVELS
from rattus_net.settings import read_settings, save_settings
from tui.games import (
    TUI_GAMES,
    MenuChoice,
    Saved,
    TuiGame,
    game_titles,
    network_games,
    network_table,
    tui_game,
)
from tui.offline import default_bot_kind
from tui.saves import SaveError, UnfinishedNetworkGame, unfinished_network_game

# The in-app rules summary of each game, packaged with the TUI: game name -> (title, file).
RULES = {g.name: (g.title, g.rules_file) for g in TUI_GAMES}


def rules_text(game: str = "cartus") -> str:
    """The in-app rules summary of ``game`` ("cartus" or "rattus", as ``rattus play --game``)."""
    return resources.files("tui").joinpath(RULES[game][1]).read_text(encoding="utf-8")


# --- main menu ----------------------------------------------------------------------------------


class MenuScreen(Screen[None]):
    """Play against bots (the game, players, bot kind and the game's own choices), host or
    join a network table, verify a record, read the rules, quit.

    Every game comes from ``tui.games``: its title, player counts, menu choices and save; and
    whether its tables can be played on the network, which the Host and Join rows say."""

    HELP_TITLE = "the main menu"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Select"),
        Binding("p", "play", "Play"),
        Binding("h", "host", "Host"),
        Binding("j", "join", "Join"),
        Binding("v", "verify", "Verify"),
        Binding("r", "rules", "Rules"),
        Binding("q", "quit_app", "Quit"),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("left,minus", "change(-1)", "Less", show=False),
        Binding("right,plus,equals_sign", "change(1)", "More", show=False),
    ]

    BEFORE = ("play", "players", "bots")  # then the chosen game's own choices
    AFTER = ("game", "host", "join", "verify", "rules", "quit")
    GAMES = tuple(g.title for g in TUI_GAMES)  # what "Play against bots" plays

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.cursor = 0
        self.game = 0  # index in TUI_GAMES
        self.items: tuple[str, ...] = self._game_items()
        self.saves: dict[str, Saved] = {}  # game name -> its saved game against bots
        self.unfinished: UnfinishedNetworkGame | None = None
        # the player's last choices (rattus_net.settings); a damaged file is only a note
        self.settings, problem = read_settings()
        self.note = problem or ""
        first = TUI_GAMES[0]
        self.players = min(first.max_players, max(first.min_players, self.settings.players))
        kinds = list(BOT_KINDS)
        bots = self.settings.bots if self.settings.bots in kinds else default_bot_kind()
        self.bot_index = kinds.index(bots)
        # each game's own choices, as positions in their lists (kept in the settings)
        self.choices: dict[str, int] = {
            c.key: c.index(str(self.settings.options(g.name).get(c.key, "")))
            for g in TUI_GAMES
            for c in g.choices
        }
        # a second Enter on "Play" replaces the saved game; a second q quits with a game
        # unfinished (any other key forgets)
        self._replace_armed = False
        self._quit_armed = False

    @staticmethod
    def _all_choices() -> tuple[MenuChoice, ...]:
        return tuple(c for g in TUI_GAMES for c in g.choices)

    @property
    def chosen(self) -> TuiGame:
        """The game "Play against bots" plays (and whose rules the menu shows)."""
        return TUI_GAMES[self.game % len(TUI_GAMES)]

    def choose_game(self, name: str) -> None:
        """Offer ``name`` under "Play against bots" (back from one of its games)."""
        self.game = next(i for i, g in enumerate(TUI_GAMES) if g.name == name)

    def _game_items(self) -> tuple[str, ...]:
        return self.BEFORE + tuple(c.key for c in self.chosen.choices) + self.AFTER

    def _choice(self, item: str) -> MenuChoice | None:
        return next((c for c in self.chosen.choices if c.key == item), None)

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(id="menu-title")
            yield Static(id="menu-body")
            yield Static(id="menu-help")
        yield Footer()

    def on_mount(self) -> None:
        title = Text("RATTUS NET\n", style="bold")
        title.append(f"{' and '.join(self.GAMES)}: the plague, the princes and the rats.\n")
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
        for g in TUI_GAMES:
            try:
                saved = g.saved()
            except SaveError as exc:
                saved, self.note = None, f"{exc}."
            if saved is not None:
                self.saves[g.name] = saved
        self.unfinished = unfinished_network_game()
        before = self.items
        self.items = (
            (("network",) if self.unfinished else ())
            + tuple(f"continue-{g.name}" for g in TUI_GAMES if g.name in self.saves)
            + self._game_items()
        )
        if self.items != before:
            current = before[self.cursor] if self.cursor < len(before) else None
            self.cursor = self.items.index(current) if current == "game" else 0
        self.redraw()

    @property
    def bot_kind(self) -> str:
        return BOT_KINDS[self.bot_index % len(BOT_KINDS)]

    def choice_values(self) -> dict[str, str]:
        """The chosen value of every game's own choice (``{"buildings": "first-game"}``)."""
        return {c.key: c.values[self.choices[c.key]] for c in self._all_choices()}

    def _network_note(self) -> str:
        """`` (Rattus Cartus only)`` on Host and Join while the chosen game's tables cannot
        be played on the network (its ``network_play`` flag is off)."""
        if self.chosen.network_play:
            return ""
        return f" ({game_titles(network_games())} only)"

    def redraw(self) -> None:
        labels = {
            "network": "Back to the network game"
            + (f" ({self.unfinished.describe()})" if self.unfinished else ""),
            "play": "Play against bots" + (" (a new game)" if self.saves else ""),
            "game": f"  Game         < {self.chosen.title} >",
            "players": f"  Players      < {self.players} >  (you and {self.players - 1} bots)",
            "bots": f"  Bots         < {BOT_LEVELS[self.bot_kind]} ({self.bot_kind}) >",
            # say which games network tables play while another one is chosen
            "host": "Host a table on the network" + self._network_note(),
            "join": "Join a table on the network" + self._network_note(),
            "verify": "Verify a game record",
            "rules": f"Rules of {self.chosen.title}",
            "quit": "Quit",
        }
        for name, saved in self.saves.items():
            labels[f"continue-{name}"] = f"Continue the saved game ({saved.describe()})"
        for c in self.chosen.choices:
            labels[c.key] = f"  {c.label:<12} < {c.names[self.choices[c.key]]} >"
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
        choice = self._choice(item)
        if item == "game":
            self.game = (self.game + delta) % len(TUI_GAMES)
            self.players = min(self.players, self.chosen.max_players)
            self.look_for_save()
        elif item == "players":
            top, low = self.chosen.max_players, self.chosen.min_players
            self.players = min(top, max(low, self.players + delta))
        elif item == "bots":
            self.bot_index = (self.bot_index + delta) % len(BOT_KINDS)
        elif choice is not None:
            self.choices[choice.key] = (self.choices[choice.key] + delta) % len(choice.names)
        self.redraw()

    def action_select(self) -> None:
        item = self.items[self.cursor]
        if item == "network":
            self.action_network()
        elif item.startswith("continue-"):
            self.continue_game(tui_game(item.removeprefix("continue-")))
        elif item in ("play", "game", "players", "bots") or self._choice(item) is not None:
            self.action_play()
        elif item == "host":
            self.action_host()
        elif item == "join":
            self.action_join()
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
        screen = self.chosen.new_offline(
            self.players, self.bot_kind, self.seed, self.choice_values()
        )
        self.app.push_screen(screen)

    def remember(self) -> None:
        """Keep the menu's choices for next time (a config dir that cannot be written only
        costs the convenience)."""
        settings = replace(self.settings, players=self.players, bots=self.bot_kind)
        for g in TUI_GAMES:
            kept = {c.key: c.values[self.choices[c.key]] for c in g.choices}
            settings = settings.with_options(g.name, kept) if kept else settings
        self.settings = settings
        with contextlib.suppress(OSError):
            save_settings(self.settings)

    def continue_game(self, game: TuiGame) -> None:
        """Back to ``game``'s saved game against bots, where it stopped."""
        saved = self.saves.get(game.name)
        if saved is None:
            return
        try:
            screen = game.continue_saved(saved)
        except SaveError as exc:
            self.note = f"{exc}."
            self.redraw()
            return
        self.app.push_screen(screen)

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
        game.start()
        self.app.push_screen(network_table(game))

    def action_rules(self) -> None:
        """The rules of the game chosen under "Play against bots"."""
        self.app.push_screen(RulesScreen(self.chosen.name))

    def action_host(self) -> None:
        """The host form, on the game chosen here if its tables can be played on the network
        (else on the first that can: the Host row says which)."""
        from tui.netscreens import HostScreen

        self.app.push_screen(HostScreen(game=self.chosen.name))

    def action_join(self) -> None:
        from tui.netscreens import JoinScreen

        self.app.push_screen(JoinScreen())

    def action_verify(self) -> None:
        from tui.netscreens import VerifyScreen

        self.app.push_screen(VerifyScreen())

    def action_quit_app(self) -> None:
        if (self.saves or self.unfinished is not None) and not self._quit_armed:
            self._quit_armed = True
            what = "an offline game is saved" if self.saves else "a network game is unfinished"
            self.note = f"Quit? {what[:1].upper()}{what[1:]}: press q again to quit."
            self.redraw()
            return
        self.app.exit()


# --- rules --------------------------------------------------------------------------------------


class RulesScreen(Screen[None]):
    """The rules summary of one game (the one at hand: the game played, or chosen in the
    menu); ``g`` shows the other game's."""

    HELP_TITLE = "the rules"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back"),
        Binding("pageup", "page(-1)", "Page up"),
        Binding("pagedown,space", "page(1)", "Page down"),
        Binding("g", "other_game", "Other game's rules"),
    ]

    def __init__(self, game: str = "cartus") -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Markdown(rules_text(self.game))
        yield Footer()

    async def action_other_game(self) -> None:
        self.game = next(g for g in RULES if g != self.game)
        await self.query_one(Markdown).update(rules_text(self.game))
        self.query_one("#rules", VerticalScroll).scroll_home(animate=False)

    def on_mount(self) -> None:
        self.query_one("#rules", VerticalScroll).focus()

    def action_page(self, direction: int) -> None:
        scroll = self.query_one("#rules", VerticalScroll)
        if direction < 0:
            scroll.scroll_page_up(animate=False)
        else:
            scroll.scroll_page_down(animate=False)

    def action_close(self) -> None:
        self.app.pop_screen()


class LogScreen(Screen[None]):
    """Everything that happened, in words, scrollable."""

    HELP_TITLE = "the log"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,l", "close", "Back")]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        yield Static(Text("The game so far (Up/Down, PageUp/PageDown scroll)", style="bold"))
        yield RichLog(id="full-log", wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        log = self.query_one("#full-log", RichLog)
        for line in self.lines:
            log.write(Text(line, style="bold" if line.startswith("Round ") else ""))
        log.focus()

    def action_close(self) -> None:
        self.app.pop_screen()
