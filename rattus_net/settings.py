"""The player's remembered choices: name, colour, bot level, the last table options.

A small JSON file in the user's config directory (``platformdirs.user_config_dir``, or
``$RATTUS_CONFIG_DIR``), so that the menu, the host and join forms start from what the player
chose last time. It is only a convenience: a missing file gives the defaults, and a damaged or
foreign one is ignored with a note (never a crash); unknown keys are ignored, so that older and
newer versions of the program can share the file. Written to a temporary file and renamed, so
a crash while saving leaves the previous file whole.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import platformdirs

ENV_CONFIG_DIR = "RATTUS_CONFIG_DIR"
FILE_NAME = "settings.json"


@dataclass(frozen=True, slots=True)
class Settings:
    """What is remembered. Empty strings mean "not chosen yet" (the program's default)."""

    name: str = ""  # the player's name at a network table
    colour: str = ""  # the disc colour asked for at a network table
    bots: str = ""  # the bots' kind (level) against bots and for bot seats
    players: int = 3  # the last number of players (offline and hosted)
    buildings: str = ""  # the last building selection (first-game, random-cards...)
    simultaneous_supply: bool = False  # the last hosted table's supply mode
    always_take: bool = False  # carry out an offered action without asking (ruling 17)


def config_dir() -> Path:
    """``$RATTUS_CONFIG_DIR``, or the platform's user config dir for Rattus Net."""
    override = os.environ.get(ENV_CONFIG_DIR)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("rattus-net", appauthor=False))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def _from_dict(data: Any) -> Settings:
    """The known keys of ``data`` with the right types; anything else is left at its
    default (raises ``ValueError`` if ``data`` is not a JSON object)."""
    if not isinstance(data, dict):
        raise ValueError("not a settings object")
    values: dict[str, Any] = {}
    defaults = Settings()
    for f in fields(Settings):
        if f.name not in data:
            continue
        value = data[f.name]
        default = getattr(defaults, f.name)
        if type(value) is type(default):  # bool is not int here, nor int bool
            values[f.name] = value
    return replace(defaults, **values)


def read_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The settings, and a note when the file was there but could not be used."""
    path = path or settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(), None
    except OSError as exc:
        return Settings(), f"Your settings could not be read ({exc.strerror or exc})."
    try:
        return _from_dict(json.loads(text)), None
    except (ValueError, RecursionError):
        return Settings(), f"Your settings file {path} is damaged: it is ignored."


def load_settings(path: Path | None = None) -> Settings:
    """The settings (the defaults when the file is missing or damaged)."""
    return read_settings(path)[0]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings (raises ``OSError`` if the config dir cannot be written)."""
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    # a name of its own per process: two programs of one account may save at the same time
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(json.dumps(asdict(settings), indent=2) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
