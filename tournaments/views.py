"""Championship pages and organiser screens. Thin: each view reads through a selector or calls
one service through a form (tournaments/forms.py); the services decide and audit.

Visibility: an unpublished championship (and everything in it) is a 404 to anyone who is not its
staff. Permissions are declared once on each view (`permission_required`, with the rules of
`tournaments.permissions`): the lookup answers 404, the rule 403, before any form is shown; the
services keep their own checks, the authority.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from tantrix_site.http.permissions import permission_context, permission_required
from tantrix_site.http.refusals import tell_refusal
from tournaments import selectors, services
from tournaments.format_words import round_name_text
from tournaments.forms import (
    AdvanceQualifiersForm,
    ChampionshipForm,
    DrawForm,
    DrawSeedForm,
    EventForm,
    RegisterForm,
    RegistrationForm,
    SeedForm,
    StaffForm,
    WithdrawForm,
)
from tournaments.models import Championship, Entry, EntryStatus, Event, EventStatus
from tournaments.pages.actions import action_page, posted, registration_page
from tournaments.pages.audit import audit_lines
from tournaments.pages.lookups import (
    championship_or_404,
    entry_or_404,
    event_or_404,
)

PAGE_SIZE = 30
AUDIT_PAGE_SIZE = 50

# (made a co-organiser rather than a controller, added rather than removed) -> what was done.
STAFF_DONE = {
    (True, True): gettext_lazy("%(user)s is now a co-organiser."),
    (True, False): gettext_lazy("%(user)s is no longer a co-organiser."),
    (False, True): gettext_lazy("%(user)s is now a controller."),
    (False, False): gettext_lazy("%(user)s is no longer a controller."),
}


# --- Championships -------------------------------------------------------------------------


def championship_list_view(request):
    search = request.GET.get("q", "").strip()
    year = request.GET.get("year", "").strip()
    championships = selectors.championships_visible_to(request.user)
    years = sorted(set(championships.values_list("year", flat=True)), reverse=True)
    if search:
        championships = championships.filter(name__icontains=search)
    if year.isdigit() and len(year) <= 4:
        championships = championships.filter(year=int(year))
    page = Paginator(championships, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "tournaments/championship_list.html",
        {
            "page": page,
            "search": search,
            "year": year,
            "years": years,
            **permission_context(request.user, None, "create_championship"),
        },
    )


@login_required
@permission_required("create_championship")
def championship_create_view(request):
    form = ChampionshipForm(posted(request), initial={"year": timezone.now().year})
    if request.method == "POST" and form.is_valid():
        championship = form.create(actor=request.user)
        if championship is not None:
            messages.success(
                request,
                _("%(championship)s is created. Add its events next.")
                % {"championship": championship},
            )
            return redirect("championship-page", pk=championship.pk)
    return render(request, "tournaments/championship_form.html", {"form": form})


@login_required
@permission_required("manage", lookup=championship_or_404)
def championship_edit_view(request, championship: Championship):
    initial = {
        "name": championship.name,
        "year": championship.year,
        "category": championship.category,
        "published": championship.published,
    }
    form = ChampionshipForm(posted(request), initial=initial)
    if (
        request.method == "POST"
        and form.is_valid()
        and form.update(actor=request.user, championship=championship) is not None
    ):
        messages.success(request, _("%(championship)s is saved.") % {"championship": championship})
        return redirect("championship-page", pk=championship.pk)
    return render(
        request, "tournaments/championship_form.html", {"form": form, "championship": championship}
    )


@login_required
@permission_required("manage", lookup=championship_or_404)
def championship_staff_view(request, championship: Championship):
    form = StaffForm(posted(request))
    if request.method == "POST" and form.is_valid():
        user = form.apply(actor=request.user, championship=championship)
        if user is not None:
            data = form.cleaned_data
            messages.success(
                request,
                STAFF_DONE[(data["role"] == "organiser", bool(data["present"]))]
                % {"user": user.get_username()},
            )
            return redirect("championship-staff-edit", pk=championship.pk)
    return render(
        request,
        "tournaments/championship_staff.html",
        {"championship": championship, "form": form},
    )


@login_required
@permission_required("see_audit", lookup=championship_or_404)
def championship_audit_view(request, championship: Championship):
    page = Paginator(selectors.audit_for(championship), AUDIT_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "tournaments/audit_log.html",
        {"championship": championship, "page": page, "lines": audit_lines(page.object_list)},
    )


# --- Events --------------------------------------------------------------------------------


@login_required
@permission_required("manage", lookup=championship_or_404)
def event_create_view(request, championship: Championship):
    next_stage = (
        championship.events.order_by("-stage").values_list("stage", flat=True).first() or 0
    ) + 1
    form = EventForm(posted(request), championship=championship, initial={"stage": next_stage})
    if request.method == "POST" and form.is_valid():
        event = form.apply(actor=request.user)
        if event is not None:
            messages.success(
                request, _("%(event)s is created; registration is open.") % {"event": event.name}
            )
            return redirect("event-page", pk=event.pk)
    return render(
        request, "tournaments/event_form.html", {"championship": championship, "form": form}
    )


@login_required
@permission_required("manage", lookup=event_or_404)
def event_registration_view(request, event: Event):
    opening = event.status != EventStatus.REGISTRATION
    form = RegistrationForm(posted(request), initial={"open": "1" if opening else "0"})
    if request.method == "POST" and form.is_valid():
        updated = form.apply(actor=request.user, event=event)
        if updated is not None:
            if updated.status == EventStatus.REGISTRATION:
                done = _("Registration for %(event)s is open.")
            else:
                done = _("Registration for %(event)s is closed.")
            messages.success(request, done % {"event": event.name})
            return redirect("event-page", pk=event.pk)
    return action_page(
        request,
        title=_("Registration for %(event)s") % {"event": event.name},
        form=form,
        back_url=reverse("event-page", args=[event.pk]),
        submit=_("Save"),
        event=event,
    )


@login_required
def event_register_view(request, pk: int):
    """Organisers register anyone; a player registers themselves ("Register me")."""
    return registration_page(
        request, event_or_404(request, pk), RegisterForm, "tournaments/register.html"
    )


@login_required
@require_POST
def event_age_confirm_view(request, pk: int):
    """A player confirms their age for a junior event (the button on its page)."""
    event = event_or_404(request, pk)
    try:
        services.age_confirm(actor=request.user, event=event)
    except ValidationError as exc:
        tell_refusal(request, exc)
    else:
        messages.success(
            request,
            _(
                "Confirmed: an organiser, a captain or a partner may now enter you in junior "
                "events for players under %(age)s on %(cutoff)s."
            )
            % {"age": event.junior_age_limit, "cutoff": date_format(event.cutoff_date, "d F Y")},
        )
    return redirect("event-page", pk=event.pk)


@login_required
@permission_required("withdraw_entry", lookup=entry_or_404)
def entry_withdraw_view(request, entry: Entry):
    refusal = selectors.withdrawal_refusal(request.user, entry)
    if refusal:
        raise PermissionDenied(refusal)
    form = WithdrawForm(posted(request))
    if (
        request.method == "POST"
        and form.is_valid()
        and form.apply(actor=request.user, entry=entry) is not None
    ):
        messages.success(request, _("%(entry)s is withdrawn.") % {"entry": entry.name})
        return redirect("event-page", pk=entry.event_id)
    after_draw = entry.event.status == EventStatus.DRAWN
    return action_page(
        request,
        title=_("Withdraw %(entry)s from %(event)s")
        % {"entry": entry.name, "event": entry.event.name},
        intro=(
            _(
                "The draw has been made: any open match of this player goes to the opponent by "
                "walkover."
            )
            if after_draw
            else _("The entry stays listed as withdrawn.")
        ),
        form=form,
        back_url=reverse("event-page", args=[entry.event_id]),
        submit=_("Withdraw"),
    )


@login_required
@permission_required("manage", lookup=event_or_404)
def event_seed_view(request, event: Event):
    entries = [e for e in selectors.entries_for_event(event) if e.status == EntryStatus.ACTIVE]
    initial = {"order": "\n".join(e.name for e in entries)}
    form = SeedForm(posted(request), event=event, initial=initial)
    if request.method == "POST" and form.is_valid():
        seeded = form.apply(actor=request.user)
        if seeded is not None:
            messages.success(
                request,
                ngettext(
                    "%(count)s entries of %(event)s are seeded.",
                    "%(count)s entries of %(event)s are seeded.",
                    len(seeded),
                )
                % {"count": len(seeded), "event": event.name},
            )
            return redirect("event-page", pk=event.pk)
    return render(
        request, "tournaments/seed.html", {"event": event, "form": form, "entries": entries}
    )


@login_required
@permission_required("manage", lookup=event_or_404)
def event_draw_view(request, event: Event):
    """The draw shown before it is stored (issue 28): the bracket or pairings a seed makes, with
    "Make this draw" (stores exactly that: the seed and the preview's token are posted) and
    "Draw again" (a new seed). A draw cannot be undone, so only that confirmed POST makes it
    (works without JS). A preview outdated by new entries is refused with a fresh one."""
    if event.table_open:
        return redirect("open-start", pk=event.pk)  # its own page: tables, no deadlines
    if request.method == "POST":
        form = DrawForm(request.POST)
        if form.is_valid():
            drawn = form.apply(actor=request.user, event=event)
            if drawn is not None:
                messages.success(
                    request,
                    _("The draw for %(event)s is made (seed %(seed)s).")
                    % {"event": event.name, "seed": drawn.draw_seed},
                )
                return redirect("event-page", pk=event.pk)
        seed = form.cleaned_data.get("draw_seed")
        return _draw_page(request, event, seed_form=DrawSeedForm(), form=form, seed=seed)
    seed_form = DrawSeedForm(request.GET if "seed" in request.GET else None)
    seed = None
    if seed_form.is_bound and seed_form.is_valid():
        seed = seed_form.cleaned_data["seed"]
    elif not seed_form.is_bound and "again" not in request.GET:
        seed = event.draw_seed  # the event's own seed, set with it, comes first
    return _draw_page(request, event, seed_form=seed_form, form=None, seed=seed)


def _draw_page(request, event: Event, *, seed_form, form, seed: int | None):
    preview = form.fresh if form is not None and form.fresh is not None else None
    refusal = None
    if preview is None:
        try:
            preview = services.draw_preview(actor=request.user, event=event, draw_seed=seed)
        except ValidationError as exc:
            refusal = exc.messages
    make_form = DrawForm(
        initial={"draw_seed": preview.draw_seed, "preview": preview.token} if preview else None
    )
    return render(
        request,
        "tournaments/draw_preview.html",
        {
            "event": event,
            "preview": preview,
            "refusal": refusal,
            "errors": form.non_field_errors() if form is not None else [],
            "field_errors": [e for f in ("draw_seed", "preview") for e in form.errors.get(f, [])]
            if form is not None
            else [],
            "make_form": make_form,
            "seed_form": seed_form,
            "active": event.entries.filter(status=EntryStatus.ACTIVE).count(),
            "first_round": round_name_text(preview.first_round, 1) if preview else "",
            "back_url": reverse("event-page", args=[event.pk]),
        },
    )


@login_required
@permission_required("manage", lookup=event_or_404)
def event_advance_view(request, event: Event):
    form = AdvanceQualifiersForm(posted(request))
    if request.method == "POST" and form.is_valid():
        created = form.apply(actor=request.user, event=event)
        if created is not None:
            messages.success(
                request,
                ngettext(
                    "%(count)s qualifiers entered %(event)s.",
                    "%(count)s qualifiers entered %(event)s.",
                    len(created),
                )
                % {"count": len(created), "event": event.name},
            )
            return redirect("event-page", pk=event.pk)
    source = event.feeds_from
    return action_page(
        request,
        title=_("Advance qualifiers into %(event)s") % {"event": event.name},
        intro=(
            ngettext(
                "The best %(count)s of %(source)s enters, seeded by qualifying rank.",
                "The best %(count)s of %(source)s enter, seeded by qualifying rank.",
                event.qualifiers_count,
            )
            % {"count": event.qualifiers_count, "source": source.name}
            if source
            else _("This event is not fed by another event.")
        ),
        form=form,
        back_url=reverse("event-page", args=[event.pk]),
        submit=_("Advance the qualifiers"),
    )
