"""What the store's tables share: the variants' choices, the optional link, append-only logs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from django.db import models

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

from games.engine import VARIANTS
from games.i18n.labels import VARIANT_LABELS

# Stored as the code; shown by its name, in the reader's language.
VARIANT_CHOICES = [(v, VARIANT_LABELS[v]) for v in VARIANTS]


def optional_link(
    field: Any, to: Any, on_delete: Any, verbose_name: _StrPromise, related_name: str
) -> Any:
    """A link a row may lack: null in the table, blank in the admin's forms. Each use
    declares the field's type, which the stubs cannot infer through this call."""
    return field(
        to,
        on_delete,
        related_name=related_name,
        verbose_name=verbose_name,
        null=True,
        blank=True,
    )


class AppendOnlyError(Exception):
    """A log row may be inserted, never changed or removed."""


class AppendOnlyQuerySet(models.QuerySet[Any]):
    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.label} is append-only: no update")

    def delete(self) -> NoReturn:
        raise AppendOnlyError(f"{self.model._meta.label} is append-only: no delete")


class AppendOnlyModel(models.Model):
    """Refuses updates and deletes from the ORM; triggers refuse them in SQL too."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{self._meta.label} is append-only: no update")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnlyError(f"{self._meta.label} is append-only: no delete")
