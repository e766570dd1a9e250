"""What a link's preview may show of a match or a player, read from the store and worked out
by the engine, in the server's default language (``--language``).

A preview is for public matches and players only (PROTOCOL.md, "Players, replays and
rankings"): whether a table is public is its ``created`` entry's ``public`` (the first entry
of its log, read alone, so that a private table's log is never read for a preview and a code
that names nothing costs one read and writes nothing: "Asking costs nothing"). A public
table's log rebuilds the table (kabes.table.state: the seats' names, its match), and the
position shown is the engine's own: the match the log rebuilt (the engine applying each
move), at the end of its last finished hand; while a hand is in play (the match then holds
only that hand), the record of the hands finished before it replayed by kabes.records. Nothing
here draws a rule of its own.

:func:`read_match` and :func:`read_player` are the store's reads (async); :func:`match_facts`
and :func:`player_facts` are pure and CPU-bound, run in a thread by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kabes.board_facts import TrainView
from kabes.match import Match
from kabes.records import replay, to_record
from kabes.rules import VARIANTS
from kabes.server.common.config import Settings
from kabes.server.hub.hub import CODE_ALPHABET, CODE_LENGTH
from kabes.server.store.store import Store
from kabes.table.entries import Entry
from kabes.table.state import Person
from kabes.table.state import replay as rebuild
from kabes.views import view
from kabes.words import has, word


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """A public match as its preview shows it, every word already in the server's language."""

    code: str
    heading: str
    """``og:title``: the players and the variant."""
    description: str
    """``og:description``: where the match is, and the score."""
    title: str
    """The variant's name."""
    hand_label: str
    names: tuple[str, ...]
    """Each seat's name (a computer's level)."""
    sides: tuple[tuple[str, int, bool], ...]
    """Each side's names, its score, and whether it is ahead (or won)."""
    line: tuple[tuple[int, int], ...]
    """The line's tiles from left to right, each left half first (empty in Mexican Train)."""
    crosswise: bool
    colored: bool
    trains: tuple[TrainView, ...]
    engine: tuple[int, int] | None
    public_train: str
    no_hand: str
    hands: int
    """Hands finished: the picture changes only when this does."""
    over: bool


@dataclass(frozen=True, slots=True)
class PlayerFacts:
    """A player as their preview shows them."""

    player: int
    heading: str
    description: str
    name: str
    label: str
    ratings: tuple[tuple[str, float], ...]
    """Each variant's name and rating, best first."""
    unrated: str


def plausible(code: str) -> bool:
    """Whether ``code`` could be a table's code (the hub's alphabet and length), so that no
    other text reaches the store."""
    return len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code)


async def read_match(store: Store, code: str) -> list[Entry] | None:
    """The log of table ``code`` if it is public; None for a private table (its log unread)
    or a code that names none. Reads only."""
    if not plausible(code):
        return None
    created = (await store.first_entries([code])).get(code)
    if created is None or created.get("public") is not True:
        return None
    return await store.load(code)


async def read_player(store: Store, player: int) -> dict[str, Any] | None:
    """Player ``player``'s public page (``GET /api/players/{id}``), or None. Reads only."""
    return await store.player(player)


def variant_name(variant: str, lang: str) -> str:
    """A variant's name in ``lang`` (its rules' title where the catalogs have none)."""
    key = f"variant.{variant}"
    return word(key, lang) if has(key, lang) else VARIANTS[variant].title


def match_facts(code: str, entries: Sequence[Entry], lang: str) -> MatchFacts | None:
    """What the preview of public table ``code`` shows, from its log; None if the log is
    not a public table's."""
    state = rebuild(code, Settings().timing, entries)
    if not state.public or not state.variant:
        return None
    names = tuple(_seat_name(state.seats[n] if n < len(state.seats) else None, lang)
                  for n in range(state.players))
    match = state.match or Match(state.variant, state.players, state.options)
    if match.hand_in_progress:  # never shown: the record of the hands finished, replayed
        record = to_record(match)
        record["hands"] = record["hands"][:-1]
        match = replay(record)
    traits = match.rules.traits(match.players)
    title = variant_name(match.variant, lang)
    hands = len(match.log)
    seen = view(match, 0) if hands else None
    noun = "og.round" if match.hand is not None and match.hand.noun == "round" else "og.hand"
    over = match.over
    hand_label = word("og.match_over", lang) if over else word(noun, lang, n=hands)
    sides = _sides(match, names, traits.penalties)
    score = ", ".join(f"{who} {points}" for who, points, _ in sides)
    everyone = ", ".join(who for who, _, _ in sides)
    if over:
        description = word("og.match_over_description", lang, score=score)
    elif hands:
        description = word("og.match_playing_description", lang, n=hands, score=score)
    else:
        description = word("og.match_new_description", lang, variant=title)
    return MatchFacts(
        code=code, heading=word("og.match_title", lang, players=everyone, variant=title),
        description=description, title=title, hand_label=hand_label, names=names,
        sides=sides, line=tuple(seen.line or ()) if seen else (),
        crosswise=traits.crosswise_doubles, colored=traits.colored_tiles,
        trains=tuple(seen.trains) if seen else (),
        engine=None if seen is None or seen.engine is None else (seen.engine.high,
                                                                 seen.engine.high),
        public_train=word("train.public", lang), no_hand=word("og.no_hand", lang),
        hands=hands, over=over)


def player_facts(page: dict[str, Any], lang: str) -> PlayerFacts:
    """What the preview of a player shows, from their public page."""
    ratings = tuple(sorted(((variant_name(v, lang), float(r))
                            for v, r in page["ratings"].items() if v in VARIANTS),
                           key=lambda pair: -pair[1]))
    name = str(page["name"])
    shown = ", ".join(f"{title} {round(rating)}" for title, rating in ratings)
    return PlayerFacts(
        player=int(page["player"]), heading=word("og.player_title", lang, name=name),
        description=(word("og.player_description", lang, ratings=shown) if ratings
                     else word("og.player_unrated", lang)),
        name=name, label=word("player.title", lang), ratings=ratings,
        unrated=word("og.player_unrated", lang))


def _seat_name(seat: Any, lang: str) -> str:
    if seat is None:
        return "?"
    if seat.kind == Person.COMPUTER and seat.level and has(f"level.{seat.level}", lang):
        return word(f"level.{seat.level}", lang)
    return str(seat.name)


def _sides(match: Match, names: tuple[str, ...],
           penalties: bool) -> tuple[tuple[str, int, bool], ...]:
    """Each side (a team's two seats, or a seat) with its names, score and whether it won
    (once over) or leads."""
    scores = list(match.state.scores)
    teams = match.rules.teams
    parties = [" & ".join(names[s] for s in range(match.players) if s % 2 == p)
               for p in range(2)] if teams else list(names)
    if match.result is not None and match.result.winners:
        ahead = set(match.result.winners)
    else:
        best = (min if penalties else max)(scores) if scores else 0
        ahead = set() if len(set(scores)) <= 1 else {p for p, s in enumerate(scores)
                                                      if s == best}
    return tuple((who, scores[p], p in ahead) for p, who in enumerate(parties))
