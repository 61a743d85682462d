"""What Moves counts, for games read from the database without replaying them.

The one definition is the engine's (`positions.moves_on_table`, `Position.moves`):
the moves on the table, those made and not taken back; a resignation or a timeout
is no move. `moves_on_table` is its SQL twin, a subquery over the log that pages
of thousands of rows (history, a daily board, the API's game lists) annotate;
`game_move_count` reads one game's, from that annotation when the query made it.
"""

from __future__ import annotations

from typing import Final

from django.db.models import Case, IntegerField, OuterRef, Subquery, Sum, Value, When
from django.db.models.functions import Coalesce

from games.engine.notation import UNDO
from games.engine.positions import RESIGN, TIMEOUT
from games.models import Game, Move

ANNOTATION: Final = "table_moves"

_STEP = Case(
    When(token=UNDO, then=Value(-1)),
    When(token__in=(RESIGN, TIMEOUT), then=Value(0)),
    default=Value(1),
    output_field=IntegerField(),
)


def moves_on_table(*, game: str = "pk") -> Coalesce:
    """The moves on the table of the game at the outer query's `game` path."""
    log = (
        Move.objects.filter(game=OuterRef(game))
        .order_by()
        .values("game")
        .annotate(n=Sum(_STEP))
        .values("n")
    )
    return Coalesce(Subquery(log, output_field=IntegerField()), Value(0))


def game_move_count(*, game: Game) -> int:
    """One game's moves on the table (the query's annotation, else one query)."""
    annotated = getattr(game, ANNOTATION, None)
    if annotated is not None:
        return int(annotated)
    total = Move.objects.filter(game=game).aggregate(n=Sum(_STEP))["n"]
    return int(total or 0)
