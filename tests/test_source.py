"""Unit tests of watchlint/source.py: decoding, byte offsets to code-point positions, reading files, display paths."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from watchlint import source
from watchlint.source import SourceError, SourceLines, Span, decode_source, display_path, read_source


def offset_of(data: bytes, marker: bytes) -> int:
    index = data.find(marker)
    assert index != -1, f"{marker!r} not in {data!r}"
    return index


@pytest.mark.parametrize(
    ("data", "marker", "expected"),
    [
        (b"package main\n", b"main", (1, 9)),
        ('x := "é" // X\n'.encode(), b"X", (1, 13)),
        ("日本 = 1\nfoo 日本 X\n".encode(), b"X", (2, 8)),
        ("s = '😀'; X = 1\n".encode(), b"X", (1, 10)),
        ("é日😀X\n".encode(), b"X", (1, 4)),
        ("a\n😀😀\nbcé X".encode(), b"X", (3, 5)),
    ],
    ids=["ascii", "two-byte-e-acute", "three-byte-cjk-second-line", "four-byte-emoji", "mixed", "third-line"],
)
def test_position_counts_code_points_from_one(data: bytes, marker: bytes, expected: tuple[int, int]) -> None:
    assert decode_source(data, "f.go").position(offset_of(data, marker)) == expected


def test_position_of_first_byte_and_line_starts() -> None:
    file = decode_source("é\n日本\n\nx".encode(), "f.py")
    assert file.line_starts == (0, 3, 10, 11)
    assert [file.position(start) for start in file.line_starts] == [(1, 1), (2, 1), (3, 1), (4, 1)]


def test_position_at_end_of_line_is_after_last_code_point() -> None:
    data = "日本\n".encode()
    assert decode_source(data, "f.go").position(data.index(b"\n")) == (1, 3)


def test_span_converts_both_ends_and_keeps_the_display_path() -> None:
    data = "// é\nfunc 日本() {}\n".encode()
    file = decode_source(data, "internal/x.go")
    start = data.index("日本".encode())
    assert file.span(start, start + len("日本()".encode())) == Span("internal/x.go", 2, 6, 2, 10)


@pytest.mark.parametrize(
    "text",
    ["abc\ndef\n", "é日😀\nx😀y\n\nz", "a\r\nbé\r\nc", "日本\r😀\rx"],
    ids=["ascii", "multi-byte", "crlf", "lone-cr"],
)
def test_offset_inverts_position_at_every_code_point(text: str) -> None:
    file = decode_source(text.encode(), "f.go")
    # Between the CR and the LF of a CRLF is no code-point position of the line, so it is left out.
    boundaries = [
        len(text[:index].encode())
        for index in range(len(text) + 1)
        if index == 0 or text[index - 1 : index + 1] != "\r\n"
    ]
    assert [file.offset(*file.position(boundary)) for boundary in boundaries] == boundaries


def test_offset_of_known_position() -> None:
    file = decode_source("é\n日本X\n".encode(), "f.go")
    assert file.offset(2, 3) == len("é\n日本".encode())


def test_utf8_bom_is_stripped_and_offsets_start_after_it() -> None:
    file = decode_source(b"\xef\xbb\xbfpackage main\n", "f.go")
    assert file.data == b"package main\n"
    assert file.text == "package main\n"
    assert file.position(0) == (1, 1)


def test_crlf_is_kept_and_lines_split_on_lf() -> None:
    file = decode_source(b"a\r\nbb\r\nc", "f.go")
    assert file.data == b"a\r\nbb\r\nc"
    assert file.line_starts == (0, 3, 7)
    assert [file.line_bytes(line) for line in (1, 2, 3)] == [b"a", b"bb", b"c"]
    assert file.position(7) == (3, 1)


def test_lone_cr_becomes_lf_without_moving_offsets() -> None:
    raw = b"a\rbb\rc"
    file = decode_source(raw, "f.go")
    assert file.data == b"a\nbb\nc"
    assert len(file.data) == len(raw)
    assert file.line_starts == (0, 2, 5)
    assert file.position(raw.index(b"c")) == (3, 1)


def test_mixed_lone_cr_and_crlf_count_one_line_each() -> None:
    file = decode_source(b"a\r\r\nb\rc\n", "f.go")
    assert file.data == b"a\n\r\nb\nc\n"
    assert [file.line_bytes(line) for line in (1, 2, 3, 4)] == [b"a", b"", b"b", b"c"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfep\x00a\x00", "file is UTF-16 encoded; only UTF-8 source is analyzed"),
        (b"\xfe\xff\x00p\x00a", "file is UTF-16 encoded; only UTF-8 source is analyzed"),
        (b"package main\x00\x01\x02", "file is binary (contains NUL bytes)"),
        (b"\xef\xbb\xbf\x00", "file is binary (contains NUL bytes)"),
        (b"\xff\n", "file is not valid UTF-8 (invalid byte at line 1)"),
        (b"package main\n\n// caf\xe9\n", "file is not valid UTF-8 (invalid byte at line 3)"),
        (b"a\r\nb\r\n\xc3(\r\n", "file is not valid UTF-8 (invalid byte at line 3)"),
        ("x\ny = '日".encode()[:-1], "file is not valid UTF-8 (invalid byte at line 2)"),
    ],
    ids=[
        "utf16-le-bom",
        "utf16-be-bom",
        "nul-bytes",
        "nul-after-utf8-bom",
        "invalid-first-line",
        "latin1-third-line",
        "invalid-crlf-third-line",
        "truncated-at-eof",
    ],
)
def test_decode_source_rejects_non_utf8_text(data: bytes, message: str) -> None:
    with pytest.raises(SourceError) as raised:
        decode_source(data, "f.go")
    assert str(raised.value) == message


def test_invalid_utf8_line_counts_lone_cr_line_breaks() -> None:
    with pytest.raises(SourceError) as raised:
        decode_source(b"a\rb\r\xff\r", "f.go")
    assert str(raised.value) == "file is not valid UTF-8 (invalid byte at line 3)"


def test_read_source_reads_and_names_the_file_as_shown(tmp_path: Path) -> None:
    (tmp_path / "main.go").write_bytes(b"\xef\xbb\xbfpackage main\r\n")
    file = read_source(tmp_path / "main.go", "cmd/main.go")
    assert (file.path, file.data) == ("cmd/main.go", b"package main\r\n")


@pytest.mark.parametrize(
    ("relative", "message"),
    [
        ("missing.go", "cannot read file: No such file or directory"),
        ("folder.go", "cannot read file: Is a directory"),
    ],
    ids=["missing", "directory"],
)
def test_read_source_turns_os_errors_into_source_errors(tmp_path: Path, relative: str, message: str) -> None:
    (tmp_path / "folder.go").mkdir()
    with pytest.raises(SourceError) as raised:
        read_source(tmp_path / relative, relative)
    assert str(raised.value) == message


def test_read_source_skips_files_over_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 1024 * 1024)
    (tmp_path / "big.go").write_bytes(b"a" * (1024 * 1024 + 1))
    with pytest.raises(SourceError) as raised:
        read_source(tmp_path / "big.go", "big.go")
    assert str(raised.value) == "file is larger than 1 MB; skipped"


def test_read_source_accepts_a_file_of_exactly_the_size_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 64)
    (tmp_path / "edge.go").write_bytes(b"a" * 64)
    assert read_source(tmp_path / "edge.go", "edge.go").data == b"a" * 64


def _fill_pipe(path: Path, data: bytes) -> threading.Thread:
    """A thread writing `data` to a named pipe once a reader opens it: a file that reports a size of 0."""
    os.mkfifo(path)
    writer = threading.Thread(target=path.write_bytes, args=(data,))
    writer.start()
    return writer


def test_read_bytes_reads_past_the_size_the_file_reports(tmp_path: Path) -> None:
    data = b"package x\n" * 300_000  # more than one read of a pipe, and than the 1 MiB each later read asks
    writer = _fill_pipe(tmp_path / "pipe.go", data)
    try:
        assert source.read_bytes(tmp_path / "pipe.go") == data
    finally:
        writer.join()


def test_read_bytes_refuses_a_file_that_grows_past_the_size_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(source, "MAX_FILE_BYTES", 64)
    writer = _fill_pipe(tmp_path / "pipe.go", b"a" * 65)
    try:
        with pytest.raises(SourceError) as raised:
            source.read_bytes(tmp_path / "pipe.go")
        assert str(raised.value) == "file is larger than 0 MB; skipped"
    finally:
        writer.join()


@pytest.mark.parametrize(
    ("target", "cwd", "expected"),
    [
        ("repo/internal/x.go", "", "repo/internal/x.go"),
        ("repo/internal/x.go", "repo", "internal/x.go"),
        ("repo", "repo", "."),
        ("repo/x.go", "other", "../repo/x.go"),
        ("x.go", "a/b", "../../x.go"),
    ],
    ids=["below", "inside", "itself", "sibling", "two-up"],
)
def test_display_path_is_relative_posix(tmp_path: Path, target: str, cwd: str, expected: str) -> None:
    assert display_path(tmp_path / target, tmp_path / cwd) == expected


def test_display_path_defaults_to_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "repo").mkdir()
    monkeypatch.chdir(tmp_path / "repo")
    assert display_path(tmp_path / "repo" / "cmd" / "main.go") == "cmd/main.go"
    assert display_path(tmp_path / "main.go") == "../main.go"


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"a\nbb\n", ["a", "bb"]),
        (b"a\r\nbb\r\nc", ["a", "bb", "c"]),
        (b"a\rbb\rc", ["a", "bb", "c"]),
        ("\ufeffé\n日本\n".encode(), ["é", "日本"]),
    ],
    ids=["lf", "crlf", "lone-cr", "bom-and-multi-byte"],
)
def test_source_lines_returns_lines_without_breaks(tmp_path: Path, data: bytes, lines: list[str]) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "f.go").write_bytes(data)
    reader = SourceLines(tmp_path)
    assert [reader.line("pkg/f.go", number) for number in range(1, len(lines) + 1)] == lines


@pytest.mark.parametrize("line", [0, -1, 4, 100], ids=["zero", "negative", "past-end", "far-past-end"])
def test_source_lines_out_of_range_is_none(tmp_path: Path, line: int) -> None:
    (tmp_path / "f.go").write_bytes(b"a\nb\nc")
    assert SourceLines(tmp_path).line("f.go", line) is None


def test_source_lines_line_after_final_newline_is_out_of_range(tmp_path: Path) -> None:
    (tmp_path / "f.go").write_bytes(b"a\nb\n")
    assert SourceLines(tmp_path).line("f.go", 3) is None


@pytest.mark.parametrize(
    ("files", "path"),
    [
        ({}, "missing.go"),
        ({"bin.go": b"package x\x00"}, "bin.go"),
        ({"utf16.py": b"\xff\xfex\x00"}, "utf16.py"),
        ({"latin1.go": b"// caf\xe9\n"}, "latin1.go"),
    ],
    ids=["missing", "binary", "utf16", "invalid-utf8"],
)
def test_source_lines_unreadable_file_gives_none(tmp_path: Path, files: dict[str, bytes], path: str) -> None:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    assert SourceLines(tmp_path).line(path, 1) is None


def test_source_lines_defaults_to_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "f.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert SourceLines().line("f.py", 1) == "x = 1"


@given(st.text(alphabet="a\n\ré", max_size=40))
def test_line_starts_are_the_offsets_after_each_line_feed(text: str) -> None:
    file = decode_source(text.encode(), "f.go")
    expected = (0, *(index + 1 for index, byte in enumerate(file.data) if byte == ord("\n")))
    assert file.line_starts == expected
