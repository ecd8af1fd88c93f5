"""Trailing comments realigned around the lines a fix wrote, as gofmt lays them out."""

from __future__ import annotations

from watchlint.go.trailingcomments import realign


def test_a_run_of_trailing_comments_is_aligned_one_space_after_its_longest_code() -> None:
    text = "\tOwns(&corev1.Secret{}, builder.OnlyMetadata). // a\n\tOwns(&appsv1.StatefulSet{}). // b\n\tDone()\n"
    assert realign(text, {0}) == (
        "\tOwns(&corev1.Secret{}, builder.OnlyMetadata). // a\n"
        "\tOwns(&appsv1.StatefulSet{}).                  // b\n"
        "\tDone()\n"
    )


def test_a_lone_trailing_comment_gets_one_space() -> None:
    assert realign("\tx := 1       // c\n\ty := 2\n", {0}) == "\tx := 1 // c\n\ty := 2\n"


def test_lines_of_another_indentation_or_without_a_comment_end_the_run() -> None:
    text = "\ta := 1 // a\n\t\tbb := 2 // b\n\tccc := 3     // c\n\td := 4\n\te := 5  // e\n"
    assert realign(text, {2}) == "\ta := 1 // a\n\t\tbb := 2 // b\n\tccc := 3 // c\n\td := 4\n\te := 5  // e\n"


def test_slashes_in_strings_and_runes_are_no_comment() -> None:
    text = '\turl := "http://example.com" // home\n\tsep := string(\'/\') + "//" // slashes\n'
    assert realign(text, {0}) == '\turl := "http://example.com" // home\n\tsep := string(\'/\') + "//"   // slashes\n'


def test_comment_lines_block_comments_and_crlf_endings() -> None:
    assert realign("\t// a comment alone\n", {0}) == "\t// a comment alone\n"
    assert realign("\tx := 1 /* inline */   // c\n", {0}) == "\tx := 1 /* inline */   // c\n"
    assert realign("\tx := 1    // c\r\n\tyy := 2 // d\r\n", {0}) == "\tx := 1  // c\r\n\tyy := 2 // d\r\n"


def test_lines_no_fix_wrote_are_left_as_they_are() -> None:
    text = "\tx := 1       // c\n\n\ty := 2       // d\n"
    assert realign(text, {0}) == "\tx := 1 // c\n\n\ty := 2       // d\n"
