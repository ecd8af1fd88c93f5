"""Source files and spans: reading bytes safely, and converting parser offsets to 1-based code-point positions."""

from __future__ import annotations

import bisect
import functools
import itertools
import os
from dataclasses import dataclass
from pathlib import Path

from watchlint import pickling
from watchlint.frozeninit import direct_init

MAX_FILE_BYTES = 10 * 1024 * 1024  # larger files are generated data, not operator code (DESIGN §2.2)
_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


@direct_init
@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A region of a file; lines and columns are 1-based, columns count code points, the end is exclusive."""

    path: str  # POSIX path as shown to the user (relative to the working directory)
    line: int
    column: int
    end_line: int
    end_column: int


class SourceError(Exception):
    """A file that cannot be analyzed; the message is shown to the user as is."""


@dataclass(frozen=True)
class SourceFile:
    """The bytes a parser sees and the index that maps their offsets back to positions."""

    path: str  # display path
    data: bytes  # UTF-8 without BOM; a lone CR is rewritten to LF so that every parser counts lines alike

    @functools.cached_property
    def line_starts(self) -> tuple[int, ...]:
        """The byte offset of each line's first byte; computed on first use, which a cached unit never makes."""
        starts = [0, *itertools.accumulate(map(len, self.data.splitlines(keepends=True)))]
        if self.data and not self.data.endswith(b"\n"):
            starts.pop()  # the end of an unterminated last line starts no line
        return tuple(starts)

    @property
    def line_count(self) -> int:
        """Lines of text; a final line break ends the last line rather than starting an empty one."""
        ends_with_break = self.data.endswith(b"\n") and len(self.line_starts) > 1
        return len(self.line_starts) - (1 if ends_with_break else 0)

    @property
    def text(self) -> str:
        return self.data.decode("utf-8")

    def line_bytes(self, line: int) -> bytes:
        """Return the bytes of a 1-based line, without its line break."""
        start = self.line_starts[line - 1]
        end = self.line_starts[line] if line < len(self.line_starts) else len(self.data)
        return self.data[start:end].rstrip(b"\r\n")

    def position(self, offset: int) -> tuple[int, int]:
        """Map a byte offset to a 1-based (line, code-point column)."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[index]
        column = len(self.data[start:offset].decode("utf-8", errors="replace")) + 1
        return index + 1, column

    def span(self, start_byte: int, end_byte: int) -> Span:
        line, column = self.position(start_byte)
        end_line, end_column = self.position(end_byte)
        return Span(self.path, line, column, end_line, end_column)

    def offset(self, line: int, column: int) -> int:
        """Map a 1-based (line, code-point column) back to a byte offset."""
        start = self.line_starts[line - 1]
        prefix = self.line_bytes(line).decode("utf-8", errors="replace")[: column - 1]
        return start + len(prefix.encode("utf-8"))


def display_path(path: str | Path, cwd: Path | None = None) -> str:
    """Return `path` relative to the working directory, as a POSIX string."""
    base = os.fspath(cwd) if cwd is not None else os.getcwd()
    text = os.fspath(path)
    prefix = base.rstrip(os.sep) + os.sep
    if os.sep == "/" and text.startswith(prefix) and "/." not in text[len(prefix) - 1 :]:
        return text[len(prefix) :]  # the common case, without relpath's normalising of both paths
    try:
        relative = os.path.relpath(path, base)
    except ValueError:  # another drive on Windows
        relative = str(path)
    return Path(relative).as_posix()


def decode_source(data: bytes, path: str) -> SourceFile:
    """Validate and normalise raw bytes; raise SourceError when they are not UTF-8 text."""
    if data.startswith(_UTF16_BOMS):
        raise SourceError("file is UTF-16 encoded; only UTF-8 source is analyzed")
    if data.startswith(_UTF8_BOM):
        data = data[len(_UTF8_BOM) :]
    if b"\0" in data:
        raise SourceError("file is binary (contains NUL bytes)")
    if b"\r" in data:
        # Same length, so offsets stay valid: CRLF keeps its CR before the LF, a lone CR becomes LF.
        data = data.replace(b"\r\n", b"\0").replace(b"\r", b"\n").replace(b"\0", b"\r\n")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise SourceError(f"file is not valid UTF-8 (invalid byte at line {line})") from None
    return SourceFile(path=path, data=data)


def read_source(path: Path, shown_as: str) -> SourceFile:
    """Read a source file; raise SourceError with a user-facing reason when it cannot be analyzed."""
    try:
        data = read_bytes(path)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise SourceError(f"cannot read file: {reason}") from None
    return decode_source(data, shown_as)


def read_bytes(path: Path) -> bytes:
    """A file's bytes; SourceError when it is larger than MAX_FILE_BYTES, OSError when it cannot be read. The
    size is told by the open file: without a stat of the path first and pathlib's read, a third less time for
    each file a run reads."""
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        size = os.fstat(descriptor).st_size
        if size > MAX_FILE_BYTES:
            raise _too_large()
        chunks = [os.read(descriptor, size + 1)]
        while chunks[-1]:  # until the end: a file may have grown since, or report no size (a pipe)
            if sum(map(len, chunks)) > MAX_FILE_BYTES:
                raise _too_large()
            chunks.append(os.read(descriptor, 1024 * 1024))
        return b"".join(chunks) if len(chunks) > 2 else chunks[0]
    finally:
        os.close(descriptor)


def _too_large() -> SourceError:
    return SourceError(f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; skipped")


class SourceLines:
    """Source lines for reporters, read on demand by display path; unreadable files give no lines."""

    def __init__(self, cwd: Path | None = None) -> None:
        self._cwd = cwd if cwd is not None else Path.cwd()
        self._files: dict[str, SourceFile | None] = {}

    def line(self, path: str, line: int) -> str | None:
        """Return a 1-based line without its line break, or None when it cannot be read."""
        if path not in self._files:
            try:
                self._files[path] = read_source(self._cwd / path, path)
            except SourceError:
                self._files[path] = None
        source = self._files[path]
        if source is None or not 1 <= line <= source.line_count:
            return None
        return source.line_bytes(line).decode("utf-8", errors="replace")


pickling.register(Span)
