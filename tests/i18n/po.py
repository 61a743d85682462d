"""A reader for the .po files the catalogue tests check: entries, their
translations, and whether gettext marked them fuzzy. Just enough of the format
(docs: GNU gettext manual, "The Format of PO Files") for what makemessages writes."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Entry:
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    where: str = ""

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.context, self.msgid)

    @property
    def translated(self) -> bool:
        return not self.fuzzy and bool(self.strings) and all(self.strings.values())

    def __str__(self) -> str:
        context = f"[{self.context}] " if self.context else ""
        return f"{context}{self.msgid!r} ({self.where or 'no location'})"


def entries(path: Path) -> list[Entry]:
    """Every live entry of the file (not the header, not the obsolete #~ ones)."""
    found: list[Entry] = []
    entry = Entry()
    last: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal entry, last
        if entry.msgid or entry.strings:
            found.append(entry)
        entry, last = Entry(), None

    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            finish()
        elif line.startswith("#~"):
            continue
        elif line.startswith("#,"):
            entry.fuzzy = "fuzzy" in line
        elif line.startswith("#:"):
            entry.where = entry.where or line[2:].strip().split()[0]
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            assert last is not None, f"{path}: a continued string outside an entry"
            kind, index = last
            if kind == "msgctxt":
                entry.context = (entry.context or "") + text
            elif kind == "msgid":
                entry.msgid += text
            elif kind == "msgid_plural":
                entry.plural = (entry.plural or "") + text
            else:
                entry.strings[index] += text
        else:
            keyword, _, value = line.partition(" ")
            text = ast.literal_eval(value)
            if keyword == "msgctxt":
                entry.context, last = text, ("msgctxt", 0)
            elif keyword == "msgid":
                entry.msgid, last = text, ("msgid", 0)
            elif keyword == "msgid_plural":
                entry.plural, last = text, ("msgid_plural", 0)
            elif keyword == "msgstr":
                entry.strings[0], last = text, ("msgstr", 0)
            elif keyword.startswith("msgstr["):
                index = int(keyword[7:-1])
                entry.strings[index], last = text, ("msgstr", index)
    finish()
    return [e for e in found if e.msgid]  # the header's msgid is ""
