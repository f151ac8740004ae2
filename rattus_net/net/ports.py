"""A TCP port typed on a command line (``rattus host --port``, ``rattus serve --port``, the port
of ``rattus join HOST:PORT``): one parser, so every command says the same about a bad one."""

from __future__ import annotations

import argparse

from rattus_net.kit.numbers import ascii_int


def port_arg(text: str) -> int:
    """An argparse type: a port number, 0 to 65535 (0: any free one)."""
    value = ascii_int(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number")
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port is 0 to 65535")
    return value
