"""The public place: the lobby's board of public tables and people online (in this process,
or published through Redis), quick seats and their locks, and the seats a player may hold
waiting.

May import: ``hub`` and what it may, never ``tournaments`` or ``http``.
"""
