"""Tournaments as the server runs them: their store (an append-only log per tournament), the
service behind the routes, and the rounds in play (tables opened, seated, results read back).
The formats and pairings themselves are ``kabes.tournaments``, pure.

May import: ``hub`` and what it may, and ``kabes.tournaments``; never ``lobby`` or ``http``.
"""
