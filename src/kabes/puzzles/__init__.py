"""Domino puzzles: positions late in a line-game hand whose best move is proven.

A puzzle is a position seen from one seat, with no stock left, where one move scores at least
as well as every other in every deal of the tiles that seat cannot see, and better in one
(``prove``); it is found in finished matches' records (``find``), the computer's own among
them (``matches``). ``model`` is the shape the server stores and sends. See docs/puzzles.md.
"""
