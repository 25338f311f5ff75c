"""Filing many valid records at once, inside a batch adjudication's transaction
(games/adjudication/services.py): what `report_from_record` does for each, in a few statements."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.models import (
    REPORT_STATUSES,
    RESULT_STATES,
    Game,
    GameRecord,
    GameReport,
    GameSeat,
    ReportedGame,
    ReportKind,
    ReportRole,
    ReportStatus,
    ResultState,
)
from games.reports import notes
from games.reports.access import needs_agreement, role_of
from games.reports.filing import report_from_record
from games.reports.fingerprint import game_fingerprint
from games.reports.notify import tell_opponents
from games.reports.record_facts import match_id_of, played_at_of
from games.reports.results import announce_games, game_for_record
from players.roles import player_of


def reports_from_records(items: list[tuple[GameRecord, dict, dict]]) -> None:
    """File many valid records (record, verdict, parsed document) inside the adjudication's
    transaction: what `report_from_record` does for each, in a few statements for all.

    A record of a game nobody reported before, outside any match, starts its game with one
    version; those are written together (`_file_fresh`). The rest (a game already reported, a
    second record of a game in the same batch, a match game) go through `report_from_record`
    one by one. Should a fresh game's fingerprint be taken meanwhile by another worker, the
    fresh ones are filed one by one too, which waits for and then joins that game.
    """
    fingerprints = [
        game_fingerprint(document, list(record.seat_players)) for record, _v, document in items
    ]
    taken = set(
        ReportedGame.objects.filter(fingerprint__in=fingerprints).values_list(
            "fingerprint", flat=True
        )
    )
    fresh: list[tuple[GameRecord, dict, dict, str]] = []
    rest: list[tuple[GameRecord, dict, dict]] = []
    for (record, verdict, document), fingerprint in zip(items, fingerprints, strict=True):
        if fingerprint in taken or match_id_of(record.extensions or {}) is not None:
            rest.append((record, verdict, document))
        else:
            taken.add(fingerprint)
            fresh.append((record, verdict, document, fingerprint))
    if fresh:
        try:
            with transaction.atomic():
                _file_fresh(fresh)
        except IntegrityError:
            rest = [(record, verdict, document) for record, verdict, document, _f in fresh] + rest
    for record, verdict, document in rest:
        report_from_record(record=record, verdict=verdict, document=document)


def _file_fresh(fresh: list[tuple[GameRecord, dict, dict, str]]) -> None:
    """First versions of games nobody reported, outside matches, written in bulk: each stands at
    once (a ruling, or a game no rating takes) or waits for the other side, as `_file` decides
    for a game with no versions yet."""
    standing: list[tuple[GameRecord, Game]] = []
    plans = []
    for record, verdict, document, fingerprint in fresh:
        seats = list(record.seat_players)
        colours = [seat["colour"] for seat in document["players"]]
        is_pairs = len(seats) == 4 and colours[0] == colours[2] and colours[1] == colours[3]
        actor = record.submitter
        role = role_of(actor, seats, None)
        own = player_of(actor) if role == ReportRole.SIDE else None
        reported = ReportedGame(
            fingerprint=fingerprint,
            seat_players=seats,
            is_pairs=is_pairs,
            extensions=dict(record.extensions or {}),
            match_id=None,
            played_at=played_at_of(document, record.created),
        )
        version = GameReport(
            number=1,
            kind=ReportKind.RECORD,
            author=actor,
            record=record,
            scores=list(verdict["scores"]),
            winner_seat=verdict.get("winner"),
            end_reason=verdict["end"],
            minutes=[round(s / 60) for s in document["clock"]] if document.get("clock") else None,
            role=role,
            side_player=own,
        )
        # New rows: each starts in a status its table lets it start in.
        if role != ReportRole.SIDE:
            version.status = REPORT_STATUSES.first(ReportStatus.RULED)
        elif not needs_agreement(reported, len(seats)):
            version.status = REPORT_STATUSES.first(ReportStatus.CONFIRMED)
            version.answer_note = notes.NO_RATING
        else:
            version.status = REPORT_STATUSES.first(ReportStatus.OPEN)
        if version.status != ReportStatus.OPEN:
            version.standing = True
            reported.state = RESULT_STATES.first(ResultState.STANDING)
            reported.game = game_for_record(record, verdict, document)
            standing.append((record, reported.game))
        plans.append((reported, version))
    games = Game.objects.bulk_create([game for _r, game in standing])
    GameSeat.objects.bulk_create(seat for game in games for seat in game.unsaved_seats)
    ReportedGame.objects.bulk_create([reported for reported, _v in plans])
    for reported, version in plans:
        version.reported_game = reported
    GameReport.objects.bulk_create([version for _r, version in plans])
    announced = []
    for reported, version in plans:
        if version.status == ReportStatus.OPEN:
            version_id = version.pk
            transaction.on_commit(lambda version_id=version_id: tell_opponents(version_id))
        else:
            announced.append((reported.game_id, version.record_id, dict(reported.extensions)))
    if announced:
        transaction.on_commit(lambda: announce_games(announced))
