"""Where the computer thinks: the worker processes, their pool shared by one process's tables,
and the lane that hints and reviews take so that they never hold up a move.

May import: the engine, ``kabes.ai``, and the server's shared modules at its root. Nothing
else of the server: a table hands it positions and gets moves back.
"""
