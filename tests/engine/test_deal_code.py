"""A deal's code (docs/rules.md): short, readable, and the same number as its seed."""

from __future__ import annotations

import random

import pytest

from games.engine import SEED_LIMIT
from games.engine.dealcode import deal_code, deal_from_code


def test_a_race_seed_reads_as_thirteen_symbols_in_groups():
    assert deal_code(4085300076190713165) == "3HCF6-RS13-JHAD"
    assert deal_code(SEED_LIMIT - 1) == "7ZZZZ-ZZZZ-ZZZZ"
    assert deal_code(0) == "0000"
    assert deal_code(1234) == "016J"


def test_a_short_seeds_code_never_reads_as_a_card():
    assert deal_code(121) == "003S"  # not "3S", the three of spades


def test_every_code_reads_back_as_its_seed_forgivingly():
    rng = random.Random(26)
    for seed in [0, 31, 32, SEED_LIMIT - 1, *(rng.randrange(SEED_LIMIT) for _ in range(500))]:
        code = deal_code(seed)
        assert deal_from_code(code) == seed
        assert deal_from_code(code.lower().replace("0", "o").replace("1", "l")) == seed


@pytest.mark.parametrize("text", ["", "-", "3HCF6-RS13-JHAU", "8000-0000-0000-0"])
def test_it_refuses_what_is_no_deal_code(text: str):
    with pytest.raises(ValueError, match=r"deal code|seed"):
        deal_from_code(text)
