from django.contrib import admin

from players.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "country", "user", "created"]
    search_fields = ["display_name", "user__username"]
    list_filter = ["country"]
    raw_id_fields = ["user"]
