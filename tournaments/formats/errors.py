"""The one user-facing error of the format algorithms.

A `FormatError` is something an organiser can act on: too few entries for a knockout, a round
that cannot be paired without a rematch, an unknown tournament-points scheme. Its message is
written for them and is safe to show on a page. Anything else raised from this package (a plain
`ValueError`, `TypeError`, `AssertionError`) means the calling code passed impossible data: a
bug, not a situation to explain to a user.
"""


class FormatError(ValueError):
    """A tournament-format problem that can be explained to an organiser."""
