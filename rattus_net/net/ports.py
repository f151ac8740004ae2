"""Numbers typed on a command line: a TCP port (``rattus host --port``, ``rattus serve
--port``, the port of ``rattus join HOST:PORT``), a count, a number of seconds. One parser
each, read the one safe way (:mod:`rattus_net.kit.numbers`), so every command says the same
about a bad one."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from rattus_net.kit.numbers import ascii_decimal, ascii_int


def whole_number(low: int, high: int, what: str, out_of_range: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``; ``what`` names it when the
    text is not one, ``out_of_range`` is said when it is out of bounds."""

    def parse(text: str) -> int:
        value = ascii_int(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(out_of_range)
        return value

    return parse


def seconds_up_to(high: float, out_of_range: str) -> Callable[[str], float]:
    """An argparse type: a number of seconds, more than 0 and at most ``high``."""

    def parse(text: str) -> float:
        value = ascii_decimal(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds")
        if not 0 < value <= high:
            raise argparse.ArgumentTypeError(out_of_range)
        return value

    return parse


port_arg = whole_number(0, 65535, "a port number", "a port is 0 to 65535")
"""A port number, 0 to 65535 (0: any free one)."""
