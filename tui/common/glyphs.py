"""The characters the screens draw beyond ASCII, and their stand-ins where the terminal's font
lacks them, decided in this one place from the terminal's kind (``$TERM``).

The Linux console (``TERM=linux``) draws from a font of a few hundred glyphs: the box lines
are there, but not the dotted and dotted diagonal lines of the Rattus map's sea links
(``┈ ┊ ⋰ ⋱``), the skull of its plague piece (``☠``) nor Textual's Enter key (``⏎``), which it
shows as blanks or diamonds. There a render passes its text through :func:`drawable`, and the
app's footer names the Enter key with :func:`enter_key`.
"""

from __future__ import annotations

from rich.text import Text

from rattus_net.paths import terminal_kind

LIMITED_TERMINALS = frozenset({"linux"})
"""Terminal kinds whose font lacks the glyphs of :data:`STAND_INS`."""

STAND_INS = {"☠": "P", "┈": "~", "┊": ":", "⋱": "\\", "⋰": "/"}
"""Each glyph a limited font lacks, and the ASCII character drawn in its place (one for one:
a line keeps its width and its styles)."""
ENTER = "⏎"
"""How Textual's footer shows the Enter key (``Enter`` where the font lacks it)."""

_limited: bool | None = None


def limited(term: str | None = None) -> bool:
    """Whether a terminal of kind ``term`` (default: this program's, ``$TERM``, asked once)
    lacks the glyphs of :data:`STAND_INS`."""
    global _limited
    if term is not None:
        return term in LIMITED_TERMINALS
    if _limited is None:
        _limited = terminal_kind() in LIMITED_TERMINALS
    return _limited


def use_terminal(term: str | None) -> None:
    """Draw for a terminal of kind ``term`` from now on (``None``: ask ``$TERM`` again)."""
    global _limited
    _limited = None if term is None else term in LIMITED_TERMINALS


_TABLE = str.maketrans(STAND_INS)


def drawable(text: Text) -> Text:
    """``text`` as this terminal can draw it: the same, or with the glyphs its font lacks
    replaced (the styles kept: each stand-in is one character for one)."""
    if not limited() or not any(ch in text.plain for ch in STAND_INS):
        return text
    out = text.copy()
    out.plain = text.plain.translate(_TABLE)
    return out


def enter_key(shown: str) -> str:
    """A key as a footer shows it (``⏎``), made drawable (``Enter``)."""
    return shown.replace(ENTER, "Enter") if limited() else shown


__all__ = [
    "LIMITED_TERMINALS",
    "STAND_INS",
    "drawable",
    "enter_key",
    "limited",
    "use_terminal",
]
