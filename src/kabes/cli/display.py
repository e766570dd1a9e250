"""Drawing a seat's view in the terminal with Rich: the board, the hand, the table.

Everything shown comes from a :class:`kabes.views.View`, so the terminal can never show a
tile the seat may not see. :func:`render` is the whole screen: the score against the target,
the board (drawn by its own kind, ``kabes.cli.boards``), the last moves (so the others' moves
stay in view), the others and the stock, and the hand; the game redraws it in place at every
turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kabes.cli.boards import board_of
from kabes.cli.boards.trains import LEGEND as LEGEND  # the marker's legend, where tests read it
from kabes.cli.words import Names, ending_name, or_list, plural, variant_name
from kabes.rules import get_rules
from kabes.tiles import Tile
from kabes.views import View


def tile_text(tile: Tile, playable: bool = False) -> Text:
    """A tile as ``[a|b]``, green when it can be played now."""
    return Text(f"[{tile.low}|{tile.high}]", style="bold green" if playable else "")


def goal(view: View) -> str:
    """What the scores are played to: "to 100", "hand 2 of 5", "round 3 of 13"."""
    options = view.options
    if options.open_ended:
        return "no limit"
    fixed = get_rules(view.variant).fixed_hands
    if fixed is not None:
        word = board_of(view.variant).hand_word
        return f"{word} {max(view.hand_number, 1)} of {fixed}, lowest total wins"
    if options.target is not None:
        return f"to {options.target}"
    if options.hands is not None:
        wa = ending_name("wa")
        return f"hand {max(view.hand_number, 1)} of {options.hands}, lowest total is {wa}"
    return ""


def scores_line(view: View, names: Names | None = None) -> Text:
    """Every party's score and the target: "You 0 · Skilled 1 10 · to 100"."""
    names = names or Names(view.players, view.teams, view.seat)
    penalty = get_rules(view.variant).penalties(view.players)
    colon = ":" if view.teams else ""
    parts = [f"{names.party(p)}{colon} {score}" for p, score in enumerate(view.scores)]
    label = "Penalties" if penalty else "Scores"
    aim = goal(view)
    return Text(f"{label}: " + " · ".join(parts + ([aim] if aim else [])), style="cyan")


def table_panel(view: View, names: Names) -> RenderableType:
    """The others' tile counts, draws and passes, and the stock."""
    rows = Table.grid(padding=(0, 2))
    for seat in range(view.players):
        if seat == view.seat:
            continue
        who = names.seat(seat)
        if view.teams and seat % 2 == view.seat % 2:
            who += " (partner)"
        notes = []
        if view.draws[seat]:
            notes.append(f"drew {view.draws[seat]}")
        passes = sum(1 for s, _n in view.passes if s == seat)
        if passes:
            notes.append("passed" + ("" if passes == 1 else f" {passes} times"))
        if view.voids[seat]:
            notes.append(f"has no {or_list(sorted(view.voids[seat]))}")
        marker = " ◀ to play" if view.turn == seat else ""
        rows.add_row(who, plural(view.counts[seat], "tile"), ", ".join(notes) + marker)
    if get_rules(view.variant).hand_size(view.players) * view.players < _set_size(view):
        rows.add_row("Stock", plural(view.stock, "tile") if view.stock else "empty", "")
    return rows


def _set_size(view: View) -> int:
    top = get_rules(view.variant).top
    return (top + 1) * (top + 2) // 2


def hand_panel(view: View) -> RenderableType:
    """The seat's own tiles, numbered for input, the playable ones in green."""
    playable = {m.tile for m in view.legal}
    items = [
        Text(f"{number}) ") + tile_text(tile, tile in playable)
        for number, tile in enumerate(view.hand, 1)
    ]
    title = "Your hand" + (" · your turn" if view.my_turn else "")
    if view.my_turn and view.first_turns_done and not view.first_turns_done[view.seat]:
        title += " · first turn: you go on while a tile fits your train"
    body: RenderableType = Columns(items, padding=(0, 2)) if items else Text("(empty)")
    return Panel(body, title=title)


def moves_panel(recent: Sequence[str]) -> RenderableType:
    """The last moves, newest last, so the others' moves stay in view."""
    body = Text("\n".join(recent)) if recent else Text("(nothing yet)", style="dim")
    return Panel(body, title="Last moves")


def render(view: View, names: Names | None = None, recent: Sequence[str] = ()) -> RenderableType:
    """The whole table as the seat sees it, with the last moves."""
    names = names or Names(view.players, view.teams, view.seat)
    title = variant_name(view.variant)
    kind = board_of(view.variant)
    header = Text(f"{title} · {kind.hand_word} {view.hand_number}", style="bold")
    board = kind.panel(view, names)
    parts: list[RenderableType] = [header, scores_line(view, names), board]
    if recent:
        parts.append(moves_panel(recent))
    parts += [table_panel(view, names), hand_panel(view)]
    return Group(*parts)


def face_up(view: View, names: Names | None = None) -> RenderableType:
    """Every hand face up, once a hand is over, with each hand's count."""
    names = names or Names(view.players, view.teams, view.seat)
    table = Table(title="Hands face up", show_header=False)
    assert view.revealed is not None
    for seat, tiles in enumerate(view.revealed):
        pips = sum(t.value for t in tiles)
        shown = " ".join(f"[{t.low}|{t.high}]" for t in tiles) or "(out)"
        table.add_row(names.seat(seat), shown, plural(pips, "pip"))
    return table


def show(console: Console, renderable: RenderableType) -> None:
    """Print to the console (a seam the tests use with a recording console)."""
    console.print(renderable)
