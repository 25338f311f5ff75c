"""Reads of match arrangements: a match's proposals and agreement, the agreed matches of a
player or an event (calendars, homes, reminders), and the organisers' lists of matches still
to arrange or whose agreed time passed unplayed."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from players.models import Player
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    ArrangementStatus,
    AvailabilityWindow,
    Event,
    Match,
    MatchArrangement,
    MatchProposal,
    NoShowClaim,
    ProposalStatus,
    sides_of,
)


def agreement_of(match: Match) -> MatchArrangement | None:
    """The match's agreed time, if it has one."""
    return (
        MatchArrangement.objects.filter(match=match, status=ArrangementStatus.AGREED)
        .select_related("agreed_by")
        .first()
    )


def agreements_for(match_ids: Iterable[int]) -> dict[int, MatchArrangement]:
    """match id -> its agreed arrangement, for a page of matches (one query)."""
    return {
        a.match_id: a
        for a in MatchArrangement.objects.filter(
            match_id__in=list(match_ids), status=ArrangementStatus.AGREED
        )
    }


def open_proposals(match: Match) -> list[MatchProposal]:
    return list(
        MatchProposal.objects.filter(match=match, status=ProposalStatus.OPEN).order_by(
            "starts_at", "id"
        )
    )


def arrangement_history(match: Match) -> list[MatchArrangement]:
    """Every agreement of the match, the withdrawn ones too, newest first."""
    return list(
        MatchArrangement.objects.filter(match=match).select_related("agreed_by", "withdrawn_by")
    )


def no_show_claims(match: Match) -> list[NoShowClaim]:
    return list(
        NoShowClaim.objects.filter(match=match).select_related(
            "arrangement", "claimed_by", "replied_by"
        )
    )


def _agreed() -> QuerySet[MatchArrangement]:
    return MatchArrangement.objects.filter(status=ArrangementStatus.AGREED)


def agreed_matches(
    *,
    player: Player | None = None,
    event: Event | None = None,
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    unplayed_only: bool = True,
) -> QuerySet[MatchArrangement]:
    """The agreed arrangements (with their match, round, event and sides), earliest first: of
    a player's matches (their own entry, a pair they play in, a team they play for), of an
    event, or all; within [since, until) when given; by default only of matches not yet final.

    The calendar feeds and reminders read this: `arrangement.starts_at` is the instant,
    `arrangement.match` the match (sides selected)."""
    agreed = _agreed().select_related(
        "match__event__championship",
        "match__round",
        *sides_of("match__entry_a"),
        *sides_of("match__entry_b"),
    )
    if player is not None:
        # A team's roster joins many rows: distinct keeps one per arrangement.
        plays = _plays_in("match__entry_a", player) | _plays_in("match__entry_b", player)
        agreed = agreed.filter(plays).distinct()
    if event is not None:
        agreed = agreed.filter(match__event=event)
    if since is not None:
        agreed = agreed.filter(starts_at__gte=since)
    if until is not None:
        agreed = agreed.filter(starts_at__lt=until)
    if unplayed_only:
        agreed = agreed.exclude(match__status__in=FINAL_MATCH_STATUSES)
    return agreed.order_by("starts_at", "id")


def _plays_in(prefix: str, player: Player) -> Q:
    return (
        Q(**{f"{prefix}__player": player})
        | Q(**{f"{prefix}__pair__player_a": player})
        | Q(**{f"{prefix}__pair__player_b": player})
        | Q(**{f"{prefix}__team__members__player": player})
    )


def _open_matches(event: Event) -> QuerySet[Match]:
    return (
        Match.objects.filter(event=event, entry_a__isnull=False, entry_b__isnull=False)
        .exclude(status__in=FINAL_MATCH_STATUSES)
        .exclude(is_bye=True)
    )


def matches_to_arrange(
    *, event: Event, which: str = "unarranged", now: dt.datetime | None = None
) -> QuerySet[Match]:
    """The organisers' filter of an event's open matches: `unarranged` (no agreed time),
    `passed` (the agreed time passed and no game was played), or `all`."""
    now = now or timezone.now()
    agreed = _agreed().filter(match=OuterRef("pk"))
    matches = _open_matches(event).annotate(
        has_agreement=Exists(agreed),
        time_passed=Exists(agreed.filter(starts_at__lt=now)),
    )
    if which == "unarranged":
        matches = matches.filter(has_agreement=False)
    elif which == "passed":
        matches = matches.filter(time_passed=True, games_played=0)
    return (
        matches.select_related("round", *sides_of("entry_a"), *sides_of("entry_b"))
        .prefetch_related(
            Prefetch("arrangements", queryset=_agreed(), to_attr="agreed"),
            Prefetch(
                "proposals",
                queryset=MatchProposal.objects.filter(status=ProposalStatus.OPEN),
                to_attr="open_proposals",
            ),
        )
        .order_by("round__number", "bracket_index", "id")
    )


def availability_of(player: Player) -> list[AvailabilityWindow]:
    return list(AvailabilityWindow.objects.filter(player=player))


def availability_of_players(player_ids: Iterable[int]) -> dict[int, list[AvailabilityWindow]]:
    found: dict[int, list[AvailabilityWindow]] = {}
    for window in AvailabilityWindow.objects.filter(player_id__in=list(player_ids)):
        found.setdefault(window.player_id, []).append(window)
    return found


def proposals_due(*, now: dt.datetime) -> QuerySet[MatchProposal]:
    """Open proposals whose event's response window has passed, first proposed first (the
    auto-acceptance task reads this)."""
    return (
        MatchProposal.objects.filter(
            status=ProposalStatus.OPEN,
            match__event__arrangement__response_hours__isnull=False,
        )
        .exclude(match__status__in=FINAL_MATCH_STATUSES)
        .select_related("match__event__arrangement")
        .order_by("created", "starts_at", "id")
    )
