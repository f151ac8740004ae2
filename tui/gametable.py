"""What every game's table screen does the same way, offline and at a network table.

A game's table (Rattus Cartus's :class:`tui.cartus.screens.TableScreen`, Rattus's
:class:`tui.rattus.screens.RattusMapScreen`) draws its own game and opens its own dialogs; this
base holds what does not depend on the game, so that both behave alike:

* While the table is on screen, CPython's full garbage collections are kept short
  (:class:`rattus_net.net.quietgc.QuietCollector`; a network table's driver runs its own).
* The end screen: its own game's result, scrolled by the keys, and the same ways out (the
  menu, the log, quit).
* At a network table the player's node plays on its own thread and says when something
  happened; the table redraws once for a burst of such news, closes a dialog the game no
  longer awaits, and a one-second timer keeps the waiting line's clock going. ``w`` gives the
  players who dropped off more time, and exists only there.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar, Generic, Protocol, TypeVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen

from rattus_net.net.quietgc import QuietCollector
from tui.screens import LogScreen


class TableController(Protocol):
    """What this base needs of a game's controller (offline or network)."""

    @property
    def network(self) -> bool: ...

    @property
    def my_turn(self) -> bool: ...

    @property
    def is_over(self) -> bool: ...


C = TypeVar("C", bound=TableController)


class GameTable(Screen[None], Generic[C]):
    """A game's table. A subclass draws (``redraw_for_network``, ``show_waiting``), decides
    what comes next (``next_step``), lets the bots play offline (``let_others_play``) and
    names its dialogs' class (``dialog_type``); its ``on_mount`` draws, then calls
    :meth:`begin_play`."""

    dialog_type: type[ModalScreen[bool]]

    def __init__(self, controller: C) -> None:
        super().__init__()
        self.controller = controller
        self._quiet = QuietCollector()  # short collector pauses while the table is played
        self._net_pending = False
        self._dialog_open = False

    # -- what a game's table provides ---------------------------------------------------------

    def next_step(self, asked: bool = False) -> None:
        raise NotImplementedError

    def let_others_play(self) -> None:
        raise NotImplementedError

    def redraw_for_network(self) -> None:
        """Draw the table anew after news from the node."""
        raise NotImplementedError

    def show_waiting(self) -> None:
        """Draw the waiting line (its clock moves on)."""
        raise NotImplementedError

    # -- shared --------------------------------------------------------------------------------

    def begin_play(self) -> None:
        """From ``on_mount``, once the table is drawn: listen to the node at a network table,
        else let the bots play or open the player's decision."""
        if not self.controller.network:  # (a network table's driver keeps its own)
            self._quiet.start()
        if self.controller.network:
            self._listen(True)
            self.set_interval(1.0, self._tick)
            self.call_after_refresh(self.next_step)
        elif self.controller.my_turn or self.controller.is_over:
            self.call_after_refresh(self.next_step)
        else:
            self.let_others_play()

    def _listen(self, on: bool) -> None:
        hooks: list[object] = getattr(self.controller, "listeners", [])
        if on:
            hooks.append(self._net_changed)
        elif self._net_changed in hooks:
            hooks.remove(self._net_changed)

    def on_unmount(self) -> None:
        self._quiet.stop()
        if self.controller.network:
            self._listen(False)

    def _net_changed(self) -> None:
        """The node says something happened: redraw once, soon (many events may come)."""
        if not self._net_pending:
            self._net_pending = True
            self.call_later(self._net_redraw)

    def _net_redraw(self) -> None:
        self._net_pending = False
        if not self.is_attached:
            return
        self.redraw_for_network()
        dialog = self.app.screen
        if self.controller.is_over and self._dialog_open and isinstance(dialog, self.dialog_type):
            dialog.dismiss(False)  # the game stopped while the player was choosing
            self.call_after_refresh(self.next_step)
            return
        self.next_step()

    def _tick(self) -> None:
        if not self.controller.my_turn and not self.controller.is_over:
            self.show_waiting()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``w`` (wait longer for a player who dropped off) exists only at a network table."""
        if action == "wait_longer":
            return self.controller.network and hasattr(self.controller, "wait_longer")
        return True

    def action_wait_longer(self) -> None:
        """At a network table, give the players who dropped off more time."""
        wait = getattr(self.controller, "wait_longer", None)
        line = wait() if wait is not None else None
        if line is not None:
            self.notify(line)


class GameEndScreen(Screen[None], Generic[C]):
    """The end of a game. A subclass composes the result inside ``#end-scroll`` and binds
    its keys to ``menu``, ``full_log`` and ``quit_app``.

    In a browser (``rattus web``) the end of a network game offers its signed record as a
    download (``d``): the player's files stay on the server, the record goes to him."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "download", "Download the record"),
    ]

    def __init__(self, controller: C, log_lines: list[str]) -> None:
        super().__init__()
        self.controller = controller
        self.log_lines = log_lines

    def on_mount(self) -> None:
        self.query_one("#end-scroll", VerticalScroll).focus()

    def action_menu(self) -> None:
        self.app.pop_screen()

    def action_full_log(self) -> None:
        self.app.push_screen(LogScreen(self.log_lines))

    def _record(self) -> Path | None:
        """The signed record of the network game that ended here, if there is one."""
        outcome = getattr(self.controller, "outcome", None)
        record = getattr(outcome, "record", None)
        alone = getattr(outcome, "alone", False)
        return record if isinstance(record, Path) and not alone and record.is_file() else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "download":
            return self.app.is_web and self._record() is not None
        return True

    def action_download(self) -> None:
        record = self._record()
        if record is None or not self.app.is_web:
            return
        name = f"{record.parent.parent.name[:16]}.rattus"
        self.app.deliver_binary(record, save_filename=name, mime_type="application/json")
        self.notify(f"Your browser downloads the record ({name}).")

    def action_quit_app(self) -> None:
        self.app.exit()


__all__ = ["GameEndScreen", "GameTable", "TableController"]
