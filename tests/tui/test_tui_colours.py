"""The five seat colours as terminals receive them: distinct and recognisable in truecolor,
256 colours, 16 colours and NO_COLOR, readable on the table's background, and never the only
cue (the seat letter and the name are always written)."""

from __future__ import annotations

import io
import re

import pytest
from rich.color import Color, ColorSystem
from rich.console import Console
from rich.style import Style
from rich.text import Text
from tui_helpers import cartus_table, controller_at, opened, sync

import rattus_net.games.cartus.ui.render as R
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.moves import DecisionKind
from tui.app import RattusNetApp

SGR = re.compile(r"\x1b\[([0-9;]*)m")

# the ANSI colour each disc colour must come out as in 16 colours (bright variants)
ANSI16 = {"red": "91", "blue": "94", "green": "92", "yellow": "93", "purple": "95"}


def emitted(text: Text, system: ColorSystem | None) -> str:
    """The escape sequences a terminal of ``system`` receives for ``text``."""
    out = io.StringIO()
    console = Console(
        file=out,
        force_terminal=True,
        color_system=None if system is None else system.name.lower().replace("eight_bit", "256"),
        width=200,
    )
    console.print(text, end="")
    return out.getvalue()


def seat_codes(system: ColorSystem) -> dict[str, str]:
    view = cartus_table(players=5, seed=1, advance=False).view
    codes = {}
    for s in range(5):
        st = Style.parse(R.seat_style(view, s))
        # a style of its own per colour system (``meta`` emits nothing): Rich keeps a style's
        # escape codes from the first colour system it was rendered for
        fresh = Style(bold=st.bold, color=st.color, meta={"system": system.name})
        sgr = SGR.findall(emitted(Text("X", style=fresh), system))
        codes[view.colours[s]] = sgr[0]
    return codes


@pytest.mark.parametrize("system", [ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT])
def test_five_colours_are_distinct_in_truecolor_and_256(system: ColorSystem) -> None:
    codes = seat_codes(system)
    assert set(codes) == set(D.COLOURS)
    assert len(set(codes.values())) == 5, codes
    if system is ColorSystem.EIGHT_BIT:
        assert all(";38;5;" in c for c in codes.values()), codes


def test_sixteen_colours_keep_red_and_purple_apart() -> None:
    codes = seat_codes(ColorSystem.STANDARD)
    for name, code in codes.items():
        assert code.split(";")[-1] == ANSI16[name], (name, code)


def _luminance(hex_colour: str) -> float:
    r, g, b = Color.parse(hex_colour).get_truecolor()

    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@sync
async def test_seat_colours_read_well_on_the_table_and_dialog_backgrounds() -> None:
    app = RattusNetApp(seed=1)
    async with opened(app):
        variables = app.get_css_variables()
        for background in ("background", "panel", "surface"):
            bg = Color.parse(variables[background][:7]).get_truecolor()
            bg_hex = "#{:02x}{:02x}{:02x}".format(*bg)
            for name, rgb in R.SEAT_RGB.items():
                assert contrast(rgb, bg_hex) >= 4.5, (name, background, contrast(rgb, bg_hex))


@sync
async def test_no_color_draws_seats_in_the_text_colour_with_letter_and_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    c = controller_at(DecisionKind.ENTER, players=5, seed=3, rounds=2)
    app = RattusNetApp(table=c)
    try:
        async with opened(app):
            assert app.no_color
            text = R.players(c.view)
            assert all(span.style == "bold" for span in text.spans if "bold" in str(span.style))
            assert all("#" not in str(span.style) for span in text.spans)
            for s, name in enumerate(c.view.names):
                assert f"{R.letter(c.view, s)} {name[:9]}" in text.plain
            assert "\x1b[3" not in emitted(text, ColorSystem.TRUECOLOR)
    finally:
        R.set_plain(False)


def test_colour_is_never_the_only_cue() -> None:
    c = controller_at(DecisionKind.ENTER, players=5, seed=3, rounds=2)
    view = c.view
    for text in (R.players(view), R.influence(view), R.scoring(view)):
        for span in text.spans:
            if any(rgb in str(span.style) for rgb in R.SEAT_RGB.values()):
                word = text.plain[span.start : span.end].strip()
                assert word[:1] in {R.letter(view, s) for s in range(view.n)}, word
