"""bg_env.files.write_atomically writes as careful tools do: it refuses what is not a
regular file it may write, follows links, keeps permissions, and touches no file of the
user's beside the target."""

from __future__ import annotations

import os
import stat

import pytest

from bg_env.files import check_writable, same_file, write_atomically


def test_a_new_file_gets_the_umask_permissions_and_nothing_is_left_beside_it(tmp_path):
    target = tmp_path / "out.json"
    write_atomically(target, "{}")
    assert target.read_text() == "{}"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_the_old_permissions_are_kept(tmp_path):
    target = tmp_path / "run.sh"
    target.write_text("old")
    target.chmod(0o750)
    write_atomically(target, "new")
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o750


def test_a_read_only_file_is_refused_and_kept(tmp_path):
    target = tmp_path / "keep.mat"
    target.write_text("games")
    target.chmod(0o444)
    with pytest.raises(PermissionError, match="keep.mat: the file is read-only"):
        write_atomically(target, "other")
    assert target.read_text() == "games"


def test_a_link_is_followed_and_stays_a_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new" and link.read_text() == "new"


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_what_is_not_a_regular_file_is_refused_and_kept(tmp_path, kind):
    target = tmp_path / "thing"
    if kind == "folder":
        target.mkdir()
        error, words = IsADirectoryError, "is a folder"
    else:
        os.mkfifo(target)
        error, words = ValueError, r"not a regular file \(a FIFO\)"
    with pytest.raises(error, match=words):
        write_atomically(target, "data")
    assert target.is_dir() if kind == "folder" else stat.S_ISFIFO(target.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thing"]


def test_a_device_is_refused():
    with pytest.raises(ValueError, match="character device"):
        check_writable("/dev/null")


def test_a_users_own_tmp_file_is_not_touched(tmp_path):
    target = tmp_path / "model.pt"
    mine = tmp_path / "model.pt.tmp"
    mine.write_text("my notes")
    write_atomically(target, b"weights")
    assert mine.read_text() == "my notes"


def test_a_missing_folder_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        write_atomically(tmp_path / "no" / "file", "x")


def test_same_file_sees_links_and_dots(tmp_path):
    a = tmp_path / "a.json"
    a.write_text("x")
    (tmp_path / "l.json").symlink_to(a)
    assert same_file(a, tmp_path / "l.json")
    assert same_file(a, tmp_path / "sub" / ".." / "a.json")
    assert same_file(tmp_path / "new", tmp_path / "new")  # neither exists yet
    assert not same_file(a, tmp_path / "b.json")


def test_a_folder_that_takes_no_new_file_is_named(tmp_path, monkeypatch):
    import bg_env.files as files

    folder = str(tmp_path)
    real_access = os.access
    monkeypatch.setattr(files.os, "access",
                        lambda p, mode: False if str(p) == folder else real_access(p, mode))
    with pytest.raises(PermissionError, match="the folder .* is not writable"):
        write_atomically(tmp_path / "new.json", "{}")
    assert list(tmp_path.iterdir()) == []
