"""The ``kabes`` command: play in the terminal, take the lessons, replay a game record."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Final

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
from kabes.ai.tournament import Setup, run
from kabes.cli.play import parse_option, start_game
from kabes.cli.replay import show_replay
from kabes.errors import KabesError
from kabes.records import disagreements, filled, load_record
from kabes.rules import DEFAULT_VARIANT, VARIANTS, get_rules
from kabes.server.common.config import KINDS, ConfigError, ServerConfig, about, load
from kabes.words import LANGUAGES

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
    ] = DEFAULT_VARIANT,
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


SERVE: Final = ServerConfig()
"""``kabes serve``'s defaults, as its options show them (kabes.server.common.config writes them)."""


def _setting(name: str) -> Any:
    """``kabes serve``'s option for ServerConfig's field ``name``: its flag, meaning, limits
    and variable come from the field, so each is written once."""
    it = about(name)
    shown = f"{it.meaning} Default: {it.unset}." if it.unset else it.meaning
    # A switch (no --no- twin) turns on what is off by default; what is on by default
    # takes a value instead (--rate-limits off).
    flags = (it.flag,) if KINDS[name] is bool and not getattr(SERVE, name) else ()
    return typer.Option(*flags, help=f"{shown} Env: {it.variable}.", min=it.minimum,
                        max=it.maximum)


def _typed(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was given on the command line (a flag beats its variable,
    while a default must not); Typer's ParameterSource is private, hence its name."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "COMMANDLINE"


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, _setting("host")] = SERVE.host,
    port: Annotated[int, _setting("port")] = SERVE.port,
    db: Annotated[str | None, _setting("db")] = SERVE.db,
    turn_seconds: Annotated[float, _setting("turn_seconds")] = SERVE.turn_seconds,
    away_seconds: Annotated[float, _setting("away_seconds")] = SERVE.away_seconds,
    pause_seconds: Annotated[float, _setting("pause_seconds")] = SERVE.pause_seconds,
    abandon_seconds: Annotated[float, _setting("abandon_seconds")] = SERVE.abandon_seconds,
    seat_wait_seconds: Annotated[
        float, _setting("seat_wait_seconds")] = SERVE.seat_wait_seconds,
    tournament_wait_seconds: Annotated[
        float, _setting("tournament_wait_seconds")] = SERVE.tournament_wait_seconds,
    tournament_max_entrants: Annotated[
        int, _setting("tournament_max_entrants")] = SERVE.tournament_max_entrants,
    seat_sockets: Annotated[int, _setting("seat_sockets")] = SERVE.seat_sockets,
    computer_delay: Annotated[float, _setting("computer_delay")] = SERVE.computer_delay,
    expert_budget: Annotated[float, _setting("expert_budget")] = SERVE.expert_budget,
    fixed_budget: Annotated[bool, _setting("fixed_budget")] = SERVE.fixed_budget,
    workers: Annotated[int | None, _setting("workers")] = SERVE.workers,
    log_level: Annotated[str, _setting("log_level")] = SERVE.log_level,
    redis: Annotated[str | None, _setting("redis")] = SERVE.redis,
    advertise: Annotated[str | None, _setting("advertise")] = SERVE.advertise,
    redis_prefix: Annotated[str, _setting("redis_prefix")] = SERVE.redis_prefix,
    lease_seconds: Annotated[float, _setting("lease_seconds")] = SERVE.lease_seconds,
    rate_limits: Annotated[str, _setting("rate_limits")] = "on",
    allow_origin: Annotated[list[str] | None, _setting("allow_origin")] = None,
    metrics_token: Annotated[str | None, _setting("metrics_token")] = SERVE.metrics_token,
    trusted_proxies: Annotated[str, _setting("trusted_proxies")] = SERVE.trusted_proxies,
    guests_per_minute: Annotated[int, _setting("guests_per_minute")] = SERVE.guests_per_minute,
    tables_per_minute: Annotated[int, _setting("tables_per_minute")] = SERVE.tables_per_minute,
    seats_held: Annotated[int, _setting("seats_held")] = SERVE.seats_held,
    link_codes_per_minute: Annotated[
        int, _setting("link_codes_per_minute")] = SERVE.link_codes_per_minute,
    sockets_per_address: Annotated[
        int, _setting("sockets_per_address")] = SERVE.sockets_per_address,
    link_codes_per_network: Annotated[
        int, _setting("link_codes_per_network")] = SERVE.link_codes_per_network,
    wrong_link_codes_per_minute: Annotated[
        int, _setting("wrong_link_codes_per_minute")] = SERVE.wrong_link_codes_per_minute,
    api_docs: Annotated[bool, _setting("api_docs")] = SERVE.api_docs,
    searches_waiting: Annotated[int, _setting("searches_waiting")] = SERVE.searches_waiting,
    offline_pack: Annotated[str | None, _setting("offline_pack")] = SERVE.offline_pack,
    language: Annotated[str, _setting("language")] = SERVE.language,
    public_url: Annotated[str | None, _setting("public_url")] = SERVE.public_url,
) -> None:
    """Serve tables online: the API, the table socket and the web client. Every option has
    a KABES_* environment variable (docs/server.md); a flag beats its variable."""
    from kabes.cli.serve import serve as run_server

    given = {name: ",".join(value) if isinstance(value, list) else value  # --allow-origin
             for name, value in ctx.params.items() if _typed(ctx, name)}
    try:
        config = load(given, os.environ)
    except ConfigError as err:
        raise typer.BadParameter(err.problem, param_hint=err.source) from None
    run_server(config)


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


puzzles_app = typer.Typer(help="Puzzles: find them in matches and keep them in the store.",
                          no_args_is_help=True)
app.add_typer(puzzles_app, name="puzzles")

Db = Annotated[str | None, typer.Option(
    "--db", help="The store: sqlite:///FILE or postgresql://... (default: kabes.sqlite3 "
    "here, as 'kabes serve').")]


@puzzles_app.command("make")
def puzzles_make(
    records: Annotated[int, typer.Option(
        "--records", "-n", min=0, help="Computer matches to read per variant.")] = 20,
    variants: Annotated[list[str] | None, typer.Option(
        "--variants", "-v", help="Line variants (repeatable or comma-separated; default: "
        "every line variant).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="The first match's seed.")] = 1,
    public: Annotated[bool, typer.Option(
        "--public", help="Also read the finished public matches the store keeps.")] = False,
    db: Db = None,
) -> None:
    """Find puzzles (proven over every deal) in the computer's matches, and with --public in
    finished public matches, and keep them in the store; prints per variant the records read
    and the puzzles found."""
    from kabes.cli.puzzles import line_variants, made_table, make, run

    console = Console()
    try:
        chosen = line_variants(variants)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--variants") from None

    def tell(made: Any) -> None:
        console.print(f"{made.variant}: {made.records} records read, {made.found} puzzles "
                      f"found, {made.new} new, {made.seconds:.1f} s"
                      + (f" ({made.unreadable} records did not replay and were skipped)"
                         if made.unreadable else ""))

    done = run(make(db, records, chosen, seed, public, tell))
    console.print(made_table(done))


@puzzles_app.command("export")
def puzzles_export(
    file: Annotated[Path, typer.Argument(
        help="The gzip JSON file to write (src/kabes/puzzles/data/starter.json.gz is the "
        "starter set).", dir_okay=False)],
    per_seating: Annotated[int, typer.Option(
        "--puzzles", "-n", min=1, help="Puzzles per line variant and seat count.")] = 40,
    variants: Annotated[list[str] | None, typer.Option(
        "--variants", "-v", help="Line variants (repeatable or comma-separated; default: "
        "every line variant).")] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="The first match's seed.")] = 1,
) -> None:
    """Find puzzles in the computer's matches, --puzzles of them for each line variant at
    each seat count, and write them to a gzip JSON file (sorted by key; the same arguments
    write the same file). This is how the starter set a new server loads is made."""
    from kabes.cli.puzzles import export, line_variants, made_table

    console = Console()
    try:
        chosen = line_variants(variants)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--variants") from None

    def tell(made: Any) -> None:
        console.print(f"{made.variant}: {made.records} records read, {made.new} puzzles "
                      f"kept, {made.seconds:.1f} s")

    done = export(file, per_seating, chosen, seed, tell)
    console.print(made_table(done))
    console.print(f"Wrote {sum(m.new for m in done)} puzzles to {file}")


@app.command()
def puzzle(
    next_one: Annotated[bool, typer.Option(
        "--next", help="A puzzle near your puzzle rating, not yet tried (default: the "
        "daily puzzle).")] = False,
    variant: Annotated[str | None, typer.Option(
        "--variant", "-v", help="Only puzzles of this variant.")] = None,
    player: Annotated[str | None, typer.Option(
        "--player", help="Whose tries to keep (default: your login name).")] = None,
    db: Db = None,
) -> None:
    """Solve a puzzle in the terminal: the daily one, or --next. Exit status 0 when
    solved, 1 when not, 2 when there is no puzzle."""
    from kabes.cli.learn import default_player
    from kabes.cli.puzzles import run, solve

    if variant is not None and variant not in VARIANTS:
        raise typer.BadParameter(f"no variant {variant!r}", param_hint="--variant")
    console = Console()
    status = run(solve(db, player or default_player(), variant, next_one, console,
                       console.input))
    raise typer.Exit(status)


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
