"""The table server: HTTP API, the table protocol over WebSocket, clocks, the store.

Layers, inward: ``app`` (FastAPI routes and the socket shell) → ``hub`` (live tables) →
``table`` (one actor per table, pure apart from its clock and its store) → the engine.
"""
