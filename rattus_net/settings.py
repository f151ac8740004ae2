"""The player's remembered choices: name, colour, bot level, players, the game chosen in the
menu, each game's options.

A small JSON file in the user's config directory (``rattus_net.paths.settings_path``), so that
the menu, the host and join forms start from what the player chose last time. It is only a
convenience: a missing file gives the defaults, and a damaged or foreign one is ignored with a
note (never a crash); unknown keys are ignored, so that older and newer versions of the program
can share the file. Each game's options are kept under its name (``games``), and read back
through the game's own options (``rattus_net/kit/options.py``): a value the game no longer
takes is forgotten. Written to a temporary file and renamed, so a crash while saving leaves
the previous file whole.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from rattus_net.kit.errors import SetupError
from rattus_net.kit.options import OptionValue, OptionValues
from rattus_net.kit.registry import get_game
from rattus_net.kit.saves import write_whole
from rattus_net.paths import settings_path


@dataclass(frozen=True, slots=True)
class Settings:
    """What is remembered. Empty strings mean "not chosen yet" (the program's default)."""

    name: str = ""  # the player's name at a network table
    colour: str = ""  # the disc colour asked for at a network table
    bots: str = ""  # the bots' kind (level) against bots and for bot seats
    players: int = 3  # the last number of players (offline and hosted)
    always_take: bool = False  # carry out an offered action without asking (ruling 17)
    game: str = ""  # the game chosen last in the menu (a registry name)
    games: Mapping[str, Mapping[str, OptionValue]] = field(default_factory=dict)
    """Per game, the last values of its options (as the menu and the host form left them)."""

    def options(self, game: str) -> dict[str, OptionValue]:
        """The remembered values of ``game``'s options that it still takes (none of an
        unknown game)."""
        try:
            schema = get_game(game).options
        except ValueError:
            return {}
        out: dict[str, OptionValue] = {}
        for name, value in self.games.get(game, {}).items():
            option = schema.by_name.get(name)
            if option is None or not option.remember:
                continue
            try:
                out[name] = option.value(value)
            except SetupError:
                continue
        return out

    def with_options(self, game: str, values: OptionValues) -> Settings:
        """These settings, with ``values`` remembered as ``game``'s (added to the others)."""
        games = {k: dict(v) for k, v in self.games.items()}
        games[game] = {**games.get(game, {}), **values}
        return replace(self, games=games)


def _from_dict(data: Any) -> Settings:
    """The known keys of ``data`` with the right types; anything else is left at its
    default (raises ``ValueError`` if ``data`` is not a JSON object)."""
    if not isinstance(data, dict):
        raise ValueError("not a settings object")
    values: dict[str, Any] = {}
    defaults = Settings()
    for f in fields(Settings):
        if f.name not in data or f.name == "games":
            continue
        value = data[f.name]
        default = getattr(defaults, f.name)
        if type(value) is type(default):  # bool is not int here, nor int bool
            values[f.name] = value
    games = data.get("games")
    if isinstance(games, dict):
        values["games"] = {
            str(game): {str(k): v for k, v in kept.items() if type(v) in (bool, int, str)}
            for game, kept in games.items()
            if isinstance(kept, dict)
        }
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
    data = asdict(settings)
    data["games"] = {k: dict(v) for k, v in settings.games.items()}
    write_whole(path, json.dumps(data, indent=2) + "\n")
