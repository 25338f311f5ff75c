"""The tournaments app's models, one module per group; every model is imported here so the app
registry finds it, and callers keep importing `tournaments.models`.

- `championships`: Championship, Event and the choices that shape an event;
- `sides`: Pair, Team, TeamMember (the roster's log is the audit trail);
- `entries`: Entry (one side of an event's matches) and AgeConfirmation;
- `matches`: Round, Match, MatchGame, TeamBoard, UncountedGame;
- `tables`: TableResult (a table open's typed score sheet);
- `arrangements`: MatchProposal, MatchArrangement, ArrangementPolicy, AvailabilityWindow,
  NoShowClaim (when a match is played, issue 30);
- `audit`: the app's audit actions.
"""

from tournaments.models.arrangements import (
    ArrangementPolicy,
    ArrangementSource,
    ArrangementStatus,
    AvailabilityWindow,
    MatchArrangement,
    MatchProposal,
    NoShowClaim,
    ProposalStatus,
)
from tournaments.models.audit import AuditAction
from tournaments.models.championships import (
    EVENT_STATUSES,
    Category,
    Championship,
    Eligibility,
    EntryKind,
    Event,
    EventFormat,
    EventStatus,
    QualifierPolicy,
)
from tournaments.models.entries import (
    ENTRY_STATUSES,
    SIDES,
    AgeConfirmation,
    Entry,
    EntrySource,
    EntryStatus,
    sides_of,
)
from tournaments.models.forecasts import ForecastEvaluation
from tournaments.models.matches import (
    FINAL_MATCH_STATUSES,
    MATCH_STATUSES,
    Match,
    MatchGame,
    MatchStatus,
    Round,
    TeamBoard,
    UncountedGame,
)
from tournaments.models.sides import Pair, RosterChangeKind, Team, TeamMember
from tournaments.models.tables import SheetEnding, TableResult, TableResultState

__all__ = [
    "ENTRY_STATUSES",
    "EVENT_STATUSES",
    "MATCH_STATUSES",
    "FINAL_MATCH_STATUSES",
    "SIDES",
    "AgeConfirmation",
    "ArrangementPolicy",
    "ArrangementSource",
    "ArrangementStatus",
    "AvailabilityWindow",
    "MatchArrangement",
    "MatchProposal",
    "NoShowClaim",
    "ProposalStatus",
    "AuditAction",
    "Category",
    "Championship",
    "Eligibility",
    "Entry",
    "EntryKind",
    "EntrySource",
    "EntryStatus",
    "Event",
    "ForecastEvaluation",
    "EventFormat",
    "EventStatus",
    "Match",
    "MatchGame",
    "MatchStatus",
    "Pair",
    "QualifierPolicy",
    "Round",
    "RosterChangeKind",
    "SheetEnding",
    "TableResult",
    "TableResultState",
    "Team",
    "TeamBoard",
    "TeamMember",
    "UncountedGame",
    "sides_of",
]
