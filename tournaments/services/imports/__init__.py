"""Reading an event's JSON export back (`manage.py import_event`): every value and reference
checked before anything is written (`checks`, `values`), then one transaction (`writer`).
The file's contents are defined in `tournaments.services.event_format`."""

from tournaments.services.imports.checks import CleanExport, import_check
from tournaments.services.imports.values import EventImportError
from tournaments.services.imports.writer import event_import

__all__ = ["CleanExport", "EventImportError", "event_import", "import_check"]
