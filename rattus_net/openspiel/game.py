"""Rattus Net's games as OpenSpiel games (``pyspiel``), through the kit's interface only.

Every game whose state runs on the kit's machine (``kit/machine.py``) and that supplies its
action numbers (``codec.py``) loads here: ``pyspiel.load_game("rattus_net_cartus(players=3)")``.

* **Chance.** A table request becomes chance nodes with explicit outcomes, never a hidden
  seed. A shuffle decides nothing yet: its pieces stay undecided until one is turned up, and
  then each one turned up is a chance node over the faces left in its pile (as many outcomes
  as distinct faces, weighted by copies), which is the same distribution as shuffling first.
  A public random number in ``range(bound)`` is drawn digit by digit in base
  :data:`CHANCE_BASE` (exactly uniform: each digit weighted by the numbers below ``bound``
  it leaves). A chance action is the face code or the digit.
* **Decisions.** A move is spelt as the game's action numbers (one decision each); the game
  plays it when its spelling is complete. Players act one at a time: a decision several
  seats take at once (Rattus Cartus's simultaneous supply) is asked seat by seat, and the
  seat's view hides what the others chose, as at a table.
* **Information.** A seat's information state is what its seat view shows: the log without
  other seats' private events, the faces it has seen, whose decision it is and, for the seat
  that acts, its spelling so far and its legal actions. The tensor is a small fixed summary
  (the seat, who acts, the faces it knows and the public ones by face code).
* **Returns.** Each seat's share of the win (1, shared by tied winners; 0 for the others).
* **Resampling.** ``resample_from_infostate`` asks the game's own search bot for a
  determinisation (``bots/ismcts.py``): a full game consistent with the seat's view and a
  table that knows its faces; that table answers the sample's turn-ups and shuffles, and
  its public random numbers stay chance nodes.
"""

from __future__ import annotations

import copy
import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from rattus_net.bots.ismcts import Ismcts
from rattus_net.kit.interface import AnyGame, Table
from rattus_net.kit.machine import Machine
from rattus_net.kit.registry import games
from rattus_net.kit.table import Open, PublicRandom, Rehandle, Reveal, Shuffle, TableRequest
from rattus_net.openspiel.codec import MoveCodec, make_codec

CHANCE_BASE = 256
"""Public random numbers are drawn in digits of this base."""
MAX_GAME_LENGTH = 20_000
"""More actions (spelt moves, one per action) than any game of Rattus Net takes."""
PREFIX = "rattus_net_"


def short_name(game: AnyGame) -> str:
    """The game's name in OpenSpiel (``rattus_net_cartus``)."""
    return PREFIX + game.name


class _Core:
    """What a state holds in Python, copied as one (OpenSpiel clones a Python state by
    deep-copying its attributes): the engine, the faces decided so far, the undecided pieces
    by pile, the random number being drawn, the spelling so far, and a resampled state's
    table."""

    def __init__(self, engine: Machine[Any, Any, Any, Any]) -> None:
        self.engine = engine
        self.faces: dict[int, int] = {}
        self.pile_of: dict[int, int] = {}
        self.left: list[dict[int, int]] = []
        self.digits: list[int] = []
        self.prefix: tuple[int, ...] = ()
        self.oracle: Table | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.engine = self.engine.clone()
        c.faces = dict(self.faces)
        c.pile_of = dict(self.pile_of)
        c.left = [dict(p) for p in self.left]
        c.digits = list(self.digits)
        c.prefix = self.prefix
        c.oracle = copy.deepcopy(self.oracle, memo) if self.oracle is not None else None
        return c


def _random_digits(bound: int) -> int:
    k = 1
    while CHANCE_BASE**k < bound:
        k += 1
    return k


def _digit_outcomes(bound: int, digits: list[int]) -> list[tuple[int, float]]:
    """The next digit of a number in ``range(bound)`` whose first ``digits`` are drawn."""
    k = _random_digits(bound)
    r = k - len(digits)
    scale = CHANCE_BASE ** (r - 1)
    v = 0
    for d in digits:
        v = v * CHANCE_BASE + d
    low = v * CHANCE_BASE**r
    total = min(bound, low + CHANCE_BASE**r) - low
    out = []
    for d in range(CHANCE_BASE):
        start = low + d * scale
        n = min(bound, start + scale) - start
        if n <= 0:
            break
        out.append((d, n / total))
    return out


class RattusState(pyspiel.State):  # type: ignore[misc]
    """A game of Rattus Net in OpenSpiel."""

    def __init__(self, game: RattusOpenSpielGame, core: _Core) -> None:
        super().__init__(game)
        self._key = game.key
        self._core = core

    @property
    def _g(self) -> RattusOpenSpielGame:
        # (by key, not by reference: OpenSpiel's clone deep-copies a state's attributes)
        return _loaded[self._key]

    # --- whose turn -------------------------------------------------------------------------

    def current_player(self) -> int:
        e = self._core.engine
        if e.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seats = e.to_act()
        return seats[0] if seats else int(pyspiel.PlayerId.CHANCE)

    def _view(self, seat: int) -> Any:
        return self._g.rattus.view(self._core.engine, seat)

    def _legal_actions(self, player: int) -> list[int]:
        return self._g.codec.next_actions(self._view(player), self._core.prefix)

    def _draw_handle(self) -> int | None:
        """The first undecided piece the pending request turns up (``None``: none)."""
        req = self._core.engine.pending
        handles: Sequence[int] = ()
        if isinstance(req, Reveal):
            handles = req.handles
        elif isinstance(req, Rehandle):
            handles = req.old
        pile_of = self._core.pile_of
        return next((h for h in handles if h in pile_of), None)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        req = core.engine.pending
        if isinstance(req, PublicRandom):
            return _digit_outcomes(req.bound, core.digits)
        h = self._draw_handle()
        assert h is not None, "not a chance node"
        left = core.left[core.pile_of[h]]
        total = sum(left.values())
        return [(f, c / total) for f, c in sorted(left.items()) if c]

    # --- playing ----------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        core = self._core
        engine = core.engine
        if self.is_chance_node():
            req = engine.pending
            if isinstance(req, PublicRandom):
                core.digits.append(action)
                if len(core.digits) == _random_digits(req.bound):
                    value = 0
                    for d in core.digits:
                        value = value * CHANCE_BASE + d
                    core.digits = []
                    engine.answer(value)
            else:
                h = self._draw_handle()
                assert h is not None
                pile = core.left[core.pile_of.pop(h)]
                pile[action] -= 1
                core.faces[h] = action
        else:
            seat = self.current_player()
            prefix = (*core.prefix, action)
            move = self._g.codec.move_of(self._view(seat), prefix)
            if move is None:
                core.prefix = prefix
            else:
                core.prefix = ()
                engine.apply(seat, move)
        self._settle()

    def _settle(self) -> None:
        """Answer every request that needs no chance, until a decision, a chance node or the
        end."""
        core = self._core
        engine = core.engine
        while True:
            req = engine.pending
            if not isinstance(req, TableRequest) or isinstance(req, PublicRandom):
                return
            if core.oracle is not None:
                core.oracle.answer(engine)
                continue
            if isinstance(req, Shuffle):
                pile = len(core.left)
                left: dict[int, int] = {}
                for f in req.faces:
                    left[f] = left.get(f, 0) + 1
                core.left.append(left)
                for h in req.handles:
                    core.pile_of[h] = pile
                engine.answer(None)
            elif isinstance(req, Reveal | Rehandle):
                if self._draw_handle() is not None:
                    return  # a chance node: a piece to turn up
                faces = core.faces
                known = engine.faces
                old = req.handles if isinstance(req, Reveal) else req.old
                value = [faces[h] if h in faces else known[h] for h in old]
                if isinstance(req, Rehandle):
                    faces.update(zip(req.new, value, strict=True))
                engine.answer(value)
            elif isinstance(req, Open):
                raise pyspiel.SpielError("a table that sees every piece is never asked to open")
            else:
                raise pyspiel.SpielError(f"an unknown table request: {req!r}")

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            req = self._core.engine.pending
            if isinstance(req, PublicRandom):
                return f"random digit {action}"
            return f"face {action}"
        return self._g.codec.action_name(action)

    def is_terminal(self) -> bool:
        return bool(self._core.engine.is_over)

    def returns(self) -> list[float]:
        n = self._g.num_players()
        out = self._g.rattus.outcome(self._core.engine)
        if out is None:
            return [0.0] * n
        share = 1.0 / len(out.winners) if out.winners else 0.0
        return [share if s in out.winners else 0.0 for s in range(n)]

    def __str__(self) -> str:
        return str(self._g.rattus.state_text(self._core.engine))

    # --- what a seat knows ------------------------------------------------------------------

    def seat_text(self, seat: int, recall: bool = True) -> str:
        """What ``seat`` knows (with ``recall``, the log it saw too), as text."""
        core = self._core
        engine = core.engine
        view = self._view(seat)
        lines = [f"seat {seat}"]
        events = view.events()
        lines += [repr(tuple(e)) for e in (events if recall else events[-1:])]
        seats = engine.to_act()
        lines.append(f"to act {seats}")
        if seats and seats[0] == seat:
            lines.append(f"spelt {core.prefix} legal {self._legal_actions(seat)}")
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RattusState:
        """A state ``player_id`` cannot tell from this one, its hidden faces dealt again (by
        the game's determinisation; ``probability_sampler`` is unused: the determinisation
        draws with the resampling generator of the game)."""
        del probability_sampler
        core = self._core
        sample, table = self._g.determinize(self._view(player_id))
        new = _Core(sample)
        new.digits = list(core.digits)
        new.prefix = core.prefix
        new.oracle = table
        state = self.clone()
        state._core = new
        return state  # type: ignore[no-any-return]


class _Observer:
    """The seat's information as a string and a small tensor (OpenSpiel's observer)."""

    def __init__(self, game: RattusOpenSpielGame, recall: bool) -> None:
        self.recall = recall
        n = game.num_players()
        codes = game.face_count
        self.tensor = np.zeros(2 * n + 2 * codes, np.float32)
        t = self.tensor
        self.dict = {
            "seat": t[:n],
            "to_act": t[n : 2 * n],
            "known_faces": t[2 * n : 2 * n + codes],
            "public_faces": t[2 * n + codes :],
        }

    def set_from(self, state: RattusState, player: int) -> None:
        self.tensor.fill(0)
        engine = state._core.engine
        self.dict["seat"][player] = 1
        for s in engine.to_act()[:1]:
            self.dict["to_act"][s] = 1
        faces = engine.faces
        known, public = self.dict["known_faces"], self.dict["public_faces"]
        for h in engine.public | engine.seen[player]:
            f = faces.get(h)
            if f is not None and f < len(known):
                known[f] += 1
                if h in engine.public:
                    public[f] += 1

    def string_from(self, state: RattusState, player: int) -> str:
        return state.seat_text(player, self.recall)


class RattusOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of Rattus Net's games in OpenSpiel; ``players`` is its one parameter."""

    def __init__(self, rattus: AnyGame, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        n = int(params.get("players", rattus.min_players))
        if not rattus.min_players <= n <= rattus.max_players:
            raise pyspiel.SpielError(
                f"{rattus.title} takes {rattus.min_players} to {rattus.max_players} players"
            )
        config = rattus.configure([f"P{i + 1}" for i in range(n)], {})
        first = rattus.new_game(config)
        codec: MoveCodec = make_codec(rattus, rattus.view(first, 0))
        codes = rattus.secure().face_codes()
        face_count = max(codes) + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions,
            max_chance_outcomes=max(face_count, CHANCE_BASE),
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(rattus), info, {"players": n})
        self.rattus = rattus
        self.key = (rattus.name, n)
        self.codec = codec
        self.face_count = face_count
        self._first = first
        self._seed = 0
        self._searcher: Ismcts[Any, Any, Any] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> RattusOpenSpielGame:
        return self  # (a state's clone shares its game)

    def new_initial_state(self) -> RattusState:
        state = RattusState(self, _Core(self._first.clone()))
        state._settle()
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        recall = iig_obs_type is None or bool(iig_obs_type.perfect_recall)
        return _Observer(self, recall)

    def determinize(self, view: Any) -> tuple[Machine[Any, Any, Any, Any], Table]:
        """A determinisation of ``view`` by the game's search bot (its own generator)."""
        if self._searcher is None:
            bot = self.rattus.make_bot("search", self._seed)
            if not isinstance(bot, Ismcts):
                raise pyspiel.SpielError(f"{self.rattus.title} has no determinising search bot")
            self._searcher = bot
        return self._searcher.determinize(view)

    def seed_resampling(self, seed: int) -> None:
        """Seed the generator the determinisations draw with."""
        self._seed = seed
        self._searcher = None


def game_type(rattus: AnyGame) -> Any:
    return pyspiel.GameType(
        short_name=short_name(rattus),
        long_name=f"Rattus Net: {rattus.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rattus.max_players,
        min_num_players=rattus.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": rattus.min_players},
    )


_registered: set[str] = set()
_loaded: dict[tuple[str, int], RattusOpenSpielGame] = {}


def register_games() -> tuple[str, ...]:
    """Register every game that has action numbers with ``pyspiel`` (once); their names."""
    from rattus_net.openspiel.codec import codec_module

    names = []
    for rattus in games():
        if codec_module(rattus) is None:
            continue
        name = short_name(rattus)
        if name not in _registered:

            def create(params: Any = None, rattus: AnyGame = rattus) -> RattusOpenSpielGame:
                # One game per parameters, kept here: a Python game that only OpenSpiel's
                # C++ side holds (one it loads to deserialise a state) loses its Python half.
                n = int(dict(params or {}).get("players", rattus.min_players))
                key = (rattus.name, n)
                game = _loaded.get(key)
                if game is None:
                    game = _loaded[key] = RattusOpenSpielGame(rattus, params)
                return game

            # OpenSpiel keeps the creator until the process ends, when it lets go of it
            # without the interpreter's lock: one reference more than it holds keeps that from
            # freeing it then (which aborts the interpreter on exit).
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(create))
            pyspiel.register_game(game_type(rattus), create)
            _registered.add(name)
        names.append(name)
    return tuple(names)
