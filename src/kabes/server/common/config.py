"""The configuration of ``kabes serve``, in one place: every setting is a field of
:class:`ServerConfig` with its default, its flag, its ``KABES_*`` environment variable, its
limits and its meaning, so the command line, the environment, ``--help`` and the table in
docs/server.md all come from here. A flag beats its variable, which beats the default.

:class:`Settings` (the clocks and budgets a table actor runs with) lives here too;
:meth:`ServerConfig.table` derives it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields, replace
from typing import Any, Final, get_type_hints

from kabes.ai.review import REVIEW_BUDGET
from kabes.server.common.proxies import LOOPBACK, TrustedProxies
from kabes.table.state import Timing
from kabes.words import LANGUAGES

PREFIX: Final = "kabes:"
"""The default prefix of every key and channel (``--redis-prefix``)."""
LEASE_SECONDS: Final = 2.0
"""How long a lease lives unless renewed (renewed three times in that span; a table moves about
this long after its owner stopped answering: docs/scaling.md)."""
LOG_LEVELS: Final = ("debug", "info", "warning", "error")
"""The levels ``--log-level`` accepts."""
TRUE: Final = frozenset({"1", "true", "yes", "on"})
"""How an environment variable says yes to a switch (case ignored)."""
FALSE: Final = frozenset({"0", "false", "no", "off"})
"""How an environment variable says no to a switch (case ignored)."""
DEFAULT_LANGUAGE: Final = "ht"
"""The server's default language (``--language``): Kreyòl, Kabès's first."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The clocks of PROTOCOL.md guarantee 4, and how long the expert thinks."""

    turn_seconds: float = 45.0
    away_seconds: float = 5.0
    pause_seconds: float = 30.0
    abandon_seconds: float = 600.0
    """Seconds a table may have no person's socket open before it is over (abandoned)."""
    seat_wait_seconds: float = 60.0
    """Seconds a person seated at a waiting public table may go without a socket open there
    before losing the seat (kabes.server.table.seat_wait)."""
    tournament_wait_seconds: float = 60.0
    """Seconds after a round began that its tables start even with people absent (the
    tournament runner writes each table's start time into its ``created`` entry)."""
    tournament_max_entrants: int = 256
    """Entrants a tournament takes at most (its next ``enter`` is ``tournament_full``)."""
    seat_sockets: int = 4
    """Sockets a seat may hold at once; a new one beyond closes the seat's oldest."""
    computer_delay: float = 1.0
    expert_budget: float = 1.0
    hint_budget: float = 0.5
    review_budget: float = REVIEW_BUDGET
    """Seconds the expert searches each position of a ``review`` (kabes.ai.review)."""
    review_searches: int = 1
    """Hint and review searches a process runs at once, every table together (the slots of
    its lane, kabes.server.compute.lane): ``kabes serve`` makes it its worker processes less
    workers.REVIEW_WORKERS_KEPT_FREE (at least one)."""
    workers: int = 1
    """The worker processes computer seats think in (``kabes serve`` sets it)."""
    searches_waiting: int = 16
    """Hints (and, apart, reviews) the lane takes per slot (workers.Workers)."""
    budget_follows_load: bool = True
    """Whether a computer seat's budget shrinks while the workers are busy
    (kabes.server.compute.computers.load_budget); off, every search gets ``expert_budget``."""

    @property
    def timing(self) -> Timing:
        """The clocks' lengths, as a table's state reads them."""
        return Timing(self.turn_seconds, self.away_seconds, self.pause_seconds)


@dataclass(frozen=True, slots=True)
class Edge:
    """What the HTTP and socket edge lets strangers do (PROTOCOL.md, "Safe for strangers"):
    whether the rate limits hold, which other sites' pages may open the table socket, the
    secret that opens /metrics to another machine, whose X-Forwarded-For is believed,
    whether the API's documentation pages are served, and how a shared link's preview is
    written (its address and language: kabes.server.http.previews)."""

    rate_limits: bool = True
    origins: frozenset[str] = frozenset()
    """Origins (``scheme://host[:port]``, lower case) allowed besides the server's own."""
    metrics_token: str | None = None
    guests_per_minute: int = 10
    tables_per_minute: int = 10
    link_codes_per_minute: int = 10
    sockets_per_address: int = 64
    """Table sockets open at once from one client address (with the rate limits on)."""
    link_codes_per_network: int = 20
    """Link codes tried a minute from one IPv6 /64 network."""
    wrong_link_codes_per_minute: int = 100
    """Wrong link codes a minute from everyone together (PROTOCOL.md: 100)."""
    proxies: TrustedProxies = LOOPBACK
    """Whose X-Forwarded-For names the client (kabes.server.common.proxies)."""
    api_docs: bool = False
    """Whether /docs and /redoc are served (/openapi.json always is)."""
    seats_held: int | None = 3
    """Seats a player may hold at once at tables waiting to start (kabes.server.table.seat_holds);
    None: no cap (in-process tests that open many tables with one guest). ``--seats-held``
    (3, as PROTOCOL.md says); ``--rate-limits off`` leaves it on."""
    public_url: str | None = None
    """The origin people reach the server at (``https://kabes.example.org``), for the absolute
    addresses of previews; None: the request's own ``Host``, if plain."""
    language: str = DEFAULT_LANGUAGE
    """The language of what the server writes for people itself (previews of links)."""


ORIGIN: Final = re.compile(r"https?://[a-z0-9.\-\[\]:]+")
"""What an allowed origin looks like: a scheme and a host, with a port if any, no path."""
TABLE: Final = Settings()
"""The table's defaults, which ``kabes serve``'s clock and budget settings start from."""


@dataclass(frozen=True, slots=True)
class Setting:
    """What ``kabes serve`` knows of one field besides its default: how it is given, checked
    and explained."""

    flag: str
    variable: str
    meaning: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    unset: str = ""
    """What a default of None means (``one per core``), for --help and docs/server.md."""


def setting(
    default: Any,
    meaning: str,
    *,
    variable: str = "",
    minimum: float | None = None,
    maximum: float | None = None,
    choices: tuple[str, ...] = (),
    unset: str = "",
) -> Any:
    """A field of ServerConfig with what the command line and the docs need to know of it;
    its flag and variable follow from the field's name unless ``variable`` is given."""
    return field(default=default, metadata={"setting": Setting(
        "", variable, meaning, minimum, maximum, choices, unset)})


class ConfigError(ValueError):
    """A setting has a value it cannot have; the message names where the value came from
    (the flag or the variable) and what is wrong with it."""

    def __init__(self, name: str, problem: str, source: str | None = None) -> None:
        self.name = name
        """The ServerConfig field."""
        self.problem = problem
        self.source = source or name
        """The flag or variable it came from (the field's name when built in Python)."""
        super().__init__(f"{self.source}: {problem}")


@dataclass(frozen=True)
class ServerConfig:
    """Every setting of ``kabes serve``; build it with :func:`load` from the flags and the
    environment, or directly in Python (tests, benchmarks). Checked when built."""

    host: str = setting("127.0.0.1", "Address to listen on.")
    port: int = setting(8000, "Port to listen on.", minimum=0, maximum=65535)
    db: str | None = setting(
        None, "Store URL: sqlite:///FILE, or postgresql+asyncpg://USER@HOST/DB for PostgreSQL.",
        variable="KABES_DATABASE_URL", unset="kabes.sqlite3 in the current folder")
    turn_seconds: float = setting(TABLE.turn_seconds, "Seconds per turn.", minimum=0.01)
    away_seconds: float = setting(
        TABLE.away_seconds, "Seconds per turn for a seat with no open socket.", minimum=0.01)
    pause_seconds: float = setting(TABLE.pause_seconds, "Seconds between hands.", minimum=0.0)
    abandon_seconds: float = setting(
        TABLE.abandon_seconds, "Seconds a table may have no person connected before it is "
        "over (abandoned).", minimum=0.01)
    seat_wait_seconds: float = setting(
        TABLE.seat_wait_seconds, "Seconds a person seated at a waiting public table may go "
        "without a socket open there before losing the seat.", minimum=0.01)
    tournament_wait_seconds: float = setting(
        TABLE.tournament_wait_seconds, "Seconds after a tournament round began that its "
        "tables start even with people absent.", minimum=0.0)
    tournament_max_entrants: int = setting(
        TABLE.tournament_max_entrants, "Entrants a tournament takes at most; the next enter "
        "is refused 409 tournament_full.", minimum=2)
    seat_sockets: int = setting(
        TABLE.seat_sockets, "Sockets one seat may hold at once; one more closes the seat's "
        "oldest.", minimum=1)
    computer_delay: float = setting(
        TABLE.computer_delay, "Seconds a computer seat waits before moving.", minimum=0.0)
    expert_budget: float = setting(
        TABLE.expert_budget, "Seconds the expert searches per move.", minimum=0.001)
    fixed_budget: bool = setting(
        not TABLE.budget_follows_load,
        "Give every expert search the whole expert budget, however busy the workers (by "
        "default it shrinks while they are busy, never below 0.05 s).")
    workers: int | None = setting(
        None, "Worker processes the computer seats think in.", minimum=1,
        unset="one per core")
    log_level: str = setting("info", "Least level logged: debug, info, warning or error.",
                             choices=LOG_LEVELS)
    redis: str | None = setting(
        None, "Run as one of many processes sharing a PostgreSQL store through this Redis "
        "(redis://HOST:6379/0); see docs/scaling.md.", unset="none (a single process)")
    advertise: str | None = setting(
        None, "With --redis: the address this process is known by.", unset="http://HOST:PORT")
    redis_prefix: str = setting(
        PREFIX, "With --redis: the prefix of every Redis key and channel.")
    lease_seconds: float = setting(
        LEASE_SECONDS, "With --redis: how long a table's lease lives unless renewed (renewed "
        "every third of it; how soon a dead, frozen or cut-off process's tables move). A "
        "process acts for its tables only within three quarters of it from its last renewal.",
        minimum=0.3)
    rate_limits: bool = setting(
        True, "Refuse (429 slow_down) more than 10 guests a minute from one address, 10 "
        "tables a minute from one player, 10 link codes a minute from one address (20 from "
        "one IPv6 /64, 100 wrong ones from everyone); shared through Redis with --redis. off "
        "for benchmarks on one machine.")
    allow_origin: str | None = setting(
        None, "Other sites whose pages may open the table socket, as a browser's Origin "
        "(https://play.example.org): comma-separated, or the flag repeated.",
        unset="none (this server's own pages only)")
    metrics_token: str | None = setting(
        None, "A secret that opens /metrics and /healthz's cluster addresses to a client "
        "sending Authorization: Bearer SECRET from another machine.",
        unset="none (clients on this machine only)")
    trusted_proxies: str = setting(
        "127.0.0.1,::1", "Addresses and networks (CIDR: 10.0.0.0/24) of the reverse proxies "
        "or balancers whose X-Forwarded-For names the client (rate limits, /metrics), "
        "comma-separated; the client is the rightmost address there that is not a trusted "
        "proxy. Every other connection is its own client. * is refused: anyone could claim "
        "any address.")
    guests_per_minute: int = setting(
        10, "With the rate limits on: new guests one client address may make a minute.",
        minimum=1)
    tables_per_minute: int = setting(
        10, "With the rate limits on: tables one player may open a minute.", minimum=1)
    seats_held: int = setting(
        3, "Seats one player may hold at once at tables waiting to start (a tournament's "
        "aside); the next table, join or quick seat is refused 409 too_many_tables. Not a "
        "rate limit: --rate-limits off leaves it on.", minimum=1)
    link_codes_per_minute: int = setting(
        10, "With the rate limits on: link codes one client address may try a minute.",
        minimum=1)
    sockets_per_address: int = setting(
        64, "With the rate limits on: table sockets open at once from one client address "
        "(a club's phones on one Wi-Fi share one); the next is refused at its handshake.",
        minimum=1)
    link_codes_per_network: int = setting(
        20, "With the rate limits on: link codes the addresses of one IPv6 /64 network (one "
        "subscriber's) may try a minute together.", minimum=1)
    wrong_link_codes_per_minute: int = setting(
        100, "With the rate limits on: wrong link codes a minute from everyone together; past "
        "it every try is refused until the minute has passed.", minimum=1)
    api_docs: bool = setting(
        False, "Serve the API's documentation pages /docs and /redoc (Swagger UI and ReDoc, "
        "with their inline script and CDN); /openapi.json is served either way.")
    searches_waiting: int = setting(
        16, "Hints (and, apart, reviews) the workers' lane takes at once per slot, waiting or "
        "searched, every table together; one more is refused slow_down.", minimum=1)
    offline_pack: str | None = setting(
        None, "Folder of the offline pack (Pyodide and the engine, for play with no network: "
        "docs/offline.md), served under /offline/; where it holds none the page offers no "
        "offline play.", unset="offline/pack in the source tree, built by ./scripts/setup")
    language: str = setting(
        DEFAULT_LANGUAGE, "Language of the words the server writes itself: the titles, "
        "descriptions and pictures of shared links' previews (one of "
        f"{', '.join(LANGUAGES)}).", choices=LANGUAGES)
    public_url: str | None = setting(
        None, "The address people reach this server at (https://kabes.example.org), written in "
        "the previews of shared links (og:image, og:url), which must be absolute.",
        unset="the Host each request was sent to, if a plain host and port")

    def __post_init__(self) -> None:
        """Refuse a value a setting cannot have, so a bad configuration stops at start."""
        for name, it in SETTINGS.items():
            problem = _problem(it, getattr(self, name))
            if problem:
                raise ConfigError(name, problem)
        if self.redis is not None:
            if not self.redis.startswith(("redis://", "rediss://", "unix://")):
                raise ConfigError("redis", f"{self.redis!r} is not a Redis URL "
                                  "(redis://HOST:PORT/DB)")
            if not (self.db or "").startswith(("postgresql", "postgres://")):
                raise ConfigError("redis", "needs a PostgreSQL store (--db or "
                                  "KABES_DATABASE_URL postgresql://...): processes on several "
                                  "machines cannot share a SQLite file")
        try:
            TrustedProxies.parse(self.trusted_proxies)
        except ValueError as err:
            raise ConfigError("trusted_proxies", str(err)) from None
        if self.public_url is not None and not ORIGIN.fullmatch(
                self.public_url.rstrip("/").lower()):
            raise ConfigError("public_url", f"{self.public_url!r} is not an address "
                              "(https://HOST or http://HOST:PORT, no path)")
        for origin in self.edge.origins:
            if not ORIGIN.fullmatch(origin):
                raise ConfigError("allow_origin", f"{origin!r} is not an origin "
                                  "(https://HOST or http://HOST:PORT)")

    @property
    def advertised(self) -> str:
        """The address this process is known by in a cluster (--advertise, else its own)."""
        return self.advertise or f"http://{self.host}:{self.port}"

    @property
    def edge(self) -> Edge:
        """What strangers may do at the server's edge, as the app takes it."""
        origins = frozenset(part.strip().rstrip("/").lower()
                            for part in (self.allow_origin or "").split(",") if part.strip())
        return Edge(self.rate_limits, origins, self.metrics_token or None,
                    self.guests_per_minute, self.tables_per_minute,
                    self.link_codes_per_minute, self.sockets_per_address,
                    link_codes_per_network=self.link_codes_per_network,
                    wrong_link_codes_per_minute=self.wrong_link_codes_per_minute,
                    proxies=TrustedProxies.parse(self.trusted_proxies),
                    api_docs=self.api_docs, seats_held=self.seats_held,
                    public_url=(self.public_url.rstrip("/").lower() if self.public_url
                                else None),
                    language=self.language)

    def table(self, workers: int, review_searches: int) -> Settings:
        """The tables' settings once the worker pool's size is known."""
        return Settings(
            turn_seconds=self.turn_seconds,
            away_seconds=self.away_seconds,
            pause_seconds=self.pause_seconds,
            abandon_seconds=self.abandon_seconds,
            seat_wait_seconds=self.seat_wait_seconds,
            tournament_wait_seconds=self.tournament_wait_seconds,
            tournament_max_entrants=self.tournament_max_entrants,
            seat_sockets=self.seat_sockets,
            computer_delay=self.computer_delay,
            expert_budget=self.expert_budget,
            budget_follows_load=not self.fixed_budget,
            workers=workers,
            review_searches=review_searches,
            searches_waiting=self.searches_waiting,
        )


def about(name: str) -> Setting:
    """How ServerConfig's field ``name`` is given, checked and explained."""
    return SETTINGS[name]


def _setting(item: Field[Any]) -> Setting:
    """Field ``item``'s Setting with its flag and variable filled in from its name."""
    it: Setting = item.metadata["setting"]
    return replace(it, flag="--" + item.name.replace("_", "-"),
                   variable=it.variable or "KABES_" + item.name.upper())


SETTINGS: Final[Mapping[str, Setting]] = {item.name: _setting(item)
                                          for item in fields(ServerConfig)}
"""Every field of ServerConfig, in order, with its flag and variable."""
KINDS: Final[Mapping[str, type]] = {
    name: next(t for t in getattr(hint, "__args__", (hint,)) if t is not type(None))
    for name, hint in get_type_hints(ServerConfig).items()
}
"""The type of each field's value, None aside (what a variable's text is read as)."""


def _problem(it: Setting, value: object) -> str:
    """What is wrong with ``value`` for a setting, or "" if nothing."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number"
    if isinstance(value, int | float) and not isinstance(value, bool):
        if it.minimum is not None and value < it.minimum:
            return f"must be at least {it.minimum:g}, not {value:g}"
        if it.maximum is not None and value > it.maximum:
            return f"must be at most {it.maximum:g}, not {value:g}"
    if it.choices and str(value).lower() not in it.choices:
        return f"{value!r} is not one of {', '.join(it.choices)}"
    return ""


def _read(name: str, text: str) -> object:
    """A variable's text as the field's type; ValueError saying why it cannot be."""
    kind = KINDS[name]
    if kind is bool:
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise ValueError(f"{text!r} is neither yes nor no (1/0, true/false, yes/no, on/off)")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a whole number") from None
    if kind is float:
        try:
            return float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
    return text


def load(flags: Mapping[str, object], environ: Mapping[str, str]) -> ServerConfig:
    """The configuration from the flags given on the command line (by field name) and the
    environment's ``KABES_*`` variables: a flag beats its variable, which beats the default;
    an empty variable counts as unset. ConfigError names the flag or variable at fault."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for name, it in SETTINGS.items():
        if name in flags:
            values[name] = flags[name]
            sources[name] = it.flag
            if isinstance(flags[name], str) and KINDS[name] is bool:  # --rate-limits off
                try:
                    values[name] = _read(name, str(flags[name]))
                except ValueError as err:
                    raise ConfigError(name, str(err), it.flag) from None
        elif environ.get(it.variable):
            text = environ[it.variable]
            sources[name] = it.variable
            try:
                values[name] = _read(name, text)
            except ValueError as err:
                raise ConfigError(name, str(err), it.variable) from None
    try:
        return ServerConfig(**values)
    except ConfigError as err:
        raise ConfigError(err.name, err.problem, sources.get(err.name, about(err.name).flag)
                          ) from None
