"""A mailbox (a table's inbox, the store's queue) hands its one reader every item, in the
order they were put, waking it when one comes."""

from __future__ import annotations

import asyncio

import pytest

from kabes.server.common.mailbox import Mailbox


async def test_a_waiting_reader_gets_every_item_in_order() -> None:
    box: Mailbox[int] = Mailbox()
    got: list[int] = []

    async def read() -> None:
        while len(got) < 6:
            got.append(await box.get())

    reader = asyncio.create_task(read())
    await asyncio.sleep(0)  # the reader waits on an empty box
    box.put_nowait(1)
    box.put_nowait(2)
    await asyncio.sleep(0)
    for n in (3, 4, 5, 6):
        box.put_nowait(n)
    await asyncio.wait_for(reader, 2)
    assert got == [1, 2, 3, 4, 5, 6]
    assert box.empty() and box.qsize() == 0


async def test_a_reader_cancelled_while_waiting_leaves_the_box_usable() -> None:
    box: Mailbox[str] = Mailbox()
    waiting = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    box.put_nowait("a")
    assert box.qsize() == 1
    assert await asyncio.wait_for(box.get(), 2) == "a"
    with pytest.raises(IndexError):
        box.get_nowait()
