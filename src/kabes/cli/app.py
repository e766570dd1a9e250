"""The ``kabes`` command: play in the terminal, replay a game record."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from kabes.cli.play import parse_option, start_game
from kabes.cli.replay import show_replay
from kabes.errors import KabesError
from kabes.records import filled, load_record
from kabes.rules import VARIANTS

app = typer.Typer(
    help="Kabès: dominoes as people play them in Haiti, the Caribbean and beyond.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command()
def play(
    variant: Annotated[
        str, typer.Argument(help=f"One of: {', '.join(VARIANTS)}.")
    ] = "haitian",
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats.")] = None,
    target: Annotated[int | None, typer.Option("--target", "-t", help="Points to win.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Repeatable deals.")] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Write the game record to this file.")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A table option, name=value (repeatable)."),
    ] = None,
) -> None:
    """Play against the computer: you are seat 0."""
    console = Console()
    try:
        options: dict[str, Any] = dict(parse_option(o) for o in option or [])
        if target is not None:
            options["target"] = target
        start_game(variant, players, options, seed, console, console.input, save)
    except KabesError as err:
        console.print(f"[red]{err.message}[/red]")
        raise typer.Exit(2) from None


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the record with every result filled in.")
    ] = False,
) -> None:
    """Show a game record hand by hand, or print it with its results (--json)."""
    try:
        record = load_record(file)
        if as_json:
            sys.stdout.write(json.dumps(filled(record), indent=1, ensure_ascii=False) + "\n")
        else:
            show_replay(record, Console())
    except KabesError as err:
        Console(stderr=True).print(f"[red]{err.message}[/red]")
        raise typer.Exit(2) from None


def main() -> None:
    """Entry point of the console script."""
    app()
