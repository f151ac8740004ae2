"""The one dialog of every Rattus decision: a step-by-step choice among legal options.

It walks a :class:`~rattus_net.games.rattus.ui.choices.ChoiceTree`: digits (the first nine
rows), Up/Down, PgUp/PgDn, Home and End move the cursor, Enter takes the option, Escape
steps back (from the first step it closes the dialog to look at the map; Enter on the map
opens it again). The regions of the option under the cursor
are shown reversed on the map behind (the map cursor). If the engine still rejects the move,
its message is shown and the dialog stays open (:class:`tui.common.dialog.GameDialog`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text

from rattus_net.games.rattus.decision import Kind
from rattus_net.games.rattus.hints import plague_warning
from rattus_net.games.rattus.ui.choices import Choice, ChoiceTree, heading, tree_for
from rattus_net.games.rattus.ui.render import seen_text
from rattus_net.games.rattus.view import RattusView
from tui.common.dialog import ListDialog
from tui.common.seat import Seat


class RattusDialog(ListDialog):
    """Dismisses with True once the move was accepted, False when closed to look at the map."""

    DEFAULT_CSS = """
    RattusDialog > #dialog { max-height: 15; }
    """

    def __init__(
        self,
        controller: Seat,
        on_highlight: Callable[[tuple[int, ...], bool], None] | None = None,
    ) -> None:
        super().__init__(controller)
        self.view: RattusView = controller.view
        d = self.view.decision
        assert d is not None
        self.kind: Kind = d.kind
        self.choices: ChoiceTree = tree_for(self.view)
        self.on_highlight = on_highlight

    @property
    def options(self) -> list[Choice]:
        return self.choices.options()

    def rows(self) -> list[str]:
        return [o.label for o in self.options]

    def heading(self) -> str:
        return heading(self.view, len(self.choices.chosen))

    def title_line(self) -> Text:
        title = Text(self.heading(), no_wrap=True, overflow="ellipsis")
        if self.choices.chosen:
            crumbs = [c.label.split(":")[0] for c in self.choices.chosen[:1]]
            crumbs += [c.label for c in self.choices.chosen[1:]]
            title.append("\n  chosen: " + " > ".join(crumbs), style="italic")
        return title

    def body(self) -> Text:
        body = Text()
        if self.kind is Kind.SWAP:
            body.append_text(seen_text(self.view))
            body.append("\n")
        body.append_text(self.list_text())
        return body

    def hint(self) -> Text:
        """The ability and risk of the class card under the cursor (while taking one)."""
        opts = self.options
        return Text(opts[self.cursor].hint if opts else "")

    def second_enter(self, move: object) -> str | None:
        """Moving the plague onto one's own cubes asks for a second Enter."""
        return plague_warning(self.view, move)

    def held(self) -> None:
        self.choices.back()

    def help_line(self) -> str:
        back = "Esc back" if self.choices.chosen else "Esc look at the map"
        return f"{self.choose_keys()} choose, Enter confirm, {back}"

    def redraw(self) -> None:
        super().redraw()
        if self.on_highlight is not None:
            opts = self.options
            self.on_highlight(opts[self.cursor].regions if opts else (), True)

    def refused(self) -> None:
        self.choices.back()

    def close(self, accepted: bool) -> None:
        """The map's highlight goes with the dialog; the map is not drawn here, as the table
        draws the game anew once its dialog closed (with the move played, the bots' too: a
        map drawn here would be drawn again at once, in the time from the key to the move)."""
        if self.on_highlight is not None:
            self.on_highlight((), False)
        super().close(accepted)

    def action_confirm(self) -> None:
        opts = self.options
        if not opts:
            return
        self.error = ""
        move = self.choices.choose(opts[self.cursor])
        if move is not None:
            self.submit(move)
            return
        self.cursor = 0
        self.redraw()

    def action_back(self) -> None:
        self.error = ""
        self.warning = None
        if self.choices.back():
            self.cursor = 0
            self.redraw()
        else:
            self.close(False)
