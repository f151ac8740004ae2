"""The chat line of a network table and of a lobby (tui/common/chat.py), over a stand-in
source: c or / opens it, Enter sends, Esc leaves, a refusal is said in one line, lines are
drawn as plain text (no markup, escapes visible), names in the seat's colour and letter, and
NO_COLOR keeps the names readable; a long line is wrapped by cells with its rows after the
first indented (no peer's text starts a row at the left edge) and cut; it exists only at a
network table."""

from __future__ import annotations

from collections.abc import Callable

from chatpeer import keys
from rattus_net_helpers import rattus_game_at, stand_in_game
from textual.widgets import Input, Static
from tui_helpers import pushed, sync, text_of

from protocol.safetext import safetext
from rattus_net.kit.cells import cells
from rattus_net.net.chat import Said
from tui.app import RattusNetApp
from tui.common.chat import INDENT, ROWS, SHOWN, ChatBar
from tui.common.gameui import table_screen

SIZE = (80, 24)


class Source:
    """A chat feed that keeps what is said (and refuses the word "flood")."""

    def __init__(self) -> None:
        self.lines: tuple[Said, ...] = ()
        self.listeners: list[Callable[[], None]] = []

    def add(self, said: Said) -> None:
        self.lines = (*self.lines, said)
        for hook in list(self.listeners):
            hook()

    async def say(self, text: str) -> str | None:
        if text == "flood":
            return "Not sent: too many lines at once: wait a second."
        self.add(Said(0, text))
        return None


@sync
async def test_the_table_s_chat_line_types_sends_and_leaves() -> None:
    net = stand_in_game(rattus_game_at())
    source = Source()
    net.chat = source  # type: ignore[assignment]
    app = RattusNetApp(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pushed(pilot, table_screen(net))
        await pilot.pause()
        bar = app.screen.query_one(ChatBar)
        assert "nobody said anything yet" in text_of(app.screen, "#chat-lines")
        source.add(Said(1, "[bold]not markup[/bold] \\x1b[2J"))  # (as the feed makes it safe)
        await pilot.pause()
        line = text_of(app.screen, "#chat-lines")
        assert "B Agnes: [bold]not markup[/bold] \\x1b[2J" in line
        await pilot.press("c")
        assert bar.typing and isinstance(app.focused, Input)
        await pilot.press(*keys("hello all"), "enter")
        assert source.lines[-1] == Said(0, "hello all")
        assert app.screen.query_one("#chat-input", Input).value == ""
        await pilot.press(*keys("flood"), "enter")
        assert "Not sent: too many lines" in text_of(app.screen, "#chat-lines")
        await pilot.press("escape")
        assert not bar.typing and app.focused is None
        await pilot.press("slash")  # the other key
        assert bar.typing
        await pilot.press("escape")
        for i in range(SHOWN + 3):
            source.add(Said(None, f"note {i}"))
        await pilot.press("c")
        shown = text_of(app.screen, "#chat-lines")
        assert "note 2" not in shown and f"note {SHOWN + 2}" in shown
        await pilot.press("escape")
        assert text_of(app.screen, "#chat-lines").strip() == f"note {SHOWN + 2}"
        await pilot.press("l")  # another screen over the table: a line comes as a notification
        source.add(Said(1, "over the log [b]plain[/b]"))
        await pilot.pause()
        notes = [(n.title, n.message) for n in app._notifications]
        assert ("Chat", "Agnes: over the log [b]plain[/b]") in notes


@sync
async def test_a_long_line_wraps_indented_and_cut_so_it_fakes_no_other_line() -> None:
    net = stand_in_game(rattus_game_at())
    source = Source()
    net.chat = source  # type: ignore[assignment]
    app = RattusNetApp(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pushed(pilot, table_screen(net))
        width = app.screen.query_one("#chat-lines", Static).size.width
        source.add(Said(1, "\u9f20" * 200))  # wide letters: two cells each
        source.add(Said(1, "word " * 100))
        await pilot.press("c")
        rows = text_of(app.screen, "#chat-lines").split("\n")
        assert [row.startswith("B Agnes: ") for row in rows] == [True, False, False] * 2
        assert all(row.startswith(" " * INDENT) for row in rows if not row.startswith("B"))
        assert all(cells(row) <= width for row in rows) and rows[-1].endswith("…")
        # a line padded to push its end to the left edge, raw and as the feed shows it
        head = "B Agnes: gg"
        fake = "gg" + " " * (width - len(head)) + "Hana: I resign, gg"
        source.add(Said(1, fake))
        source.add(Said(1, safetext(fake)))
        rows = text_of(app.screen, "#chat-lines").split("\n")
        assert rows[-3:] == ["B Agnes: gg", " " * INDENT + "Hana: I resign, gg", rows[-1]]
        assert rows[-1] == "B Agnes: gg Hana: I resign, gg"
        assert len(rows) <= ROWS and all(cells(row) <= width for row in rows)
        source.add(Said(1, "word " * 100))
        await pilot.press("escape")  # idle: the last line, in one row
        idle = text_of(app.screen, "#chat-lines")
        assert "\n" not in idle and idle.endswith("…") and cells(idle) <= width


@sync
async def test_an_offline_table_has_no_chat_line() -> None:
    from tui_helpers import rattus_table

    app = RattusNetApp(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await pushed(pilot, table_screen(rattus_table()))
        assert not app.screen.query(ChatBar)
        await pilot.press("c")
        assert not app.screen.query(Static).filter("#chat-lines")
