"""The table server: HTTP API, the table protocol over WebSocket, clocks, the store.

One room per job, each importing only the rooms below it (tests/test_server_rooms.py):
``common`` (settings, protocol, logs, metrics, limits) under everything; ``store`` and
``compute`` (the computer's workers) on it; ``table`` (one actor per live table, driving the
pure table ``kabes.table``) on them; ``hub`` (live tables, one process or many) on the table;
``lobby`` and ``tournaments`` on the hub; ``http`` (the app, the socket, the routes) on all of
them. At the root: ``processes`` and ``services`` (what the routes share), ``assembly`` (the
whole server from its configuration) and ``runtime`` (how it runs on uvicorn).
"""
