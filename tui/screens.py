"""The screens: main menu, rules, the table, the full log, the end of the game.

The network screens (host, join, lobby, verify, the network end) are in ``tui.netscreens``;
the table screen serves both an offline game and a seat at a network table."""

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
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown, RichLog, Static
from textual.worker import Worker, WorkerState

from rattus_net.bots import BOT_KINDS, BOT_LEVELS
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.config import BuildingSelection
from rattus_net.settings import read_settings, save_settings
from tui import render as R
from tui.controller import GameController, OfflineGame, OfflineOptions, default_bot_kind
from tui.decline import take_without_asking, toggle_always_take
from tui.dialogs import DecisionDialog, dialog_for
from tui.rattus import app as rattus_app
from tui.rattus.saves import SavedRattusGame
from tui.saves import (
    SavedGame,
    SaveError,
    UnfinishedNetworkGame,
    read_save,
    save_path,
    unfinished_network_game,
)

SELECTIONS: tuple[tuple[str, BuildingSelection], ...] = (
    ("first game", BuildingSelection.first_game()),
    ("random buildings", BuildingSelection.random_buildings()),
    ("random cards", BuildingSelection.random_cards()),
)
SELECTION_NAMES = ("first-game", "random-buildings", "random-cards")  # as settings keep them


# The in-app rules summary of each game, packaged with the TUI: game name -> (title, file).
RULES = {
    "cartus": ("Rattus Cartus", "rules.md"),
    "rattus": ("Rattus", "rules-rattus.md"),
}


def rules_text(game: str = "cartus") -> str:
    """The in-app rules summary of ``game`` ("cartus" or "rattus", as ``rattus play --game``)."""
    return resources.files("tui").joinpath(RULES[game][1]).read_text(encoding="utf-8")


# --- main menu ----------------------------------------------------------------------------------


class MenuScreen(Screen[None]):
    """Play against bots (players, bot kind, buildings), host or join a network table,
    verify a record, read the rules, quit."""

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

    ITEMS = (
        "play",
        "players",
        "bots",
        "buildings",
        "game",
        "host",
        "join",
        "verify",
        "rules",
        "quit",
    )
    GAMES = ("Rattus Cartus", "Rattus")  # what "Play against bots" plays

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.cursor = 0
        self.items: tuple[str, ...] = self.ITEMS
        self.saved: SavedGame | None = None
        self.unfinished: UnfinishedNetworkGame | None = None
        # the player's last choices (rattus_net.settings); a damaged file is only a note
        self.settings, problem = read_settings()
        self.note = problem or ""
        self.players = min(D.MAX_PLAYERS, max(D.MIN_PLAYERS, self.settings.players))
        kinds = list(BOT_KINDS)
        bots = self.settings.bots if self.settings.bots in kinds else default_bot_kind()
        self.bot_index = kinds.index(bots)
        last = self.settings.buildings
        self.selection = SELECTION_NAMES.index(last) if last in SELECTION_NAMES else 0
        # a second Enter on "Play" replaces the saved game; a second q quits with a game
        # unfinished (any other key forgets)
        self._replace_armed = False
        self._quit_armed = False
        self.game = 0  # index in GAMES
        self.rattus_saved: SavedRattusGame | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(id="menu-title")
            yield Static(id="menu-body")
            yield Static(id="menu-help")
        yield Footer()

    def on_mount(self) -> None:
        title = Text("RATTUS NET\n", style="bold")
        title.append("Rattus Cartus and Rattus: the plague, the princes and the rats.\n")
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
        """Offer "Continue" when an offline game is saved, or a network game a person played
        here stopped before its end."""
        try:
            self.saved = read_save(save_path())
        except SaveError as exc:
            self.saved, self.note = None, f"{exc}."
        self.unfinished = unfinished_network_game()
        try:
            self.rattus_saved = rattus_app.saved_game()
        except SaveError as exc:
            self.rattus_saved, self.note = None, f"{exc}."
        before = self.items
        items = self.ITEMS if self.game == 0 else tuple(i for i in self.ITEMS if i != "buildings")
        self.items = (
            (("network",) if self.unfinished else ())
            + (("continue",) if self.saved else ())
            + (("continue-rattus",) if self.rattus_saved else ())
            + items
        )
        if self.items != before:
            current = before[self.cursor] if self.cursor < len(before) else None
            self.cursor = self.items.index(current) if current == "game" else 0
        self.redraw()

    @property
    def bot_kind(self) -> str:
        return BOT_KINDS[self.bot_index % len(BOT_KINDS)]

    def options(self) -> OfflineOptions:
        return OfflineOptions(
            players=self.players,
            bots=self.bot_kind,
            seed=self.seed,
            buildings=SELECTIONS[self.selection][1],
        )

    def redraw(self) -> None:
        labels = {
            "network": "Back to the network game"
            + (f" ({self.unfinished.describe()})" if self.unfinished else ""),
            "continue": "Continue the saved game"
            + (f" ({self.saved.describe()})" if self.saved else ""),
            "continue-rattus": "Continue the saved game"
            + (f" ({self.rattus_saved.describe()})" if self.rattus_saved else ""),
            "play": "Play against bots"
            + (" (a new game)" if self.saved or self.rattus_saved else ""),
            "game": f"  Game         < {self.GAMES[self.game]} >",
            "players": f"  Players      < {self.players} >  (you and {self.players - 1} bots)",
            "bots": f"  Bots         < {BOT_LEVELS[self.bot_kind]} ({self.bot_kind}) >",
            "buildings": f"  Buildings    < {SELECTIONS[self.selection][0]} >",
            # network tables play Rattus Cartus only, for now: say so while Rattus is chosen
            "host": "Host a table on the network" + (" (Rattus Cartus only)" if self.game else ""),
            "join": "Join a table on the network" + (" (Rattus Cartus only)" if self.game else ""),
            "verify": "Verify a game record",
            "rules": f"Rules of {self.GAMES[self.game]}",
            "quit": "Quit",
        }
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
        if item == "game":
            self.game = (self.game + delta) % len(self.GAMES)
            self.players = min(self.players, rattus_app.MAX_PLAYERS if self.game else 5)
            self.look_for_save()
        elif item == "players":
            top = rattus_app.MAX_PLAYERS if self.game else D.MAX_PLAYERS
            self.players = min(top, max(D.MIN_PLAYERS, self.players + delta))
        elif item == "bots":
            self.bot_index = (self.bot_index + delta) % len(BOT_KINDS)
        elif item == "buildings":
            self.selection = (self.selection + delta) % len(SELECTIONS)
        self.redraw()

    def action_select(self) -> None:
        item = self.items[self.cursor]
        if item == "network":
            self.action_network()
        elif item == "continue":
            self.action_continue()
        elif item == "continue-rattus":
            self.action_continue_rattus()
        elif item in ("play", "game", "players", "bots", "buildings"):
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
        saved = self.rattus_saved if self.game == 1 else self.saved
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
        if self.game == 1:
            from tui.rattus.screens import RattusMapScreen

            rattus = rattus_app.new_game(self.players, self.bot_kind, self.seed)
            self.app.push_screen(RattusMapScreen(rattus))
            return
        game = OfflineGame(self.options(), advance=False, save_to=save_path())
        self.app.push_screen(TableScreen(game))

    def remember(self) -> None:
        """Keep the menu's choices for next time (a config dir that cannot be written only
        costs the convenience)."""
        self.settings = replace(
            self.settings,
            players=self.players,
            bots=self.bot_kind,
            buildings=SELECTION_NAMES[self.selection],
        )
        with contextlib.suppress(OSError):
            save_settings(self.settings)

    def action_continue(self) -> None:
        if self.saved is None:
            return
        try:
            game = OfflineGame.continued(self.saved, save_to=save_path())
        except SaveError as exc:
            self.note = f"{exc}."
            self.redraw()
            return
        self.app.push_screen(TableScreen(game))

    def action_continue_rattus(self) -> None:
        if self.rattus_saved is None:
            return
        from tui.rattus.screens import RattusMapScreen

        try:
            rattus = rattus_app.continue_game(self.rattus_saved)
        except SaveError as exc:
            self.note = f"{exc}."
            self.redraw()
            return
        self.app.push_screen(RattusMapScreen(rattus))

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
        self.app.push_screen(TableScreen(game))

    def action_rules(self) -> None:
        """The rules of the game chosen under "Play against bots"."""
        self.app.push_screen(RulesScreen(("cartus", "rattus")[self.game]))

    def action_host(self) -> None:
        from tui.netscreens import HostScreen

        self.app.push_screen(HostScreen())

    def action_join(self) -> None:
        from tui.netscreens import JoinScreen

        self.app.push_screen(JoinScreen())

    def action_verify(self) -> None:
        from tui.netscreens import VerifyScreen

        self.app.push_screen(VerifyScreen())

    def action_quit_app(self) -> None:
        if (self.saved is not None or self.unfinished is not None) and not self._quit_armed:
            self._quit_armed = True
            what = "an offline game is saved" if self.saved else "a network game is unfinished"
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


# --- the table ----------------------------------------------------------------------------------


class TableScreen(Screen[None]):
    """The table of a game. Dialogs open by themselves when you must decide.

    Offline, the bots play in a worker thread after each of your moves. At a network table the
    node plays on its own thread (:mod:`rattus_net.net.netgame`); it calls back on the app's
    loop when something happened (a move, a peer dropping or coming back, a fault), and a
    one-second timer keeps the "waiting for" line's clock going."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "decide", "Decide"),
        Binding("l", "full_log", "Log"),
        Binding("r", "rules", "Rules"),
        Binding("q", "leave", "Leave game"),
        Binding("t", "toggle_always_take", "Always take", show=False),
        Binding("question_mark,f1", "help", "Keys"),
        Binding("w", "wait_longer", "Wait longer", show=False),  # (said on the awaited line)
    ]

    def __init__(self, controller: GameController) -> None:
        super().__init__()
        self.controller = controller
        self._net_pending = False
        self.log_lines: list[str] = []
        self._leave_armed = False
        self._dialog_open = False
        # The player closed the decision's dialog (Escape) to look at the table: it opens
        # again when he asks (Enter), not at the next network event.
        self._looking = False
        self.busy = False  # the bots and the table are playing (in a worker thread)
        # the log index from which the next summary of what happened starts
        self._news_from = controller.view.log_size
        self._news_open = False

    def compose(self) -> ComposeResult:
        view = self.controller.view
        k = D.ROUND_PLAN[view.n].buildings_per_round
        yield Static(id="status")
        yield Static(id="awaited")
        with Horizontal(id="row"):
            for i in range(k):
                yield Static(id=f"building-{i}", classes="building")
        with Horizontal(id="middle"):
            yield Static(id="players")
            yield Static(id="influence")
        yield Static(id="hand")
        yield Static(id="nuns")
        yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True)
        yield Footer()

    def on_mount(self) -> None:
        self.update_table()
        if self.controller.network:
            self._listen(True)
            self.set_interval(1.0, self._tick)
            self.call_after_refresh(self.next_step)
        elif self.controller.my_turn or self.controller.is_over:
            self.call_after_refresh(self.next_step)
        else:
            self.let_others_play()

    def _listen(self, on: bool) -> None:
        hooks: list[object] = getattr(self.controller, "listeners", [])
        if on:
            hooks.append(self._net_changed)
        elif self._net_changed in hooks:
            hooks.remove(self._net_changed)

    def on_unmount(self) -> None:
        if self.controller.network:
            self._listen(False)

    def _net_changed(self) -> None:
        """The node says something happened: redraw once, soon (many events may come)."""
        if not self._net_pending:
            self._net_pending = True
            self.call_later(self._net_redraw)

    def _net_redraw(self) -> None:
        self._net_pending = False
        if self.is_attached:
            self.update_table()
            dialog = self.app.screen
            if self.controller.is_over and self._dialog_open and isinstance(dialog, DecisionDialog):
                dialog.dismiss(False)  # the game stopped while the player was choosing
                self.call_after_refresh(self.next_step)
                return
            self.next_step()

    def on_resize(self) -> None:
        self.update_table()  # the hand and the status line are laid out for the width

    def on_screen_resume(self) -> None:
        """Back from the log, the rules, the keys or the "too small" notice: a decision that
        came meanwhile opens now."""
        self.call_after_refresh(self.next_step)

    def _tick(self) -> None:
        if not self.controller.my_turn and not self.controller.is_over:
            self.query_one("#awaited", Static).update(Text(self.controller.awaited()))

    def let_others_play(self) -> None:
        """Bots may think for a while: they play in a worker thread; the table shows the last
        state and waits (its keys do nothing meanwhile but show the log or the rules).

        Quick bots (the controller's ``quick_bots``: a few milliseconds per decision) play
        right here instead: a thread would cost more than they do (its start, and handing
        Python's lock back and forth while the screen paints: some 25 ms)."""
        self.busy = True
        if getattr(self.controller, "quick_bots", False):
            try:
                self.controller.advance()
            except Exception as exc:  # as from the worker: said on the table, not a crash
                self._others_played(exc)
            else:
                self.call_later(self._others_played, None)  # once the dialog has gone
            return
        self.query_one("#awaited", Static).update(Text("The others are playing...", style="bold"))
        self.run_worker(self.controller.advance, thread=True, exit_on_error=False, group="bots")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "bots":
            return
        if event.state is WorkerState.SUCCESS:
            self._others_played(None)
        elif event.state is WorkerState.ERROR:
            self._others_played(event.worker.error)

    def _others_played(self, error: BaseException | None) -> None:
        """The bots and the table are done (or one of them failed, with ``error``)."""
        self.busy = False
        self.update_table()
        if error is None:
            self.next_step()  # same frame: the dialog and the table paint together
        else:
            self.query_one("#awaited", Static).update(
                Text(f"A bot or the table failed: {error}", style="bold reverse")
            )

    def update_table(self) -> None:
        c = self.controller
        if c.network and not getattr(c, "stable", True):
            # the table is between two states (a card on its way): show the news only
            self.query_one("#awaited", Static).update(Text(c.awaited()))
            self._write_log(c.new_log_lines())
            return
        view = c.view
        width = self.app.size.width
        self.query_one("#status", Static).update(R.status(view, width))
        if c.network and not c.my_turn:
            self.query_one("#awaited", Static).update(Text(c.awaited()))
        else:
            self.query_one("#awaited", Static).update(R.awaited(view, c.names))
        for i, widget in enumerate(self.query(".building").results(Static)):
            widget.update(R.building_card(view, i) if i < len(view.row) else Text(""))
        self.query_one("#players", Static).update(R.players(view))
        self.query_one("#influence", Static).update(R.influence(view))
        self.query_one("#hand", Static).update(R.hand(view, width))
        self.query_one("#nuns", Static).update(R.nun_row(view))
        self._write_log(c.new_log_lines())

    def _write_log(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            self.log_lines.append(line)
            style = "bold" if line.startswith(("Round ", "Game over")) else ""
            log.write(Text(line, style=style))

    def next_step(self, asked: bool = False) -> None:
        """Open the dialog if the human must decide (unless he put it aside to look at the
        table and has not ``asked`` for it again), or the end screen once it is over."""
        if self._dialog_open or self._news_open or self.busy or not self.is_current:
            return
        if asked:
            self._looking = False
        c = self.controller
        if (c.is_over or (c.my_turn and not self._looking)) and self._show_news():
            return
        if self.controller.is_over:
            if self.controller.network:
                from rattus_net.net.netgame import NetworkGame
                from tui.netscreens import NetEndScreen

                assert isinstance(self.controller, NetworkGame)
                self.app.switch_screen(NetEndScreen(self.controller, self.log_lines))
            else:
                self.app.switch_screen(EndScreen(self.controller, self.log_lines))
        elif self.controller.my_turn and not self._looking:
            if take_without_asking(self.controller):  # the "always take" setting
                self._dialog_closed(True)
                return
            self._dialog_open = True
            dialog = dialog_for(self.controller)
            dialog.log_lines = self.log_lines
            self.app.push_screen(dialog, self._dialog_closed)

    def _show_news(self) -> bool:
        """Show what happened since the last decision (buildings resolved, a round ended)
        before the next dialog covers the table; True if it is shown (``next_step`` goes on
        when it is closed)."""
        from tui.news import NewsScreen, is_newsworthy, summary

        c = self.controller
        if getattr(c, "stable", True) is False:
            return False
        view = c.view
        start, self._news_from = self._news_from, view.log_size
        if not is_newsworthy(view, start):
            return False
        self._news_open = True
        self.app.push_screen(
            NewsScreen(
                summary(view, c.names, start, min(100, self.app.size.width) - 5), self.log_lines
            ),
            self._news_closed,
        )
        return True

    def _news_closed(self, _: None) -> None:
        self._news_open = False
        self.call_after_refresh(self.next_step)

    def _dialog_closed(self, accepted: bool | None) -> None:
        self._dialog_open = False
        self._looking = not accepted
        if accepted and self.controller.network:
            self.update_table()  # the node carries on by itself
            self.call_after_refresh(self.next_step)
        elif accepted:
            self.let_others_play()
        else:
            self.update_table()

    def action_decide(self) -> None:
        self._leave_armed = False
        self.next_step(asked=True)

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines))

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen())

    def action_toggle_always_take(self) -> None:
        self.notify(toggle_always_take())

    def action_help(self) -> None:
        from tui.help import open_help

        open_help(self, "the table", "Your decision's dialog opens by itself; Esc puts it aside.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``w`` (wait longer for a player who dropped off) exists only at a network table."""
        if action == "wait_longer":
            return getattr(self.controller, "wait_longer", None) is not None
        return True

    def action_wait_longer(self) -> None:
        """At a network table, give the players who dropped off more time."""
        wait = getattr(self.controller, "wait_longer", None)
        line = wait() if wait is not None else None
        if line is not None:
            self.notify(line)

    async def action_leave(self) -> None:
        if not self._leave_armed:
            self._leave_armed = True
            if self.controller.network:
                self.notify("Press q again to leave: the others will see you stall the game.")
            else:
                self.notify(
                    "Press q again to leave this game (it is saved: Continue it from the menu)."
                )
            return
        stop = getattr(self.controller, "stop", None)
        if stop is not None:
            await stop()
        self.app.clear_notifications()  # "press q again" must not linger over the menu
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


# --- the end ------------------------------------------------------------------------------------


class EndScreen(Screen[None]):
    """The full scoring breakdown and the winner."""

    HELP_TITLE = "the end of the game"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,escape", "menu", "Main menu"),
        Binding("l", "full_log", "Log"),
        Binding("q", "quit_app", "Quit"),
    ]

    def __init__(self, controller: GameController, log_lines: list[str]) -> None:
        super().__init__()
        self.controller = controller
        self.log_lines = log_lines

    def compose(self) -> ComposeResult:
        yield Static(Text("GAME OVER: the plague reveals the rats", style="bold"), id="end-title")
        with VerticalScroll(id="end-scroll"):
            yield Static(R.scoring(self.controller.view), id="scoring")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#end-scroll", VerticalScroll).focus()

    def action_menu(self) -> None:
        self.app.pop_screen()

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines))

    def action_quit_app(self) -> None:
        self.app.exit()
