"""Writes for championships: events, registration, seeding, draws, matches, advancement.

Every service is one transaction; every organiser, controller or worker change leaves an
`AuditEntry`. The algorithms (charts, pairings, TPs, match state) live in `tournaments.formats`.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_countries import countries as country_registry

from games.models import Game, GameContext, GameSeat
from players.models import Player
from players.roles import player_of
from tournaments import formats, selectors
from tournaments.models import (
    FINAL_MATCH_STATUSES,
    AuditEntry,
    Category,
    Championship,
    Eligibility,
    Entry,
    EntrySource,
    EntryStatus,
    Event,
    EventFormat,
    EventStatus,
    Match,
    MatchGame,
    MatchStatus,
    QualifierPolicy,
    Round,
)
from tournaments.permissions import (
    can_create_championship,
    can_manage,
    can_rule,
    match_side_of,
)

logger = logging.getLogger(__name__)

ZERO = Decimal("0.0")


# --- Audit ---------------------------------------------------------------------------------


def audit(
    *,
    actor: Any,
    championship: Championship | None,
    action: str,
    target: str = "",
    details: dict | None = None,
    reason: str = "",
    event: Event | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=actor if getattr(actor, "is_authenticated", False) else None,
        championship=championship,
        event=event,
        action=action,
        target=target[:120],
        details=details or {},
        reason=reason,
    )


def _require_manager(actor: Any, championship: Championship) -> None:
    if not can_manage(actor, championship):
        raise PermissionDenied("Only this championship's organisers may do that.")


def _require_ruler(actor: Any, championship: Championship) -> None:
    if not can_rule(actor, championship):
        raise PermissionDenied("Only this championship's organisers and controllers may rule.")


# --- Championships and events --------------------------------------------------------------


@transaction.atomic
def championship_create(
    *, actor: Any, name: str, year: int, category: str = Category.OPEN, published: bool = False
) -> Championship:
    if not can_create_championship(actor):
        raise PermissionDenied("Only organisers may create championships.")
    if Championship.objects.filter(name__iexact=name.strip(), year=year).exists():
        raise ValidationError({"name": f"{name} {year} already exists."})
    championship = Championship(
        name=name.strip(), year=year, category=category, published=published, created_by=actor
    )
    championship.full_clean()
    championship.save()
    championship.organisers.add(actor)
    audit(
        actor=actor,
        championship=championship,
        action="championship_create",
        target=str(championship),
        details={"category": category, "published": published},
    )
    return championship


@transaction.atomic
def championship_update(*, actor: Any, championship: Championship, **fields: Any) -> Championship:
    _require_manager(actor, championship)
    allowed = {"name", "year", "category", "published"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError({name: "This field cannot be changed." for name in sorted(unknown)})
    changes = {k: v for k, v in fields.items() if getattr(championship, k) != v}
    for key, value in changes.items():
        setattr(championship, key, value)
    championship.full_clean()
    championship.save()
    if changes:
        audit(
            actor=actor,
            championship=championship,
            action="championship_update",
            target=str(championship),
            details={k: str(v) for k, v in changes.items()},
        )
    return championship


@transaction.atomic
def championship_staff_set(
    *, actor: Any, championship: Championship, user: Any, role: str, present: bool = True
) -> None:
    """Add or remove a co-organiser or a controller."""
    _require_manager(actor, championship)
    if role not in ("organiser", "controller"):
        raise ValidationError({"role": "Choose organiser or controller."})
    relation = championship.organisers if role == "organiser" else championship.controllers
    if (
        role == "organiser"
        and not present
        and championship.organisers.count() == 1
        and championship.organisers.filter(pk=user.pk).exists()
    ):
        raise ValidationError({"user": "A championship keeps at least one organiser."})
    (relation.add if present else relation.remove)(user)
    audit(
        actor=actor,
        championship=championship,
        action=f"{role}_{'add' if present else 'remove'}",
        target=user.get_username(),
    )


# The settings an organiser gives an event (in the order forms and the API show them).
EVENT_FIELDS = (
    "name",
    "stage",
    "format",
    "games_per_match",
    "extra_game_margin",
    "max_extra_games",
    "tp_scheme",
    "time_limit_seconds",
    "eligibility",
    "junior_age_limit",
    "cutoff_date",
    "countries",
    "minimum_ranking",
    "feeds_from",
    "qualifiers_count",
    "qualifier_policy",
    "sections",
    "groups_count",
    "double_round_robin",
    "swiss_rounds",
    "draw_seed",
    "round_days",
)


def _validate_event(event: Event) -> None:
    errors: dict[str, str] = {}
    try:
        formats.tp_scheme(event.tp_scheme)
    except formats.FormatError as exc:
        errors["tp_scheme"] = str(exc)
    if event.max_extra_games and event.extra_game_margin <= 0:
        errors["extra_game_margin"] = "Extra games need a positive TP margin to play for."
    if event.format == EventFormat.GROUPS and event.groups_count < 1:
        errors["groups_count"] = "A group stage needs at least one group."
    if event.format == EventFormat.SWISS and event.swiss_rounds < 1:
        errors["swiss_rounds"] = "A Swiss event needs at least one round."
    if event.sections < 1 or event.sections & (event.sections - 1):
        errors["sections"] = "Sections must be 1, 2, 4, 8, ..."
    if event.eligibility == Eligibility.JUNIOR and event.cutoff_date is None:
        errors["cutoff_date"] = "A junior event needs the cut-off date for the age limit."
    if event.countries is None:
        event.countries = []  # a form's "null": no countries
    countries = event.countries
    if not isinstance(countries, list) or not all(
        isinstance(code, str) and len(code) <= 3 for code in countries
    ):
        errors["countries"] = "Give the countries as a list of ISO country codes, e.g. [\"HU\"]."
        countries = []
    elif len(countries) > len(country_registry):
        errors["countries"] = "That is more countries than there are."
        countries = []
    if event.eligibility == Eligibility.NATIONAL and "countries" not in errors:
        codes = [code.upper() for code in countries]
        bad = [c for c in codes if c not in dict(country_registry)]
        if not codes:
            errors["countries"] = "A national event needs at least one country code."
        elif bad:
            errors["countries"] = f"Unknown country codes: {', '.join(bad)}."
        event.countries = codes
    if event.eligibility == Eligibility.MINIMUM_RANKING and not event.minimum_ranking:
        errors["minimum_ranking"] = "Give the minimum ranking."
    if event.feeds_from_id:
        source = event.feeds_from
        if source.championship_id != event.championship_id:
            errors["feeds_from"] = "Qualifiers can only come from the same championship."
        elif source.stage >= event.stage:
            errors["feeds_from"] = "The qualifying event must be an earlier stage."
        if not event.qualifiers_count:
            errors["qualifiers_count"] = "Say how many players qualify."
    if event.time_limit_seconds < 60:
        errors["time_limit_seconds"] = "The time limit must be at least a minute."
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def event_create(*, actor: Any, championship: Championship, **config: Any) -> Event:
    _require_manager(actor, championship)
    unknown = set(config) - set(EVENT_FIELDS)
    if unknown:
        raise ValidationError({name: "Unknown event setting." for name in sorted(unknown)})
    event = Event(championship=championship, **config)
    event.clean_fields(exclude=["champion"])  # field errors, and strings into the fields' types
    _validate_event(event)
    event.full_clean(exclude=["champion"])
    event.save()
    audit(
        actor=actor,
        championship=championship,
        event=event,
        action="event_create",
        target=event.name,
        details={"format": event.format},
    )
    return event


@transaction.atomic
def event_registration_set(*, actor: Any, event: Event, open_: bool) -> Event:
    _require_manager(actor, event.championship)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status not in (EventStatus.REGISTRATION, EventStatus.CLOSED):
        raise ValidationError({"status": "The draw has been made; registration is over."})
    event.status = EventStatus.REGISTRATION if open_ else EventStatus.CLOSED
    event.save(update_fields=["status"])
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action="registration_open" if open_ else "registration_close",
        target=event.name,
    )
    return event


# --- Registration --------------------------------------------------------------------------


def _age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def eligibility_problems(event: Event, player: Player) -> list[str]:
    """Why this player may not enter this event (empty when they may)."""
    problems = []
    if event.eligibility == Eligibility.JUNIOR:
        if player.date_of_birth is None:
            problems.append("A junior event needs the player's date of birth on their profile.")
        elif _age_on(player.date_of_birth, event.cutoff_date) >= event.junior_age_limit:
            # Never the age itself: organisers see this answer, and the date of birth is private.
            problems.append(
                f"{player.display_name} is not under {event.junior_age_limit} on the cut-off "
                f"date ({event.cutoff_date:%d %B %Y}); this event is for players under "
                f"{event.junior_age_limit} on that day."
            )
    elif event.eligibility == Eligibility.NATIONAL:
        if player.country.code not in event.countries:
            problems.append(
                f"{player.display_name} plays for {player.country.name or 'no country'}; this "
                f"event is open to {', '.join(event.countries)} only."
            )
    elif event.eligibility == Eligibility.MINIMUM_RANKING:
        ranking = seeding_ratings([player.pk]).get(player.pk, (None, None))[1]
        if ranking is None or ranking < event.minimum_ranking:
            problems.append(
                f"{player.display_name}'s ranking ({ranking if ranking is not None else 'none'}) "
                f"is below this event's minimum of {event.minimum_ranking}."
            )
    return problems


@transaction.atomic
def entry_register(*, actor: Any, event: Event, player: Player) -> Entry:
    """A player registers themselves; an organiser registers anyone."""
    own = player_of(actor)
    if not (can_manage(actor, event.championship) or (own is not None and own.pk == player.pk)):
        raise PermissionDenied("You may register only yourself.")
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != EventStatus.REGISTRATION:
        raise ValidationError({"event": "Registration for this event is closed."})
    if event.feeds_from_id and not event.qualifiers_count:
        raise ValidationError({"event": "This event is filled by qualifiers only."})
    if Entry.objects.filter(event=event, player=player).exists():
        raise ValidationError({"player": f"{player.display_name} is already entered."})
    problems = eligibility_problems(event, player)
    if problems:
        raise ValidationError({"player": problems})
    entry = Entry.objects.create(event=event, player=player, registered_by=actor)
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action="entry_register",
        target=player.display_name,
    )
    return entry


@transaction.atomic
def entry_withdraw(*, actor: Any, entry: Entry, reason: str = "") -> Entry:
    """Withdraw an entry. After the draw its open matches go to the opponent by walkover."""
    own = player_of(actor)
    manager = can_manage(actor, entry.event.championship)
    if not (manager or (own is not None and own.pk == entry.player_id)):
        raise PermissionDenied("You may withdraw only your own entry.")
    entry = Entry.objects.select_for_update(of=("self",)).select_related("event").get(pk=entry.pk)
    if entry.status == EntryStatus.WITHDRAWN:
        raise ValidationError({"entry": "This entry is already withdrawn."})
    if entry.event.status == EventStatus.FINISHED:
        raise ValidationError({"entry": "The event is finished: its results stand."})
    if entry.status != EntryStatus.ACTIVE:
        raise ValidationError(
            {"entry": f"This entry is no longer in play ({entry.get_status_display().lower()})."}
        )
    if entry.event.status == EventStatus.DRAWN and not manager:
        raise PermissionDenied("After the draw only an organiser may withdraw a player.")
    entry.status = EntryStatus.WITHDRAWN
    entry.save(update_fields=["status"])
    open_matches = (
        Match.objects.select_for_update()
        .filter(Q(entry_a=entry) | Q(entry_b=entry))
        .exclude(status__in=FINAL_MATCH_STATUSES)
    )
    for match in open_matches:
        other = match.entry_b if match.entry_a_id == entry.pk else match.entry_a
        if other is None and match.feeders.exclude(status__in=FINAL_MATCH_STATUSES).exists():
            # The opponent is not known yet: empty the slot; when the feeding match ends,
            # its winner goes through by walkover (see _feed_next).
            side = "entry_a" if match.entry_a_id == entry.pk else "entry_b"
            setattr(match, side, None)
            match.save(update_fields=[side])
            continue
        _finish_match(
            match,
            winner=other,
            status=MatchStatus.WALKOVER if other else MatchStatus.VOID,
            reason="withdrawal",
        )
    audit(
        actor=actor,
        championship=entry.event.championship,
        event=entry.event,
        action="entry_withdraw",
        target=entry.player.display_name,
        reason=reason,
    )
    return entry


# --- Seeding -------------------------------------------------------------------------------


def seeding_ratings(player_ids: Sequence[int]) -> dict[int, tuple[float | None, float | None]]:
    """(tournament Elo, lobby ranking) per player, from the ratings app when it has them."""
    try:
        from ratings.selectors import seeding_ratings as ratings_for_seeding
    except ImportError:
        return {}
    return ratings_for_seeding(list(player_ids))


@transaction.atomic
def event_seed(*, actor: Any, event: Event, order: Sequence[int] | None = None) -> list[Entry]:
    """Seed the active entries: by the organiser's order of entry ids, or from ratings.

    From ratings: tournament Elo first, then the lobby ranking, then registration order, so
    unrated players go last in the order they entered.
    """
    _require_manager(actor, event.championship)
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == EventStatus.DRAWN or event.status == EventStatus.FINISHED:
        raise ValidationError({"event": "The draw has been made; seeds can no longer change."})
    entries = list(
        event.entries.filter(status=EntryStatus.ACTIVE)
        .select_related("player")
        .order_by("qualifier_rank", "created", "id")
    )
    if order is not None:
        by_id = {e.pk: e for e in entries}
        order = list(order)
        missing = [e.pk for e in entries if e.pk not in set(order)]
        unknown = [pk for pk in order if pk not in by_id]
        if unknown or missing or len(set(order)) != len(order):
            raise ValidationError(
                {
                    "order": (
                        "Give every active entry id exactly once"
                        + (f"; unknown: {unknown}" if unknown else "")
                        + (f"; missing: {missing}" if missing else "")
                    )
                }
            )
        ranked = [by_id[pk] for pk in order]
        basis = {e.pk: "organiser" for e in ranked}
        points = {e.pk: None for e in ranked}
    else:
        ratings = seeding_ratings([e.player_id for e in entries])
        position = {e.pk: i for i, e in enumerate(entries)}

        def key(entry: Entry) -> tuple:
            if entry.source == EntrySource.QUALIFIER:
                # Below every direct entrant, in the order the qualifying stage ranked them.
                return (True, entry.qualifier_rank or 0, position[entry.pk])
            elo, lobby = ratings.get(entry.player_id, (None, None))
            return (
                False,
                elo is None,
                -(elo or 0),
                lobby is None,
                -(lobby or 0),
                position[entry.pk],
            )

        ranked = sorted(entries, key=key)
        basis, points = {}, {}
        for entry in ranked:
            elo, lobby = ratings.get(entry.player_id, (None, None))
            if entry.source == EntrySource.QUALIFIER:
                basis[entry.pk], points[entry.pk] = "qualifier_rank", entry.qualifier_rank
            elif elo is not None:
                basis[entry.pk], points[entry.pk] = "elo", elo
            elif lobby is not None:
                basis[entry.pk], points[entry.pk] = "lobby", lobby
            else:
                basis[entry.pk], points[entry.pk] = "registration", None
    Entry.objects.filter(event=event).update(seed=None)
    for seed, entry in enumerate(ranked, start=1):
        entry.seed = seed
        entry.seeding_basis = basis[entry.pk]
        entry.seeding_points = points[entry.pk]
    Entry.objects.bulk_update(ranked, ["seed", "seeding_basis", "seeding_points"])
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action="event_seed",
        target=event.name,
        details={
            "order": [e.pk for e in ranked],
            "by": "organiser" if order is not None else "ratings",
        },
    )
    return ranked


# --- Draws ---------------------------------------------------------------------------------


def _match_rules(event: Event) -> formats.MatchRules:
    return formats.MatchRules(
        planned_games=event.games_per_match,
        extra_margin=Decimal(event.extra_game_margin),
        max_extra_games=event.max_extra_games,
    )


def _round_name(number: int, rounds: int) -> str:
    left = rounds - number
    return {0: "Final", 1: "Semi-finals", 2: "Quarter-finals"}.get(left, f"Round of {2 << left}")


# A draw dated far away is a typing mistake, and round deadlines derived from it must stay
# representable.
DRAW_START_WINDOW = dt.timedelta(days=366)


@transaction.atomic
def draw_generate(
    *, actor: Any, event: Event, draw_seed: int | None = None, start: dt.datetime | None = None
) -> Event:
    """Make the draw for the event's format and create its rounds and matches."""
    _require_manager(actor, event.championship)
    event = (
        Event.objects.select_for_update(of=("self",))
        .select_related("championship")
        .get(pk=event.pk)
    )
    if event.status in (EventStatus.DRAWN, EventStatus.FINISHED):
        raise ValidationError({"event": "The draw for this event has already been made."})
    entries = list(event.entries.filter(status=EntryStatus.ACTIVE).select_related("player"))
    if len(entries) < 2:
        raise ValidationError(
            {"event": f"A draw needs at least 2 active entries, not {len(entries)}."}
        )
    if any(e.seed is None for e in entries):
        event_seed(actor=actor, event=event)
        entries = list(event.entries.filter(status=EntryStatus.ACTIVE).select_related("player"))
    entries.sort(key=lambda e: e.seed)
    if draw_seed is None:
        draw_seed = (
            event.draw_seed
            if event.draw_seed is not None
            else random.SystemRandom().randrange(2**31)
        )
    event.draw_seed = draw_seed
    now = timezone.now()
    start = start or now
    if not now - DRAW_START_WINDOW <= start <= now + DRAW_START_WINDOW:
        raise ValidationError(
            {"start": "The first round must start within a year of today (before or after)."}
        )
    try:
        if event.format == EventFormat.KNOCKOUT:
            _draw_knockout(event, entries, start)
        elif event.format in (EventFormat.GROUPS, EventFormat.ROUND_ROBIN):
            _draw_groups(event, entries, start)
        else:
            _draw_swiss_round(event, entries, 1, start)
    except formats.FormatError as exc:
        raise ValidationError({"event": str(exc)}) from None
    event.status = EventStatus.DRAWN
    event.save(update_fields=["status", "draw_seed"])
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action="draw_generate",
        target=event.name,
        details={"draw_seed": draw_seed, "entries": len(entries)},
    )
    return event


def _deadline(event: Event, start: dt.datetime, number: int) -> dt.datetime:
    return start + dt.timedelta(days=event.round_days * number)


def _draw_knockout(event: Event, entries: list[Entry], start: dt.datetime) -> None:
    by_seed = {e.seed: e for e in entries}
    direct = [e for e in entries if e.source == EntrySource.REGISTRATION]
    qualifiers = [e for e in entries if e.source == EntrySource.QUALIFIER]
    if qualifiers and direct:
        positions = formats.place_qualifiers(
            len(direct),
            len(qualifiers),
            policy=formats.QualifierPolicy(event.qualifier_policy),
            sections=event.sections,
            draw_seed=event.draw_seed
            if event.qualifier_policy == QualifierPolicy.DRAWN_INTO_SECTIONS
            else None,
        )
    elif event.sections > 1:
        positions = formats.sections_draw(
            len(entries), sections=event.sections, draw_seed=event.draw_seed
        )
    else:
        positions = formats.seeded_draw(len(entries))
    rounds_total = len(positions).bit_length() - 1
    rounds = [
        Round.objects.create(
            event=event,
            number=n,
            name=_round_name(n, rounds_total),
            deadline=_deadline(event, start, n),
        )
        for n in range(1, rounds_total + 1)
    ]
    # Build from the final backwards so each match can point at the one its winner goes to.
    later: dict[tuple[int, int], Match] = {}
    for number in range(rounds_total, 0, -1):
        for index in range(formats.matches_in_round(number, rounds_total)):
            slot = formats.next_slot(number, index, rounds=rounds_total)
            later[(number, index)] = Match.objects.create(
                event=event,
                round=rounds[number - 1],
                bracket_index=index,
                next_match=later[(slot.round, slot.match)] if slot else None,
                next_side=slot.side if slot else None,
            )
    for index, (top, bottom) in enumerate(formats.pair_positions(positions)):
        match = later[(1, index)]
        match.entry_a = by_seed.get(top) if top is not None else None
        match.entry_b = by_seed.get(bottom) if bottom is not None else None
        if match.entry_a is None or match.entry_b is None:
            match.is_bye = True
            match.save(update_fields=["entry_a", "entry_b", "is_bye"])
            _finish_match(
                match,
                winner=match.entry_a or match.entry_b,
                status=MatchStatus.WALKOVER,
                reason="bye",
            )
        else:
            match.status = MatchStatus.SCHEDULED
            match.save(update_fields=["entry_a", "entry_b", "status"])


def _draw_groups(event: Event, entries: list[Entry], start: dt.datetime) -> None:
    groups = 1 if event.format == EventFormat.ROUND_ROBIN else event.groups_count
    if groups > len(entries) // 2:
        raise formats.FormatError(
            f"{len(entries)} entries cannot fill {groups} groups of at least 2 players"
        )
    drawn = (
        formats.group_draw(
            [formats.GroupEntrant(e.pk, e.player.country.code or None) for e in entries],
            groups,
            method=formats.GroupDrawMethod.POTS,
            draw_seed=event.draw_seed,
        )
        if groups > 1
        else (tuple(e.pk for e in entries),)
    )
    by_id = {e.pk: e for e in entries}
    rounds: dict[int, Round] = {}
    matches = []
    for group_number, members in enumerate(drawn, start=1):
        Entry.objects.filter(pk__in=members).update(group=group_number)
        for rr_round in formats.round_robin(list(members), double=event.double_round_robin):
            if rr_round.number not in rounds:
                rounds[rr_round.number] = Round.objects.create(
                    event=event,
                    number=rr_round.number,
                    name=f"Round {rr_round.number}",
                    deadline=_deadline(event, start, rr_round.number),
                )
            for a, b in rr_round.pairings:
                matches.append(
                    Match(
                        event=event,
                        round=rounds[rr_round.number],
                        group=group_number,
                        entry_a=by_id[a],
                        entry_b=by_id[b],
                        status=MatchStatus.SCHEDULED,
                    )
                )
    Match.objects.bulk_create(matches)


def _draw_swiss_round(event: Event, entries: list[Entry], number: int, start: dt.datetime) -> Round:
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
        event=event, number=number, name=f"Round {number}", deadline=_deadline(event, start, 1)
    )
    by_id = {e.pk: e for e in entries}
    for index, (a, b) in enumerate(paired.pairings):
        Match.objects.create(
            event=event,
            round=round_,
            bracket_index=index,
            entry_a=by_id[a],
            entry_b=by_id[b],
            status=MatchStatus.SCHEDULED,
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
        bye.tps_a = Decimal(event.games_per_match) * formats.tps_for_margin(10)[0]
        bye.save(update_fields=["tps_a"])
        _finish_match(bye, winner=bye.entry_a, status=MatchStatus.WALKOVER, reason="bye")
    return round_


# --- Match results -------------------------------------------------------------------------


def _finish_match(match: Match, *, winner: Entry | None, status: str, reason: str) -> None:
    match.winner = winner
    match.status = status
    match.state_reason = reason
    match.decided_at = timezone.now()
    match.save(update_fields=["winner", "status", "state_reason", "decided_at"])
    _after_match_final(match)


def _after_match_final(match: Match) -> None:
    event = match.event
    if event.format == EventFormat.KNOCKOUT:
        loser_ids = [e for e in (match.entry_a_id, match.entry_b_id) if e and e != match.winner_id]
        if loser_ids:
            Entry.objects.filter(pk__in=loser_ids, status=EntryStatus.ACTIVE).update(
                status=EntryStatus.ELIMINATED
            )
        if match.next_match_id is None:
            _crown(event, match.winner)
        else:
            _feed_next(match)
    elif event.format == EventFormat.SWISS:
        _maybe_next_swiss_round(event, match.round)
    elif not event.matches.exclude(status__in=FINAL_MATCH_STATUSES).exists():
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)


def _crown(event: Event, winner: Entry | None) -> None:
    event.champion = winner
    event.status = EventStatus.FINISHED
    event.save(update_fields=["champion", "status"])
    if winner is not None:
        Entry.objects.filter(pk=winner.pk).update(status=EntryStatus.CHAMPION)
    audit(
        actor=None,
        championship=event.championship,
        event=event,
        action="champion",
        target=winner.player.display_name if winner else "no champion",
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
        following.status = MatchStatus.SCHEDULED
        following.save(update_fields=["status"])
        return
    survivor = following.entry_a or following.entry_b
    _finish_match(
        following,
        winner=survivor,
        status=MatchStatus.WALKOVER if survivor else MatchStatus.VOID,
        reason="opponent_out" if survivor else "both_out",
    )


def _maybe_next_swiss_round(event: Event, round_: Round) -> None:
    if round_.matches.exclude(status__in=FINAL_MATCH_STATUSES).exists():
        return
    if round_.number >= event.swiss_rounds:
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
        return
    if event.rounds.filter(number=round_.number + 1).exists():
        return
    entries = sorted(
        event.entries.filter(status=EntryStatus.ACTIVE).select_related("player"),
        key=lambda e: e.seed or 0,
    )
    _draw_swiss_round(event, entries, round_.number + 1, timezone.now())


def sync_match(match: Match) -> Match:
    """Recompute a match's totals and state from its games (the match row must be locked)."""
    games = list(match.match_games.order_by("number"))
    state = formats.match_state([(g.tps_a, g.tps_b) for g in games], _match_rules(match.event))
    match.tps_a, match.tps_b = state.totals
    match.games_played = state.games_played
    match.state_reason = str(state.reason)
    if state.decided:
        winner = match.entry_a if state.winner == 0 else match.entry_b
        match.save(update_fields=["tps_a", "tps_b", "games_played", "state_reason"])
        _finish_match(match, winner=winner, status=MatchStatus.DECIDED, reason=str(state.reason))
    else:
        match.status = MatchStatus.IN_PROGRESS if games else MatchStatus.SCHEDULED
        match.save(update_fields=["tps_a", "tps_b", "games_played", "state_reason", "status"])
    return match


def match_open_for_games(match: Match) -> bool:
    return (
        match.status in (MatchStatus.SCHEDULED, MatchStatus.IN_PROGRESS)
        and match.entry_a_id is not None
        and match.entry_b_id is not None
    )


def validate_match_submission(*, actor: Any, value: Any, seat_players: list) -> int:
    """Submission extension `match`: the game must be between this match's two players.

    Who plays whom is told only to the match's players and the championship's staff: anyone
    else gets the same answer as for a match that does not exist.
    """
    try:
        match_id = int(str(value).strip()) if len(str(value)) <= 18 else None
    except ValueError:
        match_id = None
    if match_id is None or match_id < 1:
        raise ValidationError("Give the match id as a whole number.")
    match = (
        Match.objects.select_related("event__championship", "entry_a__player", "entry_b__player")
        .filter(pk=match_id)
        .first()
    )
    entries = (match.entry_a, match.entry_b) if match else ()
    players = {entry.player_id for entry in entries if entry is not None}
    own = player_of(actor)
    if match is None or not (
        (own is not None and own.pk in players) or can_rule(actor, match.event.championship)
    ):
        raise ValidationError(
            f"You have no match {match_id}: only the match's players and the championship's "
            "staff may submit its games."
        )
    if not match_open_for_games(match):
        raise ValidationError(
            f"Match {match_id} is not open for games ({match.get_status_display()})."
        )
    if len(seat_players) != 2 or {p.pk for p in seat_players} != players:
        raise ValidationError(
            f"Match {match_id} is {match.entry_a.player} v {match.entry_b.player}; the record's "
            "players must be exactly these two."
        )
    return match_id


def _game_tps(game: Game, seats: list[GameSeat], scheme: int) -> tuple[Decimal, Decimal]:
    """TPs per seat (seat order) for a two-player game."""
    a, b = seats[0].score, seats[1].score
    tps = formats.game_tps(a, b, scheme)
    if game.end_reason in ("resigned", "time") and game.winner_seat is not None:
        # The side that resigned or lost on time loses: the winner gets the TPs of the tile
        # margin, and at least those of a one-tile win (house rule, docs/tournaments.md).
        margin = max(1, abs(a - b))
        winner_tps, loser_tps = formats.tps_for_margin(margin, scheme)
        tps = (winner_tps, loser_tps) if game.winner_seat == 0 else (loser_tps, winner_tps)
    return tps


@transaction.atomic
def match_game_attach(*, game_id: int) -> MatchGame | None:
    """Count a valid game for the match it was submitted for; decide and advance the match."""
    game = Game.objects.select_related("record").get(pk=game_id)
    match_id = (game.record.extensions or {}).get("match")
    if match_id is None or MatchGame.objects.filter(game=game).exists():
        return None
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__championship", "entry_a", "entry_b")
        .filter(pk=match_id)
        .first()
    )
    seats = list(game.seats.order_by("seat"))
    problem = None
    if match is None:
        problem = "the match no longer exists"
    elif not match_open_for_games(match):
        problem = f"the match was already {match.get_status_display().lower()}"
    elif len(seats) != 2 or {s.player_id for s in seats} != {
        match.entry_a.player_id,
        match.entry_b.player_id,
    }:
        problem = "the game's players are not this match's players"
    if problem:
        audit(
            actor=None,
            championship=match.event.championship if match else None,
            event=match.event if match else None,
            action="game_not_counted",
            target=f"game {game.pk}",
            details={"game_id": game.pk, "match_id": match_id},
            reason=problem,
        )
        return None
    event = match.event
    seat_a = 0 if seats[0].player_id == match.entry_a.player_id else 1
    by_seat = _game_tps(game, seats, event.tp_scheme)
    base_a, base_b = by_seat[seat_a], by_seat[1 - seat_a]
    match_game = MatchGame.objects.create(
        match=match,
        game=game,
        number=match.match_games.count() + 1,
        seat_a=seat_a,
        base_tps_a=base_a,
        base_tps_b=base_b,
        tps_a=base_a,
        tps_b=base_b,
    )
    Game.objects.filter(pk=game.pk).update(context=GameContext.TOURNAMENT, event_id=event.pk)
    _write_seat_tps(match_game)
    sync_match(match)
    audit(
        actor=None,
        championship=event.championship,
        event=event,
        action="game_counted",
        target=f"match {match.pk}",
        details={"game_id": game.pk, "tps": [str(base_a), str(base_b)]},
    )
    return match_game


def _write_seat_tps(match_game: MatchGame) -> None:
    seat_a = match_game.seat_a
    GameSeat.objects.filter(game_id=match_game.game_id, seat=seat_a).update(
        tournament_points=match_game.tps_a
    )
    GameSeat.objects.filter(game_id=match_game.game_id, seat=1 - seat_a).update(
        tournament_points=match_game.tps_b
    )


def _penalise_decided_match(match: Match) -> None:
    """A late penalty on a decided match moves its totals; it may not change its winner (that
    is a ruling, which says why and checks the next match has not started)."""
    games = list(match.match_games.order_by("number"))
    tps_a = sum((g.tps_a for g in games), Decimal("0"))
    tps_b = sum((g.tps_b for g in games), Decimal("0"))
    if match.winner_id is not None and match.status == MatchStatus.DECIDED:
        leader = match.entry_a_id if tps_a > tps_b else match.entry_b_id if tps_b > tps_a else None
        if leader != match.winner_id:
            raise ValidationError(
                {"side": "This penalty would change the match's winner: make a ruling instead."}
            )
    match.tps_a, match.tps_b = tps_a, tps_b
    match.save(update_fields=["tps_a", "tps_b"])


@transaction.atomic
def match_penalty_claim(*, actor: Any, match_game: MatchGame, side: int) -> MatchGame:
    """The opponent claims the time penalty of `side` (0 = A, 1 = B) for one game.

    TPs move by the clock in the game record against the event's time limit; a claim is
    accepted while the match is still open, or by its organisers and controllers at any time.
    """
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__championship", "entry_a", "entry_b")
        .get(pk=match_game.match_id)
    )
    match_game = (
        MatchGame.objects.select_for_update(of=("self",))
        .select_related("game")
        .get(pk=match_game.pk)
    )
    if side not in (0, 1):
        raise ValidationError({"side": "Side is 0 (the first player) or 1 (the second)."})
    ruler = can_rule(actor, match.event.championship)
    own = player_of(actor)
    claimant = match.entry_b if side == 0 else match.entry_a
    if not ruler and (own is None or claimant is None or own.pk != claimant.player_id):
        raise PermissionDenied(
            "Only the opponent of the player over time, or the "
            "championship's staff, may claim a time penalty."
        )
    if match.is_final and not ruler:
        raise ValidationError({"match": "The match is decided; ask a controller."})
    clock = match_game.game.clock
    seat = match_game.seat_a if side == 0 else 1 - match_game.seat_a
    if not clock or len(clock) <= seat:
        raise ValidationError({"side": "The game record has no clock to judge the time by."})
    limit = match.event.time_limit_seconds
    penalty = formats.time_penalty_tps(int(clock[seat]), limit, claimed=True)
    if penalty == 0:
        raise ValidationError(
            {
                "side": f"That player used {int(clock[seat])} s, within the "
                f"{limit} s limit: there is no penalty."
            }
        )
    if side == 0:
        match_game.penalty_a = penalty
    else:
        match_game.penalty_b = penalty
    match_game.tps_a, match_game.tps_b = formats.apply_time_penalties(
        match_game.base_tps_a, match_game.base_tps_b, match_game.penalty_a, match_game.penalty_b
    )
    match_game.save(update_fields=["penalty_a", "penalty_b", "tps_a", "tps_b"])
    _write_seat_tps(match_game)
    if not match.is_final:
        sync_match(match)
    else:
        _penalise_decided_match(match)
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action="time_penalty",
        target=f"match {match.pk} game {match_game.number}",
        details={"side": side, "penalty": penalty},
    )
    return match_game


@transaction.atomic
def match_rule(*, actor: Any, match: Match, winner_entry_id: int | None, reason: str) -> Match:
    """An organiser's or controller's ruling on a match (override), with a reason."""
    _require_ruler(actor, match.event.championship)
    if not reason.strip():
        raise ValidationError({"reason": "A ruling needs a reason."})
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("event__championship")
        .get(pk=match.pk)
    )
    if (
        match.next_match_id
        and Match.objects.filter(pk=match.next_match_id)
        .exclude(status__in=[MatchStatus.WAITING, MatchStatus.SCHEDULED])
        .exists()
    ):
        raise ValidationError({"match": "The next round's match has started; rule on it instead."})
    sides = {match.entry_a_id: match.entry_a, match.entry_b_id: match.entry_b}
    if winner_entry_id is not None and winner_entry_id not in sides:
        raise ValidationError({"winner": "The winner must be one of the match's entries."})
    winner = sides.get(winner_entry_id) if winner_entry_id is not None else None
    previous = {"status": match.status, "winner": match.winner_id}
    if match.is_final and match.next_match_id:
        # Undo what the earlier result put into the next match before feeding the new one.
        field = "entry_a" if match.next_side == 0 else "entry_b"
        Match.objects.filter(pk=match.next_match_id).update(
            **{field: None}, status=MatchStatus.WAITING
        )
        if match.winner_id:
            Entry.objects.filter(pk=match.winner_id).update(status=EntryStatus.ACTIVE)
    if match.winner_id and match.winner_id != winner_entry_id:
        Entry.objects.filter(pk=match.winner_id, status=EntryStatus.CHAMPION).update(
            status=EntryStatus.ACTIVE
        )
    for entry_id in sides:
        if entry_id:
            Entry.objects.filter(pk=entry_id, status=EntryStatus.ELIMINATED).update(
                status=EntryStatus.ACTIVE
            )
    _finish_match(
        match,
        winner=winner,
        status=MatchStatus.RULED if winner else MatchStatus.VOID,
        reason="ruling",
    )
    from ratings.services import game_review_flag

    for game_id in match.match_games.values_list("game_id", flat=True):
        # The games' rating changes stand, but an admin should look at a ruled match's games.
        game_review_flag(game_id=game_id, note=f"match {match.pk} ruled: {reason}", actor=actor)
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action="match_rule",
        target=f"match {match.pk}",
        reason=reason,
        details={"before": previous, "winner": winner_entry_id},
    )
    return match


@transaction.atomic
def match_walkover_claim(*, actor: Any, match: Match) -> Match:
    """A player says they were available: at the deadline, with no game played, they win."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("entry_a", "entry_b", "event__championship")
        .get(pk=match.pk)
    )
    side = match_side_of(actor, match)
    if side is None:
        raise PermissionDenied("Only a player of this match may claim a walkover.")
    if not match_open_for_games(match) or match.games_played:
        raise ValidationError(
            {"match": "A walkover can be claimed only for an open match with no game played."}
        )
    entry = match.entry_a if side == 0 else match.entry_b
    if match.walkover_claimed_by_id and match.walkover_claimed_by_id != entry.pk:
        raise ValidationError(
            {
                "match": "Your opponent has claimed too: both were available, "
                "so play the match or ask a controller."
            }
        )
    match.walkover_claimed_by = entry
    match.save(update_fields=["walkover_claimed_by"])
    audit(
        actor=actor,
        championship=match.event.championship,
        event=match.event,
        action="walkover_claim",
        target=f"match {match.pk}",
    )
    return match


@transaction.atomic
def round_deadline_set(
    *, actor: Any, round_: Round, deadline: dt.datetime, reason: str = ""
) -> Round:
    _require_manager(actor, round_.event.championship)
    now = timezone.now()
    if not now - DRAW_START_WINDOW <= deadline <= now + DRAW_START_WINDOW:
        raise ValidationError({"deadline": "A deadline must be within a year of today."})
    previous = round_.deadline
    round_.deadline = deadline
    round_.deadline_processed = False
    round_.save(update_fields=["deadline", "deadline_processed"])
    audit(
        actor=actor,
        championship=round_.event.championship,
        event=round_.event,
        action="deadline_set",
        target=str(round_),
        reason=reason,
        details={
            "before": previous.isoformat() if previous else None,
            "after": deadline.isoformat(),
        },
    )
    return round_


def deadlines_process(*, now: dt.datetime | None = None) -> int:
    """Settle the open matches of every round whose deadline has passed (beat task).

    A side that claimed the walkover wins it; with no game and no claim, both are out.
    With games played, the side ahead on TPs wins; a level match is left for a ruling.
    """
    now = now or timezone.now()
    settled = 0
    for round_id in Round.objects.filter(deadline__lt=now, deadline_processed=False).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            round_ = (
                Round.objects.select_for_update(skip_locked=True)
                .filter(pk=round_id, deadline_processed=False)
                .first()
            )
            if round_ is None:
                continue
            for match in (
                Match.objects.select_for_update(of=("self",))
                .select_related("event__championship")
                .filter(round=round_)
                .exclude(status__in=FINAL_MATCH_STATUSES)
                .order_by("bracket_index", "id")
            ):
                if match.is_final or not (match.entry_a_id and match.entry_b_id):
                    continue
                if match.games_played:
                    if match.tps_a == match.tps_b:
                        audit(
                            actor=None,
                            championship=match.event.championship,
                            event=match.event,
                            action="deadline_level",
                            target=f"match {match.pk}",
                            reason="level at the deadline",
                        )
                        continue
                    winner = match.entry_a if match.tps_a > match.tps_b else match.entry_b
                    _finish_match(
                        match, winner=winner, status=MatchStatus.DECIDED, reason="deadline_leader"
                    )
                elif match.walkover_claimed_by_id:
                    _finish_match(
                        match,
                        winner=match.walkover_claimed_by,
                        status=MatchStatus.WALKOVER,
                        reason="deadline_walkover",
                    )
                else:
                    Entry.objects.filter(
                        pk__in=[match.entry_a_id, match.entry_b_id], status=EntryStatus.ACTIVE
                    ).update(status=EntryStatus.ELIMINATED)
                    _finish_match(
                        match, winner=None, status=MatchStatus.VOID, reason="deadline_both_out"
                    )
                audit(
                    actor=None,
                    championship=match.event.championship,
                    event=match.event,
                    action="deadline_walkover",
                    target=f"match {match.pk}",
                    details={"status": match.status, "winner": match.winner_id},
                )
                settled += 1
            round_.deadline_processed = True
            round_.save(update_fields=["deadline_processed"])
    return settled


# --- Group stages into a main draw ---------------------------------------------------------


@transaction.atomic
def qualifiers_advance(*, actor: Any, event: Event) -> list[Entry]:
    """Move the qualifiers of `event.feeds_from` into `event`, seeded by qualifying rank."""
    _require_manager(actor, event.championship)
    event = Event.objects.select_for_update().get(pk=event.pk)
    source = event.feeds_from
    if source is None:
        raise ValidationError({"event": "This event is not fed by another event."})
    if event.status in (EventStatus.DRAWN, EventStatus.FINISHED):
        raise ValidationError({"event": "The draw has been made; qualifiers can no longer move."})
    if source.matches.exclude(status__in=FINAL_MATCH_STATUSES).exists():
        open_count = source.matches.exclude(status__in=FINAL_MATCH_STATUSES).count()
        raise ValidationError({"event": f"{source.name} still has {open_count} open matches."})
    if event.entries.filter(source=EntrySource.QUALIFIER).exists():
        raise ValidationError({"event": "The qualifiers have already been moved."})
    try:
        if source.format in (EventFormat.GROUPS, EventFormat.ROUND_ROBIN):
            tables = selectors.group_tables(source)
            chosen = [
                q.key
                for q in formats.group_qualifiers(list(tables.values()), event.qualifiers_count)
            ]
        else:
            chosen = [e.pk for e, _ in selectors.swiss_standings(source)][: event.qualifiers_count]
    except formats.FormatError as exc:
        raise ValidationError({"event": str(exc)}) from None
    source_entries = {e.pk: e for e in source.entries.select_related("player")}
    created = []
    for rank, entry_id in enumerate(chosen, start=1):
        player = source_entries[entry_id].player
        existing = Entry.objects.filter(event=event, player=player).first()
        if existing is not None:  # a direct entrant who also played the qualifier
            continue
        created.append(
            Entry(
                event=event,
                player=player,
                source=EntrySource.QUALIFIER,
                qualifier_rank=rank,
                registered_by=actor,
            )
        )
    Entry.objects.bulk_create(created)
    source.entries.filter(pk__in=chosen).update(status=EntryStatus.QUALIFIED)
    source.entries.exclude(pk__in=chosen).filter(status=EntryStatus.ACTIVE).update(
        status=EntryStatus.ELIMINATED
    )
    Event.objects.filter(pk=source.pk).update(status=EventStatus.FINISHED)
    audit(
        actor=actor,
        championship=event.championship,
        event=event,
        action="qualifiers_advance",
        target=event.name,
        details={"from": source.pk, "qualifiers": chosen},
    )
    return created


def unattached_tournament_games(*, since: dt.datetime) -> Iterable[int]:
    """Valid games submitted for a match that were never counted nor refused (a lost task)."""
    refused = set(
        AuditEntry.objects.filter(action="game_not_counted", created__gte=since).values_list(
            "details__game_id", flat=True
        )
    )
    games = Game.objects.filter(
        created__gte=since, record__extensions__has_key="match", match_game__isnull=True
    ).values_list("pk", flat=True)
    return [pk for pk in games if pk not in refused]
