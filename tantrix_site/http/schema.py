"""OpenAPI schema post-processing: the answers every endpoint can give, documented once."""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA = {
    "type": "object",
    "description": (
        "An error: `detail` (a sentence) or field names each with a list of messages, as DRF "
        "answers them."
    ),
    "additionalProperties": True,
}

# Answers the site-wide machinery can give to any operation: validation (400), no or bad
# credentials (401), a role or object refused (403), nothing there (404), a body over
# REQUEST_MAX_BYTES (413), throttling (429), and a write that could not get its turn (503).
ERROR_RESPONSES = {
    "400": "The request is not valid; the body says which field and why.",
    "401": "No credentials, or wrong ones.",
    "403": "Not allowed for this account.",
    "404": "No such object, or not visible to this account.",
    "413": "The request body is too large.",
    "429": "Too many requests; see Retry-After.",
    "503": "Busy for a moment (e.g. the ratings are being recalculated); see Retry-After.",
}

HTTP_METHODS = {"get", "put", "post", "patch", "delete", "head", "options", "trace"}


def add_error_responses(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """drf-spectacular POSTPROCESSING_HOOKS entry: add the error answers and id bounds."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("Error", ERROR_SCHEMA)
    reference = {"$ref": "#/components/schemas/Error"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in HTTP_METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for code, description in ERROR_RESPONSES.items():
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": reference}},
                    },
                )
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if schema.get("type") != "integer":
                    continue
                if parameter.get("in") == "path":
                    schema.setdefault("minimum", 0)  # <int:...> routes match digits only
                elif parameter.get("in") == "query" and parameter.get("name") == "page":
                    schema.setdefault("minimum", 1)
    return result
