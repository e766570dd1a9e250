"""The table server: HTTP API, the table protocol over WebSocket, clocks, the store.

Layers, inward: ``app`` (FastAPI routes and the socket shell) → ``hub`` (live tables) →
``table`` (one actor per table: its clock, sockets and store) → the pure table it drives
(``kabes.table``: state, checks, messages) → the engine.
"""
