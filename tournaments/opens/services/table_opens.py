"""Table Opens: face-to-face events, one game per table and round, typed from score sheets.

A table open is a Swiss (large fields) or a single or double round robin (small ones) with
`Event.table_open` set. It reuses the online machinery: the draw makes round 1 (or every round
of a round robin), a Swiss round whose last result is entered pairs the next one at once
(`swiss_rounds`), the bye goes to the lowest-placed player without one. What differs:

- results are score sheets a controller types (`score_sheets.table_results_enter`), never
  records, so rounds have no deadlines (nobody plays at home by a date);
- every match has a table number (`bracket_index` + 1, top board first);
- a late entry joins a Swiss at the first round not yet under way, a drop-out leaves from it:
  a round with no result entered yet is paired again (`round_repair`), otherwise the change
  takes effect from the next round and a drop-out's open game is a walkover scored as a bye.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from players.audit.registry import register_audit_type
from players.audit.transitions import transition
from players.models import Player
from players.types import User
from tournaments import formats, selectors
from tournaments.format_words import format_error_text
from tournaments.formats import tiebreaks
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    AuditAction,
    Championship,
    Entry,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchStatus,
    Round,
)
from tournaments.services.access import require_ruler
from tournaments.services.audit import audit, audit_entry
from tournaments.services.championships import event_create
from tournaments.services.draws import draw_generate, rounds_prepare
from tournaments.services.progression import match_finish
from tournaments.services.swiss_rounds import swiss_round_draw

SYSTEMS = {
    "swiss": (EventFormat.SWISS, False),
    "round_robin": (EventFormat.ROUND_ROBIN, False),
    "double_round_robin": (EventFormat.ROUND_ROBIN, True),
}
SYSTEM_LABELS = {
    "swiss": gettext_lazy("Swiss rounds"),
    "round_robin": gettext_lazy("Round robin"),
    "double_round_robin": gettext_lazy("Double round robin"),
}


def open_system(event: Event) -> str:
    if event.format == EventFormat.SWISS:
        return "swiss"
    return "double_round_robin" if event.double_round_robin else "round_robin"


def bye_tps(event: Event) -> Decimal:
    """What a bye scores: a won game by the largest margin of a normal win (house rule)."""
    return formats.bye_tps(event.games_per_match)


def require_table_open(event: Event) -> None:
    if not event.table_open:
        raise ValidationError({"event": _("This event is not a table open.")})


@transaction.atomic
def table_open_create(
    *,
    actor: User,
    championship: Championship,
    name: str,
    system: str,
    swiss_rounds: int = 0,
    tiebreak_list: list[str] | None = None,
    **config: Any,
) -> Event:
    """A new table open: one game per table and round, results from score sheets."""
    if system not in SYSTEMS:
        raise ValidationError(
            {"system": _("Choose Swiss rounds, round robin or double round robin.")}
        )
    event_format, double = SYSTEMS[system]
    criteria = list(tiebreak_list or tiebreaks.DEFAULT_CRITERIA)
    try:
        tiebreaks.criteria_check(criteria)
    except formats.FormatError as exc:
        raise ValidationError({"tiebreaks": format_error_text(exc)}) from None
    event = event_create(
        actor=actor,
        championship=championship,
        name=name,
        format=event_format,
        double_round_robin=double,
        swiss_rounds=swiss_rounds if system == "swiss" else 0,
        games_per_match=1,
        **config,
    )
    event.table_open = True
    event.tiebreaks = criteria
    event.save(update_fields=["table_open", "tiebreaks"])
    audit(
        actor=actor,
        championship=championship,
        event=event,
        action=AuditAction.TABLE_OPEN_CREATE,
        target=event.name,
        details={"system": system, "rounds": event.swiss_rounds, "tiebreaks": criteria},
    )
    return event


@transaction.atomic
def table_open_start(*, actor: User, event: Event, draw_seed: int | None = None) -> Event:
    """Make the draw (round 1 of a Swiss, every round of a round robin) with table numbers."""
    require_table_open(event)
    return draw_generate(actor=actor, event=event, draw_seed=draw_seed)


def _current_round(event: Event) -> Round | None:
    return event.rounds.order_by("-number").first()


def round_under_way(round_: Round) -> bool:
    """A result has been entered (or a game decided) at some table of the round."""
    return (
        round_.matches.filter(is_bye=False)
        .filter(Q(status__in=FINAL_MATCH_STATUSES) | Q(table_result__isnull=False))
        .exists()
    )


def _lock_started_open(actor: User, event: Event) -> Event:
    require_ruler(actor, event.championship)
    event = (
        Event.objects.select_for_update(of=("self",))
        .select_related("championship")
        .get(pk=event.pk)
    )
    require_table_open(event)
    if event.status == EventStatus.FINISHED:
        raise ValidationError({"event": _("The event is finished: its results stand.")})
    if event.status != EventStatus.DRAWN:
        raise ValidationError(
            {"event": _("The open has not started yet: register the player as usual.")}
        )
    return event


@transaction.atomic
def round_repair(*, actor: User, event: Event, reason: str = "") -> Round:
    """Pair the latest Swiss round again, while no result of it has been entered."""
    event = _lock_started_open(actor, event)
    round_ = _current_round(event)
    if event.format != EventFormat.SWISS or round_ is None:
        raise ValidationError({"round": _("Only a Swiss round can be paired again.")})
    if round_under_way(round_):
        raise ValidationError(
            {
                "round": _(
                    "%(round)s is under way (a result is in): it can no longer be re-paired."
                )
                % {"round": round_}
            }
        )
    number = round_.number
    # The round keeps its row (and so its address, which may be printed or bookmarked): its
    # matches go, it steps aside as round 0 while the pairing makes a fresh round, and takes
    # that round's matches.
    round_.matches.all().delete()
    Round.objects.filter(pk=round_.pk).update(number=0)
    entries = sorted(
        event.entries.filter(status=EntryStatus.ACTIVE).select_related("player"),
        key=lambda e: e.seed or 0,
    )
    try:
        fresh = swiss_round_draw(event, entries, number, timezone.now())
    except formats.FormatError as exc:
        raise ValidationError({"round": format_error_text(exc)}) from None
    Match.objects.filter(round=fresh).update(round=round_)
    fresh.delete()
    Round.objects.filter(pk=round_.pk).update(number=number)
    new_round = Round.objects.get(pk=round_.pk)
    rounds_prepare(event)
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.ROUND_REPAIR,
        target=new_round.english_name,
        reason=reason,
    )
    return new_round


@transaction.atomic
def entry_late_add(*, actor: User, event: Event, player: Player) -> Entry:
    """A late entry: joins a Swiss open at the first round that is not under way."""
    event = _lock_started_open(actor, event)
    if event.format != EventFormat.SWISS:
        raise ValidationError(
            {
                "player": _(
                    "A round robin is fixed at the start: late entries join Swiss opens only."
                )
            }
        )
    if Entry.objects.filter(event=event, player=player).exists():
        raise ValidationError(
            {"player": _("%(player)s is already entered.") % {"player": player.display_name}}
        )
    problems = selectors.eligibility_problems(event, player, actor=actor)
    if problems:
        raise ValidationError({"player": problems})
    round_ = _current_round(event)
    assert round_ is not None  # a drawn Swiss has round 1
    waiting = not round_under_way(round_)
    joins = round_.number if waiting else round_.number + 1
    if joins > event.swiss_rounds:
        raise ValidationError({"player": _("The last round is under way: there is none to join.")})
    last_seed = event.entries.aggregate(top=Max("seed"))["top"] or 0
    entry = Entry.objects.create(
        event=event,
        player=player,
        seed=last_seed + 1,
        seeding_basis="late_entry",
        registered_by=actor,
        joined_round=joins,
    )
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action=AuditAction.ENTRY_LATE,
        target=player.display_name,
        details={"joins_round": joins},
    )
    if waiting:
        round_repair(actor=actor, event=event, reason=f"late entry: {player.display_name}")
    return entry


@transaction.atomic
def entry_drop(*, actor: User, entry: Entry, reason: str = "") -> Entry:
    """A player drops out: out of every round not yet under way; an open game is a walkover.

    The player keeps their place in the standings with what they scored."""
    event = _lock_started_open(actor, entry.event)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
    if entry.status != EntryStatus.ACTIVE:
        raise ValidationError(
            {"entry": _("%(player)s is no longer in play.") % {"player": entry.player.display_name}}
        )
    round_ = _current_round(event)
    assert round_ is not None
    swiss_waiting = event.format == EventFormat.SWISS and not round_under_way(round_)
    left_after_round = round_.number - 1 if swiss_waiting else round_.number
    transition(
        entry,
        EntryStatus.WITHDRAWN,
        fields={"left_after_round": left_after_round},
        audit=audit_entry(
            actor=actor,
            championship=event.championship,
            event=event,
            action=AuditAction.ENTRY_DROP,
            target=entry.player.display_name,
            reason=reason,
            details={"after_round": left_after_round},
        ),
    )
    if swiss_waiting:
        round_repair(actor=actor, event=event, reason=f"drop-out: {entry.player.display_name}")
        return entry
    open_matches = (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__championship", "round", "entry_a", "entry_b")
        .filter(Q(entry_a=entry) | Q(entry_b=entry), table_result__isnull=True)
        .exclude(status__in=FINAL_MATCH_STATUSES)
        .order_by("round__number")
    )
    for match in open_matches:
        other_is_a = match.entry_b_id == entry.pk
        other = match.entry_a if other_is_a else match.entry_b
        # The opponent scores as for a bye (house rule): they came to play.
        match.tps_a, match.tps_b = (
            (bye_tps(event), Decimal("0.0")) if other_is_a else (Decimal("0.0"), bye_tps(event))
        )
        match.save(update_fields=["tps_a", "tps_b"])
        match_finish(match, winner=other, status=MatchStatus.WALKOVER, reason="withdrawal")
    rounds_prepare(event)
    return entry


# --- Audit types: the actions this module writes -------------------------------------------

register_audit_type(
    AuditAction.TABLE_OPEN_CREATE, details={"system": str, "rounds": int, "tiebreaks": list}
)
register_audit_type(AuditAction.ROUND_REPAIR)
register_audit_type(AuditAction.ENTRY_LATE, details={"joins_round": int})
register_audit_type(AuditAction.ENTRY_DROP, details={"after_round": int})
