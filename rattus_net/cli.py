"""The `rattus` command."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    print("rattus: under construction")
    return 0
