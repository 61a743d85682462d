"""The home page's forms."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import DEFAULT_VARIANT, SEED_LIMIT, VARIANTS
from games.races.matchmaking import PUBLIC_MINUTES

VARIANT_CHOICES = [(v, v) for v in VARIANTS]


class RaceForm(forms.Form):
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial=DEFAULT_VARIANT, required=False)
    time_limit = forms.IntegerField(min_value=1, max_value=24 * 60, initial=15)
    seats = forms.IntegerField(min_value=2, max_value=8, initial=8)
    deal = forms.IntegerField(min_value=0, max_value=SEED_LIMIT - 1, required=False)
    winnable = forms.BooleanField(required=False)
    automatic_moves = forms.BooleanField(required=False)
    rated = forms.BooleanField(required=False)
    nickname = forms.CharField(max_length=40, required=False, strip=True)

    def clean(self) -> dict[str, object] | None:
        data = super().clean()
        if data and data.get("rated") and data.get("deal") is not None:
            self.add_error(
                "rated",
                _("A rated race deals a secret deal: clear the deal number or untick rated."),
            )
        return data


class RaceNowForm(forms.Form):
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial=DEFAULT_VARIANT, required=False)
    minutes = forms.TypedChoiceField(
        choices=[(m, m) for m in PUBLIC_MINUTES], coerce=int, initial=5, required=False
    )
    nickname = forms.CharField(max_length=40, required=False, strip=True)


class PracticeForm(forms.Form):
    variant = forms.ChoiceField(choices=VARIANT_CHOICES, initial=DEFAULT_VARIANT, required=False)
    deal = forms.IntegerField(min_value=0, max_value=SEED_LIMIT - 1, required=False)
    # A random deal the solver has won ("winnable deals only"); a deal by number is as asked.
    winnable = forms.BooleanField(required=False)
