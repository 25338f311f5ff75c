from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from players.models import Player
from players.roles import ORGANISERS_GROUP


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", "tile-and-loop-42")

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    class Params:
        with_user = False

    display_name = factory.Sequence(lambda n: f"Player{n:04d}")
    country = "DE"
    user = factory.Maybe(
        "with_user", yes_declaration=factory.SubFactory(UserFactory), no_declaration=None
    )


def make_organiser(**kwargs):
    user = UserFactory(**kwargs)
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    user.groups.add(group)
    PlayerFactory(user=user)
    return user
