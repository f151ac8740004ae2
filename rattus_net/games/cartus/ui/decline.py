"""Taking or declining an offered action (ruling 17), and the "always take" setting.

The engine offers a premium or standard action only where declining can help: it would bring
cards (which a Sword or a Guard Tower premium may later take from a big hand), or it is the
Guard Tower premium. Taking is the default, one key (Enter); declining takes one more (d, then
Enter or d again), so that nobody gives an action up by a slip of the finger. A player who
never wants to decline sets "always take" (a in the dialog, t on the table toggles it): the
table then takes offered actions without opening the dialog.

Kept apart from ``dialogs.py`` on purpose: the table screen reaches it through two small
hooks (its dialog for an offered action, and ``take_without_asking``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

import rattus_net.games.cartus.ui.render as R
from rattus_net.games.cartus import data as D
from rattus_net.games.cartus.moves import DecisionKind, DeclineAction, TakeAction
from rattus_net.games.cartus.ui.dialogs import DecisionDialog
from rattus_net.settings import load_settings, save_settings
from tui.common.seat import Seat


def offered_action(controller: Seat) -> bool:
    """True when the human must take or decline an action now."""
    d = controller.view.decision
    return d is not None and d.kind is DecisionKind.ACTION and controller.seat in d.players


def take_without_asking(controller: Seat, path: Path | None = None) -> bool:
    """With "always take" set, take the offered action now and say so (True); otherwise
    leave it to the dialog (False)."""
    if not offered_action(controller) or not load_settings(path).always_take:
        return False
    controller.play(TakeAction())
    return True


def toggle_always_take(path: Path | None = None) -> str:
    """Turn "always take" on or off; the sentence to show (the setting is saved)."""
    settings = load_settings(path)
    new = replace(settings, always_take=not settings.always_take)
    try:
        save_settings(new, path)
    except OSError as exc:
        return f"The setting could not be saved: {exc.strerror or exc}."
    if new.always_take:
        return "Always take: offered actions are taken without asking (t asks again)."
    return "Offered actions ask again: Enter takes, d declines."


class DeclineDialog(DecisionDialog):
    """Take (Enter) or decline (d, then Enter or d) the premium or standard action offered."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "decline", "Decline"),
        Binding("a", "always_take", "Always take"),
    ]

    def __init__(self, controller: Seat, settings_path: Path | None = None) -> None:
        super().__init__(controller)
        self.settings_path = settings_path
        d = self.decision
        assert d.building is not None
        self.premium = d.reason == "premium"
        self.building = D.face_building(self.view.row[d.building])

    def heading(self) -> str:
        kind = "Premium" if self.premium else "Standard"
        text = D.BUILDING_ACTIONS[self.building][0 if self.premium else 1]
        return f"{kind} action at the {self.building.label}: {text}"

    def help_line(self) -> str:
        if self.stage == 0:
            return "Enter take  d decline  a always take from now on  Esc look at the table"
        return "Enter or d decline  Esc back (take it after all)"

    def body(self) -> Text:
        count = self.decision.count
        held = self.view.hand_sizes[self.view.seat]
        t = Text()
        if self.building is D.Building.GUARD_TOWER:
            t.append(f"The players who must give would give you {R.plural(count, 'card')}")
        else:
            t.append(f"Taking it brings you {R.plural(count, 'card')}")
        t.append(f" (you hold {held}).\n")
        if self.stage == 0:
            t.append("Enter takes it. ", style="bold")
            t.append("Declining (d) gives nothing instead; it helps when a Sword or a Guard ")
            t.append("Tower premium would take from a big hand.")
        else:
            kind = "premium" if self.premium else "standard"
            t.append(f"Decline the {kind} action? You get nothing in return.", style="bold")
        return t

    def confirm(self) -> None:
        self.submit(TakeAction() if self.stage == 0 else DeclineAction())

    def action_decline(self) -> None:
        self.error = ""
        if self.stage == 0:
            self.stage = 1
            self.redraw()
        else:
            self.submit(DeclineAction())

    def action_always_take(self) -> None:
        self.error = ""
        settings = load_settings(self.settings_path)
        try:
            save_settings(replace(settings, always_take=True), self.settings_path)
        except OSError as exc:
            self.error = f"the setting could not be saved: {exc.strerror or exc}"
            self.redraw()
            return
        self.submit(TakeAction())
