"""The server's edge as clients meet it: the ASGI application, the table socket, the guard
(origins, bodies, proxies), rate limits, who is calling, the input every route reads, the
pages and static files of the web client, and the routes by domain (lobby, tournaments, link
codes, lessons).

May import everything below it (``table``, ``compute``, ``store``, ``hub``, ``lobby``,
``tournaments``); nothing imports it but the assembly.
"""
