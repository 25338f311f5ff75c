"""API tokens: many per user, one per client, each ending (docs/api-tokens.md).

`POST /api/auth/token/` trades a user name and password for a new token; `Authorization: Token
<key>` then authenticates. A token ends when it expires (settings.API_TOKEN_TTL_DAYS), when its
client logs out or rotates it, when its user revokes it or all of theirs (the API, or the
profile page), or when the user's password changes. Only a digest of the key is stored.
"""
