"""Writes for players, one module per responsibility; the names are re-exported here."""

from players.services.audit import audit
from players.services.claims import (
    CLAIM_LINK_LIFETIME,
    ClaimLinkError,
    ClaimLinkGone,
    ClaimLinkUnknown,
    can_manage_claims,
    claim_link_create,
    claim_link_redeem,
    claim_link_signup,
    claim_link_usable,
    claim_request_approve,
    claim_request_create,
    claim_request_refuse,
    claim_request_signup,
)
from players.services.profiles import (
    EDITABLE_FIELDS,
    PRIVATE_FIELDS,
    can_edit_player,
    can_see_private,
    new_user,
    player_create,
    player_signup,
    player_update,
)
from players.services.roles import SiteRole, can_grant, role_grant, role_withdraw

__all__ = [
    "CLAIM_LINK_LIFETIME",
    "EDITABLE_FIELDS",
    "PRIVATE_FIELDS",
    "ClaimLinkError",
    "ClaimLinkGone",
    "ClaimLinkUnknown",
    "SiteRole",
    "audit",
    "can_edit_player",
    "can_grant",
    "can_manage_claims",
    "can_see_private",
    "claim_link_create",
    "claim_link_redeem",
    "claim_link_signup",
    "claim_link_usable",
    "claim_request_approve",
    "claim_request_create",
    "claim_request_refuse",
    "claim_request_signup",
    "new_user",
    "player_create",
    "player_signup",
    "player_update",
    "role_grant",
    "role_withdraw",
]
