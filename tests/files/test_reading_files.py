"""Reading a named file: only regular files, read with a bound, so devices, FIFOs and folders never hang a command."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ashfall.files.paths import LINK_NOT_FOLLOWED, NOT_REGULAR, Folders, walk
from ashfall.files.yaml_marks import InputError, load_yaml, read_text


def refused(path: Path) -> str:
    with pytest.raises(InputError) as caught:
        read_text(path)
    (only,) = caught.value.problems
    return only.message


def test_read_text__refuses_dev_zero_without_reading_it() -> None:
    assert "not a regular file" in refused(Path("/dev/zero"))


def test_read_text__refuses_a_fifo_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in refused(fifo)


def test_read_text__refuses_a_folder(tmp_path: Path) -> None:
    assert "is a folder" in refused(tmp_path)


def test_read_text__a_missing_file_says_so(tmp_path: Path) -> None:
    assert "cannot read" in refused(tmp_path / "nope.yaml")


def test_folders__allow_paths_inside_and_refuse_those_that_lead_out(tmp_path: Path) -> None:
    own, other = tmp_path / "enc", tmp_path / "shared"
    (own / "sub").mkdir(parents=True)
    other.mkdir()
    (own / "sub" / "a.yaml").write_text("x: 1\n")
    (other / "b.yaml").write_text("x: 1\n")
    (own / "link.yaml").symlink_to(other / "b.yaml")
    folders = Folders.of(own)
    assert folders.refusal("sub/a.yaml", own / "sub/a.yaml") is None
    assert folders.refusal("sub/../sub/a.yaml", own / "sub/../sub/a.yaml") is None
    assert "leads out with '..'" in str(folders.refusal("../shared/b.yaml", own / "../shared/b.yaml"))
    assert "is an absolute path" in str(folders.refusal(str(other / "b.yaml"), other / "b.yaml"))
    assert "is a symbolic link to" in str(folders.refusal("link.yaml", own / "link.yaml"))
    allowed = Folders.of(own, [other])
    assert allowed.refusal("../shared/b.yaml", own / "../shared/b.yaml") is None
    assert allowed.refusal("link.yaml", own / "link.yaml") is None


def test_folders__an_allowed_folder_still_reads_no_devices(tmp_path: Path) -> None:
    assert "not a regular file" in str(Folders.of(tmp_path, ["/dev"]).refusal("/dev/zero", Path("/dev/zero")))


def test_folders__a_fifo_inside_the_folder_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    assert "not a regular file" in str(Folders.of(tmp_path).refusal("pipe.yaml", tmp_path / "pipe.yaml"))


def test_walk__follows_no_links_and_reports_links_and_fifos(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text("x: 1\n")
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.yaml").write_text("x: 1\n")
    (root / "sub" / "b.yml").write_text("x: 1\n")
    (root / ".hidden.yaml").write_text("x: 1\n")
    (root / "notes.txt").write_text("x\n")
    (root / "file-link.yaml").symlink_to(outside / "secret.yaml")
    (root / "dir-link").symlink_to(outside)
    (root / "loop").symlink_to(root)
    os.mkfifo(root / "pipe.yaml")
    found = walk(root, (".yaml", ".yml"))
    assert found.files == (root / "a.yaml", root / "sub" / "b.yml")
    assert dict(found.skipped) == {root / "file-link.yaml": LINK_NOT_FOLLOWED, root / "dir-link": LINK_NOT_FOLLOWED,
                                   root / "loop": LINK_NOT_FOLLOWED, root / "pipe.yaml": NOT_REGULAR}


def test_load_yaml__reads_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("a: [1, 2]\n")
    assert load_yaml(tmp_path / "a.yaml").data == {"a": [1, 2]}
