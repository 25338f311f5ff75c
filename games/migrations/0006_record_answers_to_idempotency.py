"""A submission's first answer leaves the record for the idempotency middleware's own table.

The answers already kept on records are copied there first, so a repeated Idempotency-Key of an
old submission is still answered as it was: under the submitter, the key, and the request it
came with (POST to the records API, the only view that kept answers), its body as DRF rendered
the stored JSON. Records without a submitter (an account deleted since) have nobody to key the
answer to and are left out. Reversed, the answers of that view go back on their records.
"""

import json

from django.db import migrations
from rest_framework.renderers import JSONRenderer

# Where the records API was served when its answers were kept on the records.
RECORDS_API_PATH = "/api/games/records/"


def answers_to_table(apps, schema_editor):
    GameRecord = apps.get_model("games", "GameRecord")
    FirstAnswer = apps.get_model("idempotency", "FirstAnswer")
    kept = (
        GameRecord.objects.exclude(idempotency_key="")
        .filter(submitter__isnull=False, response_status__isnull=False)
        .exclude(response_body=None)
        .values_list("submitter_id", "idempotency_key", "response_status", "response_body")
        .order_by("pk")
    )
    renderer = JSONRenderer()
    batch = []
    for user_id, key, status, body in kept.iterator(chunk_size=2000):
        headers = {"Content-Type": "application/json"}
        if status == 202 and isinstance(body, dict) and body.get("url"):
            headers["Location"] = body["url"]
        batch.append(
            FirstAnswer(
                user_id=user_id,
                key=key,
                method="POST",
                path=RECORDS_API_PATH,
                status=status,
                headers=headers,
                body=renderer.render(body),
            )
        )
        if len(batch) >= 1000:
            FirstAnswer.objects.bulk_create(batch)
            batch = []
    FirstAnswer.objects.bulk_create(batch)


def answers_to_records(apps, schema_editor):
    GameRecord = apps.get_model("games", "GameRecord")
    FirstAnswer = apps.get_model("idempotency", "FirstAnswer")
    answers = FirstAnswer.objects.filter(method="POST", path=RECORDS_API_PATH).order_by("pk")
    for answer in answers.iterator(chunk_size=2000):
        body = json.loads(bytes(answer.body))
        record_id = body.get("id") or (body.get("submission") or {}).get("id")
        GameRecord.objects.filter(pk=record_id, submitter_id=answer.user_id).update(
            idempotency_key=answer.key, response_status=answer.status, response_body=body
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_placements_document_field"),
        ("idempotency", "0001_initial"),
    ]

    operations = [
        migrations.RunPython(answers_to_table, answers_to_records),
        migrations.RemoveConstraint(
            model_name="gamerecord",
            name="record_one_per_submitter_idempotency_key",
        ),
        migrations.RemoveField(
            model_name="gamerecord",
            name="idempotency_key",
        ),
        migrations.RemoveField(
            model_name="gamerecord",
            name="response_body",
        ),
        migrations.RemoveField(
            model_name="gamerecord",
            name="response_status",
        ),
    ]
