"""Naming a thread for the operating system, so that ``top -H``, ``ps -L``, ``perf`` and
``bench/load.py`` tell the store's writer from the event loop.

Python names a thread only for itself (``threading.Thread.name``) before 3.14; the kernel
keeps a name of its own per thread (``/proc/<pid>/task/<tid>/comm``, 15 bytes), which a
thread may set for itself by writing that file. Where there is no such file (not Linux), or
it cannot be written, nothing changes: a name is a convenience, never a condition.
"""

from __future__ import annotations

import contextlib
import threading

MOST_BYTES = 15
"""The kernel keeps this many bytes of a thread's name (TASK_COMM_LEN, less its NUL)."""


def name_this_thread(name: str) -> None:
    """Give the running thread ``name`` (cut to :data:`MOST_BYTES`) at the OS level."""
    path = f"/proc/self/task/{threading.get_native_id()}/comm"
    with contextlib.suppress(OSError), open(path, "wb") as comm:
        comm.write(name.encode("ascii", "replace")[:MOST_BYTES])
