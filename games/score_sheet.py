"""A face-to-face game's score sheet: two tile scores, no record. Plain data, no models.

A game played on real tiles leaves no move list, only what the players wrote down: each side's
score (the tiles in their longest line, doubled for a loop), optionally the minutes each used,
and whether the game ended by a resignation or a loss on time, and by whom. This module checks
such a sheet for plausibility and says what it means as a result (winner, draw, margin), in the
shape an adjudicated `Game` has (`end_reason`, `winner_seat`), so the rest of the site treats a
score sheet like any other result.

TPs are not computed here: `games` knows nothing of tournament points (imports point down), and
a tournament applies the one rule online games use, `tournaments.formats.result_tps`, to
`sheet.scores` and `sheet.conceded_by`.

Sides are A and B (seat 0 and 1): for a match, A is the match's first entry.

Its only Django import is translation: the messages are for the person who typed the sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

#: A colour runs over at most 42 tiles, and a loop scores double.
MAX_SCORE = 84
#: A face-to-face game takes well under an hour; more than this on a sheet is a typing slip.
MAX_MINUTES = 240

SIDES = ("a", "b")


class Ending(StrEnum):
    """How the game ended; the values are `games.models.EndReason`'s."""

    COMPLETED = "completed"
    RESIGNED = "resigned"
    TIME = "time"


ENDING_LABELS = {
    Ending.COMPLETED: gettext_lazy("Played to the end"),
    Ending.RESIGNED: gettext_lazy("Resigned"),
    Ending.TIME: gettext_lazy("Lost on time"),
}


class ScoreSheetError(ValueError):
    """A sheet that cannot be accepted; `errors` maps each field to messages a person can read."""

    def __init__(self, errors: Mapping[str, list[str]]) -> None:
        self.errors = {field: list(messages) for field, messages in errors.items()}
        super().__init__(
            "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in self.errors.items())
        )


@dataclass(frozen=True)
class ScoreSheet:
    """A plausible score sheet. Build it with `score_sheet_parse`, which checks every field."""

    score_a: int
    score_b: int
    ending: Ending = Ending.COMPLETED
    #: 0 (side A) or 1 (side B): who resigned or lost on time; None for a game played out.
    conceded_by: int | None = None
    minutes_a: int | None = None
    minutes_b: int | None = None

    @property
    def scores(self) -> tuple[int, int]:
        return self.score_a, self.score_b

    @property
    def margin(self) -> int:
        return abs(self.score_a - self.score_b)

    @property
    def winner_seat(self) -> int | None:
        """0 or 1; None for a draw. A resignation or time loss loses whatever the scores."""
        if self.conceded_by is not None:
            return 1 - self.conceded_by
        if self.score_a == self.score_b:
            return None
        return 0 if self.score_a > self.score_b else 1

    @property
    def is_draw(self) -> bool:
        return self.winner_seat is None

    @property
    def end_reason(self) -> str:
        """The `Game.end_reason` this sheet stands for."""
        return self.ending.value

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON, as stored with a report and read back by `score_sheet_parse`."""
        return {
            "score_a": self.score_a,
            "score_b": self.score_b,
            "ending": self.ending.value,
            "conceded_by": None if self.conceded_by is None else SIDES[self.conceded_by],
            "minutes_a": self.minutes_a,
            "minutes_b": self.minutes_b,
        }

    def describe(self, name_a: str = "A", name_b: str = "B") -> str:
        """One line for people, e.g. "Ann 24 – 17 Bob (Bob resigned)".

        English on purpose: tournaments stores it in audit details, which are never stored
        translated.
        """
        text = f"{name_a} {self.score_a} – {self.score_b} {name_b}"
        if self.conceded_by is not None:
            who = (name_a, name_b)[self.conceded_by]
            how = "resigned" if self.ending is Ending.RESIGNED else "lost on time"
            text += f" ({who} {how})"
        return text


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _whole_number(
    value: Any, *, low: int, high: int, what: str, range_note: str = ""
) -> tuple[int | None, str | None]:
    """(number, None) or (None, message). Accepts ints and strings of digits, as forms send.

    `range_note` is a sentence added after the message when the number is out of range.
    """
    if isinstance(value, bool):
        return None, _("%(what)s must be a whole number.") % {"what": what}
    if isinstance(value, float):
        if not value.is_integer():
            return None, _("%(what)s must be a whole number (got %(value)s).") % {
                "what": what,
                "value": f"{value:g}",
            }
        value = int(value)
    elif isinstance(value, str):
        text = value.strip()
        if len(text) > 6 or not text.lstrip("-").isdigit() or text.count("-") > 1:
            return None, _("%(what)s must be a whole number (got %(value)s).") % {
                "what": what,
                "value": repr(text[:12]),
            }
        value = int(text)
    elif not isinstance(value, int):
        return None, _("%(what)s must be a whole number.") % {"what": what}
    if not low <= value <= high:
        problem = _("%(what)s must be between %(low)s and %(high)s (got %(value)s).") % {
            "what": what,
            "low": low,
            "high": high,
            "value": value,
        }
        return None, f"{problem} {range_note}" if range_note else problem
    return value, None


def _side(value: Any) -> int | None:
    if isinstance(value, str):
        value = value.strip().lower()
    if value in ("a", 0, "0"):
        return 0
    if value in ("b", 1, "1"):
        return 1
    return None


def score_sheet_parse(data: Mapping[str, Any]) -> ScoreSheet:
    """Check a score sheet (form or JSON data) and return it, or raise `ScoreSheetError`.

    Fields: `score_a`, `score_b` (required, whole numbers 0..84); `minutes_a`, `minutes_b`
    (optional, whole numbers 0..240); `ending` (`completed` by default, or `resigned`, `time`);
    `conceded_by` (`a` or `b`, also 0 or 1: required for a resignation or time loss, refused
    for a game played to the end). Every problem is reported at once, field by field.
    """
    errors: dict[str, list[str]] = {}
    values: dict[str, int | None] = {}
    for side in SIDES:
        field = f"score_{side}"
        raw = data.get(field)
        if _blank(raw):
            errors[field] = [
                _("Give side %(side)s's score (tiles in the longest line).")
                % {"side": side.upper()}
            ]
            continue
        number, problem = _whole_number(
            raw,
            low=0,
            high=MAX_SCORE,
            what=_("Side %(side)s's score") % {"side": side.upper()},
            range_note=_("A colour runs over at most 42 tiles; a loop scores double."),
        )
        if problem:
            errors[field] = [problem]
        values[field] = number
    for side in SIDES:
        field = f"minutes_{side}"
        raw = data.get(field)
        values[field] = None
        if _blank(raw):
            continue
        number, problem = _whole_number(
            raw,
            low=0,
            high=MAX_MINUTES,
            what=_("Side %(side)s's minutes used") % {"side": side.upper()},
        )
        if problem:
            errors[field] = [problem]
        values[field] = number

    raw_ending = data.get("ending")
    ending = Ending.COMPLETED
    if not _blank(raw_ending):
        try:
            ending = Ending(str(raw_ending).strip().lower())
        except ValueError:
            choices = ", ".join(f"{e.value} ({ENDING_LABELS[e].lower()})" for e in Ending)
            errors["ending"] = [_("Choose how the game ended: %(choices)s.") % {"choices": choices}]
    raw_side = data.get("conceded_by")
    conceded_by = None if _blank(raw_side) else _side(raw_side)
    if not _blank(raw_side) and conceded_by is None:
        errors["conceded_by"] = [_("Say which side resigned or lost on time: a or b.")]
    elif "ending" not in errors:
        if ending is Ending.COMPLETED and conceded_by is not None:
            errors["conceded_by"] = [
                _(
                    "Only a resignation or a loss on time names who conceded; "
                    "this game was played to the end."
                )
            ]
        elif ending is not Ending.COMPLETED and conceded_by is None:
            errors["conceded_by"] = [
                _("Say which side resigned.")
                if ending is Ending.RESIGNED
                else _("Say which side lost on time.")
            ]
    if errors:
        raise ScoreSheetError(errors)
    return ScoreSheet(
        score_a=values["score_a"],  # type: ignore[arg-type]
        score_b=values["score_b"],  # type: ignore[arg-type]
        ending=ending,
        conceded_by=conceded_by,
        minutes_a=values["minutes_a"],
        minutes_b=values["minutes_b"],
    )
