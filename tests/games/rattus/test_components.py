"""The components file (map and tokens): the shipped one, and a user's checked before use."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rattus_net.cli import main
from rattus_net.games.rattus.components import ComponentsError, parse_components
from rattus_net.games.rattus.loader import default_components, default_text, load_components


def shipped() -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(default_text())
    return obj


def test_the_shipped_file_matches_the_rules() -> None:
    c = default_components()
    assert len(c.tokens) == 49 and sum(t.start for t in c.tokens) == 12
    assert [len(c.in_play(n)) for n in (2, 3, 4)] == [8, 10, 12]
    nb = {r: {o for o, _ in c.neighbours[r]} for r in c.regions}
    # Confirmed facts of rules section 1.
    assert "Hispania" in nb["Gallia"] and "Tartaria" in nb["Russia"]
    assert "Turcia" not in nb["Germania"] and "Polonia" not in nb["Hispania"]
    assert ("Italia" in nb["Hispania"]) != ("Polonia" in nb["Italia"])
    assert sorted(t.text() for t in c.tokens if t.start) == sorted(
        [
            "1 A",
            "2 M Pea",
            "2 M Bou",
            "2 M Chu",
            "2 M Chi",
            "2 M Mag",
            "2 M Roy",
            "3 A",
            "3 Pea Chi",
            "3 Bou Mag",
            "3 Chu Roy",
            "4 A",
        ]
    )


def test_every_value_is_tagged_and_reconstructions_are_marked() -> None:
    obj = shipped()
    assert "RECONSTRUCTION" in obj["note"]
    assert all(t["tag"] == "R" for t in obj["tokens"])
    tags = {e["tag"] for r in obj["neighbours"].values() for e in r}
    assert tags == {"C", "R"}


def broken(edit: Any) -> dict[str, Any]:
    obj = copy.deepcopy(shipped())
    edit(obj)
    return obj


CASES = [
    (
        lambda o: o["neighbours"]["Gallia"].pop(0),
        "neighbours.Gallia: must list Anglia (neighbours are symmetric)",
    ),
    (
        lambda o: o["neighbours"]["Hispania"].__setitem__(
            1, {"region": "Italia", "sea": False, "tag": "R"}
        ),
        "sea mark",
    ),
    (
        lambda o: (
            o["neighbours"].__setitem__("Anglia", []),
            o["neighbours"]["Gallia"].pop(0),
            o["neighbours"]["Scandia"].pop(0),
        ),
        "groups.2: the map is not connected",
    ),
    (lambda o: o["tokens"].pop(), "tokens must hold 49 tokens, got 48"),
    (lambda o: o["tokens"][0].__setitem__("start", False), "12 start tokens, got 11"),
    (lambda o: o["tokens"][3].__setitem__("face", "2 X Pea"), "tokens[3].face: unknown effect"),
    (lambda o: o["tokens"][3].__setitem__("tag", "maybe"), "tokens[3].tag"),
    (lambda o: o["classes"][0].__setitem__("card", "Jester"), "classes[0].card"),
    (lambda o: o["groups"]["3"]["regions"].append("Atlantis"), "groups.3.regions: 'Atlantis'"),
    (lambda o: o.__setitem__("version", 7), "version must be 1"),
    (lambda o: o.__setitem__("version", True), "version must be 1, got true"),
    (
        lambda o: o["groups"]["2"]["regions"].append(["Gallia"]),
        "groups.2.regions[8] must be a region name, got ['Gallia']",
    ),
    (
        lambda o: o["groups"]["4"]["regions"].__setitem__(0, {"name": "Anglia"}),
        "groups.4.regions[0] must be a region name",
    ),
    (
        lambda o: o["neighbours"]["Gallia"][0].__setitem__("region", ["Anglia"]),
        "neighbours.Gallia[0].region must be a region name",
    ),
    (
        lambda o: o["neighbours"]["Gallia"][1].__setitem__("region", "Narnia"),
        "neighbours.Gallia[1].region must be another region, got 'Narnia'",
    ),
    (lambda o: o["classes"][2].__setitem__("card", ["Monk"]), "classes[2].card must be one of"),
    (
        lambda o: o["regions"][5].__setitem__("name", "GALLIA"),
        "regions[5].name: 'GALLIA' and 'Gallia' differ only in case",
    ),
    (lambda o: o["regions"][5].__setitem__("name", "Gallia"), "'Gallia' is listed twice"),
    (lambda o: o["tokens"][3].__setitem__("face", "2 M A"), "'2 M A' has two effects M and A"),
    (lambda o: o["tokens"][3].__setitem__("face", "2 A A"), "two effects A and A"),
    (lambda o: o["tokens"][3].__setitem__("face", "2 Pea M"), "M must come before the class"),
    (lambda o: o["tokens"][3].__setitem__("face", "2 Pea Pea"), "names the class symbol Pea twice"),
    (lambda o: o["tokens"][3].__setitem__("face", "\u00b2 A"), "starts with its number 1-9"),
    (lambda o: o["tokens"][3].__setitem__("face", "10 A"), "starts with its number 1-9"),
    (lambda o: o.__setitem__("note", [[[[[[[[["deep"]]]]]]]]]), "nested more than 8 deep"),
]


@pytest.mark.parametrize(("edit", "message"), CASES)
def test_a_bad_file_names_the_field(edit: Any, message: str) -> None:
    with pytest.raises(ComponentsError) as err:
        parse_components(broken(edit))
    assert message in str(err.value)


def test_a_users_file_is_loaded_and_checked(tmp_path: Path) -> None:
    good = tmp_path / "mine.json"
    obj = shipped()
    obj["tokens"][20]["face"] = "5 A Pea"
    good.write_text(json.dumps(obj))
    assert load_components(good).tokens[20].text() == "5 A Pea"
    with pytest.raises(ComponentsError, match="no such file"):
        load_components(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ComponentsError, match=r"bad\.json: not a components file: not JSON"):
        load_components(bad)


def test_the_cli_reports_a_bad_components_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(broken(lambda o: o["tokens"].pop())))
    code = main(["selfplay", "--game", "rattus", "--components", str(bad), "--games", "1"])
    _out, err = capsys.readouterr()
    assert code == 1
    assert err.strip().count("\n") == 0 and "tokens must hold 49 tokens" in err
    assert "Traceback" not in err


def test_deeply_nested_json_is_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ComponentsError, match=r"deep\.json: not a components file: nested"):
        load_components(deep)


def test_any_odd_value_anywhere_is_one_clear_line() -> None:
    """Every value of the shipped file replaced by odd values of every JSON type: each file
    is refused with one ComponentsError line (or still accepted), never another error."""
    odd: list[Any] = [None, True, 0, -1, 2.5, "", "gallia", "2 M A", [], [1], {}, {"a": [1]}]
    paths: list[list[Any]] = []

    def walk(value: Any, path: list[Any]) -> None:
        if path:
            paths.append(path)
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, [*path, key])
        elif isinstance(value, list):
            for i, inner in enumerate(value):
                walk(inner, [*path, i])

    walk(shipped(), [])
    rng = random.Random(19)
    for _ in range(600):
        obj = copy.deepcopy(shipped())
        path = rng.choice(paths)
        here = obj
        for key in path[:-1]:
            here = here[key]
        here[path[-1]] = copy.deepcopy(rng.choice(odd))
        try:
            parse_components(obj)
        except ComponentsError as exc:
            assert "\n" not in str(exc) and str(exc)
