"""Permissions declared once, on the view (issue 27; pretix's `permission` attribute, Tabbycat's
view mixins).

An app registers its per-object rules by name (`register_permission`: a predicate of the user
and an object, and the words of its refusal). A view declares the one it needs, and everything
else follows from that declaration:

- the check: `permission_required(name, lookup=...)` on a function view (Django's or DRF's
  `api_view`), `PermissionRequiredMixin.permission` on a class-based view, `permission = name`
  on a DRF viewset or as an `@action(permission=...)` keyword (`DeclaredPermission`, asked of
  the object the view finds; `DeclaredViewPermission` for a rule asked with no object); the
  lookup answers 404 for what the user may not see, the check 403 with the rule's words;
- the template's `can_*`: `permission_context(user, obj, *names)` asks the same registry;
- the answer: a refusal is Django's `PermissionDenied`, which the one mapping of refusals
  (`tantrix_site.http.refusals`) answers on the web and in the API alike.

The service a view calls keeps its own check: it stays the authority (a service is also called
by tasks, commands and other services); the declaration spares a person a form they may not
send and gives the page its buttons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from rest_framework import permissions as drf_permissions


@dataclass(frozen=True)
class Permission:
    """A named rule: who may act on an object, and the words of its refusal (or a function of
    the user and the object that finds them)."""

    name: str
    test: Callable[[Any, Any], bool]
    refusal: Any


_PERMISSIONS: dict[str, Permission] = {}


def register_permission(name: str, test: Callable[[Any, Any], bool], *, refusal: Any) -> Permission:
    """Register a rule (idempotent for the same rule; a name means one rule)."""
    rule = Permission(name, test, refusal)
    known = _PERMISSIONS.get(name)
    if known is not None and known != rule:
        raise ImproperlyConfigured(f"permission {name!r} is registered already")
    _PERMISSIONS[name] = rule
    return rule


def permission_named(name: str) -> Permission:
    try:
        return _PERMISSIONS[name]
    except KeyError:
        raise ImproperlyConfigured(f"no permission is registered as {name!r}") from None


def has_permission(user: Any, name: str, obj: Any = None) -> bool:
    return bool(permission_named(name).test(user, obj))


def check_permission(user: Any, name: str, obj: Any = None, *, refusal: Any = None) -> None:
    """Refuse (PermissionDenied, with the rule's words or the declaration's own) unless allowed."""
    rule = permission_named(name)
    if not rule.test(user, obj):
        words = refusal or rule.refusal
        raise PermissionDenied(str(words(user, obj) if callable(words) else words))


def permission_context(user: Any, obj: Any, *names: str) -> dict[str, bool]:
    """The template's `can_<name>` for each rule, asked of the registry for this object."""
    return {f"can_{name}": has_permission(user, name, obj) for name in names}


def permission_required(
    name: str, *, lookup: Callable[..., Any] | None = None, refusal: Any = None
) -> Callable:
    """Declare a function view's permission.

    `lookup(request, pk)` finds the object (a 404 for what the user may not see); the view is
    then called with the object in place of `pk`. Without a lookup the rule is asked with no
    object (creating a championship) and the view keeps its arguments.
    """

    def declare(view: Callable) -> Callable:
        @wraps(view)
        def declared(request, *args: Any, **kwargs: Any):
            if lookup is None:
                check_permission(request.user, name, None, refusal=refusal)
                return view(request, *args, **kwargs)
            obj = lookup(request, kwargs.pop("pk"))
            check_permission(request.user, name, obj, refusal=refusal)
            return view(request, obj, *args, **kwargs)

        declared.permission = name  # type: ignore[attr-defined]
        return declared

    return declare


class PermissionRequiredMixin:
    """A class-based view's declaration: `permission = "name"`, and `get_permission_object()`
    (the object the rule is asked of; None by default)."""

    permission: str | None = None
    permission_refusal: Any = None

    def get_permission_object(self) -> Any:
        return None

    def dispatch(self, request, *args: Any, **kwargs: Any):
        if self.permission is None:
            raise ImproperlyConfigured(f"{type(self).__name__} declares no permission")
        check_permission(
            request.user,
            self.permission,
            self.get_permission_object(),
            refusal=self.permission_refusal,
        )
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc]


class DeclaredPermission(drf_permissions.BasePermission):
    """A DRF viewset's declaration: the view's `permission` (a class attribute, or an
    `@action(permission="name", permission_refusal=...)` keyword, with `DeclaredViewSetMixin`)
    is asked of the object `get_object()` finds."""

    def has_object_permission(self, request, view, obj) -> bool:
        name = getattr(view, "permission", None)
        if name is not None:
            check_permission(
                request.user, name, obj, refusal=getattr(view, "permission_refusal", None)
            )
        return True


class DeclaredViewPermission(drf_permissions.BasePermission):
    """A DRF view's declaration of a rule asked with no object (a staff desk): the view's
    `permission` is checked before the handler runs. Put it after `IsAuthenticated`, so an
    anonymous caller is still told to authenticate."""

    def has_permission(self, request, view) -> bool:
        name = getattr(view, "permission", None)
        if name is not None:
            check_permission(
                request.user, name, None, refusal=getattr(view, "permission_refusal", None)
            )
        return True


class DeclaredViewSetMixin:
    """Lets a viewset's actions declare `permission` and `permission_refusal` (DRF accepts an
    `@action` keyword only for an attribute the class has)."""

    permission: str | None = None
    permission_refusal: Any = None
