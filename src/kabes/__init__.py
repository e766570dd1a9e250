"""Kabès: dominoes as people play them in Haiti, the Caribbean and beyond."""

__version__ = "0.1.0"
