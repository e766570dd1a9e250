"""``kabes serve`` runs the server one function assembles from its configuration
(kabes.server.assembly): a test gets the same server, without running it."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from kabes.server.assembly import assemble
from kabes.server.common.config import ServerConfig
from kabes.server.services import Services


def test_the_server_is_assembled_from_its_configuration(tmp_path: Path) -> None:
    server = assemble(ServerConfig(host="::1", port=8123, workers=1, turn_seconds=7.0),
                      tmp_path)
    try:
        assert server.address == "http://[::1]:8123/"
        assert server.store == f"SQLite file {tmp_path / 'kabes.sqlite3'}"
        app = server.uvicorn.config.app
        assert isinstance(app, FastAPI)
        services = app.state.services
        assert isinstance(services, Services)
        assert services.settings.workers == 1
        assert services.settings.timing.turn_seconds == 7.0
        assert services.processes.patience == 0.0  # alone: no other owner to wait for
    finally:
        server.pool.shutdown(wait=True)
