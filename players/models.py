from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django_countries.fields import CountryField

from players.audit.registry import audit_action_choices, register_audit_actions
from players.preferences.timezones import validate_time_zone


class Colour(models.TextChoices):
    RED = "red", _("Red")
    YELLOW = "yellow", _("Yellow")
    BLUE = "blue", _("Blue")
    GREEN = "green", _("Green")


# Stored in the player's profile: a language code of settings.LANGUAGES (a constant list here,
# so a change of the setting needs no migration).
LANGUAGE_CHOICES = [(code, name) for code, name in settings.LANGUAGES]


class Player(models.Model):
    """A Tantrix player. May exist before (or without) a user account: organisers enter players."""

    display_name = models.CharField(max_length=40)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    country = CountryField(help_text=_("ISO 3166-1 alpha-2 code"))
    # Private: used for junior eligibility, shown only to the player and staff.
    date_of_birth = models.DateField(null=True, blank=True)
    first_colour = models.CharField(max_length=6, choices=Colour.choices, blank=True)
    second_colour = models.CharField(max_length=6, choices=Colour.choices, blank=True)
    # The zone this player reads the site's times in; empty: the site's (players/timezones.py).
    time_zone = models.CharField(
        max_length=64, blank=True, default="", validators=[validate_time_zone]
    )
    # The language this player reads the site in (settings.LANGUAGES); empty: the browser's.
    language = models.CharField(max_length=8, blank=True, default="", choices=LANGUAGE_CHOICES)
    # Robot opponents exist in the lobby; games against them count half in the ranking.
    is_robot = models.BooleanField(default=False)
    # Who entered an accountless player: that organiser (with staff) may hand out a claim link
    # and decide claim requests for it. Empty for sign-ups and for players entered before.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players_entered",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["display_name"]
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="player_display_name_ci_unique",
                violation_error_message=_("A player with this display name already exists."),
            ),
            models.CheckConstraint(
                condition=models.Q(first_colour="")
                | models.Q(second_colour="")
                | ~models.Q(first_colour=models.F("second_colour")),
                name="player_colour_preferences_differ",
                violation_error_message=_("The two colour preferences must differ."),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name


class AuditAction(models.TextChoices):
    """The registry of audited actions, with the words people read.

    The players' actions (roles and profile claims). Tournaments and ratings declare their own
    and register them too (`players.audit.registry`, docs/architecture.md "Audit").
    """

    ORGANISER_GRANT = "organiser_grant", _("Organiser role granted")
    ORGANISER_WITHDRAW = "organiser_withdraw", _("Organiser role withdrawn")
    STAFF_GRANT = "staff_grant", _("Staff role granted")
    STAFF_WITHDRAW = "staff_withdraw", _("Staff role withdrawn")
    PLAYER_CREATE = "player_create", pgettext_lazy("a player added to the site", "Player entered")
    PLAYER_UPDATE = "player_update", _("Player profile changed by someone else")
    CLAIM_LINK_CREATE = "claim_link_create", _("Claim link created")
    CLAIM_LINK_USE = "claim_link_use", _("Profile claimed with a link")
    CLAIM_REQUEST_CREATE = "claim_request_create", _("Claim requested")
    CLAIM_REQUEST_APPROVE = "claim_request_approve", _("Claim request approved")
    CLAIM_REQUEST_REFUSE = "claim_request_refuse", _("Claim request refused")


register_audit_actions(AuditAction, area="players", label=_("Players and roles"))


class AuditEntry(models.Model):
    """One line of the audit trail: who did what to whom, when and why. Append-only.

    Shaped to become the one site-wide trail (hence the app-neutral table name): a subject user
    and/or player, a human target label kept as it was at the time (names change, rows get
    deleted), the reason, and free details. Written only by `players.audit.services`; the
    database refuses updates and deletes (a trigger on PostgreSQL), except the SET NULL of a
    deleted user or player.
    """

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Empty for a worker or a command, or when the account was deleted."),
    )
    # The actor's username at the time, so the line still says who once the account is gone.
    actor_name = models.CharField(max_length=150, blank=True)
    action = models.CharField(max_length=40, choices=audit_action_choices)
    subject_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    subject_player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    target = models.CharField(max_length=200, blank=True)
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)
    # Objects of higher apps, by plain id (players never imports them), so pages can filter.
    championship_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    event_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    rating_change_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    review_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    title_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    created = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "audit_entry"
        ordering = ["-created", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")
        indexes = [
            models.Index(fields=["action", "-created"], name="audit_entry_action_created"),
            models.Index(fields=["subject_player", "-created"], name="audit_entry_player_created"),
            models.Index(fields=["subject_user", "-created"], name="audit_entry_user_created"),
        ]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.get_action_display()} {self.target}"


class ClaimLink(models.Model):
    """A one-time link that lets a person take over an accountless player.

    Only a hash of the token is stored; the token itself is shown once, to whoever made the link.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # A newer link for the same player replaces this one.
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(expires__gt=models.F("created")),
                name="claim_link_expires_after_creation",
            ),
            models.CheckConstraint(
                condition=models.Q(used_at__isnull=True) | models.Q(revoked_at__isnull=True),
                name="claim_link_used_or_revoked_not_both",
            ),
        ]

    def __str__(self) -> str:
        return f"claim link {self.pk} for {self.player_id}"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for a decision")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")
    # Closed without a decision: the player was claimed otherwise, or the requester got a player.
    CANCELLED = "cancelled", _("Closed")


class ClaimRequest(models.Model):
    """A person with an account says an accountless player is them and asks to take it over."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_requests")
    requester = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claim_requests"
    )
    message = models.TextField(blank=True, max_length=2000)
    status = models.CharField(
        max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    created = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            # A person is one player: one open request at a time.
            models.UniqueConstraint(
                fields=["requester"],
                condition=models.Q(status="pending"),
                name="claim_request_one_pending_per_requester",
                violation_error_message=_("You already have a claim request waiting."),
            ),
            models.CheckConstraint(
                condition=models.Q(status="pending", decided_at__isnull=True)
                | (~models.Q(status="pending") & models.Q(decided_at__isnull=False)),
                name="claim_request_decided_when_closed",
            ),
        ]

    def __str__(self) -> str:
        return f"claim request {self.pk} for {self.player_id}"


class Notice(models.Model):
    """A message on the site for one person (a report waiting for them, a ruling...).

    The header shows how many are unread; the same text also goes out by email.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    text = models.CharField(max_length=300)
    # What it is about, where to act on it: a kind the sending app registered with its page
    # (players.notices.links) and that object's id; empty for a notice about nothing to open.
    about = models.CharField(max_length=40, blank=True)
    about_id = models.PositiveBigIntegerField(null=True, blank=True)
    read = models.BooleanField(default=False)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["user", "read"], name="notice_user_read")]

    def __str__(self) -> str:
        return f"notice {self.pk} for {self.user_id}"


class ApiToken(models.Model):
    """A key for the API (`Authorization: Token <key>`), one per client that asked for one.

    Only a digest of the key is stored; the key itself is given once, to the client. A token
    works until it expires, its client or its user revokes it, or the user's password changes
    (`password_stamp` no longer matches). docs/api-tokens.md says why.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)  # SHA-256 of the key, hex
    # The key's first characters: enough for a person to tell their tokens apart.
    prefix = models.CharField(max_length=8)
    # What the client said it was (its User-Agent) when it asked for the token.
    client = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    last_used = models.DateTimeField(null=True, blank=True)
    # A digest of the user's password hash when the token was issued.
    password_stamp = models.CharField(max_length=64)

    class Meta:
        ordering = ["-created", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(expires__gt=models.F("created")),
                name="api_token_expires_after_creation",
            ),
        ]
        indexes = [models.Index(fields=["user", "expires"], name="api_token_user_expires")]

    def __str__(self) -> str:
        return f"API token {self.prefix}… of {self.user_id}"


class CalendarFeed(models.Model):
    """A player's private calendar address: their matches and round deadlines as an iCalendar
    feed, read by a calendar program that holds no session, so the token in the address is the
    only key (docs/calendars.md).

    The token is stored as it is (unlike an API key's digest): the player must be able to read
    their address again on their profile to paste it into another program, and it opens nothing
    but this read-only feed. Making a new one replaces it (the old address answers 404), and
    turning it off deletes it.
    """

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"calendar feed of {self.player_id}"


class ReminderSent(models.Model):
    """The ledger of reminders: one row per reminder sent (its kind, the object it is about, its
    recipient), written in the transaction that leaves the notice, so a reminder task run twice,
    by two workers at once or again after a restart finds the row and sends nothing (the
    unique constraint decides a race).

    `due` is the time the reminder was about (a match's agreed start, a round's deadline). When
    that time moves, the reminder is due again: the row takes the new time in a conditional
    update, which is the claim, as the insert is the first time.
    """

    # A kind the sending app names ("match_start", "round_deadline"); players never reads it.
    kind = models.CharField(max_length=40)
    # The object the reminder is about, by plain id (players never imports the sending app).
    object_id = models.PositiveBigIntegerField()
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    due = models.DateTimeField()
    sent = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "object_id", "recipient"], name="reminder_sent_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} reminder of {self.object_id} to {self.recipient_id}"
