"""Re-adjudication: judge stored records again with the current engine, in parallel processes.

``readjudicate`` walks the records the engine judged (final, with a verdict, claimed by a worker
at least once: refusals of the submission envelope never reached the engine) in id order, in
batches. Worker processes run the pure engine on each body and send back only the verdicts that
differ from the stored ones in substance (``verdict_changes``); the parent reads the batches,
reports every change, opens a ``VerdictReview`` per changed record when applying, and stores
its checkpoint (``ReadjudicationRun.last_record_id``) after each batch, in order. A run that is
interrupted (Ctrl-C, a killed process, ``limit``) is resumed by the next call with the same
options; records submitted after the run began are left to the normal pipeline.

History is never rewritten here: approving a review is `games.verdict_reviews.services`'
business.
"""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max, QuerySet, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games import engine
from games.models import GameRecord, ReadjudicationRun, RecordStatus, VerdictReview
from games.records import verdicts

BATCH_SIZE = 500

# Kinds of change, in the order they are reported, with the words people read.
CHANGE_LABELS: dict[str, Promise] = {
    "validity": gettext_lazy("Valid or not"),
    "scores": gettext_lazy("Scores"),
    "winner": gettext_lazy("Winner"),
    "end": gettext_lazy("How the game ended"),
    "replay": gettext_lazy("Turns or endgame"),
    "lines": gettext_lazy("Lines and loops"),
    "error": gettext_lazy("Rule broken"),
}

# How a verdict says the game ended, in `describe`. In English the engine's own words (the
# command's report has always printed them); other languages translate them.
END_WORDS: dict[str, Promise] = {
    "completed": pgettext_lazy("how a game ended", "completed"),
    "deadlock": pgettext_lazy("how a game ended", "deadlock"),
    "resigned": pgettext_lazy("how a game ended", "resigned"),
    # Translators: the game was lost on time.
    "time": pgettext_lazy("how a game ended", "time"),
}


def verdict_changes(old: dict[str, Any] | None, new: dict[str, Any]) -> list[str]:
    """What differs in substance between two verdicts (the wording of a message does not)."""
    if not old:
        return ["validity"]
    if bool(old.get("valid")) != bool(new.get("valid")):
        return ["validity"]
    if not new.get("valid"):
        before, after = old.get("error") or {}, new.get("error") or {}
        same = all(before.get(key) == after.get(key) for key in ("code", "placement", "player"))
        return [] if same else ["error"]
    kinds = []
    for kind, keys in (
        ("scores", ("scores",)),
        ("winner", ("winner",)),
        ("end", ("end",)),
        ("replay", ("turns", "endgame_from", "placements")),
        ("lines", ("lines",)),
    ):
        if any(old.get(key) != new.get(key) for key in keys):
            kinds.append(kind)
    return kinds


def change_summary(kinds: list[str]) -> str:
    return ", ".join(str(CHANGE_LABELS.get(kind, kind)) for kind in kinds)


Item = tuple[int, bytes, str | None]  # (record id, body, stored verdict as JSON text)
Change = tuple[int, dict, list[str]]


def judge_batch(items: list[Item]) -> list[Change]:
    """In a worker process: (record id, new verdict, kinds) of the records that would change.

    The stored verdict arrives as text and is decoded here, in the worker: decoding it in the
    parent, which only reads batches and writes checkpoints, would make that the bottleneck.
    """
    changed = []
    for record_id, body, old_text in items:
        new = engine.adjudicate(body)
        kinds = verdict_changes(json.loads(old_text) if old_text else None, new)
        if kinds:
            changed.append((record_id, new, kinds))
    return changed


@dataclass(frozen=True)
class Found:
    """One record whose verdict would change, as the command reports it."""

    record_id: int
    old: dict | None
    new: dict
    kinds: list[str]


def judged_records() -> QuerySet[GameRecord]:
    """Records whose stored verdict the engine wrote."""
    return GameRecord.objects.filter(
        status__in=[RecordStatus.VALID, RecordStatus.INVALID],
        verdict__isnull=False,
        attempts__gt=0,
    )


def _selection(since: dt.date | None, event_id: int | None) -> QuerySet[GameRecord]:
    records = judged_records()
    if since is not None:
        records = records.filter(created__date__gte=since)
    if event_id is not None:
        records = records.filter(game__event_id=event_id)
    return records


def run_for(
    *, since: dt.date | None, event_id: int | None, apply: bool, fresh: bool = False
) -> ReadjudicationRun:
    """The unfinished run with these options (to resume), or a new one."""
    version = engine.FULL_ENGINE_VERSION
    if not fresh:
        found = ReadjudicationRun.objects.filter(
            status=ReadjudicationRun.Status.RUNNING,
            since=since,
            event_id=event_id,
            apply=apply,
            engine_version=version,
        ).first()
        if found is not None:
            return found
    newest = _selection(since, event_id).aggregate(top=Max("id"))["top"] or 0
    return ReadjudicationRun.objects.create(
        since=since, event_id=event_id, apply=apply, engine_version=version, up_to_record_id=newest
    )


def _pages(run: ReadjudicationRun, batch_size: int, limit: int | None) -> Iterator[list[Item]]:
    records = _selection(run.since, run.event_id).filter(id__lte=run.up_to_record_id)
    last = run.last_record_id
    left = limit
    while left is None or left > 0:
        size = batch_size if left is None else min(batch_size, left)
        page = list(
            records.filter(id__gt=last)
            .order_by("id")
            .annotate(verdict_text=Cast("verdict", TextField()))
            .values_list("id", "body", "verdict_text")[:size]
        )
        if not page:
            return
        last = page[-1][0]
        if left is not None:
            left -= len(page)
        yield [(record_id, bytes(body), verdict) for record_id, body, verdict in page]


def remaining(run: ReadjudicationRun) -> int:
    """How many records the run still has to judge."""
    records = _selection(run.since, run.event_id)
    return records.filter(id__gt=run.last_record_id, id__lte=run.up_to_record_id).count()


def readjudicate(
    run: ReadjudicationRun,
    *,
    workers: int = 2,
    batch_size: int = BATCH_SIZE,
    limit: int | None = None,
    on_found: Callable[[Found], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> ReadjudicationRun:
    """Judge the run's records from its checkpoint on; at most ``limit`` of them this time.

    With ``workers`` > 1 the engine runs in that many forked processes (they only run the
    engine and never touch the database); with 1 it runs here. The run is finished when no
    record is left; otherwise (``limit``, an interruption) it stays running for a resume.
    """
    pages = _pages(run, batch_size, limit)
    if workers <= 1:
        for page in pages:
            _store(run, page, judge_batch(page), on_found, on_progress)
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            window: deque[tuple[list[Item], Any]] = deque()
            for page in pages:
                window.append((page, pool.apply_async(judge_batch, (page,))))
                if len(window) >= 2 * workers:
                    done, result = window.popleft()
                    _store(run, done, result.get(), on_found, on_progress)
            while window:
                done, result = window.popleft()
                _store(run, done, result.get(), on_found, on_progress)
    if not remaining(run):
        run.status = ReadjudicationRun.Status.FINISHED
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "finished_at"])
    return run


def _store(
    run: ReadjudicationRun,
    page: list[Item],
    changed: list[Change],
    on_found: Callable[[Found], None] | None,
    on_progress: Callable[[int], None] | None,
) -> None:
    """Record one judged batch: its reviews (when applying) and the checkpoint, together."""
    changed_ids = {record_id for record_id, _, _ in changed}
    old = {
        record_id: json.loads(text) if text else None
        for record_id, _, text in page
        if record_id in changed_ids
    }
    with transaction.atomic():
        for record_id, new, kinds in changed:
            if run.apply:
                review_open(run, record_id, old[record_id], new, kinds)
        run.last_record_id = page[-1][0]
        run.checked += len(page)
        run.changed += len(changed)
        run.save(update_fields=["last_record_id", "checked", "changed"])
    for record_id, new, kinds in changed:
        if on_found is not None:
            on_found(Found(record_id, old[record_id], new, kinds))
    if on_progress is not None:
        on_progress(len(page))


def review_open(
    run: ReadjudicationRun | None, record_id: int, old: dict | None, new: dict, kinds: list[str]
) -> VerdictReview:
    """Open (or bring up to date) the one open review of a record's verdict."""
    stored = GameRecord.objects.values_list("engine_version", flat=True).get(pk=record_id)
    fields = {
        "run": run,
        "old_verdict": old,
        "new_verdict": new,
        "old_engine_version": stored,
        "new_engine_version": engine.FULL_ENGINE_VERSION,
        "changes": kinds,
    }
    review, created = VerdictReview.objects.get_or_create(
        record_id=record_id, status=VerdictReview.Status.OPEN, defaults=fields
    )
    if not created:
        for name, value in fields.items():
            setattr(review, name, value)
        review.save(update_fields=list(fields))
    return review


def describe(verdict: dict | None) -> str:
    """A verdict in a few words, for the command's report and the review pages."""
    if not verdict:
        return _("no verdict")
    if verdict.get("valid"):
        scores = " – ".join(str(score) for score in verdict.get("scores", []))
        winner = verdict.get("winner")
        end = verdict.get("end", "")
        end = str(END_WORDS.get(end, end))
        if winner is None:
            return _("valid, %(scores)s, a draw (%(end)s)") % {"scores": scores, "end": end}
        return _("valid, %(scores)s, seat %(seat)s wins (%(end)s)") % {
            "scores": scores,
            "seat": winner,
            "end": end,
        }
    error = verdict.get("error") or {}
    rule = verdicts.code_label(error.get("code", ""))
    if error.get("placement"):
        return _("invalid: %(rule)s at placement %(number)s") % {
            "rule": rule,
            "number": error["placement"],
        }
    return _("invalid: %(rule)s") % {"rule": rule}
