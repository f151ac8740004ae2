"""`rattus --help` says that `rattus` alone opens the menu; every command has a description,
every option a help text, and every option with a default value says it; `--version`."""

from __future__ import annotations

import argparse

import pytest

from rattus_net import __version__, cli


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no commands")


def test_the_main_help_says_rattus_alone_opens_the_menu(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.build_parser().parse_args(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "`rattus` alone opens the menu" in out
    for name in _commands(cli.build_parser()):
        assert name in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["--version"])
    assert capsys.readouterr().out.strip() == f"rattus {__version__}"


def test_every_command_and_option_is_described() -> None:
    missing = []
    for name, command in _commands(cli.build_parser()).items():
        if not command.description:
            missing.append(f"{name}: no description")
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            label = f"{name} {'/'.join(action.option_strings) or action.dest}"
            if not action.help:
                missing.append(f"{label}: no help")
                continue
            default = action.default
            if (
                action.option_strings
                and default not in (None, False)
                and "default" not in (action.help)
            ):
                missing.append(f"{label}: default {default!r} not said")
    assert not missing, "\n".join(missing)
