"""Mexican Train's trains at the terminal: their drawing, their places, their help (see
kabes.cli.boards.base)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kabes.board_facts import TrainView
from kabes.cli.boards.base import Board
from kabes.cli.words import Names
from kabes.moves import MAX_TRAINS, PUBLIC
from kabes.views import View

MARKER = "●"
"""The mark of a train anyone may play on."""
LEGEND = f"{MARKER} marker: that player could not play; anyone may play on a marked train."
"""The marker explained, under the trains."""
TRAIN_HELP = (
    "Type a tile's number from your hand (3) or the tile (6-3), then the train if it fits "
    "several: 3 0 (your own train, 0), 6-3 2 (seat 2's marked train), 6-3 M (the public "
    "train). In your first turn you go on while a tile fits your own train. A marker (●) on "
    "a train means anyone may play there. You never type pass or draw: when nothing fits, "
    "the table draws a tile for you and, if it does not fit either, puts your marker on your "
    "train and passes. 'hint' asks the expert for advice; 'q' stops the game."
)
"""The terminal's help for games on trains."""
FIRST_ROUND = (
    "First round of turns: each player plays as many tiles as they can on their own train, "
    "and only there; their turn goes on while a tile fits. Who can play none draws a tile, "
    "plays it if it fits, else puts a marker on their train."
)
"""Said before the first round's play: the first turns differ from the others."""


class TrainBoard(Board):
    """A train per seat from the engine, markers, a public train, open doubles."""

    name = "trains"
    hand_word = "round"
    runs = True
    passes_name_numbers = False
    placeless_lead = False
    places_word = "a train number or M"
    help = TRAIN_HELP
    intro = FIRST_ROUND

    def valid_place(self, at: str) -> bool:
        """M, or a seat's number."""
        return at == PUBLIC or (at.isdigit() and int(at) < MAX_TRAINS)

    def panel(self, view: View, names: Names) -> RenderableType:
        """Every train from the engine, with markers, the open double and the legend."""
        table = Table.grid(padding=(0, 1))
        for train in view.trains:
            table.add_row(
                _train_label(train, view, names), _train_tiles(train), Text(f"→ {train.end}")
            )
        title = f"Engine {view.engine}"
        if view.open_double is not None:
            title += f" · the double on {names.train(view.open_double, view.seat)} must be covered"
        return Panel(table, title=title, subtitle=LEGEND, subtitle_align="left")


def _train_label(train: TrainView, view: View, names: Names) -> Text:
    if train.owner is None:
        return Text("Public (M)", style="magenta")
    name = "Yours" if train.owner == view.seat else names.seat(train.owner)
    label = Text(f"{name} ({train.owner})")
    label += Text(f" {MARKER}" if train.marked else "  ", style="red")
    return label


def _train_tiles(train: TrainView) -> Text:
    return Text(" ".join(f"[{a}|{b}]" for a, b in train.laid) or "·")
