"""An event's calendar: public for a published championship (as its pages are), a 404 for what
the reader may not see."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from players.calendars.ical import calendar_text
from players.calendars.views import calendar_response
from tantrix_site.http.permissions import permission_required
from tournaments.calendars.feeds import event_calendar_events
from tournaments.pages.lookups import event_or_404


@require_GET
@permission_required("see", lookup=event_or_404)
def event_calendar_view(request, event):
    text = calendar_text(
        name=_("Tantrix: %(event)s") % {"event": event},
        events=event_calendar_events(event, request.build_absolute_uri),
        stamp=timezone.now(),
    )
    return calendar_response(text, filename=f"event-{event.pk}.ics")
