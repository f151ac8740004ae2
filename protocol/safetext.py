"""Text from another peer or from a record, made safe to show in a terminal.

Player names, table names, abort reasons, chat lines and evidence all come from other peers
(or from a record anybody can write). Printed as they are, a control character or an escape
sequence in them could move the cursor, recolour or clear the screen, rewrite what the
verifier printed, or set the terminal's title; a bidirectional override could make a name read
as another. And text that shows nothing can still lay a line out: blank letters, invisible
fillers or a run of spaces push the rest of a chat line to the start of the next row, where it
reads as a line of its own ("P1: I resign, gg"), and a letter carrying a hundred combining
marks paints over the rows above and below it.

:func:`safetext` keeps every printable character and turns every other one into a visible
escape such as ``\\x1b`` or ``\\u202e``, so nothing is hidden and nothing drives the terminal:

* C0 and C1 controls, DEL, format characters (bidi overrides, zero-width joiners), line and
  paragraph separators, surrogates, unassigned and private-use code points;
* every default-ignorable code point (Unicode's ``Default_Ignorable_Code_Point``: variation
  selectors, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme
  joiner U+034F, tags...) and the blank braille pattern U+2800: letters that show nothing;
* combining marks past :data:`MAX_MARKS` on one letter, and a combining mark with no letter
  before it (it would sit on whatever the screen shows before the text).

A run of spaces (any space character) becomes one space. Every outer layer (CLI, ``rattus
verify``, TUI) uses this one function.
"""

from __future__ import annotations

import unicodedata

from rattus_net.kit.cells import cells
from rattus_net.kit.cells import cut as cut_cells

MAX_MARKS = 3
"""Combining marks kept on one letter (enough for any script's accents; past them, a stack of
marks paints over the rows around it)."""

_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_MARKS = frozenset({"Mn", "Me"})
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),  # (the blank braille pattern: not default-ignorable, but shows nothing)
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's default-ignorable code points (DerivedCoreProperties, Unicode 15), and the blank
braille pattern: letters a terminal shows as nothing, or as blank."""


def invisible(ch: str) -> bool:
    """``ch`` shows nothing, or shows as a blank, yet is no space: a control, a format
    character, a default-ignorable code point, a filler."""
    if unicodedata.category(ch) in _HIDDEN:
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE)


def _visible(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def safetext(text: object, *, keep_newlines: bool = False, limit: int | None = None) -> str:
    """``text`` (converted with ``str``) with every non-printable or invisible character made
    visible, combining marks capped, and runs of spaces made one (see the module).

    ``keep_newlines`` keeps ``\\n`` (for a block of lines we composed ourselves around foreign
    strings); ``limit`` cuts the result to that many terminal cells, marking the cut with
    ``…``."""
    s = text if isinstance(text, str) else str(text)
    out: list[str] = []
    marks = MAX_MARKS  # (marks the last letter carries: none may sit on nothing)
    for ch in s:
        if ch == "\n" and keep_newlines:
            out.append(ch)
            marks = MAX_MARKS
        elif invisible(ch):
            out.append(_visible(ch))
            marks = 0  # (a mark after it sits on the escape's last letter)
        elif unicodedata.category(ch) in _MARKS:
            marks += 1
            out.append(ch if marks <= MAX_MARKS else _visible(ch))
        elif unicodedata.category(ch) == "Zs":
            if not out or out[-1] != " ":
                out.append(" ")
            marks = MAX_MARKS
        else:
            out.append(ch)
            marks = 0
    result = "".join(out)
    if limit is not None:
        result = cut(result, limit)
    return result


def cut(text: str, limit: int) -> str:
    """``text`` (already safe) cut to at most ``limit`` terminal cells, the cut marked with
    ``…`` (:func:`rattus_net.kit.cells.cut`); in no cell at all, not even that."""
    if limit <= 0 and cells(text) > limit:
        return ""
    return cut_cells(text, limit)


__all__ = ["MAX_MARKS", "cut", "invisible", "safetext"]
