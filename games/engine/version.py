"""Which engine produced a verdict: a rules-handling version, plus the code's git revision.

``ENGINE_VERSION`` is bumped whenever the way the engine reads the rules changes (a verdict
could then differ), never for a change that only makes it faster; ``manage.py readjudicate``
exists to find the stored verdicts a bump would change. The git revision is read once, at
import, from ``GIT_REVISION`` in the environment (a deployment without a checkout) or from the
checkout's ``.git`` files; when neither is there the version is the constant alone.
"""

from __future__ import annotations

import os
from pathlib import Path

ENGINE_VERSION = "1"

_REPO = Path(__file__).resolve().parents[2]


def _git_dir(repo: Path) -> Path | None:
    dot_git = repo / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
        text = dot_git.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            return (repo / text[len("gitdir:") :].strip()).resolve()
    return None


def _ref(git_dir: Path, ref: str) -> str | None:
    for base in (git_dir, _common_dir(git_dir)):
        loose = base / ref
        if loose.is_file():
            return loose.read_text(encoding="utf-8").strip()
        packed = base / "packed-refs"
        if packed.is_file():
            for line in packed.read_text(encoding="utf-8").splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[1] == ref:
                    return parts[0]
    return None


def _common_dir(git_dir: Path) -> Path:
    common = git_dir / "commondir"
    if common.is_file():
        return (git_dir / common.read_text(encoding="utf-8").strip()).resolve()
    return git_dir


def git_revision(repo: Path = _REPO) -> str | None:
    """The short commit the code was loaded from, or None when it cannot be told."""
    from_env = os.environ.get("GIT_REVISION", "").strip()
    if from_env:
        return from_env[:12]
    try:
        git_dir = _git_dir(repo)
        if git_dir is None:
            return None
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
        commit = _ref(git_dir, head[len("ref:") :].strip()) if head.startswith("ref:") else head
    except (OSError, UnicodeDecodeError):
        return None
    if not commit or len(commit) < 12 or any(c not in "0123456789abcdef" for c in commit):
        return None
    return commit[:12]


def _full() -> str:
    revision = git_revision()
    return f"{ENGINE_VERSION}+{revision}" if revision else ENGINE_VERSION


# Read once: a long-running worker reports the code it loaded, not what the checkout holds now.
FULL_ENGINE_VERSION: str = _full()
