"""What becomes of an appended entry: kept, refused by its table's epoch, or not kept at all.

Shared by the store's two writers (the event loop's for PostgreSQL, the SQLite file's own
thread in :mod:`kabes.server.store.file_writer`), which settle each entry's future the same way.
"""

from __future__ import annotations

from collections.abc import Mapping

from kabes.server.store.commits import Pending
from kabes.server.store.tablelog import Lost


class StoreError(Exception):
    """The store could not keep something; nothing of it was kept."""


class Fenced(StoreError, Lost):
    """An entry was refused: its table has been taken by another owner (a newer epoch) since
    the writer took it. The writer no longer owns the table and must drop it."""


def settle(batch: list[Pending], failed: Mapping[int, int | Exception]) -> None:
    """Release the writers of a committed ``batch`` (on the event loop: each future is
    checked and set there only, nothing runs in between). ``failed`` by index in the batch:
    the table's epoch for an entry refused by it (:class:`Fenced`), or the error that kept
    an entry out (:class:`StoreError`); every other entry was kept."""
    for index, item in enumerate(batch):
        if item.done.done():
            continue
        outcome = failed.get(index)
        if outcome is None:
            item.done.set_result(None)
        elif isinstance(outcome, Exception):
            item.done.set_exception(StoreError(f"could not store: {outcome!r}"))
        else:
            item.done.set_exception(fenced(item, outcome))


def fenced(item: Pending, epoch: int) -> Fenced:
    """The refusal of ``item``, whose table is at ``epoch`` now."""
    assert item.entry is not None
    return Fenced(f"table {item.code} is at epoch {epoch}; an entry of epoch "
                  f"{item.entry.epoch} is refused")
