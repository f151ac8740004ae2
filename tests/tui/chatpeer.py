"""A guest's TUI in a process of its own, for the chat test (tests/tui/test_tui_chat.py).

Run as ``python chatpeer.py PORT``: joins the loopback table at PORT as Gus, gets ready, and
at the table puts the opening dialog aside (Escape), types a line with its keys (``c``, the
text, Enter), then sends a hostile line through the table's chat feed as a modified program
could (escape sequences, control and bidi characters, a huge line: no key types those); then
waits for a line of the host's and prints, one JSON line, what its chat line shows."""

from __future__ import annotations

import asyncio
import json
import sys

from textual.pilot import Pilot
from textual.widgets import Static
from tui_helpers import Until, waiting

from rattus_net.net.netgame import NetworkGame
from rattus_net.net.tables import GuestLobby
from tui.app import RattusNetApp
from tui.common.chat import ChatBar
from tui.common.dialog import GameDialog
from tui.common.table import GameTable

HOSTILE = "\x1b[2J\x1b]0;owned\x07\u202eevil\r\n" + "W" * 5000


def keys(text: str) -> list[str]:
    """The keys that type ``text``."""
    return ["space" if ch == " " else ch for ch in text]


async def at_the_table(app: RattusNetApp, pilot: Pilot[None], until: Until) -> GameTable:
    """The network table once the game has started, the opening dialog put aside (Escape)."""
    await until(lambda: isinstance(app.screen, GameTable | GameDialog))
    table = next(s for s in app.screen_stack if isinstance(s, GameTable))
    c = table.controller
    assert isinstance(c, NetworkGame)
    # Somebody must decide (the game is set up); if it is us, our dialog opens: put it aside.
    await until(lambda: c.stable and c.snapshot.game.decision is not None)
    if c.my_turn:
        await until(lambda: isinstance(app.screen, GameDialog))
        await pilot.press("escape")
    await until(lambda: app.screen is table)
    return table


async def main(port: int) -> None:
    lobby = GuestLobby(("127.0.0.1", port), "Gus")
    app = RattusNetApp(lobby=lobby)
    async with app.run_test(size=(80, 24)) as pilot:
        until = waiting(
            60,
            pause=lambda: pilot.pause(0.05),
            why=lambda: f"timed out on {app.screen!r} {app.focused!r}",
        )

        await until(lambda: lobby.state is not None)
        await pilot.press("space")
        table = await at_the_table(app, pilot, until)
        await pilot.press("c", *keys("hi from Gus"), "enter")
        await until(lambda: any(s.text == "hi from Gus" for s in table.controller.chat.lines))
        problem = await table.controller.chat.say(HOSTILE)
        await until(lambda: any(s.seat == 0 for s in table.controller.chat.lines))
        bar = table.query_one(ChatBar)
        bar.open()  # (the last lines, as the player sees them when he types)
        await pilot.pause()
        shown = str(table.query_one("#chat-lines", Static).render())
        said = [[s.seat, s.text] for s in table.controller.chat.lines]
        print(json.dumps({"shown": shown, "said": said, "problem": problem}), flush=True)
        app.exit()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
