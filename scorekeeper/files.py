"""A file written whole or not at all: what the app keeps beside itself (the dataclasses' kept
code, the kept routes, the compiled catalogues) is read by other processes starting at the same
time, so none of them may ever read half of one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file in ``path``'s folder (made if missing) that then replaces
    ``path`` at once: a reader meanwhile finds the old file or the new one. Raises ``OSError``
    where the folder cannot be written; the new file is removed on any failure."""
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
