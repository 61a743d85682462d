"""Games in the store with chosen move timing, made the way any game is imported: a record,
verified by replay, then stored (games.store.services.game_import_record)."""

from __future__ import annotations

from datetime import UTC, datetime

from games.engine import legal_moves
from games.engine.positions import RESIGN, Position, advance
from games.models import Game, Player
from games.store.records import verify_record
from games.store.services import game_import_record

START = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)


def stored_game(player: Player, gaps: list[float], seed: int = 7, finish: bool = True) -> Game:
    """A practice game with one move per gap (after a first move 1 s in), greedy plays;
    resigned at the end when `finish` (a finished game), else left in play."""
    position = Position.start(seed, "sultan")
    tokens: list[str] = []
    for _ in range(len(gaps) + 1):
        moves = legal_moves(position.state)
        plays = [m for m in moves if m not in ("draw", "redeal", "undo")]
        token = plays[0] if plays else moves[0]
        position, _ = advance(position, token, take_backs=True)
        tokens.append(token)
    elapsed_ms = [1000] + [round(gap * 1000) for gap in gaps]
    if finish:
        position, _ = advance(position, RESIGN, take_backs=True)
        tokens.append(RESIGN)
        elapsed_ms.append(2000)
    total = sum(elapsed_ms)
    header = {
        "Variant": "sultan",
        "Deal": str(seed),
        "Race": "-",
        "Result": position.status if position.state.is_over else "*",
        "CardsPlayed": str(position.state.cards_played),
        "Time": f"{total // 1000}.{total % 1000:03d}",
    }
    lines = [f'[{name} "{value}"]' for name, value in header.items()]
    moves = [
        f"{seq} {token} +{ms // 1000}.{ms % 1000:03d}"
        for seq, (token, ms) in enumerate(zip(tokens, elapsed_ms, strict=True), start=1)
    ]
    record = verify_record("\n".join([*lines, "", *moves]) + "\n")
    return game_import_record(record=record, player=player, started_at=START)
