"""Rattus Cartus's dialogs: one per decision kind, keyboard only.

Each dialog offers only legal choices (from the pending Decision and ``PlayerView.legal()``),
builds a move and hands it to the seat (:class:`tui.common.dialog.GameDialog`: if the rules
still refuse it, their message is shown and the dialog stays open). Escape steps back, and
from the first step closes the dialog to look at the table (Enter on the table opens it
again).

One key rule in every dialog: digits and arrows *choose* (a row, a count, a nun-row card),
Enter *confirms*. A choice that gives something up (lay no cards, play a Pass, discard none)
asks for a second Enter (declared in ``second_enter``, asked by the shared dialog). ``l``
(log), ``r`` (rules) and ``?``/F1 (keys) open over the dialog, which is back when they close.

Dialogs are docked at the bottom so that the status and the building row stay visible, and
they repeat the player's hand, known nun-row cards and rats, which they cover. Where rats or
the nun row are at stake (the supply and the Fortune-teller's looks, laying cards, the
Hospital's discards), the hint line says how the plague looks: the rats against the nuns seen,
and the worst case of the unseen cards (``outlook.py``). Taking or declining an offered action
has its own dialog (``decline.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

import rattus_net.games.cartus.ui.render as R
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.game import Decision
from rattus_net.games.cartus.moves import (
    ChoosePlayer,
    DecisionKind,
    Discard,
    Enter,
    Give,
    Look,
    PlayPass,
    Supply,
)
from rattus_net.games.cartus.narrate import decision_words
from rattus_net.games.cartus.outlook import plague_outlook
from rattus_net.games.cartus.ui.pickers import CountPicker, NunPicker, can_pass, list_height, window
from rattus_net.games.cartus.view import PlayerView
from tui.common.dialog import DIALOG_KEYS, PANEL_KEYS, GameDialog
from tui.common.seat import Seat


class DecisionDialog(GameDialog):
    """Base of Rattus Cartus's dialogs: its steps (``stage``), the player's hand and known
    nun-row cards above the choice, and the keys that choose (digits, arrows, Space)."""

    DEFAULT_CSS = """
    DecisionDialog > #dialog { max-height: 100%; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *DIALOG_KEYS,
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("left,minus", "change(-1)", "Less", show=False),
        Binding("right,plus,equals_sign", "change(1)", "More", show=False),
        Binding("space", "toggle_item", "Toggle", show=False),
        *[Binding(str(k), f"digit({k})", str(k), show=False) for k in range(10)],
        *PANEL_KEYS,
    ]

    KEY_WORDS: ClassVar[dict[str, str]] = {
        "digit": "choose a row, set a count, or toggle a nun-row card",
    }

    title_text = "Decide"
    help_text = "Enter confirm  Esc back"
    plague_hint = False
    """Whether the dialog shows how the plague looks (rats or the nun row at stake)."""

    def __init__(self, controller: Seat) -> None:
        super().__init__(controller)
        self.view: PlayerView = controller.view
        d = self.view.decision
        assert d is not None
        self.decision: Decision = d
        self.stage = 0

    def compose_above(self) -> ComposeResult:
        yield Static(id="dlg-you")

    def redraw(self) -> None:
        super().redraw()
        you = R.hand(self.view, min(100, self.app.size.width) - 4)
        you.append("\n")
        you.append_text(R.nun_row(self.view))
        self.query_one("#dlg-you", Static).update(you)

    # --- to override ---------------------------------------------------------------------------

    def heading(self) -> str:
        return self.title_text

    def help_line(self) -> str:
        return self.help_text

    def rats_after(self) -> int:
        """The rats the seat would have after the choice in the dialog (for the hint)."""
        return self.view.rats[self.view.seat]

    def hint(self) -> Text:
        if not self.plague_hint:
            return Text()
        return Text(plague_outlook(self.view, self.rats_after()).words())

    def confirm(self) -> None:
        """Build the move (or go to the next step)."""

    def second_enter(self, move: object) -> str | None:
        """Rattus Cartus's give-ups, each played at a second Enter: a Pass, laying no cards,
        discarding none."""
        if isinstance(move, PlayPass):
            return "You play a Pass and enter no building now."
        if isinstance(move, Enter) and not move.cards and 0 <= move.building < len(self.view.row):
            where = self.building_label(move.building)
            return f"You lay no cards: you enter the {where} with none."
        if isinstance(move, Discard) and not move.cards:
            return "You discard no cards: no rat goes away."
        return None

    def cursor(self, delta: int) -> None:
        pass

    def change(self, delta: int) -> None:
        pass

    def toggle(self) -> None:
        pass

    def digit(self, value: int) -> None:
        pass

    # --- actions -------------------------------------------------------------------------------

    def _act(self, fn: Callable[..., None], *args: int) -> None:
        self.error = ""
        if fn != self.confirm:
            self.warning = None
        fn(*args)
        if self.is_attached and self.is_current:
            self.redraw()

    def action_confirm(self) -> None:
        self._act(self.confirm)

    def action_back(self) -> None:
        self.warning = None
        if self.stage > 0:
            self.stage -= 1
            self.error = ""
            self.redraw()
        else:
            self.dismiss(False)

    def action_cursor(self, delta: int) -> None:
        self._act(self.cursor, delta)

    def action_change(self, delta: int) -> None:
        self._act(self.change, delta)

    def action_toggle_item(self) -> None:
        self._act(self.toggle)

    def action_digit(self, value: int) -> None:
        self._act(self.digit, value)

    # --- helpers -------------------------------------------------------------------------------

    def building_label(self, i: int) -> str:
        face = self.view.row[i]
        b = D.face_building(face)
        return f"{b.label} ({b.klass.label})"

    @property
    def rows(self) -> int:
        """Rows of a list shown at once: more in a taller terminal."""
        return list_height(self.app.size.height)

    def option_lines(self, options: list[str], cursor: int) -> Text:
        t = Text()
        rows = window(len(options), cursor, self.rows)
        for i in rows:
            sel = i == cursor
            t.append(">" if sel else " ", style="bold")
            t.append(f" {options[i]}", style="reverse" if sel else "")
            t.append("\n")
        return t


class SupplyDialog(DecisionDialog):
    """Phase B: a row card, then the nun-row positions its supply action looks at."""

    plague_hint = True

    def __init__(self, controller: Seat) -> None:
        super().__init__(controller)
        self.card = 0
        self.nuns: NunPicker | None = None

    def looks(self, card: int) -> int:
        return D.face_supply(self.view.row[card]).looks

    def rats_after(self) -> int:
        """Rats left after the supply action under the cursor (never below zero, ruling 15)."""
        rats = self.view.rats[self.view.seat]
        return max(0, rats - D.face_supply(self.view.row[self.card]).rats)

    def heading(self) -> str:
        if self.stage == 0:
            return "Phase B: choose a building card for its supply action"
        return f"Supply: choose {R.plural(self.looks(self.card), 'nun-row card')} to look at"

    def help_line(self) -> str:
        if self.stage == 0:
            return "Up/Down or 1-9 choose, Enter confirm, Esc look at the table, ? keys"
        return "Up/Down + Space or 1-5 choose, Enter confirm, Esc back, ? keys"

    def body(self) -> Text:
        if self.stage == 1 and self.nuns is not None:
            return self.nuns.lines()
        options = []
        for i, face in enumerate(self.view.row):
            options.append(f"{i + 1} {D.face_building(face).label}: {R.supply_short(face)}")
        return self.option_lines(options, self.card)

    def cursor(self, delta: int) -> None:
        if self.stage == 0:
            self.card = (self.card + delta) % len(self.view.row)
        elif self.nuns is not None:
            self.nuns.cursor = (self.nuns.cursor + delta) % D.NUN_ROW

    def change(self, delta: int) -> None:
        self.cursor(delta)

    def toggle(self) -> None:
        if self.stage == 1 and self.nuns is not None:
            self.nuns.toggle()

    def digit(self, value: int) -> None:
        if self.stage == 0:
            if 1 <= value <= len(self.view.row):
                self.card = value - 1
        elif self.nuns is not None and 1 <= value <= D.NUN_ROW:
            self.nuns.toggle(value - 1)

    def confirm(self) -> None:
        looks = self.looks(self.card)
        if self.stage == 0 and looks:
            self.nuns = NunPicker(self.view.nun_row_known, looks)
            self.stage = 1
            return
        chosen = tuple(sorted(self.nuns.chosen)) if self.stage == 1 and self.nuns else ()
        if len(chosen) != looks:
            self.error = f"choose exactly {R.plural(looks, 'position')}"
            return
        self.submit(Supply(self.card, chosen))


class EnterDialog(DecisionDialog):
    """Phase C: a building (or a Pass), then how many cards of each kind to lay."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("p", "play_pass", "Choose a Pass")]

    plague_hint = True

    def __init__(self, controller: Seat) -> None:
        super().__init__(controller)
        self.choice = 0
        self.passable = can_pass(self.view)
        held = Counter(f for f in self.view.hand if f not in (D.GOLD, D.PASS))
        self.picker = CountPicker(held)

    @property
    def options(self) -> list[str]:
        opts = []
        for i in range(len(self.view.row)):
            occupants = self.view.occupants[i]
            inside = f", {len(occupants)} inside" if occupants else ""
            opts.append(f"{i + 1} Enter the {self.building_label(i)}{inside}")
        if self.passable:
            opts.append("P Play a Pass (enter later)")
        return opts

    def heading(self) -> str:
        if self.stage == 0:
            return "Phase C: enter a building" + (" or play a Pass" if self.passable else "")
        return f"Lay cards face down in the {self.building_label(self.choice)}"

    def help_line(self) -> str:
        if self.stage == 0:
            keys = "1-9" + (" or P" if self.passable else "")
            return f"Up/Down or {keys} choose, Enter confirm, Esc look at the table, ? keys"
        return "Up/Down card, 0-9 or +/- how many, Enter lay them, Esc back, ? keys"

    def body(self) -> Text:
        if self.stage == 0:
            return self.option_lines(self.options, self.choice)
        t = self.picker.lines(self.rows)
        t.append_text(self.preview())
        return t

    def new_rats(self) -> int:
        """Rats the cards chosen would bring (population cards of another class)."""
        if self.stage == 0:
            return 0
        klass = D.face_building(self.view.row[self.choice]).klass
        return sum(1 for f in self.picker.cards() if f < D.JOKER and D.face_class(f) != klass)

    def rats_after(self) -> int:
        return self.view.rats[self.view.seat] + self.new_rats()

    def preview(self) -> Text:
        klass = D.face_building(self.view.row[self.choice]).klass
        cards = self.picker.cards()
        pop = sum(1 for f in cards if f <= D.JOKER)
        rats = self.new_rats()
        extra = []
        for face in (D.SWORD, D.FLUTE):
            k = cards.count(face)
            if k:
                extra.append(R.plural(k, D.SPECIAL_NAMES[face]))
        t = Text(f"Laying {R.plural(len(cards), 'card')}: ", style="bold")
        t.append(f"+{pop} {klass.label} influence, +{R.plural(rats, 'rat')}")
        if extra:
            t.append(", " + ", ".join(extra))
        return t

    def cursor(self, delta: int) -> None:
        if self.stage == 0:
            self.choice = (self.choice + delta) % len(self.options)
        else:
            self.picker.move(delta)

    def change(self, delta: int) -> None:
        if self.stage == 1:
            self.picker.change(delta)

    def digit(self, value: int) -> None:
        if self.stage == 0:
            if 1 <= value <= len(self.view.row):
                self.choice = value - 1
        else:
            self.picker.set(value)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "play_pass":
            return self.passable and self.stage == 0
        return super().check_action(action, parameters)  # (``u``: none in this game)

    def action_play_pass(self) -> None:
        """``p`` chooses the Pass (Enter confirms it, as for any row)."""
        self._act(self._choose_pass)

    def _choose_pass(self) -> None:
        self.choice = len(self.view.row)

    def confirm(self) -> None:
        if self.stage == 0:
            if self.passable and self.choice == len(self.view.row):
                self.submit(PlayPass())
                return
            self.stage = 1
            return
        self.submit(Enter(self.choice, tuple(sorted(self.picker.cards()))))


class CardsDialog(DecisionDialog):
    """GIVE (exactly ``count`` cards) and DISCARD (up to ``count`` cards)."""

    def __init__(self, controller: Seat) -> None:
        super().__init__(controller)
        self.picker = CountPicker(Counter(self.view.hand), self.decision.count)
        self.exact = self.decision.kind is DecisionKind.GIVE
        self.plague_hint = not self.exact  # discarding cards sends rats away

    def rats_after(self) -> int:
        return max(0, self.view.rats[self.view.seat] - self.picker.total)

    def heading(self) -> str:
        words = R.decision_words(self.view, self.controller.names)
        return words[:1].upper() + words[1:]

    def help_line(self) -> str:
        return "Up/Down card, 0-9 or +/- how many, Enter confirm, ? keys"

    def body(self) -> Text:
        t = self.picker.lines(self.rows)
        d = self.decision
        if self.exact:
            t.append(f"Chosen {self.picker.total} of {d.count}.", style="bold")
        else:
            t.append(
                f"Discarding {R.plural(self.picker.total, 'card')}: "
                f"-{R.plural(self.picker.total, 'rat')} (at most {d.count}).",
                style="bold",
            )
        return t

    def cursor(self, delta: int) -> None:
        self.picker.move(delta)

    def change(self, delta: int) -> None:
        self.picker.change(delta)

    def digit(self, value: int) -> None:
        self.picker.set(value)

    def action_back(self) -> None:
        self.dismiss(False)

    def confirm(self) -> None:
        cards = tuple(sorted(self.picker.cards()))
        if self.exact:
            if len(cards) != self.decision.count:
                self.error = f"choose exactly {R.plural(self.decision.count, 'card')}"
                return
            self.submit(Give(cards))
        else:
            self.submit(Discard(cards))


class LookDialog(DecisionDialog):
    """Fortune-teller's Tent: the nun-row positions to look at."""

    plague_hint = True

    def __init__(self, controller: Seat) -> None:
        super().__init__(controller)
        self.nuns = NunPicker(self.view.nun_row_known, self.decision.count)

    def heading(self) -> str:
        # the building is in the heading already: the decision's words without it
        return "Fortune-teller's Tent: " + decision_words(self.decision, self.controller.names)

    def help_line(self) -> str:
        return "Up/Down + Space or 1-5 choose, Enter confirm, Esc look at the table, ? keys"

    def body(self) -> Text:
        return self.nuns.lines()

    def cursor(self, delta: int) -> None:
        self.nuns.cursor = (self.nuns.cursor + delta) % D.NUN_ROW

    def change(self, delta: int) -> None:
        self.cursor(delta)

    def toggle(self) -> None:
        self.nuns.toggle()

    def digit(self, value: int) -> None:
        if 1 <= value <= D.NUN_ROW:
            self.nuns.toggle(value - 1)

    def confirm(self) -> None:
        chosen = tuple(sorted(self.nuns.chosen))
        if len(chosen) != self.decision.count:
            self.error = f"choose exactly {R.plural(self.decision.count, 'position')}"
            return
        self.submit(Look(chosen))


class ChoosePlayerDialog(DecisionDialog):
    """Sword or Flute tie: which tied player is affected."""

    def __init__(self, controller: Seat) -> None:
        super().__init__(controller)
        self.choice = 0

    def heading(self) -> str:
        what = (
            "gives you half of his hand"
            if self.decision.reason == "sword"
            else "receives one of your rats"
        )
        return f"{self.decision.reason.capitalize()} tie: choose who {what}"

    def help_line(self) -> str:
        return "Up/Down or 1-9 choose, Enter confirm, Esc look at the table, ? keys"

    def body(self) -> Text:
        view = self.view
        names = R.safe_names(view)
        options = []
        for i, s in enumerate(self.decision.candidates):
            options.append(
                f"{i + 1} {R.letter(view, s)} {names[s]}: hand {view.hand_sizes[s]}, "
                f"rats {view.rats[s]}"
            )
        return self.option_lines(options, self.choice)

    def cursor(self, delta: int) -> None:
        self.choice = (self.choice + delta) % len(self.decision.candidates)

    def digit(self, value: int) -> None:
        if 1 <= value <= len(self.decision.candidates):
            self.choice = value - 1

    def confirm(self) -> None:
        self.submit(ChoosePlayer(self.decision.candidates[self.choice]))


DIALOGS: dict[DecisionKind, type[DecisionDialog]] = {
    DecisionKind.SUPPLY: SupplyDialog,
    DecisionKind.ENTER: EnterDialog,
    DecisionKind.GIVE: CardsDialog,
    DecisionKind.DISCARD: CardsDialog,
    DecisionKind.LOOK: LookDialog,
    DecisionKind.CHOOSE_PLAYER: ChoosePlayerDialog,
}
"""The dialog of each kind of decision but taking or declining an action (``decline.py``)."""
