"""Text from another peer or from a record, made safe to show in a terminal.

Player names, table names, abort reasons and evidence all come from other peers (or from a
record anybody can write). Printed as they are, a control character or an escape sequence in
them could move the cursor, recolour or clear the screen, rewrite what the verifier printed,
or set the terminal's title; a bidirectional override could make a name read as another.
:func:`safetext` keeps every printable character and turns every other one (C0 and C1 controls,
DEL, format characters such as bidi overrides and zero-width joiners, line and paragraph
separators, unassigned and private-use code points) into a visible escape such as ``\\x1b`` or
``\\u202e``, so nothing is hidden and nothing drives the terminal. Every outer layer (CLI,
``rattus verify``, TUI) uses this one function.
"""

from __future__ import annotations

import unicodedata

_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _visible(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def safetext(text: object, *, keep_newlines: bool = False, limit: int | None = None) -> str:
    """``text`` (converted with ``str``) with every non-printable character made visible.

    ``keep_newlines`` keeps ``\\n`` (for a block of lines we composed ourselves around foreign
    strings); ``limit`` cuts the result to that many characters, marking the cut with ``…``."""
    s = text if isinstance(text, str) else str(text)
    out: list[str] = []
    for ch in s:
        if ch == "\n" and keep_newlines:
            out.append(ch)
        elif unicodedata.category(ch) in _HIDDEN:
            out.append(_visible(ch))
        else:
            out.append(ch)
    result = "".join(out)
    if limit is not None and len(result) > limit:
        result = result[: max(0, limit - 1)] + "…"
    return result
