"""Deciding matches and moving events on: a match's state from its games, advancing the
winner, crowning the champion, finishing a stage.

The cycle "a finished Swiss round draws the next one, whose bye finishes at once" is broken
by `swiss_rounds`, which closes its bye itself and imports nothing from here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_noop

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from tournaments import formats
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    AuditAction,
    Entry,
    EntryKind,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchStatus,
)
from tournaments.rating_seam import event_results_changed
from tournaments.services.audit import audit_entry
from tournaments.services.rounds import event_progression_lock, match_close, match_rules
from tournaments.services.swiss_rounds import swiss_round_completed
from tournaments.sides.selectors import team_state


def match_finish(
    match: Match,
    *,
    winner: Entry | None,
    status: str,
    reason: str,
    audit: dict[str, Any] | None = None,
) -> None:
    """Close the match and carry its result on: the next knockout match, the champion, the
    next Swiss round, or the end of a group stage. `audit`: the entry of the change that
    closes it (a ruling, a deadline), written with the move."""
    match_close(match, winner=winner, status=status, reason=reason, audit=audit)
    _after_match_final(match)


def _after_match_final(match: Match) -> None:
    event = match.event
    if event.format == EventFormat.KNOCKOUT:
        loser_ids = [e for e in (match.entry_a_id, match.entry_b_id) if e and e != match.winner_id]
        if loser_ids:
            transition(
                Entry.objects.filter(pk__in=loser_ids),
                EntryStatus.ELIMINATED,
                from_=(EntryStatus.ACTIVE,),
            )
        if match.next_match_id is None:
            _crown(event, match.winner)
        else:
            _feed_next(match)
    elif event.format == EventFormat.SWISS:
        swiss_round_completed(event, match.round)
    else:
        event_progression_lock(event.pk)
        if not event.matches.exclude(status__in=FINAL_MATCH_STATUSES).exists():
            transition(
                Event.objects.filter(pk=event.pk),
                EventStatus.FINISHED,
                from_=(EventStatus.DRAWN, EventStatus.FINISHED),
            )
            event_results_changed(event.pk)


def _crown(event: Event, winner: Entry | None) -> None:
    transition(
        event,
        EventStatus.FINISHED,
        fields={"champion": winner},
        audit=audit_entry(
            actor=None,
            championship=event.championship,
            event=event,
            action=AuditAction.CHAMPION,
            target=winner.name if winner else gettext_noop("no champion"),
        ),
    )
    event_results_changed(event.pk)
    if winner is not None:
        transition(
            Entry.objects.filter(pk=winner.pk), EntryStatus.CHAMPION, from_=(EntryStatus.ACTIVE,)
        )


def _feed_next(match: Match) -> None:
    """Put the winner (or the lack of one) into the next match, settling walkovers."""
    following = Match.objects.select_for_update().get(pk=match.next_match_id)
    field = "entry_a" if match.next_side == 0 else "entry_b"
    setattr(following, field, match.winner)
    following.save(update_fields=[field])
    feeders = list(Match.objects.filter(next_match=following))
    if len(feeders) < 2 or not all(f.is_final for f in feeders):
        return
    if following.entry_a_id and following.entry_b_id:
        transition(following, MatchStatus.SCHEDULED)
        return
    survivor = following.entry_a or following.entry_b
    match_finish(
        following,
        winner=survivor,
        status=MatchStatus.WALKOVER if survivor else MatchStatus.VOID,
        reason="opponent_out" if survivor else "both_out",
    )


def sync_match(match: Match) -> Match:
    """Recompute a match's totals and state from its games (the match row must be locked).

    A team match sums its boards (`formats.teams`); any other match its games."""
    games = list(match.match_games.order_by("number"))
    if match.event.entry_kind == EntryKind.TEAM:
        state = team_state(match, games)
    else:
        state = formats.match_state([(g.tps_a, g.tps_b) for g in games], match_rules(match.event))
    match.tps_a, match.tps_b = state.totals
    match.games_played = state.games_played
    match.state_reason = str(state.reason)
    if state.decided:
        winner = match.entry_a if state.winner == 0 else match.entry_b
        match.save(update_fields=["tps_a", "tps_b", "games_played", "state_reason"])
        match_finish(match, winner=winner, status=MatchStatus.DECIDED, reason=str(state.reason))
    else:
        transition(
            match,
            MatchStatus.IN_PROGRESS if games else MatchStatus.SCHEDULED,
            fields={
                "tps_a": match.tps_a,
                "tps_b": match.tps_b,
                "games_played": match.games_played,
                "state_reason": match.state_reason,
            },
        )
    return match


register_audit_type(AuditAction.CHAMPION)
