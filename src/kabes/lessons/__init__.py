"""Lessons: short steps on real positions, checked by the real engine (docs/lessons.md).

:mod:`model` reads a lesson file, :mod:`position` builds each step's position from its game
record and judges a learner's try, :mod:`check` verifies every claim a lesson makes, and
:mod:`library` holds the shipped lessons as one path per variant.
"""
