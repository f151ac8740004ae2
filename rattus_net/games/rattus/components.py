"""The components of Rattus as a checked value object: the map and the 49 rat tokens.

The printed map arrows and token faces could not be found (rules section 1, tag [R]), so they
live in one data file (``components.json``, see ``docs/rattus-data.md``) that a player holding
the physical game can correct, or replace with ``--components FILE``. This module turns the
parsed JSON value into :class:`Components` and checks it; reading the file is the loader's job
(``loader.py``), so the engine stays pure. Every problem is one :class:`ComponentsError` whose
message names the field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rattus_net.kit.errors import SetupError

FORMAT = "rattus-components"
VERSION = 1
TAGS = ("C", "I", "R")

# The six class cards and their class codes (as in Rattus Cartus), in a fixed order.
CARDS = ("King", "Knight", "Monk", "Merchant", "Peasant", "Witch")
CODE_OF = {
    "King": "Roy",
    "Knight": "Chi",
    "Monk": "Chu",
    "Merchant": "Bou",
    "Peasant": "Pea",
    "Witch": "Mag",
}
CARD_OF = {code: card for card, code in CODE_OF.items()}
START_TOKENS = 12
ALL_TOKENS = 49
PLAYER_COUNTS = (2, 3, 4)
NUMBERS = tuple(str(i) for i in range(1, 10))  # a token's number, as the file writes it
MAX_DEPTH = 8
"""The deepest nesting a components file needs is 5 (``neighbours.X[0].region``); a deeper
value anywhere is refused before anything else is read."""


def face_words(text: str) -> str:
    """A token face written as :meth:`Token.text` does (``1 Pea Chi``), its class symbols
    named after their cards (``1 Peasant Knight``): what players read on screen."""
    return " ".join(CARD_OF.get(word, word) for word in text.split())


class ComponentsError(SetupError):
    """A components file that cannot be used; the message names the field at fault."""


@dataclass(frozen=True, slots=True)
class Token:
    """A rat token's face: the outbreak minimum and its effects.

    ``majority``: M (the colour(s) with most cubes lose one); ``all_``: A (every colour loses
    one); ``symbols``: class codes, each costing a cube to every holder of that card with cubes
    in the region."""

    number: int
    majority: bool
    all_: bool
    symbols: tuple[str, ...]
    start: bool

    def text(self) -> str:
        """The face as in the rules: ``2 M Pea``, ``3 A``, ``1 Pea Chi``."""
        words = [str(self.number)]
        if self.majority:
            words.append("M")
        if self.all_:
            words.append("A")
        return " ".join(words + list(self.symbols))

    def words(self) -> str:
        """The face for players: its class symbols named after their cards (``2 M Peasant``,
        ``1 Peasant Knight``); :meth:`text` keeps the rules' codes for records."""
        return face_words(self.text())

    @staticmethod
    def parse(text: str, start: bool, where: str) -> Token:
        words = text.split()
        if not words or words[0] not in NUMBERS:
            raise ComponentsError(f"{where}: a face starts with its number 1-9, got {text!r}")
        majority = all_ = False
        symbols: list[str] = []
        for w in words[1:]:
            if w in ("M", "A"):
                if majority or all_:
                    first = "M" if majority else "A"
                    raise ComponentsError(
                        f"{where}: {text!r} has two effects {first} and {w}: a token has M or "
                        "A, not both, and each once"
                    )
                if symbols:
                    raise ComponentsError(
                        f"{where}: in {text!r}, {w} must come before the class symbols"
                    )
                majority, all_ = w == "M", w == "A"
            elif w in CARD_OF:
                if w in symbols:
                    raise ComponentsError(f"{where}: {text!r} names the class symbol {w} twice")
                symbols.append(w)
            else:
                raise ComponentsError(
                    f"{where}: unknown effect {w!r} in {text!r} (known: M, A, then class codes "
                    f"{', '.join(CARD_OF)})"
                )
        if len(symbols) > 2:
            raise ComponentsError(f"{where}: a token has at most 2 class symbols, got {text!r}")
        if not (majority or all_ or symbols):
            raise ComponentsError(f"{where}: the token {text!r} has no effect")
        return Token(int(words[0]), majority, all_, tuple(symbols), start)


@dataclass(frozen=True, slots=True)
class Components:
    """The map and the tokens. ``regions`` is in the order of rules section 1 (the final
    outbreak's order); ``neighbours`` maps a region to ``(neighbour, sea)`` pairs; ``tokens``
    are the 49 faces, a token's face id being its index here."""

    regions: tuple[str, ...]
    groups: Mapping[int, tuple[str, ...]]
    neighbours: Mapping[str, tuple[tuple[str, bool], ...]]
    tokens: tuple[Token, ...]

    def in_play(self, players: int) -> tuple[str, ...]:
        """The regions in play for ``players``, in the order of ``regions``."""
        chosen = set(self.groups[players])
        return tuple(r for r in self.regions if r in chosen)

    @property
    def start_faces(self) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.tokens) if t.start)

    @property
    def normal_faces(self) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.tokens) if not t.start)


def _show(value: Any) -> str:
    """A value from the file, short, for a message (JSON's spelling of true and null)."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_depth(obj: Any) -> None:
    """Refuse a value nested deeper than any components file needs (without recursion)."""
    todo: list[tuple[Any, int]] = [(obj, 1)]
    while todo:
        value, depth = todo.pop()
        if depth > MAX_DEPTH:
            raise ComponentsError(
                f"not a components file: values nested more than {MAX_DEPTH} deep"
            )
        if isinstance(value, dict):
            todo += [(v, depth + 1) for v in value.values()]
        elif isinstance(value, list):
            todo += [(v, depth + 1) for v in value]


def _tag(obj: Mapping[str, Any], where: str) -> None:
    if obj.get("tag") not in TAGS:
        raise ComponentsError(f'{where}.tag must be one of "C", "I", "R"')


def _list(obj: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = obj.get(key)
    if not isinstance(value, list):
        raise ComponentsError(f"{where}{key} must be a list")
    return value


def parse_components(obj: Any) -> Components:
    """Check a parsed components file and build the value object (raises
    :class:`ComponentsError` naming the field at fault)."""
    _check_depth(obj)
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise ComponentsError(f'format must be "{FORMAT}"')
    version = obj.get("version")
    if isinstance(version, bool) or version != VERSION:
        raise ComponentsError(f"version must be {VERSION}, got {_show(version)}")
    regions: list[str] = []
    folded: dict[str, str] = {}
    for i, r in enumerate(_list(obj, "regions", "")):
        where = f"regions[{i}]"
        if not isinstance(r, dict) or not isinstance(r.get("name"), str) or not r["name"]:
            raise ComponentsError(f"{where}.name must be a region name")
        name = r["name"]
        if name.lower() in folded:
            same = folded[name.lower()]
            raise ComponentsError(
                f"{where}.name: {name!r} is listed twice"
                if same == name
                else f"{where}.name: {name!r} and {same!r} differ only in case (the game "
                "matches region names ignoring case)"
            )
        if not name.isprintable() or any(ch.isspace() for ch in name):
            raise ComponentsError(f"{where}.name: a region name is one word, got {name!r}")
        _tag(r, where)
        regions.append(name)
        folded[name.lower()] = name
    known = set(regions)
    groups_obj = obj.get("groups")
    if not isinstance(groups_obj, dict):
        raise ComponentsError("groups must map 2, 3 and 4 players to their regions")
    groups: dict[int, tuple[str, ...]] = {}
    for n in PLAYER_COUNTS:
        g = groups_obj.get(str(n))
        where = f"groups.{n}"
        if not isinstance(g, dict):
            raise ComponentsError(f"{where} is missing")
        _tag(g, where)
        names = _list(g, "regions", where + ".")
        for j, name in enumerate(names):
            if not isinstance(name, str):
                raise ComponentsError(
                    f"{where}.regions[{j}] must be a region name, got {_show(name)}"
                )
            if name not in known:
                raise ComponentsError(f"{where}.regions: {name!r} is not a region")
        if len(set(names)) != len(names) or len(names) < 2:
            raise ComponentsError(f"{where}.regions must list at least 2 different regions")
        groups[n] = tuple(names)
    nb_obj = obj.get("neighbours")
    if not isinstance(nb_obj, dict):
        raise ComponentsError("neighbours must map each region to its neighbours")
    neighbours: dict[str, tuple[tuple[str, bool], ...]] = {}
    for r in regions:
        entries = nb_obj.get(r)
        where = f"neighbours.{r}"
        if not isinstance(entries, list):
            raise ComponentsError(f"{where} must be a list")
        out: list[tuple[str, bool]] = []
        for j, e in enumerate(entries):
            w = f"{where}[{j}]"
            if not isinstance(e, dict) or not isinstance(e.get("region"), str):
                raise ComponentsError(f"{w}.region must be a region name")
            if e["region"] not in known or e["region"] == r:
                raise ComponentsError(f"{w}.region must be another region, got {e['region']!r}")
            if not isinstance(e.get("sea"), bool):
                raise ComponentsError(f"{w}.sea must be true or false")
            _tag(e, w)
            if any(name == e["region"] for name, _ in out):
                raise ComponentsError(f"{w}.region: {e['region']!r} is listed twice")
            out.append((e["region"], e["sea"]))
        neighbours[r] = tuple(out)
    for extra in set(nb_obj) - known:
        raise ComponentsError(f"neighbours.{extra}: not a region")
    for r, entries in neighbours.items():
        for other, sea in entries:
            back = dict(neighbours[other])
            if r not in back:
                raise ComponentsError(
                    f"neighbours.{other}: must list {r} (neighbours are symmetric)"
                )
            if back[r] != sea:
                raise ComponentsError(f"neighbours.{other}: the sea mark of {r} differs both ways")
    for n, group in groups.items():
        _check_connected(n, group, neighbours)
    classes = _list(obj, "classes", "")
    got = {}
    for i, c in enumerate(classes):
        if (
            not isinstance(c, dict)
            or not isinstance(c.get("card"), str)
            or c["card"] not in CODE_OF
        ):
            raise ComponentsError(f"classes[{i}].card must be one of {', '.join(CARDS)}")
        if c.get("code") != CODE_OF[c["card"]]:
            raise ComponentsError(f"classes[{i}].code of {c['card']} must be {CODE_OF[c['card']]}")
        _tag(c, f"classes[{i}]")
        got[c["card"]] = c["code"]
    if set(got) != set(CARDS) or len(classes) != len(CARDS):
        raise ComponentsError(f"classes must list the six cards once each: {', '.join(CARDS)}")
    tokens: list[Token] = []
    for i, t in enumerate(_list(obj, "tokens", "")):
        where = f"tokens[{i}]"
        if not isinstance(t, dict) or not isinstance(t.get("face"), str):
            raise ComponentsError(f'{where}.face must be a face such as "2 M Pea"')
        if not isinstance(t.get("start"), bool):
            raise ComponentsError(f"{where}.start must be true or false")
        _tag(t, where)
        tokens.append(Token.parse(t["face"], t["start"], where + ".face"))
    if len(tokens) != ALL_TOKENS:
        raise ComponentsError(f"tokens must hold {ALL_TOKENS} tokens, got {len(tokens)}")
    starts = sum(t.start for t in tokens)
    if starts != START_TOKENS:
        raise ComponentsError(f"tokens must mark {START_TOKENS} start tokens, got {starts}")
    if max(len(g) for g in groups.values()) > START_TOKENS:
        raise ComponentsError(f"groups: at most {START_TOKENS} regions, one start token each")
    return Components(tuple(regions), groups, neighbours, tuple(tokens))


def _check_connected(
    n: int, names: tuple[str, ...], neighbours: Mapping[str, tuple[tuple[str, bool], ...]]
) -> None:
    inside = set(names)
    seen = {names[0]}
    todo = [names[0]]
    while todo:
        r = todo.pop()
        for other, _ in neighbours[r]:
            if other in inside and other not in seen:
                seen.add(other)
                todo.append(other)
    if seen != inside:
        cut = ", ".join(sorted(inside - seen))
        raise ComponentsError(f"groups.{n}: the map is not connected ({cut} cannot be reached)")
