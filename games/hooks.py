"""Extension points that higher apps register into, so `games` never imports them.

A submission may carry extra fields (such as `match`). Each is declared here by the app that
understands it, in its AppConfig.ready: `validate` checks the value for this actor and these
seated players and returns what to store (or raises ValidationError / PermissionDenied).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SubmissionExtension:
    name: str
    validate: Callable[..., Any]
    help_text: str = ""


_extensions: dict[str, SubmissionExtension] = {}


def register_submission_extension(extension: SubmissionExtension) -> None:
    _extensions[extension.name] = extension


def submission_extensions() -> dict[str, SubmissionExtension]:
    return dict(_extensions)
