"""A person's settings: a small JSON file in the user's config directory.

The file is ``settings.json`` in ``$RATTUS_CONFIG_DIR``, else in platformdirs' user config
directory. It is read leniently: a missing, damaged or foreign file, or an unknown or badly
typed field, gives the default for what it cannot read (settings are preferences; a broken
file must never stop a game). It is written to a temporary file and renamed over the old one,
so a crash while saving leaves the previous settings whole.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import platformdirs

ENV_CONFIG_DIR = "RATTUS_CONFIG_DIR"
FILE_NAME = "settings.json"


@dataclass(frozen=True, slots=True)
class Settings:
    """``always_take``: carry out every offered action without asking (ruling 17: an action
    that brings cards may be declined; a player who never wants to is not asked)."""

    always_take: bool = False


def config_dir() -> Path:
    """``$RATTUS_CONFIG_DIR`` or the platform's user config directory."""
    override = os.environ.get(ENV_CONFIG_DIR)
    if override:
        return Path(override)
    return Path(platformdirs.user_config_dir("rattus-net", appauthor=False))


def settings_path() -> Path:
    return config_dir() / FILE_NAME


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults for whatever cannot be read."""
    try:
        raw: Any = json.loads((path or settings_path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Settings()
    if not isinstance(raw, dict):
        return Settings()
    defaults = Settings()
    values: dict[str, Any] = {}
    for f in fields(Settings):
        value = raw.get(f.name)
        default = getattr(defaults, f.name)
        values[f.name] = value if type(value) is type(default) else default
    return Settings(**values)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write ``settings`` (raises ``OSError`` if the directory cannot be written)."""
    target = path or settings_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(asdict(settings), f, indent=1)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, target)
