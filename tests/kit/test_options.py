"""A game's options, declared once: checked values, defaults per command, summaries."""

from __future__ import annotations

import pytest

from rattus_net.kit.errors import SetupError
from rattus_net.kit.options import Option, OptionSchema


def _upper(text: str) -> str:
    if not text.isalpha():
        raise ValueError(f"{text!r} is not a word")
    return text.upper()


SCHEMA = OptionSchema(
    (
        Option(
            "colour",
            str,
            "RED",
            help="c",
            label="Colour",
            check=_upper,
            flag="--colour",
            lobby_key="c",
            play_default="BLUE",
        ),
        Option(
            "fast",
            bool,
            False,
            help="f",
            flag="--fast",
            commands=frozenset({"selfplay"}),
            lobby_key="f",
            words=lambda v: "fast" if v else "slow",
            phrase="{} play",
        ),
        Option("seats", int, 2, help="s"),
    )
)


def test_values_are_checked_and_completed() -> None:
    assert SCHEMA.complete({"colour": "green"}) == {"colour": "GREEN", "fast": False, "seats": 2}
    assert SCHEMA.complete({}, "play")["colour"] == "BLUE"  # a person's first game
    with pytest.raises(SetupError, match="Colour: 'x1' is not a word"):
        SCHEMA.complete({"colour": "x1"})
    with pytest.raises(SetupError, match="must be a bool"):
        SCHEMA.complete({"fast": 1})
    with pytest.raises(SetupError, match="must be a int"):
        SCHEMA.complete({"seats": True})  # a bool is no int here
    with pytest.raises(SetupError, match="unknown option"):
        SCHEMA.complete({"speed": 3})


def test_commands_tables_and_summaries() -> None:
    assert [o.name for o in SCHEMA.for_command("play")] == ["colour"]
    assert [o.name for o in SCHEMA.for_command("selfplay")] == ["colour", "fast"]
    assert [o.name for o in SCHEMA.table] == ["colour", "fast"]
    assert SCHEMA.summary(3, {"colour": "RED", "fast": True}) == "3 players, RED, fast play"


def test_a_default_of_the_wrong_kind_is_a_mistake_of_the_game() -> None:
    with pytest.raises(TypeError):
        Option("n", int, "1", help="")
    with pytest.raises(ValueError, match="share a name"):
        OptionSchema((Option("n", int, 1, help=""), Option("n", int, 2, help="")))
