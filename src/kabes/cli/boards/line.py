"""The line of the double-six games at the terminal: its drawing, its places, its help
(see kabes.cli.boards.base)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.panel import Panel
from rich.text import Text

from kabes.cli.boards.base import Board
from kabes.cli.words import Names
from kabes.moves import LEFT, RIGHT
from kabes.views import View

LINE_HELP = (
    "Type a tile's number from your hand (3) or the tile (6-3). If it fits both ends you are "
    "asked which, or say it at once: 3 L, 6-3 R. You never type pass or draw: when nothing "
    "fits, the table draws (where there is a stock) and passes for you. "
    "'hint' asks the expert for advice; 'q' stops the game."
)
"""The terminal's help for games on a line."""


class LineBoard(Board):
    """A line with two open ends (partnership, plaza, haitian)."""

    name = "line"
    hand_word = "hand"
    runs = False
    passes_name_numbers = True
    placeless_lead = True
    places_word = "L or R"
    help = LINE_HELP

    def valid_place(self, at: str) -> bool:
        """L or R."""
        return at in (LEFT, RIGHT)

    def panel(self, view: View, names: Names) -> RenderableType:
        """The line of play, its two open ends shown in bold."""
        if view.line is None:
            lead = f" — the lead must be {view.forced_lead}" if view.forced_lead else ""
            return Panel(Text(f"(no tile yet{lead})", style="dim"), title="Line")
        text = Text()
        last = len(view.line) - 1
        for i, (a, b) in enumerate(view.line):
            left = Text(str(a), style="bold yellow" if i == 0 else "")
            right = Text(str(b), style="bold yellow" if i == last else "")
            text += Text("[") + left + Text("|") + right + Text("] ")
        assert view.ends is not None
        title = f"Line · left end {view.ends[0]}, right end {view.ends[1]}"
        return Panel(text, title=title)
