"""docs/rules-data.md documents every value of data.PROVENANCE with the same tag."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rattus_net.games.cartus import data as D

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules-data.md"


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


def test_tags_follow_the_corrected_reference() -> None:
    """Rules 4 and 7 as corrected (issue 14): the Gold tie's 9 is printed and 6/3 follow from
    it by arithmetic; the Brewery's rounding and the Pied Piper's premium are as attested as
    the rest of their buildings; the majority awards and the third-place award are lost digits
    (inferred); the VP token value is still reconstructed."""
    expected = {
        "GOLD_TIE_FIRST_POOL": "C",
        "GOLD_VP": "C",
        "GOLD_TIE_SECOND_POOL": "I",
        "BREWERY_ROUNDING": "C",
        "PIED_PIPER_PREMIUM": "C",
        "HAND_MAJORITY_VP": "I",
        "SPECIAL_MAJORITY_VP": "I",
        "INFLUENCE_AWARDS": "I",
        "VP_TOKEN_VALUE": "R",
    }
    assert {k: D.PROVENANCE[k] for k in expected} == expected
    assert D.GOLD_VP[0] + D.GOLD_VP[1] == D.GOLD_TIE_FIRST_POOL  # the arithmetic behind 6/3
