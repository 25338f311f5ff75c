from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from players.audit.registry import register_audit_actions


class AuditAction(models.TextChoices):
    """The registry of the championship audit trail's actions, with the words people read.

    Registered in the one registry (`players.audit.registry`); the entries are
    `players.AuditEntry` rows with `championship_id` and `event_id`.
    """

    CHAMPIONSHIP_CREATE = "championship_create", _("Championship created")
    CHAMPIONSHIP_UPDATE = "championship_update", _("Championship changed")
    ORGANISER_ADD = "organiser_add", _("Co-organiser added")
    ORGANISER_REMOVE = "organiser_remove", _("Co-organiser removed")
    CONTROLLER_ADD = "controller_add", _("Controller added")
    CONTROLLER_REMOVE = "controller_remove", _("Controller removed")
    EVENT_CREATE = "event_create", _("Event created")
    REGISTRATION_OPEN = "registration_open", _("Registration opened")
    REGISTRATION_CLOSE = "registration_close", _("Registration closed")
    ENTRY_REGISTER = "entry_register", pgettext_lazy("an entry made in an event", "Player entered")
    ENTRY_WITHDRAW = "entry_withdraw", _("Entry withdrawn")
    EVENT_SEED = "event_seed", _("Entries seeded")
    DRAW_GENERATE = "draw_generate", _("Draw made")
    CHAMPION = "champion", _("Champion decided")
    GAME_COUNTED = "game_counted", _("Game counted for its match")
    GAME_NOT_COUNTED = "game_not_counted", _("Game not counted for its match")
    TIME_PENALTY = "time_penalty", _("Time penalty claimed")
    MATCH_RULE = "match_rule", _("Match ruled")
    WALKOVER_CLAIM = "walkover_claim", _("Walkover claimed")
    DEADLINE_SET = "deadline_set", _("Round deadline set")
    DEADLINE_LEADER = "deadline_leader", _("Deadline passed: the side ahead on TPs wins")
    DEADLINE_WALKOVER = "deadline_walkover", _("Deadline passed: walkover to the claimant")
    DEADLINE_BOTH_OUT = "deadline_both_out", _("Deadline passed, no game and no claim: both out")
    DEADLINE_LEVEL = "deadline_level", _("Deadline passed with the match level: ruling needed")
    QUALIFIERS_ADVANCE = "qualifiers_advance", _("Qualifiers moved on")
    TABLE_OPEN_CREATE = "table_open_create", _("Table open created")
    TABLE_RESULTS_ENTER = "table_results_enter", _("Round results entered from score sheets")
    TABLE_RESULT_CORRECT = "table_result_correct", _("Score sheet result corrected")
    TABLE_RESULT_DISPUTE = "table_result_dispute", _("Table result disputed")
    TABLE_RESULT_RULE = "table_result_rule", _("Table result ruled")
    TABLE_RESULT_REOPEN = "table_result_reopen", _("Table result ruling reopened")
    ROUND_REPAIR = "round_repair", _("Round paired again")
    ENTRY_LATE = "entry_late", _("Late entry")
    ENTRY_DROP = "entry_drop", _("Player dropped out")
    TIEBREAKS_SET = "tiebreaks_set", _("Tie-breaks set")
    EVENT_IMPORT = "event_import", _("Event imported")
    PAIR_REQUEST = "pair_request", _("Pair registered, awaiting the partner")
    PAIR_DECLINE = "pair_decline", _("Pair request called off")
    TEAM_CREATE = "team_create", _("Team created")
    TEAM_ROSTER = "team_roster", _("Team roster changed")
    TEAM_ENTER = "team_enter", _("Team entered")
    LINEUP_DEADLINE_SET = "lineup_deadline_set", _("Lineup deadline set")
    # Arranging a match (issue 30): tournaments/arrangements/services/.
    MATCH_TIME_PROPOSE = "match_time_propose", _("Match times proposed")
    MATCH_TIME_AGREE = "match_time_agree", _("Match time agreed")
    MATCH_TIME_WITHDRAW = "match_time_withdraw", _("Agreed match time withdrawn")
    MATCH_TIME_NUDGE = "match_time_nudge", _("Players reminded to arrange their match")
    NO_SHOW_CLAIM = "no_show_claim", _("No-show claimed")
    NO_SHOW_REPLY = "no_show_reply", _("No-show claim answered")
    ARRANGEMENT_POLICY_SET = "arrangement_policy_set", _("Response window for proposals set")
    MATCH_REMIND = "match_remind", _("Match players reminded")


register_audit_actions(AuditAction, area="tournaments", label=_("Championships"))
