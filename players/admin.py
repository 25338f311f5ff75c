from django.contrib import admin

from players.models import ApiToken, AuditEntry, ClaimLink, ClaimRequest, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "country", "user", "created_by", "created"]
    search_fields = ["display_name", "user__username"]
    list_filter = ["country"]
    raw_id_fields = ["user", "created_by"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Written by the services only (with their checks and audit entries): read here."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created", "actor_name", "action", "target", "reason"]
    list_filter = ["action"]
    search_fields = ["actor_name", "target", "reason"]
    date_hierarchy = "created"


@admin.register(ClaimLink)
class ClaimLinkAdmin(ReadOnlyAdmin):
    list_display = ["player", "created_by", "created", "expires", "used_at", "revoked_at"]
    exclude = ["token_hash"]


@admin.register(ClaimRequest)
class ClaimRequestAdmin(ReadOnlyAdmin):
    list_display = ["player", "requester", "status", "created", "decided_by", "decided_at"]
    list_filter = ["status"]


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    """Staff see a user's API tokens and may revoke them (delete), e.g. for a lost laptop.
    Never the key: only its digest is stored, and that is not shown either."""

    list_display = ["user", "prefix", "client", "created", "last_used", "expires"]
    search_fields = ["user__username", "prefix"]
    exclude = ["digest", "password_stamp"]

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_staff and request.user.has_perm("players.delete_apitoken")
