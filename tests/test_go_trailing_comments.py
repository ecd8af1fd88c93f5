"""Trailing comments realigned around the lines a fix wrote, as gofmt lays them out."""

from __future__ import annotations

from watchlint.go.trailingcomments import realign

BEFORE = "\tOwns(&corev1.Secret{}).      // a\n\tOwns(&appsv1.StatefulSet{}). // b\n\tDone()\n"


def test_the_section_of_an_edited_line_is_aligned_one_space_after_its_longest_code() -> None:
    after = BEFORE.replace("Owns(&corev1.Secret{}).", "Owns(&corev1.Secret{}, builder.OnlyMetadata).")
    assert realign(BEFORE, after, [(0, 0, 0, 0)]) == (
        "\tOwns(&corev1.Secret{}, builder.OnlyMetadata). // a\n"
        "\tOwns(&appsv1.StatefulSet{}).                  // b\n"
        "\tDone()\n"
    )


def test_a_lone_trailing_comment_gets_one_space() -> None:
    before = "\tx := 1 // c\n\ty := 2\n"
    assert realign(before, before.replace("x := 1", "x := 12345"), [(0, 0, 0, 0)]) == "\tx := 12345 // c\n\ty := 2\n"


def test_neighbours_gofmt_left_in_another_column_are_another_section() -> None:
    """gofmt breaks sections between list items of very different sizes and after a multi-line statement: a
    neighbour whose comment stood elsewhere is left where it is."""
    before = "\t\t&corev1.Secret{}, // the secrets\n\t\tmapper(deploymentsOfSecret), // the deployments\n"
    after = before.replace("mapper(deploymentsOfSecret)", "mapper(deploymentsOfSecret, more)")
    assert realign(before, after, [(1, 1, 1, 1)]) == (
        "\t\t&corev1.Secret{}, // the secrets\n\t\tmapper(deploymentsOfSecret, more), // the deployments\n"
    )


def test_lines_of_another_indentation_or_without_a_comment_end_the_section() -> None:
    before = "\ta := 1 // a\n\t\tb := 2 // b\n\tc := 3 // c\n\td := 4\n\te := 5 // e\n"
    after = before.replace("c := 3", "c := 333")
    assert (
        realign(before, after, [(2, 2, 2, 2)])
        == "\ta := 1 // a\n\t\tb := 2 // b\n\tc := 333 // c\n\td := 4\n\te := 5 // e\n"
    )


def test_slashes_in_strings_and_runes_are_no_comment() -> None:
    before = '\turl := "http://example.com" // home\n\tsep := string(\'/\') + "//"   // slashes\n'
    after = before.replace('"http://example.com"', '"http://example.com/a"')
    assert realign(before, after, [(0, 0, 0, 0)]) == (
        '\turl := "http://example.com/a" // home\n\tsep := string(\'/\') + "//"     // slashes\n'
    )


def test_a_line_inside_a_raw_string_is_never_touched() -> None:
    before = "\tNamed(`deploy\n\tsecrets // x`). // the name\n\tWatches(&corev1.Secret{}, h). // secrets\n"
    after = before.replace("h).", "h, builder.OnlyMetadata).")
    assert realign(before, after, [(2, 2, 2, 2)]) == (
        "\tNamed(`deploy\n\tsecrets // x`). // the name\n"
        "\tWatches(&corev1.Secret{}, h, builder.OnlyMetadata). // secrets\n"
    )


def test_block_comments_crlf_endings_and_moved_lines() -> None:
    before = "\tx := 1 /* inline */ // c\n"
    assert realign(before, before.replace("x := 1", "x := 12"), [(0, 0, 0, 0)]) == "\tx := 12 /* inline */ // c\n"
    before = "\tx := 1  // c\r\n\tyy := 2 // d\r\n"
    assert (
        realign(before, before.replace("x := 1", "x := 123"), [(0, 0, 0, 0)])
        == "\tx := 123 // c\r\n\tyy := 2  // d\r\n"
    )
    # an edit writing lines of its own: the lines after it move, and keep their old section
    before = '\t"a"\n\tx := 1  // c\n\tyy := 2 // d\n'
    after = '\t"a"\n\t"b"\n\tx := 123  // c\n\tyy := 2 // d\n'
    edits = [(0, 0, 0, 1), (1, 1, 2, 2)]
    assert realign(before, after, edits) == '\t"a"\n\t"b"\n\tx := 123 // c\n\tyy := 2  // d\n'
