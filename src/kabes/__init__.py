"""Kabès: dominoes as people play them in Haiti, the Caribbean and beyond."""

from kabes import native as _native

__version__ = "0.1.0"

_native.install()
"""The expert's hot modules as C where a fresh mypyc build is at hand (``kabes.native``)."""
