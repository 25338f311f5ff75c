from django.contrib import admin

from games.models import Game, GameRecord, GameSeat


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ["id", "status", "source", "submitter", "error_code", "created"]
    list_filter = ["status", "source", "error_code"]
    readonly_fields = [f.name for f in GameRecord._meta.fields]


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    readonly_fields = ["seat", "player", "colour", "score"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "played_at", "players_count", "winner_seat", "is_draw", "context"]
    list_filter = ["context", "end_reason"]
    inlines = [GameSeatInline]
    exclude = ["placements"]
