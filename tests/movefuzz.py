"""The move fuzzer: what another peer can put in a move, for both games, at every layer.

A peer's move reaches us as a wire form inside a signed message (Rattus: the move's text;
Rattus Cartus: a map of handles and numbers), and move texts come back from journals and
records. Every case here is one such input, changed the way an attacker would: numbers in
other scripts ("²", "①", "٣", "３"), signs, spaces, underscores, huge numbers, every field of
the wire map given another type, verbs swapped, words added or dropped. Each case goes through

* the text form (``parse_move``): a move, or the game's ``MoveSyntaxError``; an accepted text
  names the move its printed form names again, and holds no number but ASCII digits;
* the wire form (``move_from_wire``): a move, or ``DecodeError`` naming the peer;
* the engine: an accepted move, played on a copy of the game where its seat decides, is
  played or refused with ``IllegalMove``;
* a live session (every ``session_every``-th case): the peer's message signed with the
  fuzzed move is accepted, or refused with a ``RemoteProtocolError``, the session aborted
  blaming that peer on its signed message. Never another exception.

``tests/protocol/test_move_fuzz.py`` runs a few hundred seeded cases, ``benchmarks/
tamper_fuzz.py --moves`` runs 10^5 and prints the figures.
"""

from __future__ import annotations

import collections
import copy
import random
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from recordkit import random_chooser, resign, table

from protocol.errors import DecodeError, RemoteProtocolError
from protocol.memnet import MemoryNetwork
from protocol.messages import MOVE, move_from_wire
from protocol.params import GameParams, PeerSecrets
from protocol.seeded import seeded_params
from protocol.session import Session
from protocol.wire import WireValue, decode_message
from rattus_net.games.cartus import moves as cartus_moves
from rattus_net.games.rattus import moves as rattus_moves
from rattus_net.games.rattus.game import RattusConfig
from rattus_net.games.rattus.loader import default_components
from rattus_net.kit.errors import IllegalMove
from rattus_net.kit.registry import get_game

GAMES = ("rattus", "cartus")
WEIRD_NUMBERS = (
    "²", "①", "⁰", "٣", "३", "３", "𝟑", "½", "Ⅻ", "〇", "\u0661\u0662",
    "+1", "-1", "+0", "-0", "−1", " 1", "1 ", "\t2", "1_0", "0x1", "0b1", "1e3", "1.0",
    ".5", "01", "00", "0", "1", "2", "3", "4", "9", "99", "9" * 9, "9" * 10, "9" * 30,
    "9" * 5000, "", "nan", "inf", "1\u200b", "1\x00", "1\ufe0f", "1\u0301",
)  # fmt: skip
WEIRD_WORDS = (
    "", "Gallia\u200b", "ＧＡＬＬＩＡ", "gallia", "GALLIA", "İtalia", "x" * 300, "\x1b[2J",
    "\u202eailla", "None", "null", "via", "knight", "peasant", "look", "Joker", "Chu4",
    "\u3164", "\u00a0", "\ud7ff", "-", "--", "*", "é", "e\u0301",
)  # fmt: skip
SPACES = (" ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u2028", "", "\x0b")
VERBS = {
    "rattus": ("place", "take", "peasant", "king", "monk", "merchant", "witch", "swap",
               "keep", "plague", "spread", "turn", "done"),
    "cartus": ("supply", "enter", "pass", "give", "discard", "look", "take", "decline",
               "choose"),
}  # fmt: skip
SYNTAX: dict[str, type[Exception]] = {
    "rattus": rattus_moves.MoveSyntaxError,
    "cartus": cartus_moves.MoveSyntaxError,
}
WEIRD_VALUES: tuple[WireValue, ...] = (
    None, True, False, 0, 1, -1, 3, 64, 65, 1 << 20, (1 << 20) + 1, (1 << 31), (1 << 63) - 1,
    -(1 << 63), "", "²", "1", "٣", "supply", b"", b"\x00" * 32, b"\xff" * 33, [], [0], [-1],
    ["1"], [True], [[0]], [1 << 40], list(range(300)), {}, {"t": "take"}, 1.5,
)  # fmt: skip


class Unexpected(AssertionError):
    """A layer raised something it must not (or accepted what it must refuse)."""


@dataclass
class Point:
    """A moment of a game where ``seat`` decides: the session of another peer waiting for
    its move, and the message ``seat`` sent there (to re-sign with fuzzed moves)."""

    game: str
    seat: int
    receiver: Session
    frame: bytes
    secrets: PeerSecrets
    wire: WireValue
    text: str


@dataclass
class Figures:
    cases: int = 0
    sessions: int = 0
    unexpected: int = 0
    outcomes: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: list[str] = field(default_factory=list)


def _rattus_table(n: int, seed: int) -> tuple[GameParams, list[PeerSecrets]]:
    config = RattusConfig(RattusConfig.default_names(n), default_components())
    return seeded_params(config, seed, "rattus")


def _chooser(game: str, n: int, seed: int) -> Callable[[Any, int], Any]:
    if game == "cartus":
        return random_chooser(n, seed)
    from rattus_net.bots.random import RandomBot
    from rattus_net.games.rattus.view import RattusView

    bots = [RandomBot[Any](seed * 10 + s) for s in range(n)]
    return lambda g, seat: bots[seat].choose(RattusView(g, seat))


@cache
def points(game: str, n: int = 2, seed: int = 7, every: int = 3) -> tuple[Point, ...]:
    """Decision points of a seeded game in memory (one every ``every`` decisions)."""
    params, secrets = _rattus_table(n, seed) if game == "rattus" else table(n, seed)
    net = MemoryNetwork(params, secrets)
    choose = _chooser(game, n, seed)
    definition = get_game(game)
    out: list[Point] = []
    decisions = 0
    while not all(p.finished or p.abort is not None for p in net.peers):
        if net.deliver_one():
            continue
        seat = next((s for s, p in enumerate(net.peers) if p.needs_decision), None)
        if seat is None:
            break
        peer = net.peers[seat]
        assert peer.game is not None
        move = choose(peer.game, seat)
        other = (seat + 1) % n
        keep = decisions % every == 0 and not net.links
        receiver = copy.deepcopy(net.peers[other]) if keep else None
        peer.decide(move, net.now)
        frames = peer.take_outgoing()
        for frame in frames:
            net.broadcast(seat, frame)
        decisions += 1
        if receiver is None or len(frames) != 1:
            continue
        inner = decode_message(decode_message(frames[0]).body["m"])  # type: ignore[arg-type]
        payload = inner.body["x"]
        if inner.kind != MOVE or not isinstance(payload, dict):
            continue
        out.append(
            Point(
                game,
                seat,
                receiver,
                frames[0],
                secrets[seat],
                payload["m"],
                definition.format_move(move),
            )
        )
    assert out, "no decision point"
    return tuple(out)


# --- the changes --------------------------------------------------------------------------------


FORMS = {
    "rattus": ("turn {n}", "monk {r} {n} {r}", "merchant {r} {r} {n}", "witch {r} {n} {r} {n}",
               "place {r} peasant {r}", "plague {r} via {r} knight", "spread {r} {r}"),
    "cartus": ("supply {n}", "supply {n} look {n} {n}", "enter {n} Joker", "enter {n}",
               "look {n} {n}", "choose {n}", "give Joker", "discard {n}"),
}  # fmt: skip


@cache
def _regions() -> tuple[str, ...]:
    return tuple(default_components().regions)


def well_formed(game: str, rng: random.Random) -> str:
    """A move of ``game`` in the right shape, every number drawn from the strange ones (or a
    plain one), every region a real one: the cases that reach the number parsers."""
    form = rng.choice(FORMS[game])
    while "{n}" in form or "{r}" in form:
        form = form.replace("{n}", rng.choice(WEIRD_NUMBERS), 1)
        form = form.replace("{r}", rng.choice(_regions()), 1)
    return form


def fuzz_text(text: str, game: str, rng: random.Random) -> str:
    """``text`` changed once or a few times, as an attacker would (or, one time in three, a
    well-formed move with strange numbers)."""
    if rng.random() < 0.33:
        return well_formed(game, rng)
    words = text.split()
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        op = rng.randrange(9)
        i = rng.randrange(len(words) + 1)
        if op == 0 and words:  # a number becomes a strange one
            digits = [k for k, w in enumerate(words) if any(c.isdigit() for c in w)]
            k = rng.choice(digits) if digits else min(i, len(words) - 1)
            words[k] = rng.choice(WEIRD_NUMBERS)
        elif op == 1 and words:
            words[min(i, len(words) - 1)] = rng.choice(WEIRD_WORDS)
        elif op == 2:
            words.insert(i, rng.choice(WEIRD_NUMBERS + WEIRD_WORDS))
        elif op == 3 and words:
            del words[min(i, len(words) - 1)]
        elif op == 4 and words:
            words.insert(i, words[rng.randrange(len(words))])
        elif op == 5:
            verb = rng.choice(VERBS[game])
            words[:1] = [verb.upper() if rng.random() < 0.2 else verb]
        elif op == 6 and words:  # a number glued to a word, or a sign in front
            k = min(i, len(words) - 1)
            words[k] = rng.choice(("+", "-", "0", "²", "")) + words[k] + rng.choice(("", "²", "."))
        elif op == 7:
            words = ["".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(12)))]
        else:
            words.append(rng.choice(WEIRD_NUMBERS))
    sep = rng.choice(SPACES)
    return sep.join(words)


def fuzz_wire(wire: WireValue, game: str, text: str, rng: random.Random) -> WireValue:
    """A wire move of ``game`` with a field (or the whole map) changed."""
    if game == "rattus":
        roll = rng.random()
        if roll < 0.8:
            return {"m": fuzz_text(text, game, rng)}
        if roll < 0.9:
            return {"m": rng.choice(WEIRD_VALUES)}
        return rng.choice(
            [{}, {"m": text, "x": 1}, {"M": text}, [text], text, None, {"m": text * 30}]
        )
    assert isinstance(wire, dict)
    new = dict(wire)
    roll = rng.random()
    if roll < 0.7 and new:  # a field gets another value (type, sign, size)
        key = rng.choice(sorted(new))
        new[key] = rng.choice(WEIRD_VALUES) if key != "t" else rng.choice(VERBS["cartus"])
    elif roll < 0.8:
        new[rng.choice(("x", "c", "h", "p", "l", "b", "n"))] = rng.choice(WEIRD_VALUES)
    elif roll < 0.9 and new:
        del new[rng.choice(sorted(new))]
    else:
        new = {"t": rng.choice(VERBS["cartus"] + ("", "²", "TAKE"))}
        for key in rng.sample(["c", "l", "b", "n", "h", "p"], rng.randrange(4)):
            new[key] = rng.choice(WEIRD_VALUES)
    return new


def _numbers_ascii(text: str, printed: str) -> bool:
    """Whether every word of ``text`` holding a number of another script (a superscript, a
    circled number, an Arabic-Indic digit...) is still there, as a word, in the move's printed
    form: it was taken as a name (a region nobody has), never read as a number."""
    kept = {w.casefold() for w in printed.split()}
    return all(
        word.casefold() in kept
        for word in text.split()
        if any(c not in "0123456789" and unicodedata.numeric(c, None) is not None for c in word)
    )


# --- the checks ---------------------------------------------------------------------------------


def check_text(game: str, text: str) -> Any:
    """The move ``text`` names, or None when the game refuses it the way it says it does."""
    definition = get_game(game)
    try:
        move = definition.parse_move(text)
    except SYNTAX[game]:
        return None
    except Exception as exc:
        raise Unexpected(f"parse_move({text!r}) raised {type(exc).__name__}: {exc}") from exc
    printed = definition.format_move(move)
    if not _numbers_ascii(text, printed):
        raise Unexpected(f"parse_move({text!r}) read a number that is not ASCII: {printed!r}")
    again = definition.parse_move(printed)
    if again != move:
        raise Unexpected(f"{text!r} prints as {definition.format_move(move)!r}, another move")
    return move


def check_wire(game: str, value: WireValue) -> Any:
    """The (handle) move a wire form names, or None when it is refused with DecodeError."""
    try:
        move, _ = move_from_wire(value, "Bob", get_game(game).secure())
    except DecodeError as exc:
        if exc.peer != "Bob":
            raise Unexpected(f"a bad wire move blamed {exc.peer!r}") from exc
        return None
    except Exception as exc:
        raise Unexpected(f"move_from_wire({value!r:.80}) raised {type(exc).__name__}") from exc
    return move


def check_engine(point: Point, move: Any) -> str:
    """``move`` played on a copy of the public game where its seat decides."""
    game = point.receiver.public.clone()
    try:
        game.apply(point.seat, move)
    except IllegalMove:
        return "illegal"
    except Exception as exc:
        raise Unexpected(f"the engine raised {type(exc).__name__} for {move!r}") from exc
    return "legal"


def check_session(point: Point, wire: WireValue) -> str:
    """The peer's signed move carrying ``wire``, received by a copy of the waiting session."""
    session = copy.deepcopy(point.receiver)

    def change(kind: str, body: dict[str, WireValue]) -> str:
        body["x"] = {"m": wire}
        return kind

    try:
        frame = resign(point.frame, point.secrets, change)
    except Exception:  # (a value msgpack cannot carry: no peer can send it either)
        return "unsendable"
    try:
        session.receive(frame, 0.0, link=point.seat)
        refused = False
    except RemoteProtocolError:
        refused = True
    except Exception as exc:
        raise Unexpected(f"the session raised {type(exc).__name__}: {exc}") from exc
    if refused:
        abort = session.abort
        if abort is None or abort.blamed != point.seat or not abort.proven:
            raise Unexpected(f"a bad move was refused without blaming its signer: {abort}")
        return "blamed"
    if session.abort is not None:
        raise Unexpected(f"the session aborted without saying why: {session.abort}")
    return "accepted"


def cases(game: str, count: int, seed: int) -> Iterator[tuple[Point, str, WireValue]]:
    """``count`` fuzzed (point, text, wire) of ``game``."""
    rng = random.Random(seed)
    pts = points(game)
    for _ in range(count):
        point = rng.choice(pts)
        text = fuzz_text(point.text, game, rng)
        yield point, text, fuzz_wire(point.wire, game, point.text, rng)


def run(game: str, count: int, seed: int, session_every: int, figures: Figures) -> None:
    """Check ``count`` cases of ``game``; every unexpected outcome is counted and kept."""
    for i, (point, text, wire) in enumerate(cases(game, count, seed)):
        figures.cases += 1
        try:
            move = check_text(game, text)
            figures.outcomes[f"{game} text {'move' if move is not None else 'refused'}"] += 1
            if move is not None and game == "rattus":
                figures.outcomes[f"{game} engine {check_engine(point, move)}"] += 1
            handle = check_wire(game, wire)
            figures.outcomes[f"{game} wire {'move' if handle is not None else 'refused'}"] += 1
            if handle is not None:
                figures.outcomes[f"{game} engine {check_engine(point, handle)}"] += 1
            if session_every and i % session_every == 0:
                figures.sessions += 1
                figures.outcomes[f"{game} session {check_session(point, wire)}"] += 1
        except Unexpected as exc:
            figures.unexpected += 1
            figures.failures.append(f"{game} case {i}: {exc}")
