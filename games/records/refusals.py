"""Why a submission was refused before adjudication: the codes, the messages, the refusal.

A refusal is a domain result (`Refusal`: a code, the messages per field, whether the actor may
not do this at all); the API layer picks the status code (`games/records/http.py`). The record
stores the refusal in English, and the sentences with a number or a name in them keep their
English templates here so a stored refusal can be read back in another language
(`games.records.verdicts.error_text`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.utils import translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext, gettext_noop

from games.stored_texts import reader_number

# The language of the refusal stored with a record: a stored text is never in the language of
# whoever happened to submit it (docs/translations.md); the answer itself is translated.
STORED_LANGUAGE = "en"

# A refusal's message: a lazily translated text, or one already translated (an extension's).
Message = str | Promise


# The refusals with a number or a name in them. Their English templates are kept here (not
# only in gettext_lazy calls) so a stored refusal can be read back in another language
# (games.records.verdicts.error_text).
TOO_LARGE_TEXT = gettext_noop(
    "The record is %(size)s bytes; the limit is %(limit)s bytes. "
    "Only its first %(limit)s bytes are kept."
)
TOO_OLD_TEXT = gettext_noop(
    "The game was played more than %(days)s days ago; only an organiser or "
    "controller may enter so old a game, for their event."
)
UNKNOWN_PLAYER_TEXT = gettext_noop(
    "No registered player is named %(name)s: names must match a "
    "player's display name (case does not matter)."
)
# The fixed ones, read back the same way.
EMPTY_TEXT = gettext_noop("The record is empty.")
NOT_OBJECT_TEXT = gettext_noop("A game record must be a JSON object.")
FUTURE_TEXT = gettext_noop("The game cannot have been played in the future.")
NO_SEATS_TEXT = gettext_noop("Expected a list of 2 to 4 seats, each with a player 'name'.")
SAME_PLAYER_TEXT = gettext_noop("The same player cannot take two seats.")
NOT_PARTICIPANT_TEXT = gettext_noop("You may submit only games you played in.")
NOT_ACCEPTED_TEXT = gettext_noop("This field is not accepted.")
NOT_ALLOWED_TEXT = gettext_noop("Not allowed.")
FIXED_TEXTS = (
    EMPTY_TEXT,
    NOT_OBJECT_TEXT,
    FUTURE_TEXT,
    NO_SEATS_TEXT,
    SAME_PLAYER_TEXT,
    NOT_PARTICIPANT_TEXT,
    NOT_ACCEPTED_TEXT,
    NOT_ALLOWED_TEXT,
)
STORED_TEXTS = (*FIXED_TEXTS, TOO_LARGE_TEXT, TOO_OLD_TEXT, UNKNOWN_PLAYER_TEXT)


def refusal_message(template: str | Promise, **params: Any) -> Promise:
    """`template % params`, translated only when read: the same refusal answers the submitter
    in their language and is stored in English."""
    return lazy(
        lambda: gettext(str(template)) % {k: reader_number(v) for k, v in params.items()}, str
    )()


class RefusalCode(StrEnum):
    """Why a submission was refused before adjudication (stored as the record's error code)."""

    TOO_LARGE = "TOO_LARGE"
    MALFORMED = "MALFORMED"
    UNKNOWN_PLAYER = "UNKNOWN_PLAYER"
    DUPLICATE_PLAYER = "DUPLICATE_PLAYER"
    NOT_PARTICIPANT = "NOT_PARTICIPANT"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    REJECTED = "REJECTED"


@dataclass(frozen=True)
class Refusal:
    """A submission refused before adjudication; its record is still stored, marked invalid.

    `errors` holds the messages per field (a record field, an extension such as `match`, or
    `detail`); `forbidden` says the actor may not submit this at all, as opposed to having sent
    a record that cannot be accepted.
    """

    code: RefusalCode | str
    errors: dict[str, list[Message]]
    forbidden: bool = False

    @property
    def message(self) -> str:
        """The messages in one line, in English: what the record stores."""
        with translation.override(STORED_LANGUAGE):
            return "; ".join(
                f"{field}: {' '.join(str(m) for m in msgs)}" for field, msgs in self.errors.items()
            )

    def answer_errors(self) -> dict[str, list[str]]:
        """The messages per field in the active language, as the submitter is answered."""
        return {field: [str(m) for m in msgs] for field, msgs in self.errors.items()}


class Refused(Exception):
    """Raised by the envelope checks; carries the `Refusal`, and the seated players' ids when
    they were resolved before the refusal (the record still names them: they may see it)."""

    def __init__(self, code: RefusalCode, errors: dict[str, list[Message]], *, forbidden=False):
        super().__init__(code)
        self.refusal = Refusal(code, errors, forbidden)
        self.seat_player_ids: list[int] = []
