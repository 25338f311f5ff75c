"""What organisers do: set or replace a match's time, the event's response window, a nudge."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from players.types import User
from tournaments.arrangements import selectors
from tournaments.arrangements.services.agreements import agree, withdraw
from tournaments.arrangements.services.common import (
    agreement_of,
    check_time,
    locked,
    match_words,
    moment_words,
    require_open,
    speakers,
    tell,
)
from tournaments.models import (
    ArrangementPolicy,
    ArrangementSource,
    AuditAction,
    Event,
    Match,
    MatchArrangement,
)
from tournaments.services.access import require_manager
from tournaments.services.audit import audit


@transaction.atomic
def arrangement_set(
    *, actor: User, match: Match, starts_at: dt.datetime, reason: str = ""
) -> MatchArrangement:
    """An organiser sets the time; one already agreed is replaced (which needs a reason)."""
    match = locked(match)
    require_manager(actor, match.event.championship)
    require_open(match)
    now = timezone.now()
    check_time(match, starts_at, field="starts_at", now=now)
    reason = reason.strip()
    current = agreement_of(match)
    if current is not None:
        if not reason:
            raise ValidationError(
                {"reason": _("The match has an agreed time: say why you replace it.")}
            )
        withdraw(current, actor=actor, reason=reason, now=now)
    return agree(
        match,
        proposal=None,
        starts_at=starts_at,
        source=ArrangementSource.ORGANISER,
        actor=actor,
        now=now,
        reason=reason,
    )


# --- Organisers ---------------------------------------------------------------------------


@transaction.atomic
def arrangement_policy_set(
    *, actor: User, event: Event, response_hours: int | None
) -> ArrangementPolicy:
    require_manager(actor, event.championship)
    if response_hours is not None and not 1 <= response_hours <= 24 * 30:
        raise ValidationError(
            {"response_hours": _("A response window is from 1 hour to 30 days (720 hours).")}
        )
    policy, _created = ArrangementPolicy.objects.select_for_update().get_or_create(event=event)
    before = policy.response_hours
    policy.response_hours = response_hours
    policy.save(update_fields=["response_hours"])
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.ARRANGEMENT_POLICY_SET,
        target=event.name,
        details={"before": before, "after": response_hours},
    )
    return policy


@transaction.atomic
def matches_nudge(*, actor: User, event: Event, match_ids: Sequence[int]) -> int:
    """Remind the players of the chosen open matches of the event to arrange (or play) them;
    how many matches were nudged. Matches not of the event or not open are refused."""
    require_manager(actor, event.championship)
    if not match_ids:
        raise ValidationError({"matches": _("Choose at least one match.")})
    open_matches = {
        m.pk: m
        for m in selectors.matches_to_arrange(event=event, which="all").filter(
            pk__in=list(match_ids)
        )
    }
    stray = [pk for pk in match_ids if pk not in open_matches]
    if stray:
        raise ValidationError(
            {
                "matches": _("These are not open matches of this event: %(ids)s.")
                % {"ids": ", ".join(map(str, stray))}
            }
        )
    for match in open_matches.values():
        agreed = match.agreed[0] if match.agreed else None

        def text(match: Match = match, agreed: MatchArrangement | None = agreed) -> str:
            words = match_words(match)
            if agreed is not None:
                return _(
                    "%(a)s v %(b)s (%(round)s, %(event)s) was arranged for %(when)s and is not "
                    "played yet: please play it, or report what happened."
                ) % {**words, "when": moment_words(agreed.starts_at)}
            if match.round.deadline:
                return _(
                    "%(a)s v %(b)s (%(round)s, %(event)s) has no agreed time yet: please arrange "
                    "it on the match page before the deadline, %(deadline)s."
                ) % {**words, "deadline": moment_words(match.round.deadline)}
            return (
                _(
                    "%(a)s v %(b)s (%(round)s, %(event)s) has no agreed time yet: please "
                    "arrange it on the match page."
                )
                % words
            )

        tell([*speakers(match.entry_a), *speakers(match.entry_b)], text, match)
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.MATCH_TIME_NUDGE,
        target=event.name,
        details={"matches": sorted(open_matches)},
    )
    return len(open_matches)
