"""The live tables of one process and, with ``--redis``, of many: the hub that opens, finds and
rebuilds tables, how they are held (alone, or under leases in Redis), the cluster's link
through Redis and the relay of sockets and requests to a table's owner.

May import: ``table``, ``store``, ``compute``, ``kabes.table``, the engine and the server's
shared modules at its root. Never ``lobby``, ``tournaments`` or ``http``.
"""
