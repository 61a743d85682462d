"""Dealing, legal moves and applying them: the rules as pure functions."""

import random
from functools import lru_cache
from typing import Any, TypeVar

from games.engine.cards import CARD_PLACES, FOUNDATION_NEEDS, TOTAL_TO_PLAY, deal_cards
from games.engine.errors import IllegalMove
from games.engine.notation import MOVES, SLOT_LETTERS, Move, parse_move
from games.engine.state import LOST, PLAYING, WON, GameState
from games.engine.variants import (
    DEFAULT_VARIANT,
    REDEALS,
    VARIANT_RULES,
    Variant,
    check_seed,
    variant_rules,
)

Event = dict[str, Any]
_RULES = VARIANT_RULES
_NO_PLAYED = (0,) * 9
_new_state = tuple.__new__
_T = TypeVar("_T")


def new_game(seed: int, variant: str = DEFAULT_VARIANT) -> GameState:
    """The deal for (seed, variant) — the same forever (RULES.md, "Dealing")."""
    # Checked before the cache: it would take True for 1 and fail on a list.
    return _deal(check_seed(seed), variant_rules(variant))


@lru_cache(maxsize=4096)
def _deal(seed: int, rules: Variant) -> GameState:
    cards = deal_cards()
    random.Random(seed).shuffle(cards)
    reserve = tuple(cards[: rules.slots])
    rest = cards[rules.slots :]
    waste = (rest.pop(0),) if rules.first_waste_card else ()
    return GameState(rules.name, seed, _NO_PLAYED, reserve, waste, tuple(rest), REDEALS, PLAYING)


# A plain loop, not any(generator): it runs after a move of every replay
# that empties the stock, and a generator's setup costs more than the two
# places a card has.
def _accepts_somewhere(card: str, played: tuple[int, ...]) -> bool:
    for f, need in CARD_PLACES[card]:  # noqa: SIM110 (see above)
        if played[f] == need:
            return True
    return False


def _has_move(state: GameState, rules: Variant) -> bool:
    if state.stock or (state.waste and state.redeals_left):
        return True
    played = state.played
    if state.waste:
        if _accepts_somewhere(state.waste[-1], played):
            return True
        if not rules.auto_refill and None in state.reserve:
            return True
    for card in state.reserve:  # noqa: SIM110
        if card is not None and _accepts_somewhere(card, played):
            return True
    return False


def _with(items: tuple[_T, ...], index: int, value: _T) -> tuple[_T, ...]:
    """`items` with one item replaced: a list copy costs half what joining two
    slices around the new item does, on a move every replay makes."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)


def _redealt(state: GameState, rules: Variant) -> tuple[str, ...]:
    if not rules.shuffled_redeal:
        return state.waste  # turned over: the first card placed is drawn first
    cards = list(state.waste)
    k = REDEALS - state.redeals_left + 1
    random.Random(f"{state.seed}/redeal/{k}").shuffle(cards)
    return tuple(cards)


def _step(state: GameState, move: Move, events: list[Event] | None) -> GameState:
    """Apply a parsed move; `events`, when given, collects what a renderer needs."""
    variant, seed, played, reserve, waste, stock, redeals_left, status = state
    if status != PLAYING:
        raise IllegalMove(f"{move}: the game is over ({status})", "over", status=status)
    rules = _RULES[variant]
    kind = move.kind

    if kind == "draw":
        if not stock:
            raise IllegalMove("draw: the stock is empty", "stock_empty")
        card = stock[0]
        waste, stock = (*waste, card), stock[1:]
        if events is not None:
            events.append({"type": "move", "card": card, "from": "stock", "to": "waste"})
    elif kind == "redeal":
        if stock or not waste or not redeals_left:
            raise IllegalMove(*_why_no_redeal(state))
        stock, waste = _redealt(state, rules), ()
        redeals_left -= 1
        if events is not None:
            events.append({"type": "redeal", "cards": len(stock)})
    elif kind == "to_foundation":
        f = move.foundation
        if move.slot < 0:
            if not waste:
                raise IllegalMove(f"{move}: the waste is empty", "waste_empty")
            card = waste[-1]
            source = "waste"
        else:
            if move.slot >= rules.slots:
                raise IllegalMove(
                    f"{move}: {state.variant} has no slot {SLOT_LETTERS[move.slot]}",
                    "no_slot",
                    slot=SLOT_LETTERS[move.slot],
                    variant=state.variant,
                )
            slot_card = reserve[move.slot]
            if slot_card is None:
                raise IllegalMove(
                    f"{move}: slot {SLOT_LETTERS[move.slot]} is empty",
                    "slot_empty",
                    slot=SLOT_LETTERS[move.slot],
                )
            card = slot_card
            source = f"reserve:{SLOT_LETTERS[move.slot]}"
        if FOUNDATION_NEEDS[f].get(card) != played[f]:
            raise IllegalMove(
                f"{move}: foundation {f + 1} does not take {card}",
                "foundation_refuses",
                foundation=f + 1,
                card=card,
            )
        played = _with(played, f, played[f] + 1)
        if events is not None:
            events.append(
                {"type": "move", "card": card, "from": source, "to": f"foundation:{f + 1}"}
            )
        if move.slot < 0:
            waste = waste[:-1]
        else:
            refill: str | None = None
            if rules.auto_refill and stock:
                refill, stock = stock[0], stock[1:]
            reserve = _with(reserve, move.slot, refill)
            if refill is not None and events is not None:
                events.append({"type": "refill", "card": refill, "slot": SLOT_LETTERS[move.slot]})
    else:  # to_reserve
        letter = SLOT_LETTERS[move.slot]
        if rules.auto_refill:
            raise IllegalMove(
                f"{move}: in {state.variant} only the stock fills the reserve",
                "stock_fills_reserve",
                variant=state.variant,
            )
        if move.slot >= rules.slots:
            raise IllegalMove(
                f"{move}: {state.variant} has no slot {letter}",
                "no_slot",
                slot=letter,
                variant=state.variant,
            )
        if reserve[move.slot] is not None:
            raise IllegalMove(f"{move}: slot {letter} is not empty", "slot_taken", slot=letter)
        if not waste:
            raise IllegalMove(f"{move}: the waste is empty", "waste_empty")
        card = waste[-1]
        waste = waste[:-1]
        reserve = _with(reserve, move.slot, card)
        if events is not None:
            events.append(
                {"type": "move", "card": card, "from": "waste", "to": f"reserve:{letter}"}
            )

    # tuple.__new__ skips the NamedTuple's Python-level __new__: a third of a
    # state's cost, on the path every replay takes.
    after = _new_state(
        GameState, (variant, seed, played, reserve, waste, stock, redeals_left, PLAYING)
    )
    if stock or (waste and redeals_left):
        # Most moves end here: a card still to draw or to turn over is a move
        # left, and a card in the stock or the waste is not played, so no win.
        return after
    if sum(played) == TOTAL_TO_PLAY:
        after = after._replace(status=WON)
    elif not _has_move(after, rules):
        after = after._replace(status=LOST)
    if after.status != PLAYING and events is not None:
        events.append({"type": "status", "status": after.status})
    return after


def _why_no_redeal(state: GameState) -> tuple[str, str]:
    if state.stock:
        return "redeal: the stock is not empty yet", "stock_not_empty"
    if not state.waste:
        return "redeal: the waste is empty", "waste_empty"
    return "redeal: no redeals left", "no_redeals"


def apply(state: GameState, token: str) -> GameState:
    """The state after `token`; the given state is left as it was."""
    return _step(state, parse_move(token), None)


def apply_with_events(state: GameState, token: str) -> tuple[GameState, list[Event]]:
    """As `apply`, with the move's effect as renderer events (see docs/rules.md)."""
    events: list[Event] = []
    return _step(state, parse_move(token), events), events


def legal_moves(state: GameState) -> list[str]:
    if state.status != PLAYING:
        return []
    rules = _RULES[state.variant]
    played = state.played
    moves: list[str] = []
    if state.stock:
        moves.append("draw")
    elif state.waste and state.redeals_left:
        moves.append("redeal")
    if state.waste:
        top = state.waste[-1]
        moves.extend(f"w{f + 1}" for f, need in CARD_PLACES[top] if played[f] == need)
        if not rules.auto_refill:
            moves.extend(f"w{SLOT_LETTERS[s]}" for s, c in enumerate(state.reserve) if c is None)
    for s, card in enumerate(state.reserve):
        if card is not None:
            letter = SLOT_LETTERS[s]
            moves.extend(f"{letter}{f + 1}" for f, need in CARD_PLACES[card] if played[f] == need)
    return moves


def step_token(state: GameState, token: str) -> GameState:
    """`apply` with the table of known tokens first: replays step many logs."""
    try:
        move = MOVES[token]
    except (KeyError, TypeError):  # not notation, or not even hashable: parse_move says which
        move = parse_move(token)
    return _step(state, move, None)
