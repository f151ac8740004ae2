"""The rules of Rattus (the board game) as a deterministic state machine over token handles.

Driven from outside on the kit's task-stack machine (``rattus_net/kit/machine.py``):
``RattusGame.pending`` is a :class:`Decision` (``apply``), a table request from
``rattus_net.kit.table`` (``answer``) or ``None`` once the game is over (``result``). Rat
tokens are handles whose face this engine learns only from a ``Reveal``: a public one when a
token is turned up at an outbreak, a private one (``to=seat``) when a Witch looks. Chance
comes from the table too: the start tokens and the rat supply are ``Shuffle``d, and
``PublicRandom`` decides where the start tokens left over go into the rat supply, where the
plague piece starts and who starts.

Every public method either succeeds or raises and leaves the state unchanged. The rules are
those of ``rattus.md`` sections 2-4 and the rulings of section 6; where this file decides
something the rules leave open it says so with an ``[I]`` comment (listed in
``docs/rattus-engine.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rattus_net.games.rattus import rules as R
from rattus_net.games.rattus.components import CARDS, CODE_OF, Components, Token
from rattus_net.games.rattus.decision import CUBES_OUT, SUPPLY, Decision, Kind
from rattus_net.games.rattus.errors import NoSuchRegion
from rattus_net.games.rattus.moves import Move
from rattus_net.kit.errors import BadChoice, SetupError
from rattus_net.kit.machine import Event, Machine, Task
from rattus_net.kit.table import PublicRandom, Reveal, Shuffle

CUBES = 20
REMOVED = {2: 12, 3: 6, 4: 0}  # tokens removed unseen from the rat supply [C count]
KNIGHT_BONUS = 2
CARD_INDEX = {code: CARDS.index(card) for card, code in CODE_OF.items()}  # class code -> card


class Phase(Enum):
    SETUP = "setup"
    PLAY = "play"
    FINAL = "final round"
    OVER = "game over"


@dataclass(frozen=True)
class RattusConfig:
    """Players in seat order (clockwise) and the components (map and tokens)."""

    players: tuple[str, ...]
    components: Components

    def __post_init__(self) -> None:
        if not 2 <= len(self.players) <= 4:
            raise SetupError("Rattus is for 2 to 4 players")
        if len(set(self.players)) != len(self.players) or not all(self.players):
            raise SetupError("the players need different, non-empty names")

    @staticmethod
    def default_names(n: int) -> tuple[str, ...]:
        return tuple(f"Player {i + 1}" for i in range(n))


@dataclass(frozen=True)
class Result:
    """The end: cubes on the board and in the palace per seat, cubes struck over the game
    (they went back to the supply, so they are a statistic, not a loss), why the game ended
    and after whose turn, the final round's order and the tie-break order that decided (rules
    section 4: clockwise from the ender's left, the ender last; not the final round's
    order, which runs the other way), and the one winner."""

    board: tuple[int, ...]
    palace: tuple[int, ...]
    struck: tuple[int, ...]
    final_order: tuple[int, ...]
    tie_order: tuple[int, ...]
    winner: int
    reason: str  # SUPPLY or CUBES_OUT
    ender: int

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(b + p for b, p in zip(self.board, self.palace, strict=True))

    @property
    def winners(self) -> tuple[int, ...]:
        return (self.winner,)

    @property
    def tied_players(self) -> tuple[int, ...]:
        """The players with the most cubes, in the tie-break order (the winner first)."""
        totals = self.totals
        return tuple(s for s in self.tie_order if totals[s] == totals[self.winner])

    @property
    def tied(self) -> bool:
        return len(self.tied_players) > 1


class RattusGame(Machine[RattusConfig, Decision, Result, Move]):
    """One game of Rattus. See the module docstring for how it is driven."""

    def __init__(self, config: RattusConfig) -> None:
        super().__init__(config)
        comps = config.components
        n = self.n
        self.regions: tuple[str, ...] = comps.in_play(n)
        k = len(self.regions)
        self.k = k
        self.index = {name.lower(): i for i, name in enumerate(self.regions)}
        self.nbrs: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index[o.lower()] for o, _ in comps.neighbours[r] if o.lower() in self.index)
            for r in self.regions
        )
        self.token_faces: tuple[Token, ...] = comps.tokens
        self.face_range = range(len(self.token_faces))
        self.phase = Phase.SETUP
        self.tokens: list[list[int]] = [[] for _ in range(k)]  # handles per region, slot order
        self.cubes: list[list[int]] = [[0] * n for _ in range(k)]
        self.palace = [0] * n
        self.supply = [CUBES] * n  # cubes left: 20 minus those on the board and in the palace
        self.struck = [0] * n  # cubes the plague struck over the game (back to the supply)
        self.rat_supply: list[int] = []  # face-down handles, top = last
        self.removed: list[int] = []  # removed unseen at setup (2 or 3 players)
        self.turned: list[int] = []  # turned-up handles, in order (faces public)
        self.start_handles: frozenset[int] = frozenset()  # the purple-ringed tokens (public)
        self.origin: dict[int, str] = {}  # board token -> where it came from (public)
        self.holder: list[int | None] = [None] * len(CARDS)  # seat holding each card
        self.plague = 0
        self.first_player = 0
        self.active = 0
        self.took = False
        self.placed = False
        self.used: set[str] = set()  # abilities used this turn
        self.knight_region: int | None = None  # where the Knight's +2 counts
        self.witch_pair: tuple[tuple[int, int], tuple[int, int]] | None = None
        self.end_reason: str | None = None
        self.ender: int | None = None
        self.final_order: tuple[int, ...] = ()
        self._leftover: list[int] = []
        self._start(
            (RattusGame._t_shuffle_start, ()),
            (RattusGame._t_shuffle_supply, ()),
            (RattusGame._t_mix_leftover, ()),
            (RattusGame._t_remove, ()),
            (RattusGame._t_ask_random, (k, "plague piece")),
            (RattusGame._t_set_plague, ()),
            (RattusGame._t_ask_random, (n, "starting player")),
            (RattusGame._t_set_first, ()),
        )

    # --- driving ------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def _apply(self, d: Decision, player: int, move: Move) -> Move:
        canonical = R.check(self, d, move)  # raises; returns the move with canonical names
        self.pending = None
        R.perform(self, d, canonical)
        return canonical

    # --- helpers ------------------------------------------------------------------------------

    def region(self, name: str | None) -> int:
        """The index of a region in play, by name (any case)."""
        if name is not None:
            i = self.index.get(name.lower())
            if i is not None:
                return i
        raise NoSuchRegion(
            f"{name!r} is not a region in play ({', '.join(self.regions)})"
            if name
            else "a region is needed"
        )

    def card(self, name: str) -> int:
        for i, c in enumerate(CARDS):
            if c.lower() == name.lower():
                return i
        raise BadChoice(f"{name!r} is not a class card ({', '.join(CARDS)})")

    def holds(self, seat: int, card: str) -> bool:
        return self.holder[CARDS.index(card)] == seat

    def cards_of(self, seat: int) -> tuple[str, ...]:
        return tuple(c for i, c in enumerate(CARDS) if self.holder[i] == seat)

    def lose(self, r: int, seat: int, why: str) -> None:
        """One of ``seat``'s cubes in region ``r`` is struck: it goes back to his supply and
        may be placed again (ruling 4)."""
        self.cubes[r][seat] -= 1
        self.supply[seat] += 1
        self.struck[seat] += 1
        self.emit("loss", seat, region=self.regions[r], why=why)

    def all_tokens(self) -> list[int]:
        """Every token handle, zone by zone (for conservation checks)."""
        out = list(self.rat_supply) + list(self.removed) + list(self.turned)
        for t in self.tokens:
            out += t
        return out

    # --- setup tasks --------------------------------------------------------------------------

    def _t_shuffle_start(self) -> None:
        faces = self.config.components.start_faces
        handles = self.new_handles(len(faces))
        self.start_handles = frozenset(handles)
        self._leftover = list(handles)
        self.pending = Shuffle("start tokens", faces, handles)

    def _t_shuffle_supply(self) -> None:
        # One start token, face down and unseen, on each region in play (setup 3).
        for r in range(self.k):
            h = self._leftover.pop(0)
            self.tokens[r].append(h)
            self.origin[h] = R.FROM_SETUP
        self.emit("start-tokens", None, regions=self.k)
        faces = self.config.components.normal_faces
        handles = self.new_handles(len(faces))
        self.rat_supply = list(reversed(handles))  # top first in the request, top = last here
        self.pending = Shuffle("rat supply", faces, handles)

    def _t_mix_leftover(self) -> None:
        # The start tokens left over are mixed into the rat supply: a start token's ring shows
        # face down, so where it lies is public; a public random number places each [I].
        if not self._leftover:
            return
        self._then((RattusGame._t_insert_leftover, ()), (RattusGame._t_mix_leftover, ()))
        self.pending = PublicRandom(len(self.rat_supply) + 1, "start token into the rat supply")

    def _t_insert_leftover(self) -> None:
        self.rat_supply.insert(self._random, self._leftover.pop(0))

    def _t_remove(self) -> None:
        count = REMOVED[self.n]
        for _ in range(count):
            self.removed.append(self.rat_supply.pop())
        if count:
            self.emit("removed", None, count=count)

    def _t_set_plague(self) -> None:
        self.plague = self._random
        self.emit("plague-start", None, region=self.regions[self.plague])

    def _t_set_first(self) -> None:
        self.first_player = self._random
        self.emit("first-player", self._random)
        order = [(self._random + i) % self.n for i in range(self.n)]
        self._then(
            (RattusGame._t_start_places, (order + order[::-1],)),
            (RattusGame._t_turn, (self._random,)),
        )

    def _t_start_places(self, order: list[int]) -> None:
        if order:
            self._then((RattusGame._t_start_places, (order[1:],)))
            self.pending = Decision(Kind.START, order[0])

    # --- the turn -----------------------------------------------------------------------------

    def _t_turn(self, seat: int) -> None:
        self.phase = Phase.PLAY
        self.active = seat
        self.took = self.placed = False
        self.used = set()
        self.knight_region = None
        self.emit("turn", seat)
        self.pending = Decision(Kind.TURN, seat)

    def _t_ask(self, kind: Kind, seat: int) -> None:
        self.pending = Decision(kind, seat)

    def _t_witch_seen(self, seat: int, handles: tuple[int, int]) -> None:
        faces = [self.faces.get(h) for h in handles]
        shown = [None if f is None else self.token_faces[f].text() for f in faces]
        self.emit("witch-look", seat, private_to=seat, faces=shown)

    def _t_spread(self) -> None:
        r = self.plague
        if not self.tokens[r]:
            return
        placeable = R.spread_count(self, r)  # a token with no legal place is not placed
        if placeable > len(self.rat_supply):
            self._trigger(SUPPLY)  # a token was needed and none is left: end (a)
        count = min(placeable, len(self.rat_supply))
        if count == 0:
            self.emit("spread", self.active, regions=[], left=len(self.rat_supply))
            return
        options = R.spread_options(self, r, count)
        if len(options) == 1:  # forced: nothing to decide
            R.do_spread(self, options[0])
            return
        self.pending = Decision(Kind.SPREAD, self.active, count=count, region=r)

    def _t_outbreak(self, r: int, final: bool) -> None:
        """Turn up the next token of region ``r`` while it holds tokens and cubes."""
        tokens = self.tokens[r]
        if not tokens or not any(self.cubes[r]):
            return
        seat = self.active
        # The active player chooses the next token whenever he can tell the face-down tokens
        # apart: a ring, his own Witch look, where a token came from (rulings 1 and 5);
        # otherwise, and always at the final outbreak, they are turned up slot by slot.
        if not final and R.tell_apart(self, seat, r):
            self.pending = Decision(Kind.TURN_UP, seat, region=r)
            return
        self._turn_up(r, 0, final)

    def _turn_up(self, r: int, slot: int, final: bool) -> None:
        h = self.tokens[r][slot]
        self._then((RattusGame._t_strike, (r, h, final)), (RattusGame._t_outbreak, (r, final)))
        if h not in self.public:
            self.pending = Reveal((h,), None)

    def _t_strike(self, r: int, h: int, final: bool) -> None:
        slot = self.tokens[r].index(h)  # (told: a map of the moment before can put it back)
        self.tokens[r].remove(h)
        self.origin.pop(h, None)
        self.turned.append(h)
        token = self.token_faces[self.faces[h]]
        cubes = self.cubes[r]
        counted = sum(cubes) + (KNIGHT_BONUS if self.knight_region == r else 0)
        strikes = counted >= token.number
        self.emit(
            "turn-up",
            None,
            region=self.regions[r],
            slot=slot + 1,
            token=token.text(),
            counted=counted,
            strikes=strikes,
        )
        if not strikes:
            return
        if token.majority:
            present = [c for c in cubes if c > 0]
            top = max(present, default=0)
            for s in range(self.n):
                if top and cubes[s] == top:
                    self.lose(r, s, "M")
        if token.all_:
            for s in range(self.n):
                if cubes[s] > 0:
                    self.lose(r, s, "A")
        for code in token.symbols:
            card = CARD_INDEX[code]
            s2 = self.holder[card]
            if s2 is not None and cubes[s2] > 0:
                self.lose(r, s2, code)

    def _trigger(self, reason: str) -> None:
        """The game will end after this turn (the first reason found is kept). Said in the
        log only at the end of the turn, after its spread and outbreak (``_t_end_turn``)."""
        if self.end_reason is None:
            self.end_reason = reason
            self.ender = self.active

    def _t_end_turn(self) -> None:
        e = self.active
        if self.supply[e] == 0:
            self._trigger(CUBES_OUT)  # all 20 on the board and in the palace: end (b)
        if self.end_reason is None:
            self._then((RattusGame._t_turn, ((e + 1) % self.n,)))
            return
        self.emit("end-trigger", e, reason=self.end_reason)
        # Final round: from the player to the right of the one who ended the game,
        # counter-clockwise (seats are numbered clockwise), everybody else [C].
        self.final_order = tuple((e - i) % self.n for i in range(1, self.n))
        self.phase = Phase.FINAL
        self.knight_region = None
        self.emit("final-round", e, order=list(self.final_order))
        tasks: list[Task] = [(RattusGame._t_final_turn, (s,)) for s in self.final_order]
        tasks.append((RattusGame._t_final_outbreak, ()))
        self._then(*tasks)

    def _t_final_turn(self, seat: int) -> None:
        if not self.cards_of(seat):
            return
        self.active = seat
        self.used = set()
        self.pending = Decision(Kind.FINAL, seat)

    def _t_final_outbreak(self) -> None:
        # Every region in play, in the order of rules section 1, slot by slot (ruling 6.1).
        self.emit("final-outbreak", None)
        tasks: list[Task] = [(RattusGame._t_outbreak, (r, True)) for r in range(self.k)]
        tasks.append((RattusGame._t_score, ()))
        self._then(*tasks)

    def _t_score(self) -> None:
        assert self.ender is not None and self.end_reason is not None
        board = tuple(sum(self.cubes[r][s] for r in range(self.k)) for s in range(self.n))
        totals = [board[s] + self.palace[s] for s in range(self.n)]
        # Ties: the tied player who would have had the next turn wins, in turn order from
        # the ender's left, the ender last (rules section 4) [C].
        tie_order = tuple((self.ender + i) % self.n for i in range(1, self.n + 1))
        best = max(totals)
        winner = next(s for s in tie_order if totals[s] == best)
        self.result = Result(
            board,
            tuple(self.palace),
            tuple(self.struck),
            self.final_order,
            tie_order,
            winner,
            self.end_reason,
            self.ender,
        )
        self.phase = Phase.OVER
        self.emit("game-over", winner, totals=totals, tie_order=list(tie_order))

    # --- copying ------------------------------------------------------------------------------


__all__ = [
    "CUBES",
    "CUBES_OUT",
    "REMOVED",
    "SUPPLY",
    "Decision",
    "Event",
    "Kind",
    "Phase",
    "RattusConfig",
    "RattusGame",
    "Result",
]
