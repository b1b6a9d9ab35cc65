"""The package's numba cache is dropped when a kernel source changes (bg_env.kernels.cache)."""

from __future__ import annotations

from pathlib import Path

import bg_env
from bg_env.kernels.cache import (
    KERNEL_PACKAGES,
    STAMP_NAME,
    kernel_source_digest,
    refresh_kernel_cache,
)


def fake_package(root: Path) -> dict[str, Path]:
    """Two kernel packages with a source each and cached kernels beside them."""
    files = {}
    for package in KERNEL_PACKAGES:
        (root / package / "__pycache__").mkdir(parents=True)
        files[f"{package}.py"] = root / package / "kernels.py"
        files[f"{package}.py"].write_text(f"# {package} kernels\n")
        for suffix in ("nbi", "nbc"):
            path = root / package / "__pycache__" / f"kernels.f-1.py311.{suffix}"
            path.write_bytes(b"compiled")
            files[f"{package}.{suffix}"] = path
    files["pyc"] = root / "kernels" / "__pycache__" / "kernels.cpython-311.pyc"
    files["pyc"].write_bytes(b"bytecode")
    return files


def cached(files: dict[str, Path]) -> list[str]:
    """The names of the numba cache files still on disk."""
    return sorted(name for name, path in files.items()
                  if name.endswith((".nbi", ".nbc")) and path.exists())


def test_first_refresh_drops_unstamped_caches_and_stamps(tmp_path):
    files = fake_package(tmp_path)
    assert refresh_kernel_cache(tmp_path) is True
    assert cached(files) == []
    assert files["pyc"].exists()  # only numba's files go
    stamp = tmp_path / "kernels" / "__pycache__" / STAMP_NAME
    assert stamp.read_text() == kernel_source_digest(tmp_path)


def test_unchanged_sources_keep_the_cache(tmp_path):
    files = fake_package(tmp_path)
    refresh_kernel_cache(tmp_path)
    for name in ("kernels.nbi", "envs.nbc"):
        files[name].write_bytes(b"compiled again")
    assert refresh_kernel_cache(tmp_path) is False
    assert cached(files) == ["envs.nbc", "kernels.nbi"]


def test_a_changed_callee_drops_every_kernel_package_cache(tmp_path):
    files = fake_package(tmp_path)
    refresh_kernel_cache(tmp_path)
    for name in ("kernels.nbi", "kernels.nbc", "envs.nbi", "envs.nbc"):
        files[name].write_bytes(b"compiled again")
    before = kernel_source_digest(tmp_path)
    files["kernels.py"].write_text("# kernels, one rule changed\n")
    assert kernel_source_digest(tmp_path) != before
    assert refresh_kernel_cache(tmp_path) is True
    assert cached(files) == []  # envs' kernels call the kernels package's: dropped too


def test_a_new_source_file_counts_as_a_change(tmp_path):
    fake_package(tmp_path)
    before = kernel_source_digest(tmp_path)
    (tmp_path / "envs" / "more.py").write_text("")
    assert kernel_source_digest(tmp_path) != before


def test_unwritable_cache_is_left_to_numba(tmp_path):
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "__pycache__").write_text("a file where the folder would be")
    assert refresh_kernel_cache(tmp_path) is False


def test_importing_bg_env_stamped_its_own_sources():
    root = Path(bg_env.__file__).resolve().parent
    stamp = root / "kernels" / "__pycache__" / STAMP_NAME
    assert stamp.read_text() == kernel_source_digest(root)
    assert refresh_kernel_cache(root) is False


def test_kernels_cached_sees_a_compiled_kernel(tmp_path, monkeypatch):
    from bg_env.kernels.cache import kernels_cached

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    files = fake_package(tmp_path)
    assert kernels_cached(tmp_path)
    for name in cached(files):
        files[name].unlink()
    assert not kernels_cached(tmp_path)  # the stamp and .pyc files are no kernels


def test_kernels_cached_looks_where_numba_cache_dir_says(tmp_path, monkeypatch):
    from bg_env.kernels.cache import kernels_cached

    elsewhere = tmp_path / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(elsewhere))
    assert not kernels_cached(tmp_path)
    (elsewhere / "deep" / "bg_env").mkdir(parents=True)
    (elsewhere / "deep" / "bg_env" / "batch.f-1.py311.nbi").write_bytes(b"index")
    assert kernels_cached(tmp_path)


def test_the_command_says_when_the_kernels_compile(tmp_path, monkeypatch, caplog):
    import logging

    from agents import cli
    from bg_env.kernels.cache import FIRST_USE_NOTE, PACKAGE_ROOT, started_cold

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    try:
        for files, said in (({}, True), (fake_package(tmp_path / "warm"), False)):
            assert started_cold(tmp_path / "warm" if files else tmp_path / "cold") is said
            caplog.clear()
            with caplog.at_level(logging.INFO, logger="bg_env"):
                assert cli.main(["eval", "first", "first", "--games", "2", "--quiet"]) == 0
            assert (FIRST_USE_NOTE in caplog.text) is said
    finally:
        started_cold(PACKAGE_ROOT)  # this install's own answer again


def test_the_commands_log_handler_writes_to_stderr_as_it_is_now(monkeypatch):
    """A handler bound to the stderr of its first use wrote "--- Logging error ---" once
    that stream was closed (a test's capture, a redirect) instead of the message."""
    import io
    import logging

    from agents.cli import StderrHandler

    handler = StderrHandler()
    log = logging.getLogger("bg_env.test_handler")
    log.addHandler(handler)
    log.propagate = False
    try:
        for text in ("first", "second"):
            stream = io.StringIO()
            monkeypatch.setattr("sys.stderr", stream)
            log.warning(text)
            assert stream.getvalue() == f"{text}\n"
            stream.close()
    finally:
        log.removeHandler(handler)


def test_the_note_is_said_once_a_process(tmp_path, monkeypatch):
    from bg_env.kernels.cache import PACKAGE_ROOT, first_use_note, started_cold

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    try:
        started_cold(tmp_path)  # nothing cached there
        assert first_use_note() is not None and first_use_note() is None
    finally:
        started_cold(PACKAGE_ROOT)


def test_every_package_with_cached_kernels_is_refreshed():
    # a package left out would load kernels compiled against an older callee
    root = Path(bg_env.__file__).resolve().parent
    with_kernels = {path.relative_to(root).parts[0] for path in root.rglob("*.py")
                    if "cache=True" in path.read_text(encoding="utf-8")
                    and len(path.relative_to(root).parts) > 1}
    assert with_kernels <= set(KERNEL_PACKAGES)
