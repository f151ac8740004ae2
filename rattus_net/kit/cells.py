"""How wide text is on a terminal, in cells, and padding by it.

A name is not as wide as it is long: a CJK character or a fullwidth letter takes two cells, a
combining accent or a zero-width character none. Columns padded with ``f"{name:<24}"`` count
characters, so every such name shifts the columns after it. Every table of names (``rattus
tables``, the lobby, ``rattus verify``) pads with :func:`pad` instead.
"""

from __future__ import annotations

import unicodedata

_ZERO = frozenset({"Mn", "Me", "Cf"})


def char_cells(ch: str) -> int:
    """Cells one character takes: 0 (combining, format, or a control), 2 (wide or
    fullwidth), else 1."""
    code = ord(ch)
    if code < 0x20 or 0x7F <= code < 0xA0:
        return 0
    if unicodedata.category(ch) in _ZERO or 0x1160 <= code <= 0x11FF:  # (Hangul vowels, tails)
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    """The width of ``text`` on a terminal, in cells."""
    return sum(char_cells(ch) for ch in text)


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` cells (left-aligned, or ``right``); text wider
    than that is returned as it is."""
    fill = " " * max(0, width - cells(text))
    return fill + text if right else text + fill


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells: as it is, or cut with ``…`` when wider (a wide
    letter counts two, a combining mark none)."""
    if cells(text) <= width:
        return text
    out: list[str] = []
    used = 0
    for ch in text:
        w = char_cells(ch)
        if used + w > width - 1:
            break
        out.append(ch)
        used += w
    return "".join(out) + "…"


def fit(text: str, width: int) -> str:
    """``text`` in exactly ``width`` cells: padded, or cut with ``…`` when wider."""
    return pad(cut(text, width), width)
