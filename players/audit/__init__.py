"""The one audit trail: the registry of audited actions and their words (`registry`), the one
writer (`services.audit`) and the staff's reads (`selectors`). Every app records here; the page
and API that show the trail are players' (`players.views.audit_view`, `players.api`).

Kept free of imports: `players.models` imports the registry while the app registry loads."""
