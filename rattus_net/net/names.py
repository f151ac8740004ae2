"""Names people give: table names and player names, checked at the edge.

One rule and one length limit everywhere (``rattus host --name``, ``--player``, a guest's name
in the lobby, a name in a lobby state or a LAN advert received from a peer): a name is
printable text (no control character, newline, tab or escape sequence, no invisible
formatting character, no bidirectional control, no filler that looks like nothing: "Bob\u3164"
would look like "Bob"), valid UTF-8, in Unicode's compatibility normal form (NFKC: a
fullwidth "Ｂｏｂ" is "Bob", so look-alikes are the same name), at most :data:`MAX_NAME`
characters and :data:`MAX_NAME` terminal cells (a wide character takes two) once the spaces
around it are trimmed. Dots and any script are welcome (a table called ``a.b.c`` is listed and
joined as ``a.b.c``). A name typed here is normalised; a name received from a peer must
already be normal (``exact``: two peers must agree on every name, which the game id hashes).
A name that breaks the rule is refused with one clear sentence (:class:`BadName`), never cut
silently or passed on to zeroconf or the terminal.
"""

from __future__ import annotations

import unicodedata

from protocol.safetext import invisible
from rattus_net.kit.cells import cells

MAX_NAME = 24
"""Characters in a table or player name (a DNS-SD instance label, ``name key8``, stays within
its 63 bytes for any script, and a name fits a lobby line of an 80-column screen)."""


class BadName(ValueError):
    """A name that is not fit for the table; ``str()`` is one sentence for the user."""


def _describe(ch: str) -> str:
    if ch == "\n":
        return "a newline"
    if ch == "\t":
        return "a tab"
    if ch == "\x1b":
        return "an escape character"
    return f"the invisible character U+{ord(ch):04X}"


def check_name(text: str, what: str = "name", *, exact: bool = False) -> str:
    """``text`` trimmed and normalised (NFKC), if it is a good name; BadName (saying what is
    wrong) otherwise. ``exact``: a name received from a peer, refused unless it is already
    trimmed and normal.

    Bytes that were not UTF-8 on the command line reach Python as lone surrogates
    (``surrogateescape``): they are refused as such."""
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        raise BadName(f"the {what} is not valid UTF-8 text")
    raw = text.strip()
    name = unicodedata.normalize("NFKC", raw).strip()
    if not name:
        raise BadName(f"the {what} is empty")
    for ch in raw + name:  # (as typed, then normalised: say what was typed)
        if not ch.isprintable() or invisible(ch):  # (a filler too: Hangul, Braille)
            raise BadName(f"the {what} contains {_describe(ch)}; use printable characters")
    if len(name) > MAX_NAME:
        raise BadName(f"the {what} is {len(name)} characters long; at most {MAX_NAME}")
    if cells(name) > MAX_NAME:
        raise BadName(
            f"the {what} is {cells(name)} cells wide on a terminal; at most {MAX_NAME} "
            "(a wide character takes two)"
        )
    if exact and name != text:
        raise BadName(f"the {what} is not written in its normal form (Unicode NFKC, trimmed)")
    return name


def check_name_bytes(data: bytes, what: str = "name") -> str:
    """A name received as bytes (a TXT record): decoded strictly, then :func:`check_name`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BadName(f"the {what} is not valid UTF-8 text") from None
    return check_name(text, what)


def instance_label(name: str, fingerprint: str, limit: int = 63) -> str:
    """The DNS-SD instance label of a table: its name (dots as spaces: a dot would split the
    label; the exact name travels in the TXT record) and the key's first 8 hex digits, within
    the label's ``limit`` bytes."""
    suffix = f" {fingerprint[:8]}"
    base = name.replace(".", " ")
    while len((base + suffix).encode("utf-8")) > limit:
        base = base[:-1]
    return base.rstrip() + suffix


__all__ = ["MAX_NAME", "BadName", "check_name", "check_name_bytes", "instance_label"]
