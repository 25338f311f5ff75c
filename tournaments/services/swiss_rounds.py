"""Swiss rounds: pairing a round from the standings, and pairing the next one when a round
is complete.

Both `draws` (round 1) and `progression` (every later round) call this module, which imports
neither of them: a bye is closed here with `rounds.match_close`, and since a Swiss match's
only consequence is the round's completion, that is checked here too.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from players.audit.transitions import transition
from tournaments import formats, selectors
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    MATCH_STATUSES,
    Entry,
    EntryKind,
    EntryStatus,
    Event,
    EventStatus,
    Match,
    MatchStatus,
    Round,
)
from tournaments.rating_seam import event_results_changed
from tournaments.services.rounds import (
    event_progression_lock,
    lineup_deadlines_set,
    match_close,
    round_deadline,
)

ZERO = Decimal("0.0")


def swiss_round_draw(event: Event, entries: list[Entry], number: int, start: dt.datetime) -> Round:
    standings = {e.pk: tps for e, tps in selectors.swiss_standings(event)}
    played = [(m.entry_a_id, m.entry_b_id) for m in event.matches.filter(is_bye=False)]
    byes = [m.entry_a_id for m in event.matches.filter(is_bye=True)]
    paired = formats.swiss_pairings(
        [formats.SwissPlayer(e.pk, standings.get(e.pk, ZERO), e.seed) for e in entries],
        played=played,
        byes=byes,
        round_no=number,
    )
    round_ = Round.objects.create(
        event=event, number=number, name=f"Round {number}", deadline=round_deadline(event, start, 1)
    )
    lineup_deadlines_set(event, [round_])
    by_id = {e.pk: e for e in entries}
    # One INSERT for the round (a Swiss round of 1,024 entries is 512 matches).
    Match.objects.bulk_create(
        Match(
            event=event,
            round=round_,
            bracket_index=index,
            entry_a=by_id[a],
            entry_b=by_id[b],
            status=MATCH_STATUSES.first(MatchStatus.SCHEDULED),
        )
        for index, (a, b) in enumerate(paired.pairings)
    )
    if paired.bye is not None:
        bye = Match.objects.create(
            event=event,
            round=round_,
            bracket_index=len(paired.pairings),
            entry_a=by_id[paired.bye],
            is_bye=True,
        )
        # A Swiss bye scores as a won game with the largest margin of a normal win (house rule).
        games = event.games_per_match * (
            event.team_boards if event.entry_kind == EntryKind.TEAM else 1
        )
        bye.tps_a = Decimal(games) * formats.tps_for_margin(10)[0]
        bye.save(update_fields=["tps_a"])
        match_close(bye, winner=bye.entry_a, status=MatchStatus.WALKOVER, reason="bye")
        swiss_round_completed(event, round_)
    return round_


def swiss_round_completed(event: Event, round_: Round) -> None:
    """When every match of the round is over: finish the event, or pair the next round."""
    event_progression_lock(event.pk)
    if round_.matches.exclude(status__in=FINAL_MATCH_STATUSES).exists():
        return
    if round_.number >= event.swiss_rounds:
        transition(
            Event.objects.filter(pk=event.pk),
            EventStatus.FINISHED,
            from_=(EventStatus.DRAWN, EventStatus.FINISHED),
        )
        event_results_changed(event.pk)
        return
    if event.rounds.filter(number=round_.number + 1).exists():
        return
    entries = sorted(
        event.entries.filter(status=EntryStatus.ACTIVE).select_related("player"),
        key=lambda e: e.seed or 0,
    )
    swiss_round_draw(event, entries, round_.number + 1, timezone.now())
