"""Drawing a seat's view in the terminal with Rich: the line or trains, the hand, the table.

Everything shown comes from a :class:`kabes.views.View`, so the terminal can never show a
tile the seat may not see.
"""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kabes.cli.describe import party_name, seat_name
from kabes.rules import get_rules
from kabes.tiles import Tile
from kabes.views import TrainView, View


def tile_text(tile: Tile, playable: bool = False) -> Text:
    """A tile as ``[a|b]``, green when it can be played now."""
    return Text(f"[{tile.low}|{tile.high}]", style="bold green" if playable else "")


def scores_line(view: View) -> Text:
    """Every party's score, penalties marked as such."""
    penalty = get_rules(view.variant).penalties(view.players)
    parts = [
        f"{party_name(p, view.teams, view.seat)} {score}" for p, score in enumerate(view.scores)
    ]
    label = "Penalties" if penalty else "Scores"
    return Text(f"{label}: " + " · ".join(parts), style="cyan")


def line_panel(view: View) -> RenderableType:
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
    title = f"Line · ends {view.ends[0]} and {view.ends[1]}"
    return Panel(text, title=title)


def trains_panel(view: View) -> RenderableType:
    """Every train from the engine, with markers and the open double."""
    table = Table.grid(padding=(0, 1))
    for train in view.trains:
        table.add_row(_train_label(train, view), _train_tiles(train), Text(f"→ {train.end}"))
    title = f"Engine {view.engine}"
    if view.open_double is not None:
        title += f" · the double on train {view.open_double} must be satisfied"
    return Panel(table, title=title)


def _train_label(train: TrainView, view: View) -> Text:
    if train.owner is None:
        return Text("Public (M)", style="magenta")
    name = "Yours" if train.owner == view.seat else f"Seat {train.owner}"
    label = Text(f"{name} ({train.owner})")
    if train.marked:
        label += Text(" ●", style="red")
    return label


def _train_tiles(train: TrainView) -> Text:
    return Text(" ".join(f"[{a}|{b}]" for a, b in train.laid) or "·")


def table_panel(view: View) -> RenderableType:
    """The others' tile counts, draws and passes, and the stock."""
    rows = Table.grid(padding=(0, 2))
    for seat in range(view.players):
        if seat == view.seat:
            continue
        who = seat_name(seat, view.seat)
        if view.teams and seat % 2 == view.seat % 2:
            who += " (partner)"
        notes = []
        if view.draws[seat]:
            notes.append(f"drew {view.draws[seat]}")
        passed = [sorted(set(n)) for s, n in view.passes if s == seat]
        if passed:
            notes.append("passed on " + "; ".join("/".join(map(str, n)) for n in passed))
        marker = " ◀ to play" if view.turn == seat else ""
        rows.add_row(who, f"{view.counts[seat]} tiles", ", ".join(notes) + marker)
    if view.stock:
        rows.add_row("Stock", f"{view.stock} tiles", "")
    return rows


def hand_panel(view: View) -> RenderableType:
    """The seat's own tiles, numbered for input, the playable ones in green."""
    playable = {m.tile for m in view.legal}
    items = [
        Text(f"{number}) ") + tile_text(tile, tile in playable)
        for number, tile in enumerate(view.hand, 1)
    ]
    title = "Your hand" + (" · your turn" if view.my_turn else "")
    body: RenderableType = Columns(items, padding=(0, 2)) if items else Text("(empty)")
    return Panel(body, title=title)


def render(view: View) -> RenderableType:
    """The whole table as the seat sees it."""
    title = get_rules(view.variant).title
    header = Text(f"{title} · hand {view.hand_number}", style="bold")
    board = trains_panel(view) if view.trains else line_panel(view)
    return Group(header, scores_line(view), board, table_panel(view), hand_panel(view))


def face_up(view: View) -> RenderableType:
    """Every hand face up, once a hand is over, with each hand's count."""
    table = Table(title="Hands face up", show_header=False)
    assert view.revealed is not None
    for seat, tiles in enumerate(view.revealed):
        pips = sum(t.value for t in tiles)
        shown = " ".join(f"[{t.low}|{t.high}]" for t in tiles) or "(out)"
        table.add_row(seat_name(seat, view.seat), shown, f"{pips} pips")
    return table


def show(console: Console, renderable: RenderableType) -> None:
    """Print to the console (a seam the tests use with a recording console)."""
    console.print(renderable)
