"""Every environment variable and every directory of Rattus Net, defined once.

The program keeps its settings in the user's config directory and its saves, network journals
and records in the user's data directory (platformdirs' for ``rattus-net``, unless the
environment names others: the SSH and browser servers give each player folders of his own
this way). A server tells a game it runs for a player what he may do through the environment
(``rattus_net/net/served.py``). Nothing else reads the environment or picks a folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "rattus-net"
"""The program's folder name in the platform's config and data directories."""

ENV_GAMES = "RATTUS_NET_GAMES"
"""Modules (comma-separated) of games kept outside the tree, registered beside the shipped
ones (``rattus_net/kit/registry.py``)."""
ENV_DATA_DIR = "RATTUS_DATA_DIR"
"""Where saves, network journals and records go (default: the platform's user data dir)."""
ENV_CONFIG_DIR = "RATTUS_CONFIG_DIR"
"""Where the settings file goes (default: the platform's user config dir)."""
ENV_FILES_ROOT = "RATTUS_FILES_ROOT"
"""The only folder the TUI opens typed paths in (set by the servers; unset: anywhere)."""
ENV_PLAYER = "RATTUS_PLAYER"
"""A served player's name, fixed: he sits at network tables under his login."""
ENV_LISTEN = "RATTUS_LISTEN_ADDRESS"
"""The only address a served player's tables and seats listen on."""
ENV_JOIN = "RATTUS_JOIN"
"""``listed``: a served player joins only tables announced or hosted on his server."""
ENV_TABLES = "RATTUS_SERVER_TABLES"
"""The folder where a server's players list the tables they host."""
ENV_RECORD_COMMAND = "RATTUS_RECORD_COMMAND"
"""How a served player fetches a record (``{id}`` stands for the game id)."""
ENV_IN_BROWSER = "RATTUS_IN_BROWSER"
"""``1``: the game is drawn in a browser page (``rattus web``), where Ctrl+C copies."""
ENV_NOT_KEPT = "RATTUS_NOT_KEPT"
"""``1``: nothing of the player's is kept once he leaves (a guest's folder is removed)."""
ENV_TERM = "TERM"
"""The terminal's kind: ``linux`` (the Linux console) has a font of a few hundred glyphs."""

SETTINGS_FILE = "settings.json"
RECORD_SUFFIX = ".rattusnet"
"""The suffix of a signed game record wherever one is written: a seat's folder, ``selfplay
--secure --record-dir``, a download from a server (``game.rattusnet``)."""
RECORD_FILE = f"record{RECORD_SUFFIX}"
"""The signed record of a network game, in its seat's folder once the game is over."""
JOURNAL_FILE = "journal.bin"
"""A network game seat's journal (its setup, secrets and every frame), in its seat's folder."""
GAMES_DIR = "games"
"""The network games' folder in the data directory (one folder per game id)."""


def platform_data_dir() -> Path:
    """The platform's user data directory for Rattus Net (whatever the environment says)."""
    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def data_dir() -> Path:
    """Where this user's saves and games live: ``$RATTUS_DATA_DIR`` or the platform's."""
    override = os.environ.get(ENV_DATA_DIR)
    return Path(override) if override else platform_data_dir()


def config_dir() -> Path:
    """``$RATTUS_CONFIG_DIR``, or the platform's user config dir for Rattus Net."""
    override = os.environ.get(ENV_CONFIG_DIR)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def terminal_kind() -> str:
    """``$TERM``: which terminal the program draws on (``""`` when none is said)."""
    return os.environ.get(ENV_TERM, "")


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


def serve_state_dir() -> Path:
    """Where ``rattus serve`` and ``rattus web`` keep their keys and players by default."""
    return platform_data_dir() / "serve"


def extra_game_modules() -> list[str]:
    """The modules ``$RATTUS_NET_GAMES`` names."""
    return [m.strip() for m in os.environ.get(ENV_GAMES, "").split(",") if m.strip()]
