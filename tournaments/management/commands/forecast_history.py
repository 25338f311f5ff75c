"""Replay the stored history as forecasts and say how good they were (docs/ratings.md,
"Forecasts"); store the evaluation, which decides whether pages show forecasts."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from tournaments.forecasts import history, services
from tournaments.forecasts.sides import forecast_params
from tournaments.formats.forecast import Evaluation


class Command(BaseCommand):
    help = (
        "Forecast every tournament game (and singles match) of the stored history from the "
        "tournament Elo its players brought to the event, and print the Brier score and log "
        "loss against a coin flip and against 'the higher rated always wins', with a "
        "calibration table. Stores the evaluation: pages show forecasts only while the latest "
        "one beats the coin flip."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Print the figures without storing them"
        )
        parser.add_argument("--bins", type=int, default=10, help="Calibration bins (default 10)")

    def handle(self, *args, dry_run: bool, bins: int, **options):
        report = history.history_report(bins=max(1, bins))
        params = forecast_params()
        out = self.stdout.write
        out(
            f"Forecasts from the tournament Elo brought to each event: expected TP share "
            f"Φ(gap / {params.scale}), tile margin spread {params.spread}, unrated = "
            f"{params.unrated:.0f}."
        )
        out(self._section("Games", report.games))
        out(f"Games left out (their event's Elo not yet calculated): {report.skipped_games}")
        if report.measured_spread is not None:
            out(
                f"Tile margins of the history's games (read back from their TPs): root mean "
                f"square {report.measured_spread:.1f} tiles; the model's spread is "
                f"{params.spread}."
            )
        out(self._section("Singles matches decided by their games", report.matches))
        if report.games.better_than_coin:
            verdict = "Verdict: better than a coin flip: the pages show forecasts."
        else:
            verdict = "Verdict: NOT better than a coin flip on this history: the pages show none."
        out(verdict)
        if dry_run:
            out("Dry run: nothing stored.")
            return
        stored = services.forecast_evaluation_store(report=report)
        out(f"Stored as evaluation {stored.pk}.")

    @staticmethod
    def _section(title: str, evaluation: Evaluation) -> str:
        lines = [
            "",
            f"{title}: {evaluation.count} forecast ({evaluation.decisive} with ratings that "
            f"differ)",
        ]
        if not evaluation.count:
            return "\n".join([*lines, "  nothing to score"])
        h = evaluation.hit_rate
        lines += [
            f"  {'':34}{'Brier':>9}{'log loss':>10}",
            f"  {'forecasts':34}{evaluation.forecast.brier:>9.4f}"
            f"{evaluation.forecast.log_loss:>10.4f}",
            f"  {'coin flip (50 %)':34}{evaluation.coin.brier:>9.4f}"
            f"{evaluation.coin.log_loss:>10.4f}",
            f"  {f'higher rated wins ({100 * h:.1f} %)':34}{evaluation.favourite.brier:>9.4f}"
            f"{evaluation.favourite.log_loss:>10.4f}",
            f"  gain over the coin flip per forecast: Brier {evaluation.brier_gain.mean:+.4f}"
            f" ± {evaluation.brier_gain.standard_error:.4f}, log loss "
            f"{evaluation.log_gain.mean:+.4f} ± {evaluation.log_gain.standard_error:.4f} "
            f"(better only beyond two standard errors: "
            f"{'yes' if evaluation.better_than_coin else 'no'})",
            "  calibration (the favoured side's forecast):",
            f"  {'forecast':>12}{'count':>8}{'mean forecast':>15}{'won':>8}",
        ]
        for row in evaluation.calibration:
            band = f"{100 * row.low:.0f}–{100 * row.high:.0f} %"
            if row.count:
                lines.append(
                    f"  {band:>12}{row.count:>8}{100 * row.mean_forecast:>14.1f}%"
                    f"{100 * row.observed:>7.1f}%"
                )
            else:
                lines.append(f"  {band:>12}{0:>8}{'–':>15}{'–':>8}")
        return "\n".join(lines)
