"""Rattus decisions: checking a move, performing it, and listing the legal ones.

``check`` validates a move against the pending decision without touching the state and
returns it with canonical region names; ``perform`` applies a checked move; ``legal`` lists
every legal move of the seat that must act (bots and the terminal table use it). Kept apart
from ``game.py`` (the flow of a game) so each file holds one idea.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rattus_net.engine.errors import BadChoice, NotYourTurn, WrongCount
from rattus_net.engine.table import Reveal
from rattus_net.games.rattus.components import CARDS
from rattus_net.games.rattus.decision import SUPPLY, Decision, Kind
from rattus_net.games.rattus.errors import (
    AbilityNotAllowed,
    CardNotHeldError,
    NotNeighbour,
    NoTokens,
    OutOfOrder,
    RegionFull,
)
from rattus_net.games.rattus.moves import (
    Done,
    King,
    Merchant,
    Monk,
    Move,
    Place,
    Plague,
    Spread,
    StartPlace,
    Swap,
    Take,
    TurnUp,
    Witch,
    format_move,
)

if TYPE_CHECKING:
    from rattus_net.games.rattus.game import RattusGame

MAX_TOKENS = 3
MERCHANT_MAX = 3

# Where a token on the board came from (public: everybody saw it arrive), ruling 5.
FROM_SETUP = "setup"  # the region's start token, laid at setup
FROM_SUPPLY = "supply"  # spread from the rat supply
# A token the Monk moved or the Witch swapped from another region: that region's name.

ABILITY_OF = {King: "King", Monk: "Monk", Merchant: "Merchant", Witch: "Witch"}


def _ability(game: RattusGame, seat: int, card: str) -> None:
    if not game.holds(seat, card):
        raise CardNotHeldError(f"{game.name(seat)} does not hold the {card}")
    if card in game.used:
        raise AbilityNotAllowed(f"the {card}'s ability is used once per turn")


def can_place(game: RattusGame, seat: int) -> bool:
    """Whether B is possible: cubes left and a region with tokens."""
    return game.supply[seat] > 0 and any(game.tokens)


def check(game: RattusGame, d: Decision, move: Move) -> Move:
    """The move with canonical names if it answers ``d`` legally; raises otherwise."""
    seat = d.player
    kind = d.kind
    rn = game.regions
    if kind is Kind.START and isinstance(move, StartPlace):
        a, b = (game.region(r) for r in move.regions)
        return StartPlace((rn[a], rn[b]))
    if kind is Kind.SWAP and isinstance(move, Swap):
        return move
    if kind is Kind.SPREAD and isinstance(move, Spread):
        assert d.region is not None
        picked = tuple(sorted(game.region(r) for r in move.regions))
        if len(picked) != d.count:
            raise WrongCount(f"{d.count} new token(s) to place, not {len(picked)}")
        for r in picked:
            if r not in game.nbrs[d.region]:
                raise NotNeighbour(f"{rn[r]} is not a neighbour of {rn[d.region]}")
        if picked not in spread_options(game, d.region, d.count):
            raise RegionFull("a region holds at most 3 tokens")
        return Spread(tuple(rn[r] for r in picked))
    if kind is Kind.TURN_UP and isinstance(move, TurnUp):
        assert d.region is not None
        if not 1 <= move.slot <= len(game.tokens[d.region]):
            raise BadChoice(f"{rn[d.region]} holds {len(game.tokens[d.region])} token(s)")
        return move
    if kind is Kind.FINAL and isinstance(move, Done):
        return move
    if kind not in (Kind.TURN, Kind.FINAL):
        raise NotYourTurn(f"the game waits for a {kind.value} decision, not {format_move(move)!r}")
    final = kind is Kind.FINAL
    if isinstance(move, Take):
        if final:
            raise OutOfOrder("nobody takes a class card in the final round")
        if game.took:
            raise OutOfOrder("one class card per turn")
        c = game.card(move.card)
        if game.holder[c] == seat:
            raise BadChoice(f"{game.name(seat)} holds the {CARDS[c]} already")
        return Take(CARDS[c])
    if isinstance(move, Place):
        return _check_place(game, seat, move, final)
    if isinstance(move, King):
        _ability(game, seat, "King")
        r = game.region(move.region)
        if game.tokens[r]:
            raise AbilityNotAllowed(
                f"the King moves a cube from a region with no tokens, not {rn[r]}"
            )
        if not game.cubes[r][seat]:
            raise AbilityNotAllowed(f"{game.name(seat)} has no cube in {rn[r]} (ruling 6.2)")
        return King(rn[r])
    if isinstance(move, Monk):
        _ability(game, seat, "Monk")
        src, dst = game.region(move.source), game.region(move.target)
        if not 1 <= move.slot <= len(game.tokens[src]):
            raise BadChoice(f"{rn[src]} holds {len(game.tokens[src])} token(s)")
        if dst not in game.nbrs[src]:
            raise NotNeighbour(f"{rn[dst]} is not a neighbour of {rn[src]}")
        if len(game.tokens[dst]) >= MAX_TOKENS:
            raise RegionFull(f"{rn[dst]} holds 3 tokens already")
        return Monk(rn[src], move.slot, rn[dst])
    if isinstance(move, Merchant):
        _ability(game, seat, "Merchant")
        src, dst = game.region(move.source), game.region(move.target)
        if not 1 <= move.count <= MERCHANT_MAX:
            raise WrongCount("the Merchant moves 1 to 3 cubes")
        if game.cubes[src][seat] < move.count:
            raise WrongCount(f"{game.name(seat)} has {game.cubes[src][seat]} cube(s) in {rn[src]}")
        if dst not in game.nbrs[src]:
            raise NotNeighbour(f"{rn[dst]} is not a neighbour of {rn[src]}")
        return Merchant(rn[src], rn[dst], move.count)
    if isinstance(move, Witch):
        _ability(game, seat, "Witch")
        out = []
        for name, slot in (move.first, move.second):
            r = game.region(name)
            if not 1 <= slot <= len(game.tokens[r]):
                raise BadChoice(f"{rn[r]} holds {len(game.tokens[r])} token(s)")
            out.append((rn[r], slot))
        if out[0] == out[1]:
            raise BadChoice("the Witch looks at two different tokens")
        return Witch(out[0], out[1])
    if isinstance(move, Plague):
        return _check_plague(game, seat, move, final)
    raise NotYourTurn(f"the game waits for a {kind.value} decision, not {format_move(move)!r}")


def _check_place(game: RattusGame, seat: int, move: Place, final: bool) -> Place:
    rn = game.regions
    if final and move.region is not None:
        raise OutOfOrder("no cubes are placed in the final round, except the Peasant's one")
    if not final and game.placed:
        raise OutOfOrder("cubes are placed once per turn")
    if game.supply[seat] == 0:
        raise WrongCount(f"{game.name(seat)} has no cubes left")
    main = 0
    region = None
    if move.region is not None:
        r = game.region(move.region)
        if not game.tokens[r]:
            raise NoTokens(f"{rn[r]} holds no rat tokens (only the Peasant's cube may go there)")
        main = min(len(game.tokens[r]), game.supply[seat])
        region = rn[r]
    elif not final and any(game.tokens):
        raise NoTokens("choose a region that holds rat tokens")
    extra = None
    if move.extra is not None:
        _ability(game, seat, "Peasant")
        extra = rn[game.region(move.extra)]
        if game.supply[seat] - main < 1:
            raise WrongCount(f"{game.name(seat)} has no cube left for the Peasant")
    elif region is None:
        raise WrongCount("a region is needed")
    return Place(region, extra)


def _check_plague(game: RattusGame, seat: int, move: Plague, final: bool) -> Plague:
    rn = game.regions
    here = game.plague
    if final:
        _ability(game, seat, "Knight")
    elif not game.placed and can_place(game, seat):
        raise OutOfOrder("place your cubes before you move the plague piece")
    to = game.region(move.to)
    via = None
    if move.via is not None or move.knight:
        _ability(game, seat, "Knight")
    if move.via is not None:
        v = game.region(move.via)
        if v not in game.nbrs[here]:
            raise NotNeighbour(f"{rn[v]} is not a neighbour of {rn[here]}")
        if to not in game.nbrs[v]:
            raise NotNeighbour(f"{rn[to]} is not a neighbour of {rn[v]}")
        if to == here:
            raise AbilityNotAllowed("the plague piece must end in another region")
        via = rn[v]
    elif to == here:
        if not (final and move.knight):
            raise AbilityNotAllowed("the plague piece must move")
    elif to not in game.nbrs[here]:
        raise NotNeighbour(f"{rn[to]} is not a neighbour of {rn[here]}")
    if move.knight and not (game.tokens[to] and any(game.cubes[to])):
        raise AbilityNotAllowed(f"no outbreak in {rn[to]}: the Knight's +2 changes nothing")
    return Plague(rn[to], via, move.knight)


# --- performing ---------------------------------------------------------------------------------


def perform(game: RattusGame, d: Decision, move: Move) -> None:
    """Apply a move that ``check`` accepted."""
    seat = d.player
    final = d.kind is Kind.FINAL
    G = type(game)
    again = (G._t_ask, (d.kind, seat))
    if isinstance(move, StartPlace):
        for name in move.regions:
            game.cubes[game.region(name)][seat] += 1
        game.supply[seat] -= 2
        game.emit("start-place", seat, regions=list(move.regions))
    elif isinstance(move, Take):
        c = CARDS.index(move.card)
        before = game.holder[c]
        game.holder[c] = seat
        game.took = True
        game.emit("take", seat, card=move.card, taken_from=before)
        game._then(again)
    elif isinstance(move, Place):
        if move.region is not None:
            r = game.region(move.region)
            count = min(len(game.tokens[r]), game.supply[seat])
            game.cubes[r][seat] += count
            game.supply[seat] -= count
            game.emit("place", seat, region=move.region, count=count)
        if move.extra is not None:
            game.cubes[game.region(move.extra)][seat] += 1
            game.supply[seat] -= 1
            game.used.add("Peasant")
            game.emit("peasant", seat, region=move.extra)
        game.placed = True
        game._then(again)
    elif isinstance(move, King):
        r = game.region(move.region)
        game.cubes[r][seat] -= 1
        game.palace[seat] += 1
        game.used.add("King")
        game.emit("king", seat, region=move.region)
        game._then(again)
    elif isinstance(move, Monk):
        src, dst = game.region(move.source), game.region(move.target)
        h = game.tokens[src].pop(move.slot - 1)
        game.tokens[dst].append(h)
        game.origin[h] = game.regions[src]
        game.used.add("Monk")
        game.emit("monk", seat, source=move.source, slot=move.slot, target=move.target)
        game._then(again)
    elif isinstance(move, Merchant):
        src, dst = game.region(move.source), game.region(move.target)
        game.cubes[src][seat] -= move.count
        game.cubes[dst][seat] += move.count
        game.used.add("Merchant")
        game.emit("merchant", seat, source=move.source, target=move.target, count=move.count)
        game._then(again)
    elif isinstance(move, Witch):
        pos = tuple((game.region(n), s - 1) for n, s in (move.first, move.second))
        a, b = pos
        game.witch_pair = (a, b)
        game.used.add("Witch")
        handles = (game.tokens[a[0]][a[1]], game.tokens[b[0]][b[1]])
        game.emit("witch", seat, first=list(move.first), second=list(move.second))
        game._then(
            (G._t_witch_seen, (seat, handles)),
            (G._t_ask, (Kind.SWAP, seat)),
            again,
        )
        game.pending = Reveal(handles, seat)
    elif isinstance(move, Swap):
        assert game.witch_pair is not None
        (ra, sa), (rb, sb) = game.witch_pair
        if move.swap:
            ta, tb = game.tokens[ra], game.tokens[rb]
            ta[sa], tb[sb] = tb[sb], ta[sa]
            if ra != rb:  # each token now lies where the other was: it came from there
                game.origin[ta[sa]] = game.regions[rb]
                game.origin[tb[sb]] = game.regions[ra]
        game.witch_pair = None
        game.emit("swap" if move.swap else "keep", seat)
    elif isinstance(move, Plague):
        to = game.region(move.to)
        game.plague = to
        if move.via is not None or move.knight or final:
            game.used.add("Knight")
        if move.knight:
            game.knight_region = to
        game.emit("plague", seat, to=move.to, via=move.via, knight=move.knight)
        if final:
            game._then(again)
        else:
            game._then(
                (G._t_spread, ()),
                (G._t_outbreak, (to, False)),
                (G._t_end_turn, ()),
            )
    elif isinstance(move, Spread):
        do_spread(game, tuple(game.region(r) for r in move.regions))
    elif isinstance(move, TurnUp):
        assert d.region is not None
        game._turn_up(d.region, move.slot - 1, False)
    elif isinstance(move, Done):
        game.emit("done", seat)


def spread_options(game: RattusGame, r: int, count: int) -> list[tuple[int, ...]]:
    """Where ``count`` new tokens may go from region ``r``: sorted region tuples."""
    room = [(o, MAX_TOKENS - len(game.tokens[o])) for o in sorted(game.nbrs[r])]
    free = [o for o, space in room if space > 0]
    if count == 1:
        return [(o,) for o in free]
    out: list[tuple[int, ...]] = []
    for i, (a, space) in enumerate(room):
        if space >= 2:
            out.append((a, a))
        if space >= 1:
            out += [(a, b) for b, sb in room[i + 1 :] if sb >= 1]
    return out


def do_spread(game: RattusGame, regions: tuple[int, ...]) -> None:
    for r in regions:
        h = game.rat_supply.pop()
        game.tokens[r].append(h)
        game.origin[h] = FROM_SUPPLY
    left = len(game.rat_supply)
    game.emit("spread", game.active, regions=[game.regions[r] for r in regions], left=left)
    if not left:
        game._trigger(SUPPLY)  # the last token left the rat supply: end (a)


def spread_count(game: RattusGame, r: int) -> int:
    """How many new tokens the plague striking region ``r`` would spread now: 1 for one
    token there, 2 for two or three, no more than its neighbours have room for."""
    have = len(game.tokens[r])
    need = 0 if have == 0 else 1 if have == 1 else 2
    room = sum(MAX_TOKENS - len(game.tokens[o]) for o in game.nbrs[r])
    return min(need, room)


def spread_ends_game(game: RattusGame, r: int) -> bool:
    """Whether the plague striking region ``r`` now would take the rat supply's last token
    (or need one it does not have): the game would end after this turn, end (a)."""
    count = spread_count(game, r)
    return count > 0 and count >= len(game.rat_supply)


def token_key(game: RattusGame, seat: int, h: int) -> tuple[bool, int | None, str]:
    """What ``seat`` can tell of a face-down token on the board (ruling 5): its ring, whether
    he looked at it with the Witch (a token he looked at is known apart from every other),
    where it came from. Public, like everything the rules read: who looked at which token is
    public, only the face is not, so every peer's engine asks the same question."""
    looked = h if h in game.seen[seat] else None
    return (h in game.start_handles, looked, game.origin.get(h, FROM_SETUP))


def tell_apart(game: RattusGame, seat: int, r: int) -> bool:
    """Whether ``seat`` can tell region ``r``'s face-down tokens apart, so that choosing
    which to turn up next means something (ruling 5); otherwise slot by slot."""
    return len({token_key(game, seat, h) for h in game.tokens[r]}) > 1


# --- listing ------------------------------------------------------------------------------------


def legal(game: RattusGame, seat: int) -> list[Move]:
    """Every legal move of ``seat`` now (empty if it is not to act)."""
    d = game.decision
    if d is None or d.player != seat:
        return []
    rn = game.regions
    k = game.k
    if d.kind is Kind.START:
        return [StartPlace((rn[a], rn[b])) for a in range(k) for b in range(a, k)]
    if d.kind is Kind.SWAP:
        return [Swap(False), Swap(True)]
    if d.kind is Kind.SPREAD:
        assert d.region is not None
        opts = spread_options(game, d.region, d.count)
        return [Spread(tuple(rn[r] for r in o)) for o in opts]
    if d.kind is Kind.TURN_UP:
        assert d.region is not None
        return [TurnUp(i + 1) for i in range(len(game.tokens[d.region]))]
    final = d.kind is Kind.FINAL
    out: list[Move] = [Done()] if final else []
    held = set(game.cards_of(seat)) - game.used
    if not final and not game.took:
        out += [Take(c) for i, c in enumerate(CARDS) if game.holder[i] != seat]
    with_tokens = [r for r in range(k) if game.tokens[r]]
    peasant = "Peasant" in held and game.supply[seat] > 0
    if final:
        if peasant:
            out += [Place(None, rn[e]) for e in range(k)]
    elif not game.placed and game.supply[seat] > 0:
        for r in with_tokens:
            out.append(Place(rn[r]))
            if peasant and game.supply[seat] > len(game.tokens[r]):
                out += [Place(rn[r], rn[e]) for e in range(k)]
        if not with_tokens and peasant:
            out += [Place(None, rn[e]) for e in range(k)]
    seat_cubes = [r for r in range(k) if game.cubes[r][seat]]
    if "King" in held:
        out += [King(rn[r]) for r in seat_cubes if not game.tokens[r]]
    if "Monk" in held:
        for r in with_tokens:
            for o in game.nbrs[r]:
                if len(game.tokens[o]) < MAX_TOKENS:
                    out += [Monk(rn[r], s + 1, rn[o]) for s in range(len(game.tokens[r]))]
    if "Merchant" in held:
        for r in seat_cubes:
            top = min(MERCHANT_MAX, game.cubes[r][seat])
            out += [Merchant(rn[r], rn[o], c) for o in game.nbrs[r] for c in range(1, top + 1)]
    if "Witch" in held:
        pos = [(rn[r], s + 1) for r in with_tokens for s in range(len(game.tokens[r]))]
        out += [Witch(a, b) for i, a in enumerate(pos) for b in pos[i + 1 :]]
    if (final and "Knight" in held) or (not final and (game.placed or not can_place(game, seat))):
        out += _plague_moves(game, final, "Knight" in held)
    return out


def _plague_moves(game: RattusGame, final: bool, knight: bool) -> list[Move]:
    rn = game.regions
    here = game.plague

    def outbreak(r: int) -> bool:
        return bool(game.tokens[r]) and any(game.cubes[r])

    out: list[Move] = []
    targets: list[tuple[int, int | None]] = [(o, None) for o in game.nbrs[here]]
    if knight:
        targets += [(t, v) for v in game.nbrs[here] for t in game.nbrs[v] if t != here]
    for to, via in targets:
        v = None if via is None else rn[via]
        if not final or knight:
            out.append(Plague(rn[to], v))
        if knight and outbreak(to):
            out.append(Plague(rn[to], v, True))
    if final and knight and outbreak(here):
        out.append(Plague(rn[here], None, True))
    if final:
        out = [m for m in out if isinstance(m, Plague)]
    return out
