"""One configuration (issue 17 step 6): every setting of ``kabes serve`` is a field of
ServerConfig with a flag and a ``KABES_*`` variable, a flag beats its variable, a bad value
is refused naming the variable, and docs/server.md's table lists exactly those settings with
their defaults; a real ``kabes serve`` configured by its environment alone serves with it."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner
from wsclient import HOST, KABES, Client, ServerProcess, auth, guest

import kabes.cli.serve
from kabes.cli.app import app
from kabes.server.common.config import (
    KINDS,
    SETTINGS,
    ConfigError,
    ServerConfig,
    Settings,
    about,
    load,
)

DOCS = Path(__file__).parents[2] / "docs" / "server.md"
FIELDS = [item.name for item in dataclasses.fields(ServerConfig)]
SAMPLES: dict[str, tuple[str, object]] = {
    "host": ("0.0.0.0", "0.0.0.0"),
    "port": ("8123", 8123),
    "db": ("postgresql://kabes@db/kabes", "postgresql://kabes@db/kabes"),
    "turn_seconds": ("7.5", 7.5),
    "away_seconds": ("2", 2.0),
    "pause_seconds": ("0", 0.0),
    "abandon_seconds": ("90", 90.0),
    "seat_wait_seconds": ("20", 20.0),
    "tournament_wait_seconds": ("15", 15.0),
    "tournament_max_entrants": ("64", 64),
    "seat_sockets": ("2", 2),
    "computer_delay": ("0.25", 0.25),
    "expert_budget": ("0.05", 0.05),
    "fixed_budget": ("yes", True),
    "workers": ("3", 3),
    "log_level": ("debug", "debug"),
    "redis": ("redis://cache:6379/0", "redis://cache:6379/0"),
    "advertise": ("http://me:8123", "http://me:8123"),
    "redis_prefix": ("kabes-test:", "kabes-test:"),
    "lease_seconds": ("3", 3.0),
    "rate_limits": ("off", False),
    "allow_origin": ("https://play.example.org", "https://play.example.org"),
    "metrics_token": ("s3cret", "s3cret"),
    "trusted_proxies": ("10.0.0.2", "10.0.0.2"),
    "guests_per_minute": ("3", 3),
    "tables_per_minute": ("4", 4),
    "seats_held": ("2", 2),
    "link_codes_per_minute": ("5", 5),
    "sockets_per_address": ("8", 8),
    "link_codes_per_network": ("7", 7),
    "wrong_link_codes_per_minute": ("50", 50),
    "api_docs": ("yes", True),
    "searches_waiting": ("2", 2),
    "offline_pack": ("/srv/kabes/offline", "/srv/kabes/offline"),
    "language": ("fr", "fr"),
    "public_url": ("https://kabes.example.org", "https://kabes.example.org"),
}
"""A variable's text for each field, and the value it must give (never the default)."""
ENVIRONMENT = {about(name).variable: text for name, (text, _) in SAMPLES.items()}
runner = CliRunner()


def invoke(args: list[str], env: dict[str, str]) -> tuple[Any, list[ServerConfig]]:
    """``kabes`` with ``args`` in a clean ``KABES_*`` environment plus ``env``; the configs
    it would have served with (the server itself is not started)."""
    served: list[ServerConfig] = []
    blank = {variable: None for variable in (it.variable for it in SETTINGS.values())}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kabes.cli.serve, "serve", served.append)
        result = runner.invoke(app, args, env={**blank, **env, "COLUMNS": "200"})
    return result, served


def flat(text: str) -> str:
    """Rich's boxed output as one line of words (panels wrap and frame error messages)."""
    return " ".join(text.replace("│", " ").split())


# Every flag has a variable --------------------------------------------------------------


def test_every_field_is_a_flag_with_a_variable_and_nothing_else_is() -> None:
    command = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    options = {param.name: param.opts for param in command.params if param.name != "help"}
    assert list(options) == FIELDS
    for name in FIELDS:
        assert options[name] == [about(name).flag]
    variables = [about(name).variable for name in FIELDS]
    assert len(set(variables)) == len(FIELDS)
    assert all(re.fullmatch(r"KABES_[A-Z_]+", variable) for variable in variables)
    assert about("db").variable == "KABES_DATABASE_URL"
    assert about("turn_seconds").variable == "KABES_TURN_SECONDS"
    assert set(SAMPLES) == set(FIELDS), "a new field needs a sample value here"


def test_help_shows_every_flag_and_its_variable() -> None:
    result, served = invoke(["serve", "--help"], {})
    assert result.exit_code == 0, result.output
    assert not served
    shown = flat(result.output)
    for name in FIELDS:
        assert about(name).flag in shown
        assert f"Env: {about(name).variable}." in shown


# Variables and flags --------------------------------------------------------------------


def test_each_variable_sets_its_value() -> None:
    config = load({}, ENVIRONMENT)
    for name, (_, value) in SAMPLES.items():
        assert getattr(config, name) == value, name
        assert getattr(ServerConfig(), name) != value, f"{name}'s sample is its default"


def test_the_command_reads_the_variables() -> None:
    result, served = invoke(["serve"], ENVIRONMENT)
    assert result.exit_code == 0, result.output
    assert served == [load({}, ENVIRONMENT)]
    assert served[0].turn_seconds == 7.5


def test_a_flag_beats_its_variable_even_at_the_default() -> None:
    env = {"KABES_TURN_SECONDS": "7.5", "KABES_PORT": "9000", "KABES_WORKERS": "3",
           "KABES_AWAY_SECONDS": "2"}
    result, served = invoke(["serve", "--turn-seconds", "45", "--port", "9100",
                             "--fixed-budget"], env)
    assert result.exit_code == 0, result.output
    (config,) = served
    assert config.turn_seconds == 45.0  # the default, given as a flag, still wins
    assert config.port == 9100
    assert config.fixed_budget
    assert config.workers == 3  # no flag: the variable
    assert config.away_seconds == 2.0
    assert config.pause_seconds == ServerConfig().pause_seconds  # neither: the default


def test_nothing_given_is_the_defaults() -> None:
    result, served = invoke(["serve"], {})
    assert result.exit_code == 0, result.output
    assert served == [ServerConfig()]


def test_an_empty_variable_is_unset() -> None:
    assert load({}, {"KABES_TURN_SECONDS": "", "KABES_DATABASE_URL": ""}) == ServerConfig()


@pytest.mark.parametrize(("env", "message"), [
    ({"KABES_TURN_SECONDS": "abc"}, "KABES_TURN_SECONDS: 'abc' is not a number"),
    ({"KABES_TURN_SECONDS": "0"}, "KABES_TURN_SECONDS: must be at least 0.01, not 0"),
    ({"KABES_EXPERT_BUDGET": "nan"}, "KABES_EXPERT_BUDGET: nan is not a finite number"),
    ({"KABES_PORT": "eighty"}, "KABES_PORT: 'eighty' is not a whole number"),
    ({"KABES_PORT": "70000"}, "KABES_PORT: must be at most 65535, not 70000"),
    ({"KABES_WORKERS": "0"}, "KABES_WORKERS: must be at least 1, not 0"),
    ({"KABES_FIXED_BUDGET": "maybe"}, "KABES_FIXED_BUDGET: 'maybe' is neither yes nor no"),
    ({"KABES_LOG_LEVEL": "loud"},
     "KABES_LOG_LEVEL: 'loud' is not one of debug, info, warning, error"),
    ({"KABES_LEASE_SECONDS": "0.1"}, "KABES_LEASE_SECONDS: must be at least 0.3, not 0.1"),
    ({"KABES_REDIS": "redis://cache:6379/0"}, "KABES_REDIS: needs a PostgreSQL store"),
    ({"KABES_REDIS": "cache:6379", "KABES_DATABASE_URL": "postgresql://kabes@db/kabes"},
     "KABES_REDIS: 'cache:6379' is not a Redis URL"),
])
def test_a_bad_variable_is_refused_naming_it(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load({}, env)
    assert str(caught.value).startswith(message)
    result, served = invoke(["serve"], env)
    assert result.exit_code == 2
    assert not served
    variable, problem = message.split(": ", 1)
    assert f"Invalid value for {variable}: {problem}" in flat(result.output)


def test_a_bad_flag_is_refused_naming_the_flag() -> None:
    result, served = invoke(["serve", "--turn-seconds", "0"], {"KABES_TURN_SECONDS": "9"})
    assert result.exit_code == 2
    assert not served
    assert "--turn-seconds" in flat(result.output)
    with pytest.raises(ConfigError, match=r"^--log-level: 'loud' is not one of"):
        load({"log_level": "loud"}, {"KABES_LOG_LEVEL": "info"})


def test_a_setting_on_by_default_takes_a_value_on_the_command_line() -> None:
    result, served = invoke(["serve", "--rate-limits", "off"], {"KABES_RATE_LIMITS": "on"})
    assert result.exit_code == 0, result.output
    assert served[0].rate_limits is False
    assert served[0].edge.rate_limits is False
    result, served = invoke(["serve", "--rate-limits", "maybe"], {})
    assert result.exit_code == 2 and not served
    assert "--rate-limits: 'maybe' is neither yes nor no" in flat(result.output)


def test_allow_origin_is_repeated_or_comma_separated() -> None:
    result, served = invoke(["serve", "--allow-origin", "https://a.example",
                             "--allow-origin", "https://B.example:8443/, http://c.example"], {})
    assert result.exit_code == 0, result.output
    assert served[0].edge.origins == {"https://a.example", "https://b.example:8443",
                                      "http://c.example"}
    with pytest.raises(ConfigError, match=r"^KABES_ALLOW_ORIGIN: 'a.example' is not an origin"):
        load({}, {"KABES_ALLOW_ORIGIN": "a.example"})
    with pytest.raises(ConfigError, match=r"is not an origin"):
        ServerConfig(allow_origin="https://a.example/play")


def test_built_in_python_it_is_checked_too() -> None:
    with pytest.raises(ConfigError, match=r"^turn_seconds: must be at least 0.01, not 0$"):
        ServerConfig(turn_seconds=0.0)
    with pytest.raises(ConfigError, match=r"^redis: needs a PostgreSQL store"):
        ServerConfig(redis="redis://cache:6379/0", db="sqlite:///kabes.sqlite3")


def test_the_tables_settings_follow_the_config() -> None:
    assert ServerConfig().table(workers=1, review_searches=1) == Settings()
    config = load({}, ENVIRONMENT)
    settings = config.table(workers=3, review_searches=2)
    assert (settings.turn_seconds, settings.away_seconds, settings.pause_seconds,
            settings.computer_delay, settings.expert_budget) == (7.5, 2.0, 0.0, 0.25, 0.05)
    assert not settings.budget_follows_load
    assert (settings.abandon_seconds, settings.seat_sockets) == (90.0, 2)
    assert (settings.workers, settings.review_searches) == (3, 2)
    assert config.advertised == "http://me:8123"
    assert ServerConfig(port=8123).advertised == "http://127.0.0.1:8123"


# The documented table -------------------------------------------------------------------


def documented() -> list[list[str]]:
    """docs/server.md's table of settings: its rows' cells."""
    text = DOCS.read_text()
    start = text.index("| flag | environment variable | default | meaning |")
    rows = []
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows


def shown(name: str) -> str:
    """How docs/server.md writes field ``name``'s default."""
    value = getattr(ServerConfig(), name)
    if value is None:
        return about(name).unset
    if KINDS[name] is bool:
        return "on" if value else "off"
    if KINDS[name] is float:
        return f"`{value:g}`"
    return f"`{value}`"


def test_docs_table_lists_exactly_the_settings_with_their_defaults() -> None:
    rows = documented()
    assert [row[0] for row in rows] == [f"`{about(name).flag}`" for name in FIELDS]
    for name, (flag, variable, default, meaning) in zip(FIELDS, rows, strict=True):
        assert variable == f"`{about(name).variable}`", flag
        assert default == shown(name), flag
        assert meaning, flag
        least = about(name).minimum
        if least:
            assert f"at least {least:g}" in meaning, flag


def test_documented_defaults_are_the_old_ones() -> None:
    """The defaults kabes serve had before ServerConfig, so nobody's server changes."""
    config = ServerConfig()
    assert (config.host, config.port, config.db, config.log_level) == (
        "127.0.0.1", 8000, None, "info")
    assert (config.turn_seconds, config.away_seconds, config.pause_seconds,
            config.computer_delay, config.expert_budget, config.fixed_budget) == (
        45.0, 5.0, 30.0, 1.0, 1.0, False)
    assert (config.abandon_seconds, config.seat_sockets) == (600.0, 4)
    # Leases were 5 s until issue 29 (failover under 3 s): 2 s, renewed every third.
    assert (config.workers, config.redis, config.advertise, config.redis_prefix,
            config.lease_seconds) == (None, None, None, "kabes:", 2.0)


# A real server from its environment alone ---------------------------------------------


class EnvOnly(ServerProcess):
    """``kabes serve`` with no argument at all: everything comes from the environment."""

    def argv(self) -> list[str]:
        """The bare command."""
        return [str(KABES), "serve"]


async def test_serve_with_only_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = EnvOnly(tmp_path)
    for it in SETTINGS.values():
        monkeypatch.delenv(it.variable, raising=False)
    monkeypatch.setenv("KABES_HOST", HOST)
    monkeypatch.setenv("KABES_PORT", str(server.port))
    monkeypatch.setenv("KABES_DATABASE_URL", server.db)
    monkeypatch.setenv("KABES_TURN_SECONDS", "7.5")
    monkeypatch.setenv("KABES_WORKERS", "1")
    monkeypatch.setenv("KABES_LOG_LEVEL", "warning")
    try:
        await server.start()  # waits for /healthz on KABES_HOST:KABES_PORT
        async with httpx.AsyncClient(base_url=server.base, trust_env=False) as http:
            health = await http.get("/healthz")
            assert health.status_code == 200 and health.json()["ok"], health.text
            tokens = [(await guest(http, name))[1] for name in ("Fabiola", "Esaïe")]
            reply = await http.post("/api/tables", headers=auth(tokens[0]),
                                    json={"variant": "haitian", "players": 2})
            assert reply.status_code == 201, reply.text
            code = reply.json()["code"]
            joined = await http.post(f"/api/tables/{code}/join", headers=auth(tokens[1]))
            assert joined.status_code == 200, joined.text
        host, other = (Client(server.base, code, token) for token in tokens)
        await host.connect()
        await other.connect()
        start = len(host.log)
        await host.send({"type": "start", "id": "start-1"})
        assert (await host.answer("start-1", start))["type"] == "ack"
        update = await host.wait(
            lambda m: m["type"] == "update" and m["view"].get("clock") is not None, start)
        assert update["view"]["clock"]["total_ms"] == 7_500
        assert (tmp_path / "kabes.sqlite3").exists()  # the store KABES_DATABASE_URL named
        await host.drop()
        await other.drop()
    finally:
        server.kill()
