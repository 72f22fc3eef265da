"""Reading YAML: the same data as PyYAML's safe loader, every field's line, and clear errors within hard limits.

Hostile files (alias bombs, deep nesting, tags, merge keys, wrong encodings, control characters, huge files)
give one problem naming the file and the line, quickly, never a traceback or a hang.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ashfall.files import yaml_marks
from ashfall.files.yaml_marks import MAX_DEPTH, MAX_FILE_BYTES, MAX_VALUES, InputError, load_yaml, parse_yaml


def problem(text: str) -> tuple[int | None, str, str]:
    """The one problem ``text`` gives: its line, field path and message."""
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "f.yaml")
    (only,) = caught.value.problems
    return only.line, only.path, only.message


# ----- the same data as yaml.safe_load, with lines -----

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12),
                    st.floats(allow_nan=False, allow_infinity=False),
                    st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=12))
KEYS = st.text("abcdefgh-_ 12", min_size=1, max_size=6)
DOCUMENTS = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
                         max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(DOCUMENTS, st.booleans())
def test_parse_yaml__reads_what_safe_load_reads(document: object, flow: bool) -> None:
    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    assert parse_yaml(text).data == yaml.safe_load(text)


def test_parse_yaml__records_the_line_of_every_key_and_item() -> None:
    marked = parse_yaml("name: x\nweapons:\n  - a\n  - {id: b,\n     damage: 1d6}\n")
    assert marked.lines == {(): 1, ("name",): 1, ("weapons",): 2, ("weapons", 0): 3, ("weapons", 1): 4,
                            ("weapons", 1, "id"): 4, ("weapons", 1, "damage"): 5}


def test_parse_yaml__an_aliased_value_is_reported_at_the_alias() -> None:
    marked = parse_yaml("base: &b {hp: 3}\nuse:\n  - *b\n")
    assert marked.data == {"base": {"hp": 3}, "use": [{"hp": 3}]}
    assert marked.line_of(("use", 0, "hp")) == 3


def test_parse_yaml__an_empty_document_is_none_at_line_1() -> None:
    marked = parse_yaml("# nothing\n")
    assert marked.data is None and marked.line_of(()) == 1


def test_parse_yaml__a_utf8_byte_order_mark_and_crlf_are_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfname: x\r\nhp: 3\r\n")
    marked = load_yaml(path)
    assert marked.data == {"name": "x", "hp": 3} and marked.lines[("hp",)] == 2


# ----- limits -----


def test_alias_bomb__is_refused_at_once_naming_the_alias() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    text = "\n".join(lines) + "\n"
    assert len(text) < 600
    start = time.perf_counter()
    line, path, message = problem(text)
    assert time.perf_counter() - start < 1
    assert line == 7 and path == "a6[0]" and f"more than {MAX_VALUES:,} values" in message and "*a5" in message


def test_values__a_file_just_under_the_budget_loads() -> None:
    text = "x: &x [" + ", ".join(["0"] * 999) + "]\ny: [" + ", ".join(["*x"] * 998) + "]\n"
    assert len(parse_yaml(text).data["y"]) == 998


def test_nesting__deeper_than_the_limit_is_refused_with_its_line() -> None:
    lists = MAX_DEPTH - 1  # under the top-level mapping
    ok = "a: " + "[" * lists + "]" * lists + "\n"
    assert parse_yaml(ok).data is not None
    line, path, message = problem("\n" + "a: " + "[" * (lists + 1) + "]" * (lists + 1) + "\n")
    assert line == 2 and message == f"nested more than {MAX_DEPTH} levels deep" and path.startswith("a[0]")


def test_size__a_file_over_the_cap_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    with pytest.raises(InputError) as caught:
        load_yaml(path)
    assert "larger than the 5 MB" in str(caught.value) and caught.value.problems[0].line == 1


@pytest.mark.parametrize(("text", "line", "path", "fragment"), [
    ("a: !!python/object/apply:os.system [ls]\n", 1, "a", "YAML tags such as"),
    ("a: 1\nb: !custom x\n", 2, "b", "'!custom' are not supported"),
    ("base: &b {x: 1}\nc:\n  <<: *b\n", 3, "c", "merge keys (<<) are not supported"),
    ("? [a]\n: 1\n", 1, "", "a list or mapping cannot be a key"),
    ("{a: 1}: 2\n", 1, "", "a list or mapping cannot be a key"),
    ("a: 1\nb:\n  c: 2\n  c: 3\n", 4, "b.c", "duplicate key"),
    ("a: &a [*a]\n", 1, "a[0]", "refers to the value it is inside"),
    ("a: *nowhere\n", 1, "a", "has no anchor"),
    ("a: 1\n---\nb: 2\n", 2, "", "a second YAML document"),
    ("a: 1\nb: \x1b[31m\n", 2, "", "control character U+001B"),
    ("a: " + "9" * 5000 + "\n", 1, "a", "too many digits"),
    ("a: 2024-02-30\n", 1, "a", "cannot read '2024-02-30'"),
    ("a: [1, 2\n", 2, "", "YAML syntax"),
], ids=["python-tag", "custom-tag", "merge-key", "list-key", "mapping-key", "duplicate-key", "recursive-alias",
        "undefined-alias", "two-documents", "control-character", "huge-integer", "impossible-date", "syntax"])
def test_hostile_yaml__gives_one_problem_with_its_line(text: str, line: int, path: str, fragment: str) -> None:
    got_line, got_path, message = problem(text)
    assert (got_line, got_path) == (line, path) and fragment in message


@pytest.mark.parametrize(("raw", "line", "byte"), [
    (b"name: caf\xe9\n", 1, "0xE9"),
    (b"a: 1\nb: 2\nname: Dave\x92s\n", 3, "0x92"),
    ("name: x\n".encode("utf-16"), 1, "0xFF"),
], ids=["latin-1", "windows-1252", "utf-16"])
def test_not_utf8__names_the_line_of_the_first_bad_byte(tmp_path: Path, raw: bytes, line: int, byte: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(raw)
    with pytest.raises(InputError) as caught:
        load_yaml(path)
    (only,) = caught.value.problems
    assert only.line == line and f"not UTF-8 text (byte {byte})" in only.message


def test_loader__uses_libyaml_when_pyyaml_has_it() -> None:
    if getattr(yaml, "__with_libyaml__", False):
        assert yaml_marks._LOADER is yaml.CSafeLoader


def test_loader__without_libyaml_gives_the_same_data_lines_and_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "name: x\nweapons:\n  - a\n  - &w {id: b, damage: 1d6}\n  - *w\nseed: 12\nok: yes\n"
    fast = parse_yaml(text)
    hostile = ["a: &a [*a]\n", "a: 1\na: 2\n", "a: !!str x\n", "<<: {a: 1}\n", "a: " + "[" * 60 + "]" * 60 + "\n"]
    fast_problems = [problem(h) for h in hostile]
    monkeypatch.setattr(yaml_marks, "_LOADER", yaml.SafeLoader)
    slow = parse_yaml(text)
    assert (slow.data, slow.lines) == (fast.data, fast.lines)
    assert [problem(h) for h in hostile] == fast_problems
