"""What every HTTP route reads from a request (its JSON body, its guest token): shared by the
route modules, so each refuses bad input the same way the socket does (``protocol.decode_as``,
:class:`~kabes.server.common.protocol.Refused` with the protocol's code)."""

from __future__ import annotations

from typing import TypeVar

from fastapi import Request
from starlette.requests import HTTPConnection

from kabes.server.common.protocol import BODY_LIMIT, ErrorCode, Refused, decode_as

T = TypeVar("T")


async def read_body(request: Request, kind: type[T]) -> T:
    """The request's JSON body as ``kind``; Refused ``bad_message`` (413) if it is too big,
    else the code of the wrong field (protocol.FIELD_CODES) or ``bad_message``."""
    return decode_as(kind, await capped_body(request) or b"{}")


async def capped_body(request: Request) -> bytes:
    """The request's body, refused (413 ``bad_message``) once it is known to be over
    BODY_LIMIT: by its Content-Length before anything is read, else (a chunked body) as soon
    as the chunks read pass it, so a 64 MiB body costs the server one chunk of memory, not
    64 MiB (uvicorn stops reading the socket while a chunk waits)."""
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and int(length) > BODY_LIMIT:
        raise _too_big()
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > BODY_LIMIT:
            raise _too_big()
        chunks.append(chunk)
    return b"".join(chunks)


def _too_big() -> Refused:
    return Refused(ErrorCode.BAD_MESSAGE, f"the request body is over {BODY_LIMIT // 1024} KiB",
                   status=413)


def bearer_token(request: HTTPConnection) -> str:
    """The request's guest token; Refused ``bad_token`` if it sends none."""
    token = optional_token(request)
    if token is None:
        raise Refused(ErrorCode.BAD_TOKEN, "send Authorization: Bearer <token>")
    return token


def optional_token(request: HTTPConnection) -> str | None:
    """The request's guest token, or None for a request that sends none."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


MAX_PAGE = 1_000_000
"""The highest page a listing reads (a million pages of 50 is past any real list)."""


def ranking_page(text: str | None) -> int:
    """A listing's ``?page=N`` (from 1; 1 when absent): ASCII digits only, else Refused
    ``bad_message`` (422)."""
    if text is None:
        return 1
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_PAGE:
        raise Refused(ErrorCode.BAD_MESSAGE,
                      f"page is a whole number from 1 to {MAX_PAGE}", status=422)
    return int(text)
