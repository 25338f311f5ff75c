"""The engine version stamped on verdicts: the constant, plus the git revision when known."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.engine import ENGINE_VERSION, FULL_ENGINE_VERSION
from games.engine.version import git_revision

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def test_the_full_version_starts_with_the_rules_version() -> None:
    assert FULL_ENGINE_VERSION == ENGINE_VERSION or FULL_ENGINE_VERSION.startswith(
        ENGINE_VERSION + "+"
    )


def test_revision_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GIT_REVISION", COMMIT)
    assert git_revision(tmp_path) == COMMIT[:12]


def test_no_git_no_revision(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("GIT_REVISION", raising=False)
    assert git_revision(tmp_path) is None
    (tmp_path / ".git").mkdir()
    assert git_revision(tmp_path) is None  # no HEAD: still no error


def test_revision_from_a_branch_loose_or_packed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("GIT_REVISION", raising=False)
    git = tmp_path / ".git"
    (git / "refs" / "heads").mkdir(parents=True)
    (git / "HEAD").write_text("ref: refs/heads/main\n")
    (git / "packed-refs").write_text(f"# pack-refs\n{COMMIT} refs/heads/main\n")
    assert git_revision(tmp_path) == COMMIT[:12]
    (git / "refs" / "heads" / "main").write_text("f" * 40 + "\n")
    assert git_revision(tmp_path) == "f" * 12


def test_revision_of_a_detached_worktree(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("GIT_REVISION", raising=False)
    real = tmp_path / "elsewhere"
    real.mkdir()
    (real / "HEAD").write_text(COMMIT + "\n")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / ".git").write_text(f"gitdir: {real}\n")
    assert git_revision(checkout) == COMMIT[:12]
