"""What every HTTP route reads from a request (its JSON body, its guest token): shared by the
route modules, so each refuses bad input the same way the socket does (``protocol.decode_as``,
:class:`~kabes.server.protocol.Refused` with the protocol's code)."""

from __future__ import annotations

from typing import TypeVar

from fastapi import Request

from kabes.server.protocol import BODY_LIMIT, ErrorCode, Refused, decode_as

T = TypeVar("T")


async def read_body(request: Request, kind: type[T]) -> T:
    """The request's JSON body as ``kind``; Refused ``bad_message`` (413) if it is too big,
    else the code of the wrong field (protocol.FIELD_CODES) or ``bad_message``."""
    raw = await request.body()
    if len(raw) > BODY_LIMIT:
        raise Refused(ErrorCode.BAD_MESSAGE, "the request body is over 16 KiB", status=413)
    return decode_as(kind, raw or b"{}")


def bearer_token(request: Request) -> str:
    """The request's guest token; Refused ``bad_token`` if it sends none."""
    token = optional_token(request)
    if token is None:
        raise Refused(ErrorCode.BAD_TOKEN, "send Authorization: Bearer <token>")
    return token


def optional_token(request: Request) -> str | None:
    """The request's guest token, or None for a request that sends none."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
