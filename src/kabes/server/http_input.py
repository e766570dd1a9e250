"""What every HTTP route reads from a request (its JSON body, its guest token) and the error
it answers with: shared by the route modules so each refuses bad input the same way."""

from __future__ import annotations

from typing import Any

import msgspec
from fastapi import Request

BODY_LIMIT = 16 * 1024
"""A request body over this many bytes is refused (413)."""


class ApiError(Exception):
    """An HTTP error with the protocol's code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object; ApiError ``bad_message`` if it is too big or not one."""
    raw = await request.body()
    if len(raw) > BODY_LIMIT:
        raise ApiError(413, "bad_message", "the request body is over 16 KiB")
    try:
        data = msgspec.json.decode(raw) if raw else {}
    except msgspec.DecodeError as err:
        raise ApiError(422, "bad_message", f"the body is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise ApiError(422, "bad_message", "the body must be a JSON object")
    return data


def bearer_token(request: Request) -> str:
    """The request's guest token; ApiError ``bad_token`` if it sends none."""
    token = optional_token(request)
    if token is None:
        raise ApiError(401, "bad_token", "send Authorization: Bearer <token>")
    return token


def optional_token(request: Request) -> str | None:
    """The request's guest token, or None for a request that sends none."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
