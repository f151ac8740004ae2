"""What every game against bots shares in the TUI: the bots' names (kept with the bots, as
network tables name bot seats too), the human's, the bots' default kind, and how often slow
bots' play is saved."""

from __future__ import annotations

from rattus_net.bots import BOT_KINDS, BOT_NAMES

# While the bots play after a human move, the game is saved again once they have been at it
# this long (slow bots: a crash then does not cost the human's move); otherwise the game is
# saved once per human decision, when the human is awaited again.
CHECKPOINT_SECONDS = 1.0

HUMAN_NAME = "You"


def default_bot_kind() -> str:
    """The strongest bot known, else the first: a heuristic bot if one is installed."""
    return "heuristic" if "heuristic" in BOT_KINDS else BOT_KINDS[0]


__all__ = ["BOT_NAMES", "CHECKPOINT_SECONDS", "HUMAN_NAME", "default_bot_kind"]
