"""On the Linux console (``TERM=linux``) the screens draw only glyphs its font has: the Rattus
map's sea links and plague piece, and the footer's Enter key, in ASCII; elsewhere as before.
One place decides (``tui/common/glyphs.py``), from ``$TERM``."""

from __future__ import annotations

import pytest
from rich.text import Text
from tui_helpers import opened, rattus_table, sync

import rattus_net.games.rattus.ui.render as R
from tui.app import RattusNetApp
from tui.common.glyphs import STAND_INS, drawable, limited, use_terminal


def test_only_the_linux_console_is_limited(monkeypatch: pytest.MonkeyPatch) -> None:
    assert limited("linux") and not limited("xterm-256color") and not limited("")
    monkeypatch.setenv("TERM", "linux")
    use_terminal(None)  # ($TERM asked again)
    assert limited()
    styled = Text("a ┈┈┈ b ☠", style="bold")
    styled.stylize("blue", 2, 5)
    shown = drawable(styled)
    assert shown.plain == "a ~~~ b P" and shown.spans == styled.spans
    assert styled.plain == "a ┈┈┈ b ☠"  # (a copy: the text given is left alone)


@pytest.mark.parametrize("kind", ["linux", "xterm-256color"])
@sync
async def test_the_map_and_the_footer_draw_what_the_terminal_has(
    monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    monkeypatch.setenv("TERM", kind)
    use_terminal(None)
    app = RattusNetApp(table=rattus_table(players=3, seed=2))
    async with opened(app) as pilot:
        await pilot.press("escape")  # the map, not the dialog
        await pilot.pause()
        drawn = R.map_text(app.screen.controller.view, 80).plain  # type: ignore[attr-defined]
        lacking = {ch for ch in drawn if ch in STAND_INS}
        keys = " ".join(  # the keys as the footer shows them
            app.get_key_display(b.binding)
            for b in app.screen.active_bindings.values()
            if b.binding.show
        )
        if kind == "linux":
            assert not lacking and "~" in drawn and "P plague" in drawn
            assert "⏎" not in keys and "Enter" in keys
        else:
            assert "┈" in drawn and "☠ plague" in drawn and "⏎" in keys
