"""The translations are complete and current: no string reaches a Russian
reader in English, and what runs (.mo) is what is written (.po).

`make messages` (games/management/commands/messages.py) collects the marked
strings; these tests run it on a copy of the tree, so a string added to a
template, a module or a Python file without its Russian fails the suite.
"""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.i18n.po import entries

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = ("django", "djangojs")
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
# What makemessages reads (the rest is ignored by the command anyway).
SOURCES = ("games", "frontend", "sultan_site", "locale", "manage.py")


def _need_gettext() -> None:
    missing = [tool for tool in ("xgettext", "msgmerge", "msgfmt") if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"GNU gettext is needed to check the translations: apt-get install gettext ({missing})"
        )


@pytest.fixture(scope="module")
def refreshed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the tree with its .po files refreshed from the code, as `make messages` would."""
    _need_gettext()
    copy = tmp_path_factory.mktemp("tree")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=ignore)
        else:
            shutil.copy2(source, copy / name)
    subprocess.run(
        [sys.executable, "manage.py", "messages", "--no-compile", "--verbosity", "0"],
        cwd=copy,
        check=True,
        capture_output=True,
        timeout=300,
    )
    return copy


def _po(root: Path, language: str, domain: str) -> Path:
    return root / "locale" / language / "LC_MESSAGES" / f"{domain}.po"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_marked_string_has_a_translation(refreshed: Path, language: str, domain: str) -> None:
    left = [entry for entry in entries(_po(refreshed, language, domain)) if not entry.translated]
    assert not left, (
        f"{len(left)} {domain} strings have no {language} translation (or a fuzzy one); run "
        f"`make messages` and fill them in locale/{language}/LC_MESSAGES/{domain}.po:\n"
        + "\n".join(f"  {entry}" for entry in left[:40])
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_catalogue_lists_exactly_the_strings_of_the_code(
    refreshed: Path, language: str, domain: str
) -> None:
    code = {entry.key for entry in entries(_po(refreshed, language, domain))}
    committed = {entry.key for entry in entries(_po(ROOT, language, domain))}
    assert code == committed, (
        f"locale/{language}/LC_MESSAGES/{domain}.po is out of date: run `make messages`. "
        f"New in the code: {sorted(code - committed, key=str)[:20]}; "
        f"gone from it: {sorted(committed - code, key=str)[:20]}"
    )


def _catalog(mo: Path) -> dict[object, str]:
    with mo.open("rb") as stream:
        return dict(gettext.GNUTranslations(stream)._catalog)  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_file_is_its_po_compiled(
    tmp_path: Path, language: str, domain: str
) -> None:
    """`make run` reads the .mo files, which are committed: they must say what the .po says."""
    _need_gettext()
    po = _po(ROOT, language, domain)
    compiled = tmp_path / f"{domain}.mo"
    subprocess.run(["msgfmt", "--check-format", "-o", str(compiled), str(po)], check=True)
    committed = po.with_suffix(".mo")
    assert committed.exists(), f"{committed} is missing: run `make messages`"
    assert _catalog(committed) == _catalog(compiled), (
        f"{committed.relative_to(ROOT)} differs from its .po: run `make messages`"
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_plural_strings_have_every_form_of_the_language(language: str, domain: str) -> None:
    header = _po(ROOT, language, domain).read_text(encoding="utf-8")
    match = re.search(r"nplurals=(\d+)", header)
    assert match, "no Plural-Forms header"
    forms = int(match.group(1))
    short = [
        entry
        for entry in entries(_po(ROOT, language, domain))
        if entry.plural is not None and sorted(entry.strings) != list(range(forms))
    ]
    assert not short, [str(entry) for entry in short]


# Names makemessages extracts (its --keyword list): a string wrapped in any
# other name would never reach the catalogue, and no test above would see it.
_EXTRACTED = {
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "ngettext",
    "ngettext_lazy",
    "pgettext",
    "pgettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "_",
}


def test_python_translates_only_under_names_makemessages_extracts() -> None:
    renamed: list[str] = []
    for path in (ROOT / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
                for alias in node.names:
                    name = alias.asname or alias.name
                    if alias.name in _EXTRACTED - {"_"} and name not in _EXTRACTED:
                        renamed.append(f"{path.relative_to(ROOT)}: {alias.name} as {name}")
    assert not renamed, renamed


def test_modules_translate_only_under_names_makemessages_extracts() -> None:
    renamed = []
    for path in (ROOT / "frontend" / "static" / "js").rglob("*.js"):
        for names in re.findall(
            r"import\s*\{([^}]*)\}\s*from\s*\"[./]*i18n\.js\"", path.read_text()
        ):
            renamed += [f"{path.name}: {n.strip()}" for n in names.split(",") if " as " in n]
    assert not renamed, renamed


def test_the_helper_reads_fuzzy_and_untranslated_entries(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "Plural-Forms: nplurals=3;\\n"\n\n'
        '#: a.py:1\nmsgid "done"\nmsgstr "готово"\n\n'
        '#: b.py:2\n#, fuzzy\nmsgid "close"\nmsgstr "почти"\n\n'
        'msgctxt "card rank"\nmsgid "ace"\nmsgstr ""\n\n'
        'msgid "%s card"\nmsgid_plural "%s cards"\nmsgstr[0] "%s карта"\n'
        'msgstr[1] ""\n"%s карты"\nmsgstr[2] "%s карт"\n\n'
        '#~ msgid "gone"\n#~ msgstr ""\n',
        encoding="utf-8",
    )
    found = {entry.msgid: entry for entry in entries(po)}
    assert set(found) == {"done", "close", "ace", "%s card"}
    assert found["done"].translated
    assert found["done"].where == "a.py:1"
    assert not found["close"].translated  # fuzzy
    assert not found["ace"].translated
    assert found["ace"].context == "card rank"
    assert found["%s card"].translated
    assert found["%s card"].strings[1] == "%s карты"
