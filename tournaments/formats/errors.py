"""The one user-facing error of the format algorithms, and the marker for its words.

A `FormatError` is something an organiser can act on: too few entries for a knockout, a round
that cannot be paired without a rematch, an unknown tournament-points scheme. Its message is
written for them and is safe to show on a page. Anything else raised from this package (a plain
`ValueError`, `TypeError`, `AssertionError`) means the calling code passed impossible data: a
bug, not a situation to explain to a user.

This package imports no Django, so it cannot translate: a message is raised as its English
template (marked with `gettext_noop`, which the catalogue extraction finds by name) with its
parameters kept apart, and the Django layer that shows it translates the template
(`tournaments.format_words.format_error_text`). `str(error)` is the English sentence.
"""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark an English message for the catalogues; it is translated where it is shown."""
    return message


class Phrase(str):
    """A parameter of a message that is itself marked English words (a tie-break's name...):
    the layer that translates the message translates it too."""

    __slots__ = ()


class Message(str):
    """An English sentence for people (it is a `str`) that keeps its template and parameters,
    so the Django layer can show it in the reader's language: a refusal a function returns
    rather than raises."""

    template: str
    params: dict[str, object]

    def __new__(cls, template: str, **params: object) -> Message:
        message = super().__new__(cls, template % params if params else template)
        message.template = template
        message.params = params
        return message


class FormatError(ValueError):
    """A tournament-format problem that can be explained to an organiser.

    `template` is the English message with named placeholders, `params` its values; `str()`
    gives the English sentence."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template % params if params else template)
