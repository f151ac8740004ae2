"""What a seat knows of the plague that ends the game (rules section 7, "The plague" [C]): its
rats against the nuns of the nun-row cards it has seen, and the fewest and the most nuns the
cards it has not seen could show.

A player whose rats are more than the nuns of the whole row dies. The row is five population
cards dealt at the setup that never move (section 2 [C]); the nuns printed on the 84 cards are
those of ``data.NUNS_PER_CLASS`` (section 1, [C] in all, [I] per class). So any population
card the seat sees elsewhere right now (its hand, its face-down cards, the discard pile, the
cards it knows in other hands) is not one of them: each physical card lies in one place only.
The unseen positions hold some of the remaining copies, and the worst case for the seat is that
they hold those with the fewest nuns. Computed from the seat's view
(:class:`~rattus_net.games.cartus.view.PlayerView`) only, never from hidden state. Pure: the
dialogs show it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.view import PlayerView


class Verdict(Enum):
    """How the plague looks for the seat with the rats it has (or would have)."""

    SAFE = "safe"  # it survives even if the unseen cards show the fewest nuns they could
    AT_RISK = "at risk"  # it dies in the worst case and survives in the best one
    DOOMED = "doomed"  # it dies even if the unseen cards show the most nuns they could


@dataclass(frozen=True, slots=True)
class PlagueOutlook:
    """``rats`` against the nun row: ``seen`` positions known (``seen_nuns`` nuns on them),
    ``unseen`` positions unknown, which together show between ``fewest`` and ``most`` nuns.
    ``after``: the rats are those a choice would leave, not those held now."""

    rats: int
    seen: int
    seen_nuns: int
    unseen: int
    fewest: int
    most: int
    after: bool = False

    @property
    def worst(self) -> int:
        """The fewest nuns the whole row could show."""
        return self.seen_nuns + self.fewest

    @property
    def best(self) -> int:
        """The most nuns the whole row could show."""
        return self.seen_nuns + self.most

    @property
    def verdict(self) -> Verdict:
        if self.rats <= self.worst:
            return Verdict.SAFE
        if self.rats > self.best:
            return Verdict.DOOMED
        return Verdict.AT_RISK

    def words(self) -> str:
        """Two lines for a dialog: the nuns known, then the rats against the worst case (and,
        when that is not enough, the best case: the most nuns the whole row could show)."""
        rats = f"your {_plural(self.rats, 'rat')}" + (" (after this)" if self.after else "")
        if not self.unseen:
            fate = "you survive" if self.rats <= self.worst else "you die"
            return (
                f"Plague: nuns seen {self.seen_nuns} (all {D.NUN_ROW} cards).\n"
                f"{self.worst} nuns vs {rats}: at the plague {fate}."
            )
        known = (
            f"Plague: nuns seen {self.seen_nuns} ({self.seen} of {D.NUN_ROW} cards); "
            f"the {self.unseen} unseen: {self.fewest} to {self.most} more."
        )
        worst = f"Worst case {self.worst} nuns vs {rats}: "
        if self.verdict is Verdict.SAFE:
            spare = self.worst - self.rats
            room = f"{_plural(spare, 'rat')} to spare" if spare else "no rat to spare"
            return f"{known}\n{worst}safe, {room}."
        if self.verdict is Verdict.DOOMED:
            return f"{known}\n{worst}dead even at best: {self.best} nuns."
        # (the line fits a dialog at 80 columns, two-digit numbers and all)
        return f"{known}\n{worst}{self.rats - self.worst} too many; up to {self.best} nuns."


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def unseen_pool(view: PlayerView) -> Counter[int]:
    """The population faces a face-down nun-row card could still be, with how many copies:
    all 84 minus those the seat sees anywhere else now and those it saw in the row."""
    pool = Counter(D.population_faces())
    elsewhere = [
        *view.hand,
        *view.laid,
        *view.discard_pile,
        *(f for faces in view.known_in_hands.values() for f in faces),
        *view.nun_row_known.values(),
    ]
    pool.subtract(f for f in elsewhere if D.is_population(f))
    return +pool  # (a count never goes below zero unless a view lies; drop such entries)


def plague_outlook(view: PlayerView, rats: int | None = None) -> PlagueOutlook:
    """The plague as ``view``'s seat knows it, with ``rats`` (default: the rats it has now;
    a dialog passes what a choice would leave it)."""
    known = view.nun_row_known
    seen_nuns = sum(D.face_nuns(f) for f in known.values())
    unseen = D.NUN_ROW - len(known)
    nuns = sorted(D.face_nuns(f) for f in unseen_pool(view).elements())
    fewest = sum(nuns[:unseen])
    most = sum(nuns[len(nuns) - unseen :]) if unseen else 0
    now = view.rats[view.seat]
    have = now if rats is None else rats
    return PlagueOutlook(have, len(known), seen_nuns, unseen, fewest, most, have != now)
