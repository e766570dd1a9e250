"""Variants describe themselves: a client learns everything it must know of a variant from its
traits (``Rules.traits``), served by ``GET /api/variants`` per seat count and in every VIEW,
and the web client never names a variant: no comparison with ``variant``, no variant id
written in its modules. A variant defined anywhere (here, only in this test) is served with
its traits like the others."""

from __future__ import annotations

import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from random import Random
from typing import Any

import pytest

from kabes import explain as ex
from kabes.explain import Step, step
from kabes.line_hand import LineHand
from kabes.match import Match
from kabes.options import OptionSpec
from kabes.results import Ending, HandEnd
from kabes.rules import DEFAULT_VARIANT, VARIANTS, get_rules
from kabes.rules.base import MatchState, Rules, Scored, add, party_counts, reached
from kabes.rules.traits import Traits, traits_json
from kabes.table.wire import view_json, view_message
from kabes.tiles import Tile
from kabes.views import view

sys.path.insert(0, str(Path(__file__).parent / "server"))
from harness import Server, running, sqlite_url

WEB = Path(__file__).resolve().parents[1] / "src" / "kabes" / "web"

SEATINGS = [(rules.id, n) for rules in VARIANTS.values() for n in rules.seat_counts]
"""Every variant with every seat count it is played with."""


# The web client names no variant ------------------------------------------------------------


def naming(text: str, ids: list[str]) -> list[tuple[int, str]]:
    """Lines of a web module (numbered from 1) that compare a variant or write a variant id
    as a string literal."""
    quoted = "|".join(re.escape(i) for i in ids)
    comparing = re.compile(r"variant\s*(===?|!==?)")
    literal = re.compile(rf"""(["'`])({quoted})\1""")
    return [
        (number, line.strip())
        for number, line in enumerate(text.splitlines(), start=1)
        if comparing.search(line) or literal.search(line)
    ]


def test_the_scan_finds_a_comparison_and_a_variant_id_literal() -> None:
    sample = 'const a = 1;\nif (view.variant === "plaza") x();\nconst id = `haitian`;\n'
    assert naming(sample, list(VARIANTS)) == [
        (2, 'if (view.variant === "plaza") x();'), (3, "const id = `haitian`;"),
    ]
    assert naming('t(`about.${v.id}`); v.id === saved.id;', list(VARIANTS)) == []


def test_no_web_module_compares_a_variant_or_names_one() -> None:
    found = [
        f"{path.name}:{number}: {line}"
        for path in sorted(WEB.glob("*.js"))
        for number, line in naming(path.read_text(encoding="utf-8"), list(VARIANTS))
    ]
    assert found == []


# What the server says, against the rules ------------------------------------------------------


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    """The real app on a temporary SQLite store, with a fake clock."""
    async with running(sqlite_url(tmp_path)) as srv:
        yield srv


async def catalog(server: Server) -> dict[str, Any]:
    """GET /api/variants."""
    reply = await server.http.get("/api/variants")
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


async def served(server: Server, variant: str, players: int) -> dict[str, Any]:
    """The traits of ``variant`` with ``players`` seats as /api/variants gives them."""
    entry = next(v for v in (await catalog(server))["variants"] if v["id"] == variant)
    traits: dict[str, Any] = entry["traits"][str(players)]
    return traits


def viewed(variant: str, players: int) -> dict[str, Any]:
    """The traits in seat 0's VIEW of a match of ``variant`` with ``players`` seats."""
    match = Match(variant, players, rng=Random(7))
    match.deal_hand()
    traits: dict[str, Any] = view_json(view(match, 0), None, None)["traits"]
    return traits


async def everywhere(server: Server, variant: str, players: int) -> dict[str, Any]:
    """The traits a client is given for ``variant`` with ``players`` seats: the same from
    /api/variants, in a view, and from the rules."""
    api = await served(server, variant, players)
    assert api == viewed(variant, players) == get_rules(variant).traits(players).json()
    return api


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
async def test_every_variant_gives_the_same_traits_in_the_catalog_and_its_views(
    server: Server, variant: str, players: int
) -> None:
    traits = await everywhere(server, variant, players)
    assert set(traits) == {f.name for f in Traits.__dataclass_fields__.values()}
    assert traits["title"] == get_rules(variant).title


async def test_the_catalog_gives_traits_for_every_seat_count_and_nothing_else(
    server: Server,
) -> None:
    for entry in (await catalog(server))["variants"]:
        assert list(entry["traits"]) == [str(n) for n in entry["seat_counts"]], entry["id"]


async def test_partnership_lays_no_double_crosswise(server: Server) -> None:
    assert (await everywhere(server, "partnership", 4))["crosswise_doubles"] is False


@pytest.mark.parametrize(("variant", "players"), [
    (v, n) for v, n in SEATINGS if get_rules(v).board == "line" and v != "partnership"
])
async def test_every_other_line_game_lays_its_doubles_crosswise(
    server: Server, variant: str, players: int
) -> None:
    assert (await everywhere(server, variant, players))["crosswise_doubles"] is True


async def test_mexican_train_is_played_on_trains_with_a_double_twelve_set(server: Server) -> None:
    traits = await everywhere(server, "mexican-train", 4)
    assert (traits["board"], traits["top"]) == ("trains", 12)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "mexican-train"])
async def test_the_other_games_are_played_on_a_line_with_a_double_six_set(
    server: Server, variant: str
) -> None:
    traits = await everywhere(server, variant, get_rules(variant).default_players)
    assert (traits["board"], traits["top"]) == ("line", 6)


@pytest.mark.parametrize(("players", "penalties"), [(2, False), (3, True), (4, True)])
async def test_haitian_scores_penalties_and_crowns_a_wa_with_three_or_four_players(
    server: Server, players: int, penalties: bool
) -> None:
    traits = await everywhere(server, "haitian", players)
    assert (traits["penalties"], traits["wa"]) == (penalties, penalties)


@pytest.mark.parametrize("players", get_rules("mexican-train").seat_counts)
async def test_mexican_train_scores_penalties_and_crowns_no_wa(
    server: Server, players: int
) -> None:
    traits = await everywhere(server, "mexican-train", players)
    assert (traits["penalties"], traits["wa"]) == (True, False)


@pytest.mark.parametrize("variant", ["partnership", "plaza", "plaza-partners", "haitian-partners"])
async def test_the_games_to_a_target_score_points_and_crown_no_wa(
    server: Server, variant: str
) -> None:
    traits = await everywhere(server, variant, get_rules(variant).default_players)
    assert (traits["penalties"], traits["wa"]) == (False, False)


async def test_mexican_train_has_thirteen_rounds(server: Server) -> None:
    assert (await everywhere(server, "mexican-train", 3))["rounds"] == 13


@pytest.mark.parametrize(("variant", "players"), [
    (v, n) for v, n in SEATINGS if v != "mexican-train"
])
async def test_no_other_game_fixes_its_number_of_hands(
    server: Server, variant: str, players: int
) -> None:
    assert (await everywhere(server, variant, players))["rounds"] is None


async def test_mexican_train_draws_its_tiles_in_colour_and_always_shows_its_stock(
    server: Server,
) -> None:
    traits = await everywhere(server, "mexican-train", 2)
    assert (traits["colored_tiles"], traits["stock_always_shown"]) == (True, True)


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v != "mexican-train"])
async def test_the_double_six_games_draw_plain_tiles_and_show_the_stock_while_it_matters(
    server: Server, variant: str
) -> None:
    traits = await everywhere(server, variant, get_rules(variant).default_players)
    assert (traits["colored_tiles"], traits["stock_always_shown"]) == (False, False)


async def test_only_partnership_is_for_people_only(server: Server) -> None:
    only = [v for v, n in SEATINGS if (await everywhere(server, v, n))["people_only"]]
    assert only == ["partnership"]


async def test_the_team_games_are_partnership_and_the_partners_games(server: Server) -> None:
    teams = {v for v, n in SEATINGS if (await everywhere(server, v, n))["teams"]}
    assert teams == {"partnership", "plaza-partners", "haitian-partners"}


async def test_the_catalog_names_haitian_as_the_game_offered_first(server: Server) -> None:
    body = await catalog(server)
    assert body["default"] == DEFAULT_VARIANT == "haitian"
    assert body["default"] in [v["id"] for v in body["variants"]]


def test_traits_are_built_once_per_variant_and_seat_count() -> None:
    rules = get_rules("haitian")
    assert traits_json(rules, 3) is traits_json(rules, 3)
    assert traits_json(rules, 3) is not traits_json(rules, 2)
    first = view_message(view(Match("haitian", 3, rng=Random(1)), 0), None, None).traits
    again = view_message(view(Match("haitian", 3, rng=Random(2)), 1), None, None).traits
    assert first is again, "encoded once, carried as it is in every view"


# A variant defined only here --------------------------------------------------------------------


class Muggins(Rules):
    """A line game each for themself with a stock, doubles in line and the others' pips to
    the one who goes out: defined only by its rules, as a new module under kabes.rules is."""

    id = "muggins-test"
    title = "Muggins (test)"
    seat_counts = (2, 3)
    default_players = 2
    crosswise_doubles = False

    def option_specs(self, players: int) -> dict[str, OptionSpec]:
        """Played to 61."""
        return {"target": OptionSpec("target", 61, (61, 121))}

    def new_hand(
        self, state: MatchState, deal: list[list[Tile]], stock: list[Tile], leader: int | None
    ) -> LineHand:
        """Seat 0 leads the first hand, then the last hand's winner."""
        return LineHand(deal, stock, state.next_leader or 0)

    def score(self, state: MatchState, end: HandEnd) -> Scored:
        """Whoever went out (or blocked it) scores every other hand's pips."""
        totals = party_counts(state, end.hands)
        points = [0] * state.parties
        points[end.seat] = sum(totals) - totals[end.seat]
        return Scored(end.seat, tuple(points), add(state.scores, points))

    def next_leader(self, state: MatchState, end: HandEnd, scored: Scored) -> int:
        """The hand's winner leads the next."""
        assert scored.winner is not None
        return scored.winner

    def winners(self, state: MatchState) -> tuple[int, ...] | None:
        """The first at or over the target."""
        assert state.options.target is not None
        return reached(state, state.options.target)

    def scoring_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, counts: list[int]
    ) -> list[Step]:
        """No words of its own: the ending and the counts say it."""
        return []

    def leader_steps(
        self, state: MatchState, end: HandEnd, scored: Scored, leader: int, counts: list[int]
    ) -> list[Step]:
        """The winner leads."""
        rule = "blocked" if end.ending is Ending.BLOCKED else "winner"
        return [step(ex.NEXT_LEADER, seat=leader, rule=rule, previous=end.leader)]


@pytest.fixture
def muggins(monkeypatch: pytest.MonkeyPatch) -> Muggins:
    """Muggins registered among the variants for one test (and the server it runs)."""
    rules = Muggins()
    monkeypatch.setitem(VARIANTS, rules.id, rules)
    return rules


async def test_a_new_line_variant_defined_only_by_its_rules_is_served_with_its_traits(
    muggins: Muggins, server: Server
) -> None:
    rules = muggins
    entry = next(v for v in (await catalog(server))["variants"] if v["id"] == rules.id)
    assert entry["title"] == "Muggins (test)"
    expected = {
        "title": "Muggins (test)", "board": "line", "top": 6, "teams": False,
        "people_only": False, "penalties": False, "wa": False, "rounds": None,
        "crosswise_doubles": False, "colored_tiles": False, "stock_always_shown": False,
    }
    assert entry["traits"] == {"2": expected, "3": expected}

    _, token = await server.guest()
    table = await server.open_table(token, variant=rules.id, players=3,
                                    computers={"1": "casual", "2": "casual"})
    sock, welcome = await server.connect(table["code"], token)
    assert welcome["view"]["variant"] == rules.id
    assert welcome["view"]["traits"] == expected
    sock.send({"type": "start", "id": "go"})
    update = await sock.until("update")
    while update["view"]["hand_number"] < 1:
        assert update["view"]["traits"] == expected
        update = await sock.until("update")
    assert update["view"]["traits"] == expected
