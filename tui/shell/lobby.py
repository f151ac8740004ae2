"""The lobby of a network table, any game: seats, names, colours, who is ready, the options;
the game starts when every seat is taken and ready, and its table opens (the game's own
screens: :mod:`tui.common.gameui`).

The host adds and removes bots, and changes the number of players and the game's own table
options by the keys its options schema gives them (``Option.key``); every seat gets ready
again after a change."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from protocol.safetext import safetext
from rattus_net.bots import BOT_KINDS, BOT_LEVELS
from rattus_net.kit.cells import pad
from rattus_net.kit.offline import default_bot_kind
from rattus_net.kit.options import Option
from rattus_net.kit.registry import get_game
from rattus_net.net.chat import Said
from rattus_net.net.discovery import local_addresses
from rattus_net.net.lobby import SEAT_COLOURS, LobbyState
from rattus_net.net.tables import GuestLobby, HostLobby, Lobby, options_words, problem_text
from rattus_net.settings import load_settings
from tui.common.chat import ChatBar
from tui.common.gameui import table_screen
from tui.common.network import network_of
from tui.common.soon import Soon
from tui.shell.forms import FormScreen, chosen_options, remember, stepped


def lobby_options(game: str) -> tuple[Option, ...]:
    """The table options of ``game`` its host may change in the lobby (those with a key); none
    of a game this program lacks."""
    try:
        definition = get_game(game)
    except ValueError:
        return ()
    return tuple(o for o in chosen_options(definition.options.table) if o.key is not None)


class LobbyScreen(Screen[None]):
    """Seats, names, colours, who is ready, the options; the game starts when all are ready."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,r", "ready", "Ready"),
        Binding("b", "add_bot", "Add bot"),
        Binding("x", "remove_bot", "Remove bot"),
        Binding("k", "bot_kind", "Bot kind"),
        Binding("c", "colour", "Colour", show=False),
        Binding("p", "option('players')", "Players", show=False),
        Binding("slash", "chat", "Chat"),
        Binding("escape,q", "leave", "Leave"),
    ]

    def __init__(self, lobby: Lobby, *, auto_bots: int = 0) -> None:
        super().__init__()
        self.lobby = lobby
        last = load_settings().bots  # the bot level chosen last time
        kinds = self.bot_kinds()
        self.bot_kind = last if last in kinds else default_bot_kind(kinds)
        self.auto_bots = auto_bots
        self.problem = ""
        self.connected = False
        self.starting = False
        self._changed = Soon(self, self.redraw)  # the lobby's listener
        if isinstance(lobby, HostLobby):  # the host changes the game's options by their keys
            for o in lobby_options(lobby.options.game):
                assert o.key is not None
                self._bindings.bind(o.key, f"option('{o.name}')", o.label, show=False)

    def bot_kinds(self) -> tuple[str, ...]:
        """The bots the host may seat: those the table's game offers."""
        lobby = self.lobby
        return get_game(lobby.options.game).bot_kinds if isinstance(lobby, HostLobby) else BOT_KINDS

    def compose(self) -> ComposeResult:
        yield Static(id="lobby-title")
        yield Static(id="lobby-body")
        yield Static(id="lobby-news")
        yield ChatBar(self.lobby.chat, self.chat_name, hint="/: chat")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("add_bot", "remove_bot", "bot_kind", "option"):
            return self.lobby.is_host
        return True

    def on_mount(self) -> None:
        network = network_of(self.app)
        if network is not None:
            self.lobby.adopt(network)  # (the program's network thread: the table runs there)
        self.lobby.listeners.append(self._changed)
        self.redraw()
        self.run_worker(self._run(), group="lobby", exit_on_error=False)

    def on_unmount(self) -> None:
        if self._changed in self.lobby.listeners:
            self.lobby.listeners.remove(self._changed)

    async def _run(self) -> None:
        lobby = self.lobby
        try:
            if isinstance(lobby, HostLobby):
                await lobby.open()
                self.connected = True
                self.redraw()
                for _ in range(self.auto_bots):
                    lobby.add_bot(self.bot_kind)
            else:
                self.connected = False
            wait = lobby.wait_start()
            if isinstance(lobby, GuestLobby):
                self.connected = True
            state = await wait
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.problem = problem_text(exc)
            self.connected = False
            await lobby.close()
            self.redraw()
            return
        self.starting = True
        try:
            game = lobby.game(state)
        except Exception as exc:
            self.problem = f"The game could not start: {problem_text(exc)}"
            await lobby.close()
            self.redraw()
            return
        game.start()
        stack = self.app.screen_stack
        if len(stack) > 2 and isinstance(stack[-2], FormScreen):
            # joined from the join form: the table takes the form's place too, so that its end
            # screen's Esc leads to the menu, not back to the form
            self.app.pop_screen()
        self.app.switch_screen(table_screen(game))

    def redraw(self) -> None:
        lobby = self.lobby
        state: LobbyState | None = None
        if isinstance(lobby, HostLobby):
            state = lobby.state if lobby.hosted is not None else None
        else:
            state = lobby.state
        title = Text(f"LOBBY: {safetext(lobby.table)}", style="bold")
        if isinstance(lobby, HostLobby) and lobby.hosted is not None:
            addrs = ", ".join(f"{a}:{lobby.port}" for a in local_addresses()[:2])
            title.append(f"\nYou host it. Others join at {addrs}")
        elif isinstance(lobby, GuestLobby):
            title.append(f"\nHost {lobby.address[0]}:{lobby.address[1]}")
        self.query_one("#lobby-title", Static).update(title)
        t = Text()
        if self.problem:
            t.append(f"Could not play at this table: {self.problem}\n", style="bold reverse")
            t.append("Escape: back.\n")
        elif state is None:
            t.append("Connecting...\n")
        else:
            t.append(f"Game: {state.options.definition.title}\n")
            t.append(f"Options: {options_words(state.options)}\n\n")
            for i in range(state.options.players):
                t.append(f"  Seat {i + 1}  ")
                if i >= len(state.seats):
                    t.append("(free)\n", style="dim")
                    continue
                s = state.seats[i]
                t.append(pad(safetext(s.name), 24), style="bold")
                t.append(f" {s.colour:<7}", style=s.colour)
                t.append(" READY   " if s.ready else " not ready", style="bold" if s.ready else "")
                who = []
                if s.fingerprint == lobby.fingerprint:
                    who.append("you")
                if s.bot:
                    who.append(f"bot: {BOT_LEVELS.get(s.bot, s.bot)}")
                if who:
                    t.append(f"  ({', '.join(who)})")
                t.append("\n")
            t.append("\n")
            if self.starting or state.phase == "playing":
                t.append("Everyone is ready: the game starts...\n", style="bold")
            else:
                me = lobby.my_ready()
                t.append(
                    "You are ready; waiting for the others (Space: not ready).\n"
                    if me
                    else "Space: get ready. The game starts when every seat is taken and ready.\n",
                    style="bold",
                )
                if lobby.is_host:
                    own = lobby_options(state.options.game)
                    keys = ", ".join(["p: players", *(f"{o.key}: {o.label.lower()}" for o in own)])
                    t.append(
                        f"b: add a bot ({BOT_LEVELS[self.bot_kind]}, k changes), "
                        "x: remove the last bot. c: your colour.\n"
                        f"{keys} (all get ready again).\n"
                    )
                else:
                    t.append("c: another colour.\n")
        self.query_one("#lobby-body", Static).update(t)
        news = lobby.news[-5:]
        self.query_one("#lobby-news", Static).update(Text("\n".join(news), style="italic"))

    def chat_name(self, said: Said) -> Text:
        """A lobby line's author, in the colour he sits with (bold only with NO_COLOR)."""
        style = "bold" if self.app.no_color else f"bold {said.colour}"
        return Text(said.name, style=style)

    def action_chat(self) -> None:
        """Type a chat line (for everybody at the table)."""
        if not self.problem:
            self.query_one(ChatBar).open()

    def action_ready(self) -> None:
        if self.problem or not self.connected or self.starting:
            return
        try:
            self.lobby.set_ready(not self.lobby.wants_ready())
        except Exception as exc:
            self.lobby.news.append(problem_text(exc))
        self.redraw()

    def action_add_bot(self) -> None:
        if not isinstance(self.lobby, HostLobby) or self.lobby.hosted is None:
            return
        try:
            name = self.lobby.add_bot(self.bot_kind)
            self.lobby.news.append(f"Seating the bot {name}...")
        except Exception as exc:
            self.lobby.news.append(problem_text(exc))
        self.redraw()

    def action_remove_bot(self) -> None:
        if isinstance(self.lobby, HostLobby) and not self.lobby.remove_bot():
            self.lobby.news.append("There is no bot to remove.")
        self.redraw()

    def action_colour(self) -> None:
        """The next disc colour nobody else sits with."""
        lobby = self.lobby
        state = lobby.state if not isinstance(lobby, HostLobby) or lobby.hosted else None
        if state is None or self.starting or state.phase == "playing":
            return
        me = state.seat_of(lobby.fingerprint)
        if me is None:
            return
        others = {s.colour for j, s in enumerate(state.seats) if j != me}
        mine = state.seats[me].colour
        start = SEAT_COLOURS.index(mine) if mine in SEAT_COLOURS else -1
        free = [SEAT_COLOURS[(start + k) % len(SEAT_COLOURS)] for k in range(1, len(SEAT_COLOURS))]
        choice = next((c for c in free if c not in others), None)
        if choice is None:
            lobby.news.append("Every other colour is taken.")
        else:
            try:
                lobby.set_colour(choice)
            except Exception as exc:
                lobby.news.append(problem_text(exc))
        self.redraw()

    def action_option(self, which: str) -> None:
        """The host changes one table option: the next player count that fits the seated
        players, or the next value of one of the game's own options (all get ready again)."""
        lobby = self.lobby
        if not isinstance(lobby, HostLobby) or lobby.hosted is None or self.starting:
            return
        now = lobby.state.options
        if which == "players":
            low = max(len(lobby.state.seats), now.definition.min_players)
            fitting = list(range(low, now.definition.max_players + 1))
            new = replace(now, players=fitting[(fitting.index(now.players) + 1) % len(fitting)])
        else:
            option = next((o for o in lobby_options(now.game) if o.name == which), None)
            if option is None:
                return  # (not an option of this table's game)
            value = now.values.get(which, option.default)
            new = replace(now, values={**now.values, which: stepped(option, value, 1)})
        try:
            lobby.set_options(new)
        except Exception as exc:
            lobby.news.append(problem_text(exc))
        self.redraw()

    def action_bot_kind(self) -> None:
        kinds = self.bot_kinds()
        i = kinds.index(self.bot_kind) if self.bot_kind in kinds else 0
        self.bot_kind = kinds[(i + 1) % len(kinds)]
        remember(bots=self.bot_kind)
        self.redraw()

    async def action_leave(self) -> None:
        if self.starting:
            return
        for worker in self.workers:
            worker.cancel()
        await self.lobby.close()
        self.app.pop_screen()


__all__ = ["LobbyScreen", "lobby_options"]
