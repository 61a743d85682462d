"""The home page's forms."""

from __future__ import annotations

from django import forms

from games.engine import DEFAULT_VARIANT, SEED_LIMIT, VARIANTS

VARIANT_CHOICES = [(v, v) for v in VARIANTS]


class RaceForm(forms.Form):
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial=DEFAULT_VARIANT, required=False)
    time_limit = forms.IntegerField(min_value=1, max_value=24 * 60, initial=15)
    seats = forms.IntegerField(min_value=2, max_value=8, initial=8)
    deal = forms.IntegerField(min_value=0, max_value=SEED_LIMIT - 1, required=False)
    winnable = forms.BooleanField(required=False)
    automatic_moves = forms.BooleanField(required=False)
    nickname = forms.CharField(max_length=40, required=False, strip=True)


class PracticeForm(forms.Form):
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial=DEFAULT_VARIANT, required=False)
    deal = forms.IntegerField(min_value=0, max_value=SEED_LIMIT - 1, required=False)
