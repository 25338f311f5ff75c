"""The permission matrix: every view in the URL configuration, for every role and object.

The cases are generated from the URL configuration (every pattern, recursively, with the HTTP
methods its view accepts) crossed with the roles, and each case's expected outcome is read from
EXPECTED below, written once per (view, method, scope) with one column per role. A view that
has no entry in EXPECTED fails `test_every_view_has_an_entry`, so a new view cannot go in
without someone deciding who may use it.

The expectations are the project's intent (docs: DESIGN.md, "Reliability rules"): the public
reads published pages only; an organiser manages their own championships; controllers rule on
their championship's disputes; a player reports (and withdraws, claims in) only their own
matches and entries; admins (staff) review ratings and may do everything. They are not a
recording of what the code does: where the code differs, the case fails.

Outcome classes:
  ok      2xx or 3xx (not a redirect to the login page); for a web form, the redirect after
          it was accepted.
  denied  401 or 403, or (web) a redirect to the login page.
  hidden  404, or an answer that discloses nothing about the object: an empty list, or exactly
          the answer for an object that does not exist (for objects named in a query or body,
          where such an answer also counts as denied: a refusal at least as strong).
  bad     400, or a web form shown again with its errors (200 to a POST, except the pages in
          RESULT_PAGES that answer an accepted POST with a page): validation was reached, so
          the permission check passed.
  pass    ok or bad: permitted; whether the request is then valid is not this table's business.
  refused denied or bad: must not succeed, and either check may be the one that says so.
A web page that shows a refused game submission (200) is classified by the refusal's status.

Requests carry bodies that pass the serializer or form (see BODIES), so a refusal comes from the
permission check, not from a malformed envelope; a permitted request then succeeds or meets a
service's validation (bad). Everything runs in a savepoint that is rolled back after each case.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLResolver, get_resolver, resolve
from django.utils import timezone
from rest_framework.test import APIClient

from games.records.http import submission_answer
from tests.games.helpers import as_body, selfplay_record
from tests.security.matrix_arrange import (
    ARRANGE_EXPECTED,
    ARRANGE_EXTRA_KWARGS,
    ARRANGE_PATH_KIND,
)
from tests.security.matrix_base import (
    ACCEPTED,
    BAD,
    DENIED,
    EVERYONE,
    HIDDEN,
    NO_SCOPE,
    NOBODY,
    OK,
    ORGANISERS,
    OWN_UNPUBLISHED_ORGANISERS,
    OWN_UNPUBLISHED_READ,
    OWN_UNPUBLISHED_RULERS,
    PASS,
    REFUSED,
    ROLES,
    RULERS,
    SIGNED_IN,
    STAFF,
    UNSEEN,
    UNSEEN_SIGNED_IN,
    Context,
    Payload,
    permitted_as,
)
from tests.security.matrix_more import (
    MORE_BODIES,
    MORE_BODY_SCOPES,
    MORE_EXPECTED,
    MORE_EXTRA_KWARGS,
    MORE_KIND_SCOPES,
    MORE_MATCH_ROWS,
    MORE_PATH_KIND,
    more_path_object,
)
from tests.security.world import MISSING_ID, MISSING_TOKEN, World

CHAMPIONSHIP_READ = {
    "own": EVERYONE,
    "other": EVERYONE,
    "unpublished": UNSEEN,
    "own_unpublished": OWN_UNPUBLISHED_READ,
}
CHAMPIONSHIP_MANAGE = {
    "own": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_ORGANISERS,
}
AUDIT_READ = {
    "own": RULERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_RULERS,
}
# Register: yourself ({}), or "+someone": a player who is not you (organisers only).
# In the own championship's open event the player is already entered: bad, but permitted.
# The web form names the player by id in the same way.
REGISTER = {
    "own": (DENIED, BAD, OK, OK, OK),
    "own+someone": ORGANISERS,
    "other": SIGNED_IN,
    "other+someone": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_RULERS,
}
REGISTER_PAGE = {
    "own": SIGNED_IN,
    "other": SIGNED_IN,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_unpublished": OWN_UNPUBLISHED_RULERS,
}
# Withdraw an entry: your own before the draw; organisers any of their championship's. After
# the draw a player may not withdraw themselves; from a finished event nobody withdraws (the
# player's attempt must fail, by either check; the organiser's is the service's business).
WITHDRAW = {
    "own": (DENIED, OK, OK, DENIED, OK),
    "other_player": ORGANISERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "own_drawn": ORGANISERS,
    "own_finished": (DENIED, REFUSED, PASS, DENIED, PASS),
}
# The web page behind it: "the views check the same rule before showing a form so nobody fills
# one in for nothing" (tournaments/views.py), so after the draw it is not shown to the player,
# and for a finished event to nobody (the service refuses everyone).
WITHDRAW_PAGE = {**WITHDRAW, "own_finished": NOBODY}
ENTRY_READ = {"own": EVERYONE, "other_player": EVERYONE, "other": EVERYONE, "unpublished": UNSEEN}
MATCH_READ = ENTRY_READ
# Rulings: the championship's organisers and controllers. The API body names a winner that is
# not in the match and the web form is empty, so a permitted ruling is refused by validation.
# The web page (GET) sends rulers to the match page, where the form is.
RULE = {"own": RULERS, "other_player": RULERS, "other": STAFF, "unpublished": UNSEEN_SIGNED_IN}
# A time penalty: the opponent of the player over time, or the championship's rulers.
PENALTY = {
    "own": SIGNED_IN,
    "other_player": RULERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
}
# A game's file or a match's score form, from the match page (issue 28): the match's players
# (a team match's: its captains too) and its championship's rulers, as the service decides. The
# web views have no page of their own (GET: back to the match page); an empty form is refused
# by validation (bad), which only the permitted reach.
REPORT_RESULT = {**PENALTY, "team": SIGNED_IN}
REPORT_RESULT_POST = permitted_as(BAD, REPORT_RESULT)
# A walkover claim is a player's own declaration: nobody claims it for them, staff included.
# The own match has a game played, so the player's claim is refused by validation.
WALKOVER_API = {
    "own": (DENIED, BAD, DENIED, DENIED, DENIED),
    "other_player": NOBODY,
    "other": NOBODY,
    "unpublished": (DENIED, HIDDEN, HIDDEN, HIDDEN, DENIED),
}
WALKOVER_WEB = {**WALKOVER_API, "own": (DENIED, OK, DENIED, DENIED, DENIED)}  # message + redirect
ROUND_READ = {"own": EVERYONE, "other": EVERYONE, "unpublished": UNSEEN}
ROUND_MANAGE = {"own": ORGANISERS, "other": STAFF, "unpublished": UNSEEN_SIGNED_IN}
# The round console and its reminders (issue 28): the championship's organisers and controllers.
# A reminder may be refused by validation (within the hour, nobody with an account): pass.
ROUND_CONSOLE = {"own": RULERS, "other": STAFF, "unpublished": UNSEEN_SIGNED_IN}
MATCH_REMIND = {
    "own": RULERS,
    "other_player": RULERS,
    "other": STAFF,
    "unpublished": UNSEEN_SIGNED_IN,
    "team": RULERS,
}
PROFILE_READ = {
    "own": EVERYONE,
    "other": EVERYONE,
    "accountless": EVERYONE,
    "other_accountless": EVERYONE,
    "legacy_accountless": EVERYONE,
}
# Your own profile; staff any. An accountless player is maintained, until it is claimed, by the
# organiser who entered it (players.models.Player.created_by: "that organiser (with staff) may
# hand out a claim link"), not by every organiser: permissions are per object. Players entered
# before that was recorded stay open to every organiser (docs/roles.md).
PROFILE_EDIT = {
    "own": SIGNED_IN,
    "other": STAFF,
    "accountless": ORGANISERS,
    "other_accountless": STAFF,
    "legacy_accountless": ORGANISERS,
}
# Site roles (docs/roles.md): staff grant and withdraw organiser; only superusers the staff role
# (no role here is a superuser). "+nobody" names no account: the refusal must not depend on it.
ROLE_CHANGE = {
    "organiser": STAFF,
    "organiser+nobody": (DENIED, DENIED, DENIED, DENIED, BAD),
    "staff": NOBODY,
}
# The web form offers staff only the roles they may change: the staff role is refused (either
# way) there, and a name that is nobody's shows the form again.
ROLE_CHANGE_WEB = {**ROLE_CHANGE, "staff": (DENIED, DENIED, DENIED, DENIED, REFUSED)}
# Giving a profile away: staff, and the organiser who entered the player; for players entered
# before that was recorded, staff only. A player with an account cannot be given away: staff
# pass the permission check and are refused by validation, everyone else is denied first.
WITH_ACCOUNT_CLAIM_LINK = (DENIED, DENIED, DENIED, DENIED, REFUSED)
CLAIM_LINK_MAKE = {
    "own": WITH_ACCOUNT_CLAIM_LINK,
    "other": WITH_ACCOUNT_CLAIM_LINK,
    "accountless": ORGANISERS,
    "other_accountless": STAFF,
    "legacy_accountless": STAFF,
}
# "This is me": whoever has no player (not logged in: signing up on the way). Every role with an
# account has a player, so only the anonymous visitor may ask, and only for an accountless one.
NO_PLAYER_YET = (OK, REFUSED, REFUSED, REFUSED, REFUSED)
CLAIM_ASK = {
    "own": (REFUSED,) * 5,
    "other": (REFUSED,) * 5,
    "accountless": NO_PLAYER_YET,
    "other_accountless": NO_PLAYER_YET,
    "legacy_accountless": NO_PLAYER_YET,
}
# A claim link: whoever holds it (an unknown token names nothing: 404 for everyone). Someone
# logged in who already has a player is refused with an explanation, opening it included.
CLAIM_LINK_USE = {"valid": NO_PLAYER_YET, "unknown": (HIDDEN,) * 5}
# Claim requests: the requester reads their own; the organiser who entered the player, and
# staff, read and decide; for players entered before that was recorded, staff only. Nobody
# decides their own request (the own requests are closed: staff pass, and meet validation).
CLAIM_REQUEST_READ = {
    "own": SIGNED_IN,
    "accountless": ORGANISERS,
    "other_accountless": STAFF,
    "legacy_accountless": STAFF,
}
CLAIM_REQUEST_DECIDE = {**CLAIM_REQUEST_READ, "own": (DENIED, DENIED, DENIED, DENIED, BAD)}
GAME_READ = {"casual": EVERYONE, "published": EVERYONE, "unpublished": UNSEEN}
RECORD_READ = {"own": SIGNED_IN, "other": STAFF}
# Submitting a game: one you played in; for a match, its players and its championship's
# rulers; a casual game between others, staff only (organisers and controllers act for their
# own championships' matches only).
RECORD_SUBMIT = {
    "casual_self": SIGNED_IN,
    "casual_others": STAFF,
    "match_own": SIGNED_IN,
    "match_other_player": RULERS,
    "match_other": STAFF,
    "match_unpublished": UNSEEN_SIGNED_IN,
}

# Web pages are keyed by URL name; API views (under /api/) by "api:" + URL name, because the
# players API router reuses the web pages' names player-list and player-detail.
#
# Adding a view: an entry here, method -> a row (no object) or {scope: row}. If its path names
# an object, add it to PATH_KIND (a kind of KIND_SCOPES; a new kind needs objects in world.py
# and path_object below; an object named by another path argument than <pk>, e.g. a claim
# link's token, gets it in PATH_ARG); other path arguments go in EXTRA_KWARGS; a body that the
# serializer or form accepts goes in BODIES; objects named in the query or body get their
# scopes in BODY_SCOPES.
EXPECTED: dict[str, dict[str, Any]] = {
    # --- site ---
    "home": {"GET": EVERYONE},
    "record-format": {"GET": EVERYONE},  # docs/game-records.md as a page
    "doc-page": {"GET": EVERYONE},
    "healthz": {"GET": EVERYONE},
    "login": {"GET": EVERYONE, "POST": (BAD,) * 5, "PUT": (BAD,) * 5},  # no credentials
    "logout": {"POST": EVERYONE},
    "language-set": {"POST": EVERYONE},  # the header's switcher: a cookie, and the profile
    "signup": {"GET": EVERYONE, "POST": (BAD, OK, OK, OK, OK)},  # signed in: sent home
    "api:api-root": {"GET": EVERYONE},
    "api:api-token": {"POST": (BAD, BAD, BAD, BAD, BAD)},  # no credentials in the body
    # --- players ---
    "player-list": {"GET": EVERYONE},
    "player-new": {"GET": ORGANISERS, "POST": permitted_as(BAD, ORGANISERS)},
    "player-detail": {"GET": PROFILE_READ},
    "player-edit": {"GET": PROFILE_EDIT, "POST": permitted_as(BAD, PROFILE_EDIT)},
    "api:player-list": {"GET": EVERYONE, "POST": ORGANISERS},
    "api:player-detail": {"GET": PROFILE_READ, "PUT": PROFILE_EDIT, "PATCH": PROFILE_EDIT},
    # --- players: roles, claim links and claim requests (docs/roles.md) ---
    "player-roles": {"GET": STAFF, "POST": ROLE_CHANGE_WEB},
    "audit-log": {"GET": STAFF},
    "api:api-roles": {"GET": STAFF},
    "api:api-role-grant": {"POST": ROLE_CHANGE},
    "api:api-role-withdraw": {"POST": ROLE_CHANGE},
    "api:api-audit": {"GET": STAFF},
    "player-claim-link": {"GET": CLAIM_LINK_MAKE, "POST": CLAIM_LINK_MAKE},
    "api:api-player-claim-link": {"POST": CLAIM_LINK_MAKE},
    "claim-link": {"GET": CLAIM_LINK_USE, "POST": CLAIM_LINK_USE},
    "api:api-claim-link-check": {"POST": {"valid": EVERYONE, "unknown": (HIDDEN,) * 5}},
    "api:api-claim-link-redeem": {"POST": CLAIM_LINK_USE},
    "player-claim": {"GET": CLAIM_ASK, "POST": CLAIM_ASK},
    # The API asks for `accountless`: logged in, but every role already has a player.
    "claim-request-list": {"GET": SIGNED_IN},
    "api:api-claim-request-list": {"GET": SIGNED_IN, "POST": (DENIED, *(REFUSED,) * 4)},
    "claim-request-detail": {"GET": CLAIM_REQUEST_READ},
    "claim-request-approve": {"POST": CLAIM_REQUEST_DECIDE},
    "claim-request-refuse": {"POST": CLAIM_REQUEST_DECIDE},
    "api:api-claim-request-detail": {"GET": CLAIM_REQUEST_READ},
    "api:api-claim-request-approve": {"POST": CLAIM_REQUEST_DECIDE},
    "api:api-claim-request-refuse": {"POST": CLAIM_REQUEST_DECIDE},
    # --- games ---
    "game-list": {"GET": EVERYONE},
    "game-detail": {"GET": GAME_READ},
    "record-submit": {"GET": SIGNED_IN, "POST": RECORD_SUBMIT},
    "record-list": {"GET": SIGNED_IN},
    "record-detail": {"GET": RECORD_READ},
    "api:api-game-list": {"GET": {"all": EVERYONE, "published": EVERYONE, "unpublished": UNSEEN}},
    "api:api-game-detail": {"GET": GAME_READ},
    "api:api-record-list": {"GET": SIGNED_IN, "POST": RECORD_SUBMIT},
    "api:api-record-detail": {"GET": RECORD_READ},
    # Reports, score sheets, table opens, exports, teams and pairs: matrix_more.py.
    "reports-waiting": {"GET": SIGNED_IN},
    "api:api-reports-waiting": {"GET": SIGNED_IN},
    # A player's home (issue 28): one's own, so signed in; the rows are one's own (below).
    "api:api-me": {"GET": SIGNED_IN},
    "api:api-me-matches": {"GET": SIGNED_IN},
    "api:api-me-reports-waiting": {"GET": SIGNED_IN},
    "api:api-me-disputes": {"GET": SIGNED_IN},
    "api:api-me-results": {"GET": SIGNED_IN},
    "api:api-me-ratings": {"GET": SIGNED_IN},
    "api:api-me-events-open": {"GET": SIGNED_IN},
    "notice-list": {"GET": SIGNED_IN},
    "notices-read": {"POST": SIGNED_IN},
    "api:api-notices": {"GET": SIGNED_IN},
    "api:api-notices-read": {"POST": SIGNED_IN},
    # A player's own calendar address (issue 30): every role with an account has a player.
    "player-calendar-renew": {"POST": SIGNED_IN},
    "player-calendar-revoke": {"POST": SIGNED_IN},
    "api:api-calendar": {"GET": SIGNED_IN},
    "api:api-calendar-renew": {"POST": SIGNED_IN},
    "api:api-calendar-revoke": {"POST": SIGNED_IN},
    # --- championships (web) ---
    "championship-list": {"GET": EVERYONE},
    # Empty forms: a permitted POST shows the form again (bad).
    "championship-new": {"GET": ORGANISERS, "POST": permitted_as(BAD, ORGANISERS)},
    "championship-page": {"GET": CHAMPIONSHIP_READ},
    "championship-edit": {
        "GET": CHAMPIONSHIP_MANAGE,
        "POST": permitted_as(BAD, CHAMPIONSHIP_MANAGE),
    },
    "championship-staff-edit": {
        "GET": CHAMPIONSHIP_MANAGE,
        "POST": permitted_as(BAD, CHAMPIONSHIP_MANAGE),
    },
    "championship-audit-log": {"GET": AUDIT_READ},
    "event-new": {"GET": CHAMPIONSHIP_MANAGE, "POST": permitted_as(BAD, CHAMPIONSHIP_MANAGE)},
    "event-page": {"GET": CHAMPIONSHIP_READ},
    "event-live": {"GET": CHAMPIONSHIP_READ},
    "event-calendar": {"GET": CHAMPIONSHIP_READ},  # the event's calendar feed, read like its page
    "event-registration-set": {"GET": CHAMPIONSHIP_MANAGE, "POST": CHAMPIONSHIP_MANAGE},
    "event-register-player": {"GET": REGISTER_PAGE, "POST": REGISTER},
    "event-seed-set": {"GET": CHAMPIONSHIP_MANAGE, "POST": CHAMPIONSHIP_MANAGE},
    "event-draw-make": {"GET": CHAMPIONSHIP_MANAGE, "POST": CHAMPIONSHIP_MANAGE},
    # Not fed by another event: a permitted request meets the service's refusal.
    "event-qualifiers-advance": {
        "GET": CHAMPIONSHIP_MANAGE,
        "POST": permitted_as(BAD, CHAMPIONSHIP_MANAGE),
    },
    "entry-withdraw-form": {"GET": WITHDRAW_PAGE, "POST": WITHDRAW_PAGE},
    "round-deadline-set": {"GET": ROUND_MANAGE, "POST": ROUND_MANAGE},
    "match-page": {"GET": MATCH_READ},
    "match-live": {"GET": MATCH_READ},
    "match-rule-form": {"GET": RULE, "POST": permitted_as(BAD, RULE)},
    "match-walkover-claim": {"POST": WALKOVER_WEB},
    "match-penalty-claim": {"GET": PENALTY, "POST": PENALTY},
    "match-game-file": {"GET": REPORT_RESULT, "POST": REPORT_RESULT_POST},
    "match-score-form": {"GET": REPORT_RESULT, "POST": REPORT_RESULT_POST},
    # --- championships (API) ---
    "api:championship-list": {"GET": EVERYONE, "POST": ORGANISERS},
    "api:championship-detail": {
        "GET": CHAMPIONSHIP_READ,
        "PUT": CHAMPIONSHIP_MANAGE,
        "PATCH": CHAMPIONSHIP_MANAGE,
    },
    # Who may be named staff is the service's business: permitted is pass. "+nobody" names a
    # user that does not exist: refused like any other name, or it tells outsiders who exists.
    "api:championship-staff": {
        "POST": {
            "own": (DENIED, DENIED, PASS, DENIED, PASS),
            "own+nobody": (DENIED, DENIED, BAD, DENIED, BAD),
            "other": (DENIED, DENIED, DENIED, DENIED, PASS),
            "unpublished": (DENIED, HIDDEN, HIDDEN, HIDDEN, PASS),
            "own_unpublished": (DENIED, HIDDEN, PASS, DENIED, PASS),
        }
    },
    "api:championship-audit": {"GET": AUDIT_READ},
    "api:event-list": {
        "GET": {"all": EVERYONE, "unpublished": UNSEEN},  # unpublished: ?championship=C3
        "POST": CHAMPIONSHIP_MANAGE,  # the body names the championship
    },
    "api:event-detail": {"GET": CHAMPIONSHIP_READ},
    "api:event-entries": {"GET": CHAMPIONSHIP_READ},
    "api:event-matches": {"GET": CHAMPIONSHIP_READ},
    "api:event-standings": {"GET": CHAMPIONSHIP_READ},
    # The event's rounds (/api/events/{id}/rounds/): read like the event.
    "api:event-rounds": {"GET": CHAMPIONSHIP_READ},
    "api:event-register": {"POST": REGISTER},
    "api:event-registration": {"POST": CHAMPIONSHIP_MANAGE},
    "api:event-seed": {"POST": CHAMPIONSHIP_MANAGE},
    "api:event-draw": {"POST": CHAMPIONSHIP_MANAGE},
    "api:event-draw-preview": {"POST": CHAMPIONSHIP_MANAGE},
    "event-bulk-entry": {
        "GET": CHAMPIONSHIP_MANAGE,
        "POST": permitted_as(PASS, CHAMPIONSHIP_MANAGE),
    },
    "api:api-bulk-entry-match": {"POST": permitted_as(PASS, CHAMPIONSHIP_MANAGE)},
    "api:api-bulk-entry": {"POST": permitted_as(PASS, CHAMPIONSHIP_MANAGE)},
    "round-console": {"GET": ROUND_CONSOLE},
    "round-remind-unplayed": {"POST": permitted_as(PASS, ROUND_CONSOLE)},
    "match-remind": {"POST": permitted_as(PASS, MATCH_REMIND)},
    "api:api-round-console": {"GET": ROUND_CONSOLE},
    "api:api-round-remind": {"POST": permitted_as(PASS, ROUND_CONSOLE)},
    "api:api-match-remind": {"POST": permitted_as(PASS, MATCH_REMIND)},
    "api:event-advance-qualifiers": {"POST": permitted_as(BAD, CHAMPIONSHIP_MANAGE)},
    "api:entry-detail": {"GET": ENTRY_READ},
    "api:entry-withdraw": {"POST": WITHDRAW},
    "api:match-list": {"GET": {"all": EVERYONE, "unpublished": UNSEEN}},  # ?event=C3's
    "api:match-detail": {"GET": MATCH_READ},
    "api:match-rule": {"POST": permitted_as(BAD, RULE)},
    "api:match-claim-walkover": {"POST": WALKOVER_API},
    "api:match-penalty": {"POST": PENALTY},
    "api:round-detail": {"GET": ROUND_READ},
    "api:round-deadline": {"POST": ROUND_MANAGE},
    # --- ratings (web) ---
    "ranking-list": {"GET": EVERYONE},
    "rating-history": {"GET": {"other": EVERYONE}},
    "title-list": {"GET": EVERYONE},
    "review-queue": {"GET": STAFF},
    "review-action": {"POST": STAFF},
    # A review item's page and its actions (issue 28); the matrix's review is a lobby swing, whose
    # games are not reverted one by one (400, the kind's refusal).
    "review-detail": {"GET": STAFF},
    "review-adjust": {"POST": STAFF},
    "review-revert-games": {"POST": (DENIED, DENIED, DENIED, DENIED, PASS)},
    "rating-adjust": {"POST": STAFF},
    "title-award": {"POST": (DENIED, DENIED, DENIED, DENIED, BAD)},  # the player is not eligible
    "title-withdraw": {"POST": STAFF},
    "rating-audit": {"GET": STAFF},
    # --- ratings (API) ---
    "api:api-ranking-list": {"GET": EVERYONE},
    "api:api-player-ratings": {"GET": {"other": EVERYONE}},
    "api:api-rating-history": {"GET": {"other": EVERYONE}},
    "api:api-title-list": {"GET": EVERYONE, "POST": (DENIED, DENIED, DENIED, DENIED, BAD)},
    "api:api-title-withdraw": {"POST": STAFF},
    "api:api-review-list": {"GET": STAFF},
    "api:api-review-detail": {"GET": STAFF},
    "api:api-review-approve": {"POST": STAFF},
    "api:api-review-revert": {"POST": (DENIED, DENIED, DENIED, DENIED, PASS)},
    "api:api-review-acknowledge": {"POST": STAFF},
    "api:api-review-adjust": {"POST": STAFF},
    "api:api-review-revert-games": {"POST": (DENIED, DENIED, DENIED, DENIED, PASS)},
    "api:api-change-revert": {"POST": (DENIED, DENIED, DENIED, DENIED, PASS)},
    "api:api-adjustment-list": {"GET": STAFF, "POST": STAFF},
    "api:api-rating-audit": {"GET": STAFF},
}

# Entries for routes announced but not in the URL configuration yet (not reported as stale).
ANNOUNCED: set[str] = set()

# Not in the matrix: Django's admin (its own staff-only permission system), static files, and
# the OpenAPI schema and its interactive docs (public by design, no data).
EXCLUDED_PREFIXES = ("admin/", settings.STATIC_URL.lstrip("/"))
EXCLUDED_KEYS = {"api:schema", "api:api-docs", "api:api-redoc"}

# The object a URL's <pk> names, by kind (see conftest: scopes).
PATH_KIND = {
    "player-detail": "player",
    "player-edit": "player",
    "api:player-detail": "player",
    "game-detail": "game",
    "api:api-game-detail": "game",
    "record-detail": "record",
    "api:api-record-detail": "record",
    "championship-page": "championship",
    "championship-edit": "championship",
    "championship-staff-edit": "championship",
    "championship-audit-log": "championship",
    "event-new": "championship",
    "api:championship-detail": "championship",
    "api:championship-staff": "championship",
    "api:championship-audit": "championship",
    "event-page": "event",
    "event-live": "event",
    "event-calendar": "event",
    "event-registration-set": "event",
    "event-register-player": "event",
    "event-seed-set": "event",
    "event-draw-make": "event",
    "event-qualifiers-advance": "event",
    "api:event-detail": "event",
    "api:event-entries": "event",
    "api:event-matches": "event",
    "api:event-standings": "event",
    "api:event-rounds": "event",
    "api:event-register": "event",
    "api:event-registration": "event",
    "api:event-seed": "event",
    "api:event-draw": "event",
    "api:event-draw-preview": "event",
    "event-bulk-entry": "event",
    "api:api-bulk-entry-match": "event",
    "api:api-bulk-entry": "event",
    "round-console": "round",
    "round-remind-unplayed": "round",
    "match-remind": "match",
    "api:api-round-console": "round",
    "api:api-round-remind": "round",
    "api:api-match-remind": "match",
    "api:event-advance-qualifiers": "event",
    "entry-withdraw-form": "entry",
    "api:entry-detail": "entry",
    "api:entry-withdraw": "entry",
    "round-deadline-set": "round",
    "api:round-detail": "round",
    "api:round-deadline": "round",
    "match-page": "match",
    "match-live": "match",
    "match-rule-form": "match",
    "match-walkover-claim": "match",
    "match-penalty-claim": "match",
    "match-game-file": "match",
    "match-score-form": "match",
    "api:match-detail": "match",
    "api:match-rule": "match",
    "api:match-claim-walkover": "match",
    "api:match-penalty": "match",
    "rating-history": "player",
    "api:api-player-ratings": "player",
    "api:api-rating-history": "player",
    "review-action": "review",
    "api:api-review-detail": "review",
    "api:api-review-approve": "review",
    "api:api-review-revert": "review",
    "review-detail": "review",
    "review-adjust": "review",
    "review-revert-games": "review",
    "api:api-review-acknowledge": "review",
    "api:api-review-adjust": "review",
    "api:api-review-revert-games": "review",
    "title-withdraw": "title",
    "api:api-title-withdraw": "title",
    "api:api-change-revert": "change",
    "player-claim": "player",
    "player-claim-link": "player",
    "api:api-player-claim-link": "player",
    "claim-link": "claim_link",
    "claim-request-detail": "claim_request",
    "claim-request-approve": "claim_request",
    "claim-request-refuse": "claim_request",
    "api:api-claim-request-detail": "claim_request",
    "api:api-claim-request-approve": "claim_request",
    "api:api-claim-request-refuse": "claim_request",
}
# The path argument that names the object, where it is not <pk>.
PATH_ARG = {"claim_link": "token"}
EXTRA_KWARGS = {"review-action": {"action": "approve"}, "doc-page": {"slug": "rules"}}

CHAMPIONSHIP_SCOPES = ("own", "other", "unpublished", "own_unpublished")
KIND_SCOPES = {
    "championship": CHAMPIONSHIP_SCOPES,
    "event": CHAMPIONSHIP_SCOPES,
    "entry": ("own", "other_player", "other", "unpublished", "own_drawn", "own_finished"),
    "match": ("own", "other_player", "other", "unpublished", "team"),
    "round": ("own", "other", "unpublished"),
    "player": ("own", "other", "accountless", "other_accountless", "legacy_accountless"),
    "game": ("casual", "published", "unpublished"),
    "record": ("own", "other"),
    "review": (NO_SCOPE,),
    "title": (NO_SCOPE,),
    "change": (NO_SCOPE,),
    "claim_link": ("valid", "unknown"),
    "claim_request": ("own", "accountless", "other_accountless", "legacy_accountless"),
}


def path_object(world: World, kind: str, scope: str, role: str) -> Any:
    base = scope.split("+")[0]
    scenes = world.scenes
    if kind in MORE_KIND_SCOPES:
        return more_path_object(world, kind, base, role)
    if kind == "championship":
        return scenes[base].championship
    if kind == "event":
        return scenes[base].open_event
    if kind == "entry":
        return world.entries[base]
    if kind == "match":
        return {
            "own": scenes["own"].matches[0],
            "other_player": scenes["own"].matches[1],
            "other": scenes["other"].matches[0],
            "unpublished": scenes["unpublished"].matches[0],
            "team": world.more.team_matches["own"],
        }[base]
    if kind == "round":
        return scenes[base].round_
    if kind == "player":
        return {
            "own": world.own_players[role],
            "other": world.other_player,
            "accountless": world.accountless,
            "other_accountless": world.other_accountless,
            "legacy_accountless": world.legacy_accountless,
        }[base]
    if kind == "claim_link":
        return world.claim_token if base == "valid" else MISSING_TOKEN
    if kind == "claim_request":
        if base == "own":
            return world.own_claim_requests[role]
        return world.claim_requests[base]
    if kind == "game":
        return {
            "casual": world.casual_game,
            "published": scenes["own"].games[0],
            "unpublished": scenes["unpublished"].games[0],
        }[base]
    if kind == "record":
        return {"own": world.records[role], "other": world.other_record}[base]
    return {"review": world.review, "title": world.title, "change": world.change}[kind]


# --- Request bodies and queries ------------------------------------------------------------


@functools.cache
def _record_body(names: tuple[str, ...]) -> bytes:
    return as_body(selfplay_record(7, list(names)))


def _submission(ctx: Context) -> tuple[bytes, int | None]:
    world, scenes = ctx.world, ctx.world.scenes
    x1, x2 = world.field_players[:2]
    match = None
    if ctx.scope == "casual_self":
        players = [world.own_players[ctx.role], world.other_player]
    elif ctx.scope == "casual_others":
        players = [x1, x2]
    else:
        match = {
            "match_own": scenes["own"].matches[0],
            "match_other_player": scenes["own"].matches[1],
            "match_other": scenes["other"].matches[0],
            "match_unpublished": scenes["unpublished"].matches[0],
        }[ctx.scope]
        players = [match.entry_a.player, match.entry_b.player]
    body = _record_body(tuple(p.display_name for p in players))
    return body, (ctx.ref(match) if match is not None else None)


def api_submission(ctx: Context) -> Payload:
    body, match_id = _submission(ctx)
    return Payload(query={"match": match_id} if match_id else None, raw=body)


def web_submission(ctx: Context) -> Payload:
    body, match_id = _submission(ctx)
    return Payload(data={"record": body.decode(), "match": match_id or ""})


def _query(name: str, lookup: Callable[[World], Any]) -> Callable[[Context], Payload]:
    """?name=<id of the hidden object> for scope "unpublished", nothing for "all"."""

    def build(ctx: Context) -> Payload:
        if ctx.scope == "all":
            return Payload()
        if ctx.scope == "published":
            return Payload(query={name: lookup(ctx.world, "own").pk})
        return Payload(query={name: ctx.ref(lookup(ctx.world, ctx.scope))})

    return build


def _data(**fields: Any) -> Callable[[Context], Payload]:
    return lambda ctx: Payload(data=fields)


def _draw_token(ctx: Context) -> str:
    """The token of the draw the page showed (issue 28): previewed as staff, so every role
    posts the same form; a hidden or missing event gets a token that matches nothing."""
    from django.core.exceptions import ValidationError

    from tournaments.services import draw_preview

    if ctx.obj is None or ctx.twin:
        return "0-0"
    try:
        return draw_preview(actor=ctx.world.users["staff"], event=ctx.obj, draw_seed=7).token
    except ValidationError:
        return "0-0"


def _someone(ctx: Context, *, web: bool) -> Payload:
    if not ctx.scope.endswith("+someone"):
        return Payload(data={})
    player_id = ctx.world.accountless.pk
    return Payload(data={"player": str(player_id) if web else player_id})


def _in_a_month() -> dt.datetime:
    return timezone.now() + dt.timedelta(days=30)


def _role_change(change: str, *, web: bool) -> Callable[[Context], Payload]:
    """Grant a role to Quinn (who holds none), or withdraw it from someone who holds it."""

    def build(ctx: Context) -> Payload:
        role = ctx.scope.split("+")[0]
        if ctx.scope.endswith("+nobody"):
            name = "matrix-nobody"
        elif change == "grant":
            name = ctx.world.other_player.user.username
        else:
            holder = ctx.world.other_organiser if role == "organiser" else ctx.world.other_staff
            name = holder.username
        data = {"name": name, "reason": "matrix"}
        data.update({"role": role, "change": change} if web else {"site_role": role})
        return Payload(data=data)

    return build


# The anonymous visitor signs up on the way (a claim link, "this is me"); the signed in send
# only what an account without a player would.
NEW_ACCOUNT = {"username": "matrix-newcomer", "password": "Tile-rings-9-loop"}
NEW_ACCOUNT_FORM = {**NEW_ACCOUNT, "password_again": NEW_ACCOUNT["password"]}


def _token(ctx: Context) -> str:
    return ctx.world.claim_token if ctx.scope == "valid" else MISSING_TOKEN


def _claim_link_redeem(ctx: Context) -> Payload:
    data = {"token": _token(ctx)}
    return Payload(data={**data, **NEW_ACCOUNT} if ctx.role == "anonymous" else data)


def _signing_up(ctx: Context, **fields: Any) -> Payload:
    return Payload(data={**NEW_ACCOUNT_FORM, **fields} if ctx.role == "anonymous" else fields)


NOTE = _data(note="matrix")
# (key, method) -> what to send. Anything else sends an empty body (or form).
BODIES: dict[tuple[str, str], Callable[[Context], Payload]] = {
    ("record-submit", "POST"): web_submission,
    ("api:api-record-list", "POST"): api_submission,
    ("api:api-game-list", "GET"): _query("event", lambda w, s: w.scenes[s].knockout),
    ("api:match-list", "GET"): _query("event", lambda w, s: w.scenes[s].knockout),
    ("api:event-list", "GET"): _query("championship", lambda w, s: w.scenes[s].championship),
    ("api:event-list", "POST"): lambda ctx: Payload(
        data={
            "championship": ctx.ref(ctx.world.scenes[ctx.scope].championship),
            "name": "Matrix added",
            "format": "knockout",
        }
    ),
    ("api:player-list", "POST"): lambda ctx: Payload(
        data={"display_name": f"Matrix {ctx.role}", "country": "DE"}
    ),
    ("api:player-detail", "PUT"): lambda ctx: Payload(
        data={"display_name": ctx.obj.display_name, "country": "DE"}
    ),
    ("api:player-detail", "PATCH"): _data(first_colour="red"),
    ("api:championship-list", "POST"): lambda ctx: Payload(
        data={"name": f"Matrix {ctx.role}", "year": 2031, "category": "open"}
    ),
    ("api:championship-detail", "PUT"): lambda ctx: Payload(
        data={
            "name": ctx.obj.name,
            "year": ctx.obj.year,
            "category": ctx.obj.category,
            "published": ctx.obj.published,
        }
    ),
    ("api:championship-detail", "PATCH"): lambda ctx: Payload(
        data={"name": f"{ctx.obj.name} renamed"}
    ),
    ("api:championship-staff", "POST"): lambda ctx: Payload(
        data={
            "username": "matrix-nobody"
            if ctx.scope.endswith("+nobody")
            else ctx.world.other_player.user.username,
            "role": "controller",
        }
    ),
    ("api:event-register", "POST"): functools.partial(_someone, web=False),
    ("event-register-player", "POST"): functools.partial(_someone, web=True),
    ("api:event-registration", "POST"): _data(open=False),
    ("event-registration-set", "POST"): _data(open="0"),
    ("api:event-draw", "POST"): _data(draw_seed=7),
    ("event-draw-make", "POST"): lambda ctx: Payload(
        data={"draw_seed": "7", "preview": _draw_token(ctx)}
    ),
    ("api:event-draw-preview", "POST"): _data(draw_seed=7),
    ("event-bulk-entry", "POST"): _data(step="match", names="Matrix Newcomer, DE"),
    ("api:api-bulk-entry-match", "POST"): _data(names="Matrix Newcomer, DE"),
    ("api:api-bulk-entry", "POST"): _data(
        lines=[{"line": 1, "name": "Matrix Newcomer", "country": "DE", "create": True}]
    ),
    ("event-seed-set", "POST"): _data(method="ratings"),
    ("api:entry-withdraw", "POST"): _data(reason="matrix"),
    ("entry-withdraw-form", "POST"): _data(reason="matrix"),
    ("api:match-penalty", "POST"): _data(game=1, side=1),
    ("match-penalty-claim", "POST"): _data(game="1", side="1"),
    ("api:match-rule", "POST"): _data(winner=MISSING_ID, reason="matrix"),
    ("api:round-deadline", "POST"): lambda ctx: Payload(
        data={"deadline": _in_a_month().isoformat()}
    ),
    ("round-deadline-set", "POST"): lambda ctx: Payload(
        data={"deadline": _in_a_month().strftime("%Y-%m-%dT%H:%M")}
    ),
    ("api:api-title-list", "POST"): lambda ctx: Payload(
        data={"player": ctx.world.own_players["player"].pk, "note": "matrix"}
    ),
    ("api:api-title-withdraw", "POST"): NOTE,
    ("api:api-review-approve", "POST"): NOTE,
    ("api:api-review-revert", "POST"): NOTE,
    ("api:api-review-acknowledge", "POST"): NOTE,
    ("api:api-review-adjust", "POST"): _data(delta=1, reason="matrix"),
    ("api:api-review-revert-games", "POST"): _data(games=[MISSING_ID], note="matrix"),
    ("review-adjust", "POST"): _data(delta="1", reason="matrix"),
    ("review-revert-games", "POST"): _data(games=str(MISSING_ID), note="matrix"),
    ("api:api-change-revert", "POST"): NOTE,
    ("api:api-adjustment-list", "POST"): lambda ctx: Payload(
        data={
            "player": ctx.world.own_players["player"].pk,
            "system": "lobby",
            "delta": 1,
            "reason": "matrix",
        }
    ),
    ("review-action", "POST"): NOTE,
    ("title-withdraw", "POST"): NOTE,
    ("player-roles", "POST"): _role_change("grant", web=True),
    ("api:api-role-grant", "POST"): _role_change("grant", web=False),
    ("api:api-role-withdraw", "POST"): _role_change("withdraw", web=False),
    ("claim-link", "POST"): _signing_up,
    ("api:api-claim-link-check", "POST"): lambda ctx: Payload(data={"token": _token(ctx)}),
    ("api:api-claim-link-redeem", "POST"): _claim_link_redeem,
    ("player-claim", "POST"): functools.partial(_signing_up, message="matrix"),
    ("api:api-claim-request-list", "POST"): lambda ctx: Payload(
        data={"player": ctx.world.accountless.pk, "message": "matrix"}
    ),
    ("claim-request-approve", "POST"): _data(reason="matrix"),
    ("claim-request-refuse", "POST"): _data(reason="matrix"),
    ("api:api-claim-request-approve", "POST"): _data(reason="matrix"),
    ("api:api-claim-request-refuse", "POST"): _data(reason="matrix"),
    ("rating-adjust", "POST"): lambda ctx: Payload(
        data={
            "player": ctx.world.own_players["player"].display_name,
            "system": "lobby",
            "delta": "1",
            "reason": "matrix",
        }
    ),
    ("title-award", "POST"): lambda ctx: Payload(
        data={"player": ctx.world.own_players["player"].display_name, "note": "matrix"}
    ),
}
# Scopes of views whose object is named in the query or body rather than the path.
BODY_SCOPES = {
    ("record-submit", "POST"): tuple(RECORD_SUBMIT),
    ("api:api-record-list", "POST"): tuple(RECORD_SUBMIT),
    ("api:api-game-list", "GET"): ("all", "published", "unpublished"),
    ("api:match-list", "GET"): ("all", "unpublished"),
    ("api:event-list", "GET"): ("all", "unpublished"),
    ("api:event-list", "POST"): CHAMPIONSHIP_SCOPES,
    ("player-roles", "POST"): ("organiser", "staff"),
    ("api:api-role-grant", "POST"): ("organiser", "staff"),
    ("api:api-role-withdraw", "POST"): ("organiser", "staff"),
    ("api:api-claim-link-check", "POST"): KIND_SCOPES["claim_link"],
    ("api:api-claim-link-redeem", "POST"): KIND_SCOPES["claim_link"],
}
# Web forms whose accepted POST answers with a page (200) instead of a redirect: a new claim
# link is shown once, in the answer to the request that made it (its token is not stored).
RESULT_PAGES = {("player-claim-link", "POST")}

# Reports, score sheets, table results, table opens, exports, teams and pairs (matrix_more.py).
EXPECTED.update(MORE_EXPECTED)
for (_key, _method), _row in MORE_MATCH_ROWS.items():
    EXPECTED[_key][_method] = {**EXPECTED[_key][_method], "team": _row}
PATH_KIND.update(MORE_PATH_KIND)
EXTRA_KWARGS.update(MORE_EXTRA_KWARGS)
KIND_SCOPES.update(MORE_KIND_SCOPES)
BODIES.update(MORE_BODIES)
BODY_SCOPES.update(MORE_BODY_SCOPES)
# Arranging a match (matrix_arrange.py, issue 30).
EXPECTED.update(ARRANGE_EXPECTED)
PATH_KIND.update(ARRANGE_PATH_KIND)
EXTRA_KWARGS.update(ARRANGE_EXTRA_KWARGS)


# --- The URL configuration -----------------------------------------------------------------


@dataclass(frozen=True)
class View:
    key: str
    route: str  # the full route text, as written in the URL configuration
    callback: Any

    @property
    def api(self) -> bool:
        return self.route.startswith("api/")


def _walk(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern, route)
        else:
            yield route, pattern


@functools.cache
def url_views() -> dict[str, View]:
    views: dict[str, View] = {}
    for route, pattern in _walk(get_resolver()):
        if route.startswith(EXCLUDED_PREFIXES):
            continue
        # DRF's format-suffix twins (players.json, ...) are the same view as the plain route.
        if "format" in pattern.pattern.regex.groupindex:
            continue
        name = pattern.name or f"<unnamed {route}>"
        key = f"api:{name}" if route.startswith("api/") else name
        if key not in EXCLUDED_KEYS:
            views.setdefault(key, View(key, route, pattern.callback))
    return views


IGNORED_METHODS = {"options", "head", "trace"}


def declared_methods(callback: Any) -> set[str] | None:
    """The methods a class-based view (DRF or Django) handles; None for a function view."""
    actions = getattr(callback, "actions", None)
    if actions:
        return {method.upper() for method in actions if method not in IGNORED_METHODS}
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if cls is None:
        return None
    return {
        method.upper()
        for method in cls.http_method_names
        if method not in IGNORED_METHODS and hasattr(cls, method)
    }


def method_restriction(callback: Any) -> set[str] | None:
    """The methods of a function view's require_http_methods (require_POST, ...), if any."""
    func = callback
    while func is not None:
        code = getattr(func, "__code__", None)
        for name, cell in zip(
            code.co_freevars if code else (), func.__closure__ or (), strict=True
        ):
            if name == "request_method_list":
                return {method.upper() for method in cell.cell_contents}
        func = getattr(func, "__wrapped__", None)
    return None


_REGEX_PARAM = re.compile(r"\(\?P<(?P<name>\w+)>[^)]*\)")
_ROUTE_PARAM = re.compile(r"<(?:\w+:)?(?P<name>\w+)>")


def concrete_path(route: str, kwargs: dict[str, Any]) -> str:
    path = _REGEX_PARAM.sub(lambda m: str(kwargs[m["name"]]), route)
    path = _ROUTE_PARAM.sub(lambda m: str(kwargs[m["name"]]), path)
    return "/" + path.replace("^", "").replace("$", "")


def scopes_of(key: str, method: str) -> tuple[str, ...]:
    if (key, method) in BODY_SCOPES:
        return BODY_SCOPES[(key, method)]
    if key in PATH_KIND:
        return KIND_SCOPES[PATH_KIND[key]]
    return (NO_SCOPE,)


def _cases() -> Iterator[Any]:
    views = url_views()
    for key in sorted(set(views) & set(EXPECTED)):
        for method, rows in EXPECTED[key].items():
            for scope, outcomes in (rows if isinstance(rows, dict) else {NO_SCOPE: rows}).items():
                for role, expected in zip(ROLES, outcomes, strict=True):
                    yield pytest.param(
                        key, method, scope, role, expected, id=f"{key} {method} {scope} {role}"
                    )


CASES = list(_cases())


# --- Completeness ----------------------------------------------------------------------------


# Views whose roles are decided and tested, role by role, in a suite of their own (written with
# the feature, before the matrix had rows for them): the view, that suite, and a fragment of the
# view's name or route the suite must use. They move into EXPECTED as the matrix's world learns
# their objects (verdict reviews, recompute runs); table opens, table results, exports, teams and
# pairs moved in with issue 26 (matrix_more.py).
_RATING_STAFF = "tests/ratings/test_staff_tools.py"
_VERDICT_REVIEWS = "tests/games/test_readjudication.py"
# API tokens and passwords: each account's own, never anyone else's (issue 26).
_TOKENS = "tests/players/test_api_tokens.py"
COVERED_ELSEWHERE: dict[str, tuple[str, str]] = {
    "api:api-event-elo": (_RATING_STAFF, "/elo/"),
    "api:api-recompute-detail": (_RATING_STAFF, "ratings/recomputes"),
    "api:api-recompute-list": (_RATING_STAFF, "ratings/recomputes"),
    "api:api-review-revert-series": (_RATING_STAFF, "revert-series"),
    "rating-event-elo": (_RATING_STAFF, "rating-event-elo"),
    "rating-recompute": (_RATING_STAFF, "rating-recompute"),
    "review-series-revert": (_RATING_STAFF, "review-series-revert"),
    "api:api-verdict-review-approve": (_VERDICT_REVIEWS, "verdict-reviews"),
    "api:api-verdict-review-detail": (_VERDICT_REVIEWS, "verdict-reviews"),
    "api:api-verdict-review-list": (_VERDICT_REVIEWS, "verdict-reviews"),
    "api:api-verdict-review-reject": (_VERDICT_REVIEWS, "verdict-reviews"),
    "verdict-review-decide": (_VERDICT_REVIEWS, "verdict-reviews"),
    "verdict-review-detail": (_VERDICT_REVIEWS, "verdict-reviews"),
    "verdict-review-list": (_VERDICT_REVIEWS, "verdict-reviews"),
    "api:api-token-rotate": (_TOKENS, "/api/auth/token/rotate/"),
    "api:api-logout": (_TOKENS, "/api/auth/logout/"),
    "api:api-logout-all": (_TOKENS, "/api/auth/logout-all/"),
    "api:api-tokens": (_TOKENS, '"/api/auth/tokens/"'),
    "api:api-token-detail": (_TOKENS, 'delete(f"/api/auth/tokens/{bobs_id}/")'),
    "password-change": (_TOKENS, "/accounts/password/"),
    "api-token-revoke": (_TOKENS, 'post(f"/accounts/tokens/{bobs_id}/revoke/")'),
    "api-tokens-revoke-all": (_TOKENS, "/accounts/tokens/revoke-all/"),
    # A calendar feed's address is its only key: no role reads it without the token (issue 30).
    "player-calendar": ("tests/calendars/test_feeds.py", '"player-calendar"'),
}


def test_views_covered_elsewhere_are_tested_there():
    root = Path(__file__).resolve().parents[2]
    problems = []
    for key, (suite, fragment) in sorted(COVERED_ELSEWHERE.items()):
        path = root / suite
        if not path.exists() or fragment not in path.read_text():
            problems.append(f"{key}: {suite} does not use {fragment!r}")
        if key in EXPECTED:
            problems.append(f"{key}: in EXPECTED too; drop it from COVERED_ELSEWHERE")
    assert not problems, "\n".join(problems)


def test_every_view_has_an_entry():
    views = url_views()
    missing = sorted(set(views) - set(EXPECTED) - set(COVERED_ELSEWHERE))
    assert not missing, (
        "Views without an entry in EXPECTED (decide who may use them, per role and object): "
        + ", ".join(f"{key} ({views[key].route})" for key in missing)
    )
    stale = sorted(set(EXPECTED) - set(views) - ANNOUNCED)
    assert not stale, f"EXPECTED has entries for views that no longer exist: {stale}"


def test_table_methods_are_the_methods_the_views_accept():
    problems = []
    for key, view in sorted(url_views().items()):
        if key not in EXPECTED:
            continue
        listed = set(EXPECTED[key])
        declared = declared_methods(view.callback)
        if declared is not None:
            if listed != declared:
                problems.append(f"{key}: table {sorted(listed)}, view {sorted(declared)}")
            continue
        # A function view: GET and POST where it handles them, within its require_* decorator.
        restricted = method_restriction(view.callback)
        allowed = {"GET", "POST"} & restricted if restricted is not None else {"GET", "POST"}
        if not listed or not listed <= allowed or (restricted is not None and listed != allowed):
            problems.append(f"{key}: table {sorted(listed)}, view accepts {sorted(allowed)}")
    assert not problems, "\n".join(problems)


def test_table_scopes_name_known_objects():
    problems = []
    for key, methods in EXPECTED.items():
        for method, rows in methods.items():
            known = scopes_of(key, method)
            scopes = rows.keys() if isinstance(rows, dict) else [NO_SCOPE]
            for scope in scopes:
                if scope.split("+")[0] not in known:
                    problems.append(f"{key} {method}: scope {scope!r} (known: {known})")
                if scope.endswith("+someone") and (key, method) not in BODIES:
                    problems.append(f"{key} {method}: {scope!r} needs a body that names someone")
            if set(known) - {NO_SCOPE} and not isinstance(rows, dict):
                problems.append(f"{key} {method}: names objects; give a row per scope {known}")
    assert not problems, "\n".join(problems)


# --- The matrix ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    view: View
    method: str
    url: str
    payload: Payload


def build_request(world: World, key: str, method: str, scope: str, role: str, *, twin: bool):
    view = url_views()[key]
    kwargs = dict(EXTRA_KWARGS.get(key, {}))
    obj = None
    if key in PATH_KIND:
        kind = PATH_KIND[key]
        obj = path_object(world, kind, scope, role)
        arg = PATH_ARG.get(kind, "pk")
        kwargs[arg] = obj.pk if arg == "pk" else obj
    url = concrete_path(view.route, kwargs)
    assert resolve(url).func is view.callback, f"{url} does not resolve to {key}"
    build = BODIES.get((key, method))
    payload = build(Context(world, role, scope, obj, twin)) if build else Payload()
    if payload.query:
        url = f"{url}?{urlencode(payload.query)}"
    return Request(view, method, url, payload)


def send(world: World, request: Request, role: str):
    payload, user = request.payload, world.users[role]
    if request.view.api:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user=user)
        if request.method == "GET":
            return client.get(request.url)
        body = payload.raw if payload.raw is not None else json.dumps(payload.data or {})
        return client.generic(request.method, request.url, body, content_type="application/json")
    client = Client()
    if user is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
    if request.method == "GET":
        return client.get(request.url)
    if request.method == "POST":
        return client.post(request.url, payload.data or {})
    return client.generic(
        request.method,
        request.url,
        urlencode(payload.data or {}),
        content_type="application/x-www-form-urlencoded",
    )


def _refused_submission(response) -> Any:
    """The refused game submission a web page shows (games/records/views.py), if any."""
    context = getattr(response, "context", None)
    if context is not None and "refused" in context:
        return context["refused"]
    return None


def _class_of_status(status: int, response=None) -> str:
    if status in (401, 403):
        return DENIED
    if status == 404:
        return HIDDEN
    if status == 400:
        return BAD
    if 300 <= status < 400 and response is not None:
        location = response.headers.get("Location", "")
        if location.split("?")[0] == resolve_url(settings.LOGIN_URL):
            return DENIED
        return OK
    if 200 <= status < 300:
        return OK
    return f"status {status}"


def classify(request: Request, response) -> str:
    if response.status_code == 200:
        refused = _refused_submission(response)
        if refused is not None:
            return _class_of_status(submission_answer(refused)[0])
        if (
            not request.view.api
            and request.method != "GET"
            and (request.view.key, request.method) not in RESULT_PAGES
        ):
            return BAD  # a web form shown again with its errors
    return _class_of_status(response.status_code, response)


def _json(response) -> Any:
    if "json" not in response.headers.get("Content-Type", ""):
        return None
    try:
        return json.loads(response.content)
    except ValueError:
        return None


def _is_empty_list(response) -> bool:
    data = _json(response) if response.status_code == 200 else None
    if isinstance(data, dict) and "results" in data:
        data = data["results"]
    return data == []


def _without_submission(data: Any) -> Any:
    """A refusal body minus the stored record's id and links, which differ on every request."""
    if isinstance(data, dict):
        return {k: _without_submission(v) for k, v in data.items() if k != "submission"}
    if isinstance(data, list):
        return [_without_submission(v) for v in data]
    return data


def fingerprint(response, hidden_ids: set[int]) -> tuple[int, str]:
    refused = _refused_submission(response) if response.status_code == 200 else None
    if refused is not None:
        status, data = submission_answer(refused)
    else:
        status, data = response.status_code, _json(response)
    text = json.dumps(_without_submission(data), sort_keys=True)
    for pk in hidden_ids:
        text = re.sub(rf"\b{pk}\b", "<id>", text)
    return status, text


def _hidden_ids(world: World, key: str, method: str, scope: str, role: str) -> set[int]:
    """The ids a request about a hidden object may mention: the object's and MISSING_ID."""
    real = build_request(world, key, method, scope, role, twin=False)
    ids = {MISSING_ID}
    for value in (real.payload.query or {}).values():
        ids.add(int(value))
    for name in ("championship", "match"):
        if isinstance(real.payload.data, dict) and str(real.payload.data.get(name, "")).isdigit():
            ids.add(int(real.payload.data[name]))
    return ids


@pytest.mark.parametrize(("key", "method", "scope", "role", "expected"), CASES)
def test_permission(world, db, key, method, scope, role, expected):
    request = build_request(world, key, method, scope, role, twin=False)
    response = send(world, request, role)
    outcome = classify(request, response)
    if expected in (HIDDEN, DENIED) and outcome != expected:
        if expected == HIDDEN and _is_empty_list(response):
            outcome = HIDDEN
        elif outcome != OK and (key, method) in BODY_SCOPES:
            # A refusal about an object named in the query or body: answered exactly as for an
            # object that does not exist, it is hidden, and at least as strong as denied.
            twin_request = build_request(world, key, method, scope, role, twin=True)
            if twin_request != request:
                twin = send(world, twin_request, role)
                ids = _hidden_ids(world, key, method, scope, role)
                if fingerprint(response, ids) == fingerprint(twin, ids):
                    outcome = expected
    assert outcome in ACCEPTED[expected], (
        f"{method} {request.url} as {role} ({scope}): expected {expected}, "
        f"got {response.status_code} ({outcome}): {response.content[:300]!r}"
    )


# --- Lists ---------------------------------------------------------------------------------
# A list answers 200 to everyone, so the matrix cannot see what it leaks: these check that the
# public lists leave out the objects of championships the role may not see.

WHO_SEES = {"unpublished": {"staff"}, "own_unpublished": {"organiser", "controller", "staff"}}
LISTS: dict[str, tuple[str, Callable[[World, str], list]]] = {
    "api:api-game-list": ("/api/games/", lambda w, s: w.scenes[s].games),
    "api:match-list": ("/api/matches/", lambda w, s: w.scenes[s].matches),
    "api:event-list": ("/api/events/", lambda w, s: [w.scenes[s].open_event]),
    "api:championship-list": ("/api/championships/", lambda w, s: [w.scenes[s].championship]),
    "game-list": ("/games/", lambda w, s: w.scenes[s].games),
    "championship-list": ("/championships/", lambda w, s: [w.scenes[s].championship]),
}


def _listed_ids(response) -> set[int]:
    data = _json(response)
    if data is not None:
        return {row["id"] for row in data["results"]}
    return {obj.pk for obj in response.context["page"].object_list}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("key", sorted(LISTS))
def test_lists_leave_out_what_the_role_may_not_see(world, db, key, role):
    url, objects = LISTS[key]
    request = Request(url_views()[key], "GET", url, Payload())
    response = send(world, request, role)
    assert response.status_code == 200
    listed = _listed_ids(response)
    wrong = []
    for scope, seen_by in WHO_SEES.items():
        for obj in objects(world, scope):
            if (obj.pk in listed) != (role in seen_by):
                wrong.append(f"{type(obj).__name__} {obj.pk} of {scope}: listed={obj.pk in listed}")
    visible = objects(world, "own")
    assert visible and {obj.pk for obj in visible} <= listed, "published objects must be listed"
    assert not wrong, f"{url} as {role}: " + "; ".join(wrong)


# Claim requests: staff see all; the organiser who entered a player, its requests; everyone
# their own (docs/roles.md). The web list shows waiting requests unless asked for all.
CLAIM_LISTS = {
    "claim-request-list": "/players/claims/?status=all",
    "api:api-claim-request-list": "/api/claim-requests/",
}


def _claims_seen_by(world: World, role: str) -> set[int]:
    seen = {world.own_claim_requests[role].pk}
    if role == "organiser":
        seen.add(world.claim_requests["accountless"].pk)
    if role == "staff":
        seen |= {claim.pk for claim in world.claim_requests.values()}
        seen |= {claim.pk for claim in world.own_claim_requests.values()}
    return seen


@pytest.mark.parametrize("role", [role for role in ROLES if role != "anonymous"])
@pytest.mark.parametrize("key", sorted(CLAIM_LISTS))
def test_claim_request_lists_show_only_what_the_role_may_see(world, db, key, role):
    request = Request(url_views()[key], "GET", CLAIM_LISTS[key], Payload())
    response = send(world, request, role)
    assert response.status_code == 200
    in_world = {claim.pk for claim in world.claim_requests.values()} | {
        claim.pk for claim in world.own_claim_requests.values()
    }
    listed = _listed_ids(response) & in_world
    expected = _claims_seen_by(world, role)
    assert listed == expected, (
        f"{CLAIM_LISTS[key]} as {role}: missing {sorted(expected - listed)}, "
        f"shown but not theirs {sorted(listed - expected)}"
    )


# Reports waiting for an answer or a ruling: each role finds exactly those it may answer (the
# other side's, or for a player without an account those it answers for) and those it may rule
# (its championships' disputed games; staff all). An organiser or controller of another
# championship finds nothing of it, and an author never finds their own report.
WAITING_FOR = {
    "player": ({"own_opposed"}, set()),
    "organiser": ({"other_player_accountless"}, {"other_player"}),
    "controller": ({"other_player_accountless"}, {"other_player"}),
    "staff": (
        {
            "own_accountless",
            "other_player_accountless",
            "other_accountless",
            "unpublished_accountless",
        },
        {"other_player", "other", "unpublished"},
    ),
}
WAITING_LISTS = {
    "reports-waiting": "/games/reports/",
    "api:api-reports-waiting": "/api/reports/waiting/",
}


@pytest.mark.parametrize("role", sorted(WAITING_FOR))
@pytest.mark.parametrize("key", sorted(WAITING_LISTS))
def test_reports_waiting_are_those_the_role_answers_or_rules(world, db, key, role):
    request = Request(url_views()[key], "GET", WAITING_LISTS[key], Payload())
    response = send(world, request, role)
    assert response.status_code == 200
    more = world.more
    versions = {version.pk: scope for scope, version in more.versions.items()}
    versions[world.report.pk] = "casual_others"
    games = {reported.pk: scope for scope, reported in more.reported.items()}
    games[world.report.reported_game_id] = "casual_others"
    if request.view.api:
        waiting = [row["id"] for row in response.data["waiting"]]
        to_rule = [row["reported_game"] for row in response.data["to_rule"]]
    else:
        waiting = [version.pk for version in response.context["waiting"]]
        to_rule = [game.pk for game in response.context["to_rule"]]
    found = (
        {versions[pk] for pk in waiting if pk in versions},
        {games[pk] for pk in to_rule if pk in games},
    )
    assert found == WAITING_FOR[role], f"{WAITING_LISTS[key]} as {role}"


@pytest.mark.parametrize("role", sorted(WAITING_FOR))
def test_the_homes_reports_waiting_are_those_the_role_answers(world, db, role):
    """`/api/me/reports/waiting/` lists exactly what the Reports list does: never another
    person's (issue 28)."""
    path = "/api/me/reports/waiting/"
    response = send(
        world, Request(url_views()["api:api-me-reports-waiting"], "GET", path, Payload()), role
    )
    assert response.status_code == 200
    versions = {version.pk: scope for scope, version in world.more.versions.items()}
    versions[world.report.pk] = "casual_others"
    waiting = [row["version"] for row in response.data["results"]]
    assert {versions[pk] for pk in waiting if pk in versions} == WAITING_FOR[role][0], role
