"""Reading the files a user or a record names: only regular files of a sane size, as UTF-8 text.

A record names its script by path, so a crafted record can point anywhere: at a program, at
``/proc/self/mem`` (which fails to read), at a FIFO (which blocks for ever) or at a device.
Every such file is refused here with a message that says why, before anything reads it.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "a.lua")
>>> _ = open(path, "w").write("return {}")
>>> read_text_file(path, 100)
'return {}'
>>> try:
...     read_text_file("/proc/self/mem", 100)
... except ValueError as exc:
...     print(exc)
/proc/self/mem: not a file of text (it reports no size: a device or a system file)
"""
from __future__ import annotations

import os
import stat
from pathlib import Path


class UnreadableFile(ValueError):
    """A file that cannot be read as text: missing or unreadable, not a regular file, too large,
    or not UTF-8.  ``reason`` says why, ``line`` is where a byte that is not UTF-8 stands (else
    None); the message is ``path[:line]: reason``."""

    def __init__(self, path: str, reason: str, line: int | None = None):
        self.path, self.reason, self.line = path, reason, line
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")


def read_text_file(path: str | Path, limit: int) -> str:
    """The text of a regular file of at most ``limit`` bytes, else :class:`UnreadableFile` (a
    ``ValueError``) naming the file."""
    path = str(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise UnreadableFile(path, f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(info.st_mode):
        raise UnreadableFile(path, "is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise UnreadableFile(path, "not a regular file (a device, a pipe or a socket)")
    if info.st_size == 0 and os.path.realpath(path).startswith(("/proc/", "/sys/")):
        raise UnreadableFile(path, "not a file of text (it reports no size: a device or a system file)")
    if info.st_size > limit:
        raise UnreadableFile(path, f"{info.st_size:,} bytes is too large (at most {limit:,})")
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise UnreadableFile(path, f"cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise UnreadableFile(path, f"too large (over {limit:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableFile(path, f"not UTF-8 text: byte {data[exc.start]:#04x} at offset {exc.start} cannot be "
                                   "read (save it as UTF-8; a program is not text)",
                             data[:exc.start].count(b"\n") + 1) from None
