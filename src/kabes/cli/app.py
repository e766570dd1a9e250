"""The ``kabes`` command: play in the terminal, take the lessons, replay a game record."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from kabes.ai import DEFAULT_BUDGET
from kabes.cli.play import parse_option, start_game
from kabes.cli.replay import show_replay
from kabes.errors import KabesError
from kabes.lessons.model import LANGUAGES
from kabes.records import disagreements, filled, load_record
from kabes.rules import VARIANTS, get_rules
from kabes.tournament import Setup, run

OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A table option, name=value (repeatable)."),
]
Budget = Annotated[
    float, typer.Option("--budget", "-b", min=0.001, help="The expert's seconds per move.")
]

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
    option: OptionList = None,
    levels: Annotated[
        str,
        typer.Option(
            "--levels", "-l", help="A level per computer seat, in seat order (beginner, "
            "casual, skilled, expert), e.g. skilled,expert,casual."
        ),
    ] = "skilled",
    budget: Budget = DEFAULT_BUDGET,
) -> None:
    """Play against the computer: you are seat 0. Type 'hint' for the expert's advice."""
    console = Console()
    try:
        options = _options(option, target)
        chosen = [lv.strip() for lv in levels.split(",") if lv.strip()]
        start_game(
            variant, players, options, seed, console, console.input, save, chosen, budget
        )
    except KabesError as err:
        console.print(f"[red]{err.message}[/red]")
        raise typer.Exit(2) from None


@app.command()
def learn(
    targets: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="VARIANT | FILE",
            help=f"A variant ({', '.join(VARIANTS)}); with --check, the lesson files.",
            show_default=False,
        ),
    ] = None,
    lesson: Annotated[
        str | None, typer.Option("--lesson", "-L", help="Take this lesson (its id).")
    ] = None,
    lang: Annotated[
        str, typer.Option("--lang", help=f"The lessons' language: {', '.join(LANGUAGES)}.")
    ] = "en",
    player: Annotated[
        str | None,
        typer.Option("--player", help="Whose progress to keep (default: your login name)."),
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Check lesson files as their author writes them.")
    ] = False,
) -> None:
    """The lessons: with no variant, every variant's path (finished lessons marked, the next
    one offered); with a variant, its next lesson. Progress is kept in lessons.json under
    $KABES_HOME, else $XDG_DATA_HOME/kabes (~/.local/share/kabes). --check exits with 1 if a
    lesson file has a problem."""
    from kabes.cli.learn import learn as take_or_list_lessons

    console = Console()
    try:
        status = take_or_list_lessons(
            targets or [], lesson, lang, player, check, console, console.input
        )
    except KabesError as err:
        console.print(f"[red]{err.message}[/red]")
        raise typer.Exit(2) from None
    raise typer.Exit(status)


@app.command()
def simulate(
    variant: Annotated[str, typer.Option("--variant", "-v", help="The variant id.")],
    players: Annotated[int | None, typer.Option("--players", "-p", help="Seats.")] = None,
    levels: Annotated[
        str, typer.Option("--levels", "-l", help="A level per side, e.g. expert,skilled.")
    ] = "expert,casual",
    matches: Annotated[int, typer.Option("--matches", "-m", min=1)] = 100,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Processes.")] = 1,
    budget: Budget = DEFAULT_BUDGET,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Makes the run repeatable.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    target: Annotated[int | None, typer.Option("--target", "-t")] = None,
    option: OptionList = None,
) -> None:
    """Play computer levels against each other, seats rotated, and compare them."""
    err_console = Console(stderr=True)
    try:
        rules = get_rules(variant)
        setup = Setup(
            variant,
            rules.default_players if players is None else players,
            tuple(lv.strip() for lv in levels.split(",") if lv.strip()),
            tuple(_options(option, target).items()),
            budget,
            seed,
        )
        tally = run(setup, matches, jobs, progress_reporter(err_console, variant, matches))
    except KabesError as err:
        err_console.print(f"[red]{err.message}[/red]")
        raise typer.Exit(2) from None
    report = tally.report()
    if as_json:
        sys.stdout.write(json.dumps(report) + "\n")
    else:
        Console().print(report_table(report))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(help="Store URL (default: KABES_DATABASE_URL, else kabes.sqlite3 here); "
                     "e.g. postgresql+asyncpg://user@host/db."),
    ] = None,
    turn_seconds: Annotated[float, typer.Option(min=0.01, help="Seconds per turn.")] = 45.0,
    away_seconds: Annotated[
        float, typer.Option(min=0.01, help="Seconds per turn for a disconnected seat.")
    ] = 5.0,
    pause_seconds: Annotated[
        float, typer.Option(min=0.0, help="Seconds between hands.")
    ] = 30.0,
    computer_delay: Annotated[
        float, typer.Option(min=0.0, help="Seconds a computer seat waits before moving.")
    ] = 1.0,
    expert_budget: Annotated[
        float, typer.Option(min=0.001, help="Seconds the expert searches per move.")
    ] = DEFAULT_BUDGET,
    fixed_budget: Annotated[
        bool, typer.Option("--fixed-budget", help="Give every expert search the whole "
                           "--expert-budget, however busy the workers (by default it shrinks "
                           "while they are busy, never below 0.05 s).")
    ] = False,
    workers: Annotated[
        int | None, typer.Option(min=1, help="Processes for computer seats (default: cores).")
    ] = None,
    log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
    redis: Annotated[
        str | None,
        typer.Option(help="Run as one of many processes sharing a PostgreSQL store through "
                     "this Redis (e.g. redis://host:6379/0); see docs/scaling.md."),
    ] = None,
    advertise: Annotated[
        str | None,
        typer.Option(help="With --redis: the address this process is known by "
                     "(default: http://HOST:PORT)."),
    ] = None,
    redis_prefix: Annotated[
        str, typer.Option(help="With --redis: the prefix of every Redis key and channel.")
    ] = "kabes:",
    lease_seconds: Annotated[
        float, typer.Option(min=0.3, help="With --redis: how long a table's lease lives "
                            "unless renewed (how soon a dead process's tables move).")
    ] = 5.0,
) -> None:
    """Serve tables online: the API, the table socket and the web client."""
    from kabes.cli.serve import Clustering
    from kabes.cli.serve import serve as run_server
    from kabes.server.table import Settings

    settings = Settings(
        turn_seconds=turn_seconds,
        away_seconds=away_seconds,
        pause_seconds=pause_seconds,
        computer_delay=computer_delay,
        expert_budget=expert_budget,
        budget_follows_load=not fixed_budget,
    )
    clustering = None
    if redis is not None:
        clustering = Clustering(redis, advertise or f"http://{host}:{port}", redis_prefix,
                                lease_seconds)
    run_server(host, port, db, settings, workers, log_level, clustering)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the record with every result filled in.")
    ] = False,
) -> None:
    """Show a game record hand by hand, or print it with its results (--json). A stored
    result that the rules contradict is reported (on standard error) and the exit status
    is 3; an unreadable or illegal record exits with 2."""
    err_console = Console(stderr=True)
    try:
        record = load_record(file)
        computed = filled(record)
        if as_json:
            sys.stdout.write(json.dumps(computed, indent=1, ensure_ascii=False) + "\n")
        else:
            show_replay(record, Console())
    except KabesError as err:
        err_console.print(f"[red]{err.message}[/red]")
        raise typer.Exit(2) from None
    wrong = disagreements(record, computed)
    for line in wrong:
        err_console.print(str(line), style="red", markup=False, highlight=False, soft_wrap=True)
    if wrong:
        raise typer.Exit(3)


def progress_reporter(
    console: Console, variant: str, matches: int
) -> Callable[[int], None]:
    """Tells how far a tournament is as it goes: a live bar with the time left on a terminal,
    else a line at every tenth of the matches (so a log or a pipe sees it move too)."""
    started = time.monotonic()
    if console.is_terminal:
        bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("matches ·"),
            TimeElapsedColumn(),
            TextColumn("· left"),
            TimeRemainingColumn(),
            console=console,
        )
        task = bar.add_task(variant, total=matches)

        def update(done: int) -> None:
            # Started at the first match done, so a refused setup leaves no live bar behind.
            if not bar.live.is_started:
                bar.start()
            bar.update(task, completed=done)
            if done >= matches:
                bar.stop()

        return update
    step = max(1, matches // 10)

    def report(done: int) -> None:
        if done % step == 0 or done == matches:
            elapsed = time.monotonic() - started
            left = elapsed / done * (matches - done)
            console.print(f"{variant}: {done}/{matches} matches, {elapsed:.0f} s, "
                          f"about {left:.0f} s left")

    return report


def _options(option: list[str] | None, target: int | None) -> dict[str, Any]:
    options: dict[str, Any] = dict(parse_option(o) for o in option or [])
    if target is not None:
        options["target"] = target
    return options


def report_table(report: dict[str, Any]) -> Table:
    """A tournament's figures as a table."""
    title = f"{report['variant']}: {report['matches']} matches, {report['hands']} hands"
    table = Table(title=title)
    for column in ("level", "matches won", "95% CI", "hands won", "95% CI", "points/hand"):
        table.add_column(column, justify="right" if column != "level" else "left")
    for level, row in report["levels"].items():
        table.add_row(
            level,
            f"{row['match_wins']:.1%}",
            f"{row['match_ci'][0]:.1%}-{row['match_ci'][1]:.1%}",
            f"{row['hand_wins']:.1%}",
            f"{row['hand_ci'][0]:.1%}-{row['hand_ci'][1]:.1%}",
            f"{row['points_per_hand']:.2f}",
        )
    return table


def main() -> None:
    """Entry point of the console script."""
    app()
