"""``kabes learn``: the lessons in the terminal, and each player's progress on this machine.

``kabes learn`` lists every variant's path (docs/lessons.md), the lessons a player finished
marked and the next one offered; ``kabes learn VARIANT`` takes that next lesson, or the one
``--lesson ID`` names. A lesson is shown step by step: its text, the board as the learner's
seat sees it, drawn as in a game (:func:`kabes.cli.display.render` of the step's position),
then its task. A ``play`` step reads a move typed as in the game (:func:`kabes.cli.play.read_input`)
and lets the engine judge it (:func:`kabes.lessons.position.try_move`): a wrong try gets the
lesson's words and the engine's refusal in the player's notation (:mod:`kabes.cli.refusals`),
and the hint from the second wrong try on. A ``choose`` step takes a numbered answer, a
``read`` step Enter. The lesson's texts are in the language chosen with ``--lang``; the
terminal's own words stay English, as everywhere in the CLI. A finished lesson is marked for
the player and the next one is offered; ``q`` or the end of the input stops, marking nothing.

Progress is a small JSON file, ``lessons.json`` in ``$KABES_HOME``, else
``$XDG_DATA_HOME/kabes``, else ``~/.local/share/kabes``:
``{"players": {NAME: {"finished": [ID, ...]}}}``. It is read again and written whole (through
a temporary file) each time a lesson is finished; a file that is not of that shape is
reported, naming it, and never overwritten. ``--check FILE...`` checks lesson files for their
authors, exactly as ``python -m kabes.lessons`` does.
"""

from __future__ import annotations

import copy
import getpass
import json
import os
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kabes.cli.boards import board_of
from kabes.cli.describe import describe_match, narrate
from kabes.cli.display import face_up, render, scores_line
from kabes.cli.explain import ENDINGS, endings_named, word_explanation
from kabes.cli.play import (
    RECENT,
    TABLE_WORDS,
    Command,
    Quit,
    help_text,
    read_input,
    table_refusal,
)
from kabes.cli.refusals import ASKS, Refusal, read_place, refusal_of, word_refusal
from kabes.cli.words import Names, variant_name
from kabes.errors import BadOptions, KabesError
from kabes.events import Event, HandStarted
from kabes.lessons.__main__ import main as check_files
from kabes.lessons.library import lessons, next_lesson, path
from kabes.lessons.model import Lesson, Task, Texts
from kabes.lessons.position import (
    Attempt,
    position,
    step_records,
    table_moves,
    try_choice,
    try_move,
)
from kabes.match import Match
from kabes.moves import Play
from kabes.records import replay
from kabes.rules import VARIANTS, get_rules
from kabes.views import View, view
from kabes.words import LANGUAGES

HOME_VARIABLE: Final = "KABES_HOME"
"""Names the folder that holds the progress file (for tests, or a second learner)."""
PROGRESS_FILE: Final = "lessons.json"
HINT_AFTER: Final = 2
"""Wrong tries before the lesson's hint is shown."""
QUIT_WORDS: Final = ("q", "quit", "exit")


class BadProgress(KabesError):
    """A progress file that cannot be read, or written: reported, and left as it is."""

    code = "bad_progress"


def data_dir() -> Path:
    """The folder of Kabès's data on this machine: ``$KABES_HOME``, else the XDG data folder
    (``$XDG_DATA_HOME/kabes``, ``~/.local/share/kabes`` when it is unset or not absolute)."""
    home = os.environ.get(HOME_VARIABLE)
    if home:
        return Path(home)
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "kabes"


def progress_path() -> Path:
    """The progress file of this machine's learners."""
    return data_dir() / PROGRESS_FILE


def default_player() -> str:
    """Whose progress is kept when ``--player`` is not given: the login name."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in this environment
        return "player"


@dataclass(frozen=True, slots=True)
class Progress:
    """The lessons each player has finished, as the progress file holds them."""

    path: Path
    finished: Mapping[str, tuple[str, ...]]
    """Lesson ids by player, in the order they were finished."""
    data: Mapping[str, Any] = field(default_factory=dict)
    """The file as read: what it holds beyond ``finished`` is written back unchanged."""

    def of(self, player: str) -> tuple[str, ...]:
        """The lessons ``player`` has finished."""
        return self.finished.get(player, ())


def load_progress(file: Path) -> Progress:
    """The progress in ``file`` (none yet if it does not exist); BadProgress naming the file
    and what is wrong with it otherwise."""
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Progress(file, {})
    except OSError as err:
        raise BadProgress(f"cannot read the lessons progress file {file}: {err.strerror}") \
            from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise _corrupt(file, f"it is not JSON: {err.msg} at line {err.lineno}") from None
    if not isinstance(data, dict) or not isinstance(data.get("players"), dict):
        raise _corrupt(file, 'it has no "players" object')
    finished: dict[str, tuple[str, ...]] = {}
    for name, entry in data["players"].items():
        ids = entry.get("finished") if isinstance(entry, dict) else None
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise _corrupt(file, f'player {name!r} has no "finished" list of lesson ids')
        finished[name] = tuple(ids)
    return Progress(file, finished, data)


def _corrupt(file: Path, what: str) -> BadProgress:
    return BadProgress(f"{file} is not a lessons progress file ({what}). It was left as it "
                       "is: mend it, or move it away to start afresh.")


def mark_finished(file: Path, player: str, lesson_id: str) -> Progress:
    """Record that ``player`` finished ``lesson_id``: the file is read again (another
    terminal may have written it since), then replaced whole, never left half-written."""
    progress = load_progress(file)
    done = progress.of(player)
    if lesson_id in done:
        return progress
    data = copy.deepcopy(dict(progress.data))
    players = data.setdefault("players", {})
    players.setdefault(player, {})["finished"] = [*done, lesson_id]
    temporary = file.with_name(f"{file.name}.{os.getpid()}.tmp")
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
        os.replace(temporary, file)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise BadProgress(f"cannot write the lessons progress file {file}: {err.strerror}") \
            from None
    return Progress(file, {**progress.finished, player: (*done, lesson_id)}, data)


def show_paths(console: Console, finished: Collection[str], lang: str, player: str) -> None:
    """Every variant's path: finished lessons ticked, the next one pointed at and offered."""
    console.print(Text(f"Lessons for {player}", style="bold"))
    console.print("✓ finished · → next · kabes learn VARIANT takes the next lesson, "
                  "--lesson ID a chosen one", style="dim", highlight=False)
    for variant in VARIANTS:
        console.print()
        console.print(Text(f"{variant_name(variant)} ({variant})", style="bold"))
        taught = path(variant)
        if not taught:
            console.print("  no lessons yet", style="dim")
            continue
        upcoming = next_lesson(variant, finished)
        listing = Table.grid(padding=(0, 1))
        listing.add_column(no_wrap=True)
        listing.add_column()
        for lesson in taught:
            mark = "✓" if lesson.id in finished else "→" if lesson is upcoming else " "
            listing.add_row(
                f"  {mark} {lesson.order}.",
                Text.assemble(f"({lesson.id}) ",
                              (lesson.title[lang], "bold" if mark == "→" else ""),
                              "\n", (lesson.summary[lang], "dim")),
            )
        console.print(listing)
        if upcoming is None:
            console.print("  every lesson finished", style="green")
        else:
            console.print(f"  next: kabes learn {variant}", style="cyan", highlight=False)


class TerminalLesson:
    """One lesson at the terminal, in ``lang``; ``ask`` reads a line (raises EOFError at the
    end of the input). :meth:`run` raises :class:`Quit` when the learner stops."""

    def __init__(self, lesson: Lesson, lang: str, console: Console,
                 ask: Callable[[str], str]) -> None:
        self.lesson = lesson
        self.lang = lang
        self.console = console
        self.ask = ask
        self.board = board_of(lesson.variant)

    def run(self) -> None:
        """Every step, then the points to remember."""
        lesson = self.lesson
        self.console.rule(Text(lesson.title[self.lang], style="bold"))
        self._say(lesson.summary, "italic")
        for index in range(len(lesson.steps)):
            self._step(index)
            if index + 1 < len(lesson.steps) and lesson.steps[index].task.kind != "read":
                self._line("Press Enter to go on (q to stop): ", quit_words=True)
        self.console.rule("Remember")
        for point in lesson.remember:
            self.console.print(Text("• ") + Text(point[self.lang]))

    def _step(self, index: int) -> None:
        step = self.lesson.steps[index]
        match = position(self.lesson, index)
        seen = view(match, step.seat)
        names = Names(self.lesson.players, match.rules.teams, step.seat)
        self.console.rule(f"Step {index + 1} of {len(self.lesson.steps)}")
        self._say(step.text)
        self.console.print(render(seen, names, self._story(index, names)))
        task = step.task
        if task.kind == "play":
            self._play(index, match, seen, names)
            return
        if task.kind == "choose":
            self._choose(index, names)
        else:
            self._say(task.done, "green")
        after, events = table_moves(self.lesson, index, match)
        self._tell(after, events, step.seat, names)
        if task.kind == "read":
            self._line("Press Enter to go on (q to stop): ", quit_words=True)

    def _story(self, index: int, names: Names) -> list[str]:
        """What happened in the step's hand so far, told as the game tells it: in one go up
        to each turn of the learner's seat."""
        lines: list[str] = []
        pending: list[Event] = []
        table: list[Match] = []

        def told(events: list[Event]) -> None:
            starts = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
            if starts:  # only this hand is told
                lines.clear()
                pending.clear()
                events = events[starts[-1]:]
            pending.extend(events)
            if table[0].turn == names.viewer:
                lines.extend(narrate(pending, names, self.board))
                pending.clear()

        replay(step_records(self.lesson)[index], on_events=told, on_match=table.append)
        lines.extend(narrate(pending, names, self.board))
        if len(lines) > RECENT:
            return [f"… {len(lines) - RECENT + 1} earlier lines", *lines[1 - RECENT:]]
        return lines

    def _play(self, index: int, match: Match, seen: View, names: Names) -> None:
        task = self.lesson.steps[index].task
        wrong = 0
        while True:
            typed = self._line("Your move: ")
            try:
                choice = read_input(typed, seen)
            except KabesError as err:
                self._refuse(err.message)
                continue
            if isinstance(choice, Command):
                self._command(choice, seen, names, task)
                continue
            if not isinstance(choice, Play):  # read_input reads tiles only
                continue
            attempt = self._try(index, match, choice, seen, names)
            if attempt is None:
                continue
            if attempt.correct:
                self._say(attempt.text, "green")
                assert attempt.after is not None  # a right move is played
                self._tell(attempt.after, attempt.events, seen.seat, names)
                return
            wrong += 1
            if attempt.reason is not None:
                self._refuse(word_refusal(_refusal(attempt, choice.first), names))
            if attempt.text is not None:
                self._say(attempt.text, "yellow")
            elif attempt.reason is None:
                self._refuse("That is not the move this step asks for.")
            self._after_wrong(wrong, task)

    def _try(self, index: int, match: Match, move: Play, seen: View,
             names: Names) -> Attempt | None:
        """The engine's judgement of ``move``; where the tile fits two places and the learner
        did not say which, they are asked, as in a game (None: no place given)."""
        attempt = try_move(self.lesson, index, str(move), match)
        if attempt.correct or attempt.reason not in ASKS:
            return attempt
        refusal = _refusal(attempt, move.first)
        place = read_place(self._line(word_refusal(refusal, names)), refusal)
        if place is None:
            where = "L or R" if not seen.trains else " or ".join(refusal.facts["fits"])
            self._refuse(f"Not played: answer {where}. Try again.")
            return None
        return try_move(self.lesson, index, str(Play(move.tile, place, move.first)), match)

    def _command(self, command: Command, seen: View, names: Names, task: Task) -> None:
        if command.name == "quit":
            raise Quit
        if command.name == "hint":
            self._hint(task)
        elif command.name in TABLE_WORDS:
            self._refuse(word_refusal(table_refusal(command.name, seen), names))
        else:
            self.console.print(help_text(seen), highlight=False)
            self.console.print("In a lesson, 'hint' gives the lesson's hint.", highlight=False)

    def _choose(self, index: int, names: Names) -> None:
        task = self.lesson.steps[index].task
        count = len(task.choices)
        for number, choice in enumerate(task.choices, 1):
            self.console.print(Text(f"  {number}) ") + Text(choice.text[self.lang]))
        wrong = 0
        while True:
            answer = self._line(f"Your answer (1 to {count}): ", quit_words=True).strip()
            if answer.lower() == "hint":
                self._hint(task)
                continue
            if not answer.isdigit() or not 1 <= int(answer) <= count:
                self._refuse(f"Type the number of an answer, 1 to {count}.")
                continue
            attempt = try_choice(self.lesson, index, int(answer) - 1)
            if attempt.correct:
                self._say(attempt.text, "green")
                self._say(task.done, "green")
                return
            wrong += 1
            self._say(attempt.text, "yellow")
            self._after_wrong(wrong, task)

    def _after_wrong(self, wrong: int, task: Task) -> None:
        if wrong >= HINT_AFTER:
            self._hint(task)
        self.console.print("Try again.", highlight=False)

    def _hint(self, task: Task) -> None:
        if task.hint is None:
            self.console.print("This step has no hint.", highlight=False)
            return
        self.console.print(Text("Hint: ", style="bold cyan") + Text(task.hint[self.lang]))

    def _tell(self, after: Match, events: Sequence[Event], seat: int, names: Names) -> None:
        """What happened, as the game tells it, and the hand's end if it came."""
        for line in narrate(events, names, self.board):
            self.console.print(line, highlight=False)
        seen = view(after, seat)
        if after.hand_in_progress or seen.revealed is None or seen.last_result is None:
            return
        self.console.print(face_up(seen, names))
        for line in word_explanation(seen.last_explanation or (), names):
            self.console.print(line, highlight=False)
        for name in endings_named(seen.last_explanation or ()):
            self.console.print(ENDINGS[name], style="italic", highlight=False)
        self.console.print(scores_line(seen, names))
        if after.result is not None:
            self.console.print(describe_match(after.result, names), highlight=False)

    def _say(self, text: Texts | None, style: str = "") -> None:
        if text is not None:
            self.console.print(Text(text[self.lang], style=style))

    def _refuse(self, message: str) -> None:
        self.console.print(Text(message[:1].upper() + message[1:], style="red"))

    def _line(self, prompt: str, quit_words: bool = False) -> str:
        try:
            text = self.ask(prompt)
        except EOFError:
            raise Quit from None
        if quit_words and text.strip().lower() in QUIT_WORDS:
            raise Quit
        return text


def _refusal(attempt: Attempt, first: int | None) -> Refusal:
    """The engine's refusal of a try, its tile written as the learner wrote it."""
    message = attempt.message or ""
    facts = attempt.facts or {"message": message}
    return refusal_of(KabesError(message, attempt.reason, facts), first)


def take_lessons(first: Lesson, lang: str, player: str, console: Console,
                 ask: Callable[[str], str]) -> None:
    """Take ``first``, then each next lesson of its variant the learner accepts."""
    lesson: Lesson | None = first
    while lesson is not None:
        try:
            TerminalLesson(lesson, lang, console, ask).run()
        except Quit:
            console.print(f"Lesson stopped; it is not marked as finished. "
                          f"kabes learn --lesson {lesson.id} starts it again.", highlight=False)
            return
        progress = mark_finished(progress_path(), player, lesson.id)
        console.print(Text("Lesson finished: ", style="bold green")
                      + Text(lesson.title[lang]) + Text(" is marked as done.", style="green"))
        lesson = next_lesson(lesson.variant, progress.of(player))
        if lesson is None:
            title = variant_name(first.variant)
            console.print(f"You have finished every lesson of {title}.", highlight=False)
            return
        try:
            answer = ask(f"Next lesson: {lesson.title[lang]} ({lesson.id}). "
                         "Press Enter to start it, q to stop: ")
        except EOFError:
            answer = "q"
        if answer.strip().lower() in QUIT_WORDS:
            console.print(f"Next time: kabes learn {lesson.variant}", highlight=False)
            return


def learn(targets: Sequence[str], lesson_id: str | None, lang: str, player: str | None,
          check: bool, console: Console, ask: Callable[[str], str]) -> int:
    """The ``kabes learn`` command: list the paths, take a lesson, or check lesson files
    (``targets`` are then the files). Its exit status; KabesError for a bad request."""
    if check:
        if not targets or lesson_id is not None:
            raise BadOptions("--check takes the lesson files to check, and nothing else: "
                             "kabes learn --check FILE...")
        return check_files(list(targets))
    if lang not in LANGUAGES:
        raise BadOptions(f"no language {lang!r}; the languages are {', '.join(LANGUAGES)}")
    if len(targets) > 1:
        raise BadOptions("give one variant (or --check FILE... to check lesson files)")
    who = player or default_player()
    finished = load_progress(progress_path()).of(who)
    variant = targets[0] if targets else None
    if variant is not None:
        get_rules(variant)  # names the variants if there is no such one
    if lesson_id is not None:
        chosen = _chosen(lesson_id, variant)
    elif variant is None:
        show_paths(console, finished, lang, who)
        return 0
    else:
        taught = path(variant)
        if not taught:
            raise KabesError(f"there are no lessons for {variant_name(variant)} yet")
        upcoming = next_lesson(variant, finished)
        if upcoming is None:
            ids = ", ".join(lesson.id for lesson in taught)
            console.print(f"You have finished every lesson of {variant_name(variant)}. "
                          f"Take one again with --lesson ID ({ids}).", highlight=False)
            return 0
        chosen = upcoming
    take_lessons(chosen, lang, who, console, ask)
    return 0


def _chosen(lesson_id: str, variant: str | None) -> Lesson:
    """The lesson ``--lesson`` names; an error listing the lessons there are otherwise."""
    found = lessons().get(lesson_id)
    if found is not None and variant in (None, found.variant):
        return found
    known = [lesson.id for lesson in lessons().values()
             if variant is None or lesson.variant == variant]
    where = f" of {variant}" if variant is not None else ""
    listed = ", ".join(known) if known else "none yet"
    raise BadOptions(f"no lesson {lesson_id!r}{where}; the lessons{where} are: {listed}")
