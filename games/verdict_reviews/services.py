"""Reviews of verdicts the current engine would change: listed for staff, approved or rejected.

Re-adjudication (`readjudication`) opens them; staff read them (`selectors`); only an approval
here rewrites anything:

- the record takes the new verdict (status, error fields, engine version);
- a record that stays valid and is its game's standing result: the Game takes the new scores,
  winner, end and turns, and ``game_result_changed`` is sent after commit (the seam a ruling on
  a standing result uses: tournaments recounts the match game, and ratings follow from there);
- a record that becomes valid: it is filed as a report (games.reports.report_from_record), as
  a freshly adjudicated record would be;
- a record that becomes invalid keeps its Game, which ratings and matches may already count:
  withdrawing a counted game is a ruling for its organisers or controllers (docs/operations.md).

Rejecting leaves the stored verdict as it is; either way the review records who decided, when,
and why.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import jsonio
from games.models import Game, GameRecord, GameSeat, RecordStatus, VerdictReview
from games.reports.filing import report_from_record
from games.signals import game_result_changed, game_result_rewritten
from games.verdict_reviews.selectors import verdicts_refusal
from players.roles import is_admin
from players.types import User


def review_decide(*, actor: User, review_id: int, approve: bool, note: str = "") -> VerdictReview:
    """Approve or reject an open review; an approval applies the new verdict."""
    if not is_admin(actor):
        raise PermissionDenied(verdicts_refusal())
    if len(note) > 2000:
        raise ValidationError({"note": [_("At most 2000 characters.")]})
    with transaction.atomic():
        review = VerdictReview.objects.select_for_update().get(pk=review_id)
        if review.status != VerdictReview.Status.OPEN:
            raise ValidationError(
                {
                    "review": [
                        _("This review was already decided: %(status)s.")
                        % {"status": review.get_status_display()}
                    ]
                }
            )
        review.status = VerdictReview.Status.APPROVED if approve else VerdictReview.Status.REJECTED
        review.decided_by = actor
        review.decided_at = timezone.now()
        review.note = note
        review.save(update_fields=["status", "decided_by", "decided_at", "note"])
        if approve:
            _verdict_apply(review)
    return review


def _verdict_apply(review: VerdictReview) -> None:
    record = GameRecord.objects.select_for_update().get(pk=review.record_id)
    new = review.new_verdict
    valid = bool(new.get("valid"))
    error = new.get("error") or {}
    record.verdict = new
    record.status = RecordStatus.VALID if valid else RecordStatus.INVALID
    record.error_code = error.get("code", "") or ""
    record.error_placement = error.get("placement")
    record.error_message = error.get("message", "") or ""
    record.engine_version = review.new_engine_version
    record.adjudicated_at = timezone.now()
    record.save(
        update_fields=[
            "verdict",
            "status",
            "error_code",
            "error_placement",
            "error_message",
            "engine_version",
            "adjudicated_at",
            "updated",
        ]
    )
    game = Game.objects.filter(record=record).first()
    if not valid:
        return  # a counted game is withdrawn by a ruling, not here (module docstring)
    if game is None:
        if not (review.old_verdict or {}).get("valid"):
            report_from_record(record=record, verdict=new, document=jsonio.load(record.body_bytes))
        return
    winner = new.get("winner")
    Game.objects.filter(pk=game.pk).update(
        winner_seat=winner,
        is_draw=winner is None,
        end_reason=new["end"],
        placements_count=new["placements"],
        turns=new["turns"],
        endgame_from=new.get("endgame_from"),
    )
    for seat, score in enumerate(new["scores"]):
        GameSeat.objects.filter(game=game, seat=seat).update(score=score)
    game_id = game.pk
    game_result_rewritten.send(sender=Game, game_id=game_id)
    transaction.on_commit(lambda: game_result_changed.send_robust(sender=Game, game_id=game_id))
