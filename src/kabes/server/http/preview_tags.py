"""The head's Open Graph and Twitter tags of a shared link's page, and the absolute origin
they are written with (kabes.server.http.previews decides what they say).

An app that shows a link's preview reads ``og:title``, ``og:description`` and ``og:image``
(with its type and size), ``og:type``, ``og:url``, and Twitter's ``summary_large_image``
card; each value is HTML-escaped here, whoever chose it (a player's name is anyone's).

``og:image`` and ``og:url`` must be absolute. The origin is ``--public-url`` when the
operator gives one; else the scheme and ``Host`` the request came with (the scheme from
``X-Forwarded-Proto`` behind a trusted proxy, kabes.server.common.proxies), and only when that
``Host`` is a plain host and port: a page asked with any other has no tags. A forged ``Host``
can only change the page sent back to whoever forged it: the server keeps no page, and a cache
keys a page by its ``Host``.
"""

from __future__ import annotations

import html
import re

from fastapi import Request

from kabes.server.http.preview_images import HEIGHT, WIDTH

HOST = re.compile(r"(?:[A-Za-z0-9][A-Za-z0-9.-]{0,252}|\[[0-9A-Fa-f:.]{2,45}\])"
                  r"(?::[0-9]{1,5})?")
"""A ``Host`` written into a page: a name or an address, and a port; nothing else (and no
nested repetition: a long forged ``Host`` is refused in one pass)."""


def tags(title: str, description: str, image: str, kind: str, url: str) -> str:
    """The head's Open Graph and Twitter tags, every value escaped (names are anyone's)."""
    pairs = [("og:title", title), ("og:description", description), ("og:image", image),
             ("og:image:type", "image/png"), ("og:image:width", str(WIDTH)),
             ("og:image:height", str(HEIGHT)), ("og:type", kind), ("og:url", url),
             ("og:site_name", "Kabès")]
    out = [f'<meta property="{p}" content="{html.escape(v, quote=True)}">' for p, v in pairs]
    out += [f'<meta name="{n}" content="{html.escape(v, quote=True)}">' for n, v in (
        ("twitter:card", "summary_large_image"), ("twitter:title", title),
        ("twitter:description", description), ("twitter:image", image))]
    return "\n  ".join(out) + "\n  "


def origin_of(request: Request, public_url: str | None) -> str | None:
    """The absolute origin links are written with: ``--public-url``, else the request's own
    (scheme and ``Host``) if the ``Host`` is a plain host and port; None otherwise."""
    if public_url:
        return public_url
    host = request.headers.get("host", "")
    if not HOST.fullmatch(host):
        return None
    return f"{request.url.scheme}://{host.lower()}"
