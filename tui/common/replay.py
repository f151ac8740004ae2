"""The replay viewer, any game: a record read back step by step.

The steps are the kit's (:class:`rattus_net.kit.replay.Replay`); the table at each step is
drawn by the game's own screens (``GameUi.replay_board``, and ``GameUi.replay_secrets`` for
what each seat alone held when everything is shown), the log lines of each step are the
game's own narration, told as the chosen seat read it. Keys: Left/Right a step, PgUp/PgDn a
turn, Home/End the start and the end, ``j`` jump to a round or a turn, ``v`` the next
viewpoint (each seat, then everything), ``l`` the whole log so far, Esc back.

A record is read in a worker thread (a signed record is verified first: seconds), the screen
saying so meanwhile; a record that cannot be read says why in one line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Input, Static

from protocol.safetext import safetext
from rattus_net.kit.errors import RecordError
from rattus_net.kit.interface import AnyGame, TableWords
from rattus_net.kit.registry import ui_module
from rattus_net.kit.replay import EVERYTHING, Replay
from tui.common.log import LogScreen

LOADING = "Reading the record..."
STEP = Binding.Group("Step")
TURN = Binding.Group("Turn")
ENDS = Binding.Group("Start/End")
LOG_ROWS = 6


class Boards(Protocol):
    """What the viewer asks of a game's screens (``tui.common.gameui.GameUi`` has it)."""

    words: Callable[[Sequence[str], int], TableWords] | None

    def replay_board(self, view: Any, width: int, everything: bool = False) -> RenderableType: ...

    def replay_secrets(self, view: Any, width: int) -> Text: ...


def generic_board(view: Any) -> Text:
    """The players and who must act: the table of a game without screens of its own."""
    t = Text(f"Players: {', '.join(safetext(n) for n in view.names)}")
    d = view.decision
    if view.is_over:
        t.append("\nThe game is over.", style="bold")
    elif d is not None:
        t.append(f"\nTo act: {', '.join(safetext(view.names[s]) for s in d.players)}")
    return t


class GenericBoards:
    """The viewer's table of a game without screens of its own."""

    words: Callable[[Sequence[str], int], TableWords] | None = None

    def replay_board(self, view: Any, width: int, everything: bool = False) -> RenderableType:
        return generic_board(view)

    def replay_secrets(self, view: Any, width: int) -> Text:
        return Text("")


def boards_of(definition: AnyGame) -> Boards:
    """The game's screens (its ``ui`` package's ``UI``, as ``tui.common.gameui.game_ui``
    finds it: imported by name here, since that module leads back to this one through the
    end screen), or the generic ones."""
    module = ui_module(definition)
    if module is None:
        return GenericBoards()
    ui: Boards = importlib.import_module(module).UI
    return ui


def parse_jump(text: str, replay: Replay) -> int:
    """The step a jump prompt names: ``r3`` (round 3), ``t12`` or ``12`` (turn 12), ``s40``
    (step 40); ``ValueError`` with the line to show otherwise."""
    words = text.strip().lower().replace(" ", "")
    kind, digits = ("t", words) if words[:1].isdigit() else (words[:1], words[1:])
    if kind not in ("r", "t", "s") or not digits.isdigit():
        raise ValueError("type r and a round, t and a turn, or s and a step (r3, t12, s40)")
    number = int(digits)
    if kind == "s":
        if number > replay.last:
            raise ValueError(f"there are steps 0 to {replay.last}")
        return number
    found = replay.find_round(number) if kind == "r" else replay.find_turn(number)
    if found is None:
        what = "round" if kind == "r" else "turn"
        most = replay.rounds if kind == "r" else replay.turns
        raise ValueError(f"no {what} {number} in this game (up to {most})")
    return found


class JumpPrompt(ModalScreen[int | None]):
    """Where to jump: a round, a turn or a step; a wrong answer says why and stays."""

    DEFAULT_CSS = """
    JumpPrompt { align: center middle; }
    JumpPrompt > Vertical {
        width: 60; height: auto; border: solid $primary; padding: 0 1; background: $panel;
    }
    JumpPrompt #jump-error { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                f"Jump to: r3 (round 3), t12 (turn 12) or s40 (step 40); "
                f"{self.replay.turns} turns, steps 0-{self.replay.last}"
            )
            yield Input(id="jump-input", placeholder="t12")
            yield Static("", id="jump-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            self.dismiss(parse_jump(event.value, self.replay))
        except ValueError as exc:
            self.query_one("#jump-error", Static).update(Text(str(exc), style="bold"))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayScreen(Screen[None]):
    """The replay viewer (see the module's docstring)."""

    HELP_TITLE = "the replay"
    DEFAULT_CSS = f"""
    ReplayScreen #rp-status {{ height: 2; background: $boost; }}
    ReplayScreen #rp-board {{ height: 1fr; }}
    ReplayScreen #rp-log {{
        height: auto; max-height: {LOG_ROWS + 1}; border-top: solid $primary;
        overflow-y: auto;
    }}
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # (priority: the board's scroll would take these keys; Up/Down still scroll it)
        Binding("left", "step(-1)", "Step back", priority=True, group=STEP),
        Binding("right", "step(1)", "Step forward", priority=True, group=STEP),
        Binding("pageup", "turn(-1)", "Turn back", key_display="PgUp", priority=True, group=TURN),
        Binding(
            "pagedown", "turn(1)", "Turn forward", key_display="PgDn", priority=True, group=TURN
        ),
        Binding("home", "start", "The start", key_display="Home", priority=True, group=ENDS),
        Binding("end", "end", "The end", key_display="End", priority=True, group=ENDS),
        Binding("j", "jump", "Jump"),
        Binding("v", "viewpoint", "View"),
        Binding("l", "full_log", "Log", show=False),
        Binding("escape,q", "leave", "Back"),
    ]

    def __init__(
        self,
        source: Path | Callable[[], Replay],
        *,
        viewpoint: int = EVERYTHING,
    ) -> None:
        """``source``: a record file, or what makes the replay (read in a worker thread).
        ``viewpoint``: the seat first shown (or everything): the seat the replay's owner
        played, if he is known, the only one the log calls "you" whatever the viewpoint."""
        super().__init__()
        self.source = source
        self.replay: Replay | None = None
        self.index = 0
        self.viewpoint = viewpoint
        self.you: int | None = None if viewpoint == EVERYTHING else viewpoint
        self.problem: str | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(LOADING, style="italic"), id="rp-status")
        with VerticalScroll(id="rp-board"):
            yield Static("", id="rp-table")
        yield Static("", id="rp-log")
        # (its keys take the 80 columns: no room for the palette's ^p, which still works)
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#rp-board", VerticalScroll).focus()
        self.run_worker(self._load, thread=True, group="replay")

    def _load(self) -> None:
        source = self.source
        try:
            if isinstance(source, Path):
                from rattus_net.replays import open_replay

                replay = open_replay(source)
            else:
                replay = source()
        except RecordError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._loaded, replay)

    def _failed(self, problem: str) -> None:
        self.problem = safetext(problem)
        status = self.query_one("#rp-status", Static)
        status.update(Text(f"This record cannot be replayed: {self.problem}", style="bold"))

    def _loaded(self, replay: Replay) -> None:
        self.replay = replay
        if not (self.viewpoint == EVERYTHING or 0 <= self.viewpoint < replay.n):
            self.viewpoint = EVERYTHING
            self.you = None
        self.index = 0
        if replay.note:
            self.notify(safetext(replay.note), timeout=8)
        self.show()

    # --- drawing ------------------------------------------------------------------------------

    def viewpoint_name(self) -> str:
        replay = self.replay
        if replay is None or self.viewpoint == EVERYTHING:
            revealed = replay is not None and replay.note is not None
            return "with everything revealed" if revealed else "with everything"
        return f"as {safetext(replay.names[self.viewpoint])} saw it"

    def words(self) -> Callable[[Sequence[str], int], TableWords]:
        """The game's words for the log, the names made safe to show."""
        assert self.replay is not None
        definition = self.replay.definition
        factory = self.ui().words or definition.table_words
        return lambda names, seat: factory(tuple(safetext(n) for n in names), seat)

    def ui(self) -> Boards:
        assert self.replay is not None
        return boards_of(self.replay.definition)

    def show(self) -> None:
        replay = self.replay
        if replay is None:
            return
        i, vp = self.index, self.viewpoint
        status = Text(f"REPLAY of {replay.definition.title}", style="bold")
        status.append(f", viewed {self.viewpoint_name()} (v: another)\n{replay.where(i)}")
        self.query_one("#rp-status", Static).update(status)
        self.query_one("#rp-table", Static).update(self.board())
        log = Text(self.step_heading(), style="bold")
        lines = replay.lines(vp, self.words(), self.you)[i] or ["(nothing told at this step)"]
        tie = self.tie_break()
        width = max(20, self.app.size.width)
        rows = sum(-(-max(1, len(line)) // width) for line in lines)
        if rows > LOG_ROWS:  # (the board keeps its room: the rest is one key away)
            log.append(f"  ({len(lines)} lines; l: the whole log)", style="italic")
        if tie is not None:  # (first: the step's own lines may be more than the log shows)
            log.append("\n" + tie, style="bold")
        for line in lines:
            log.append("\n" + line)
        self.query_one("#rp-log", Static).update(log)

    def tie_break(self) -> str | None:
        """At the end of a game a tie-break decided: the winner and why, as the game's report
        says it."""
        assert self.replay is not None
        names = tuple(safetext(n) for n in self.replay.names)
        return self.replay.tie_break(self.index, names, self.you)

    def step_heading(self) -> str:
        """The step's move as its record has it (the whole move only where the viewpoint
        saw it: its own, or everything; a move's hidden part stays hidden from the
        others, whose log tells what they saw)."""
        assert self.replay is not None
        step = self.replay.steps[self.index]
        if step.seat is None or self.viewpoint in (EVERYTHING, step.seat):
            return safetext(step.text)
        return f"{safetext(self.replay.names[step.seat])} moves:"

    def board(self) -> RenderableType:
        """The table after the step, as the viewpoint saw it, and below it what the seat
        alone held (for everything: what each seat held, under its name)."""
        replay = self.replay
        assert replay is not None
        ui = self.ui()
        width = max(40, self.app.size.width - 3)  # (the board's scroll bar takes 2)
        view = replay.view(self.index, self.viewpoint)
        everything = self.viewpoint == EVERYTHING
        parts: list[RenderableType] = [ui.replay_board(view, width, everything)]
        if self.viewpoint != EVERYTHING:
            parts.append(ui.replay_secrets(view, width))
            return Group(*parts)
        for seat in range(replay.n):
            name = Text(f"{safetext(replay.names[seat])}: ", style="bold")
            secrets = ui.replay_secrets(replay.view(self.index, seat), width - name.cell_len)
            if secrets.plain:
                parts.append(name + secrets)
        return Group(*parts)

    # --- keys ---------------------------------------------------------------------------------

    def go(self, index: int) -> None:
        if self.replay is None:
            return
        self.index = max(0, min(self.replay.last, index))
        self.show()

    def action_step(self, delta: int) -> None:
        self.go(self.index + delta)

    def action_turn(self, delta: int) -> None:
        if self.replay is not None:
            r = self.replay
            self.go(r.next_turn(self.index) if delta > 0 else r.previous_turn(self.index))

    def action_start(self) -> None:
        self.go(0)

    def action_end(self) -> None:
        if self.replay is not None:
            self.go(self.replay.last)

    def action_viewpoint(self) -> None:
        replay = self.replay
        if replay is None:
            return
        order = [*range(replay.n), EVERYTHING]
        self.viewpoint = order[(order.index(self.viewpoint) + 1) % len(order)]
        # the status line says whose view it is: no notification, which, pressed again and
        # again, would stack over the log
        self.show()

    def action_jump(self) -> None:
        if self.replay is None:
            return

        def jumped(index: int | None) -> None:
            if index is not None:
                self.go(index)

        self.app.push_screen(JumpPrompt(self.replay), jumped)

    def action_full_log(self) -> None:
        replay = self.replay
        if replay is None:
            return
        told = replay.lines(self.viewpoint, self.words(), self.you)[: self.index + 1]
        tie = self.tie_break()
        self.app.push_screen(
            LogScreen([line for lines in told for line in lines] + ([tie] if tie else []))
        )

    def action_leave(self) -> None:
        self.app.pop_screen()


def offline_replay(definition: Any, record: str, values: Any) -> Callable[[], Replay]:
    """What makes the replay of an offline game's face-level record (the end screen's)."""
    from rattus_net.kit.replay import replay_record

    return lambda: replay_record(definition, record, values)


__all__ = [
    "Boards",
    "JumpPrompt",
    "ReplayScreen",
    "boards_of",
    "generic_board",
    "offline_replay",
    "parse_jump",
]
