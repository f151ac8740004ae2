"""The verifier's verdict on a network game's record, as the end screens show it (every
game's end screen verifies its record in a thread and shows this)."""

from __future__ import annotations

from rich.text import Text

from protocol.record import Verdict

VERIFYING = "Verifying the signed record..."


def verdict_text(verdict: Verdict) -> Text:
    """``Verification: FAIR ...``: its first line bold (reversed if not fair), the rest below."""
    head, _, rest = verdict.text().partition("\n")
    t = Text("Verification: ", style="bold")
    t.append(head, style="bold" if verdict.fair else "bold reverse")
    if rest:
        t.append("\n" + rest)
    return t


__all__ = ["VERIFYING", "verdict_text"]
