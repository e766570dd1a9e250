"""What every room of the server shares: its configuration (every setting of ``kabes
serve``), the protocol's messages both ways and their decoding, structured logs, metrics,
rate limits and the sliding window they count in, who a client is behind a proxy, and the
rule of players' names.

May import: ``kabes.table`` and the layers below the server; no other room of the server
(each room imports this one).
"""
