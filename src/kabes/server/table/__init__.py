"""One live table in this process: the actor that owns a table's state (``kabes.table``, the
pure part) and its collaborators: the inbox, the seats' sockets and limits, the watchers, the
clock, the computer seats, the answers kept for retried actions, presence and phrases.

May import: ``kabes.table``, the engine, ``kabes.ai``, the server's shared modules at its root
(config, logs, metrics, protocol, window), ``store`` and ``compute``. Never ``hub``, ``lobby``,
``tournaments`` or ``http``: a table is told of them through what it is given at construction.
"""
