"""docs/rules-data.md documents every value of data.PROVENANCE with the same tag."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rattus_net.engine import data as D

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules-data.md"


def doc_tags() -> dict[str, str]:
    """``key -> tag`` from the rows of the doc's value table: ``| `KEY` | value | TAG | ...``."""
    tags: dict[str, str] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`([A-Z_]+)`\s*\|[^|]*\|\s*([CIR])\s*\|", line)
        if m:
            tags[m.group(1)] = m.group(2)
    return tags


@pytest.mark.parametrize("key", sorted(D.PROVENANCE))
def test_every_provenance_key_is_documented_with_its_tag(key: str) -> None:
    tags = doc_tags()
    assert key in tags, f"{key} is missing from docs/rules-data.md"
    assert tags[key] == D.PROVENANCE[key]


def test_the_doc_lists_no_unknown_keys() -> None:
    assert set(doc_tags()) <= set(D.PROVENANCE)


def test_provenance_keys_name_values_of_the_data_module() -> None:
    derived = {"PIED_PIPER_PREMIUM", "BREWERY_ROUNDING"}  # parts of BUILDING_ACTIONS
    for key in set(D.PROVENANCE) - derived:
        assert hasattr(D, key), key


def test_the_doc_shows_the_supply_action_table_of_the_data_module() -> None:
    text = DOC.read_text(encoding="utf-8")
    for building, codes in D.BUILDING_COPIES.items():
        row = f"| {building.label} | " + " | ".join(codes) + " |"
        assert row in text, row
    for code, action in D.SUPPLY_ACTIONS.items():
        row = f"| {code} | {action.describe()} | {action.draw} | {action.rats} | {action.looks} |"
        assert row in text, row
