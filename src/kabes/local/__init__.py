"""The phone alone (issue 26): what a phone runs with no network, in a Web Worker's Pyodide,
with the same engine, levels, words and table as the server.

- ``table``: :class:`~kabes.local.table.LocalTable`, the pure table (kabes.table) driven for
  one person against the computer, answering with exactly the messages of the server's table
  socket; ``computer``: its computer seats, hints and reviews at a phone's budgets;
  ``client``: the page's messages read as the server reads them; ``phrases``: a ``say``;
- ``lessons``: the lessons' answers (docs/lessons.md), the JSON of ``/api/lessons``, which
  the server serves too: one source for both;
- ``tables``: the tables a page's worker holds, and the one call it makes (JSON in, JSON
  out), which ``web/offline/worker.js`` runs.

Standard library and ``kabes`` only (the offline pack holds this package:
kabes.server.http.offline_pack's PACKAGES); never the server or the terminal.
"""
