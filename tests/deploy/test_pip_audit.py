"""CI's dependency audit (.ci/pip_audit.py): a known vulnerability with a fix fails the
build; one with no fix, a package that could not be looked up, a missing lock file or
an unreachable service are reported and do not."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("pip_audit_ci", ROOT / ".ci" / "pip_audit.py")
assert _spec is not None
assert _spec.loader is not None
pip_audit_ci = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pip_audit_ci)


def _vuln(fixes: list[str]) -> dict[str, object]:
    return {"id": "PYSEC-0000-1", "fix_versions": fixes}


def test_a_vulnerability_with_a_fix_fails(capsys):
    report = {"dependencies": [{"name": "django", "version": "4.2.0", "vulns": [_vuln(["4.2.1"])]}]}
    assert pip_audit_ci.judge(report) == 1
    assert "VULNERABLE, fix available: django 4.2.0: PYSEC-0000-1 (fixed in 4.2.1)" in (
        capsys.readouterr().out
    )


def test_a_vulnerability_without_a_fix_is_reported_only(capsys):
    report = {"dependencies": [{"name": "x", "version": "1", "vulns": [_vuln([])]}]}
    assert pip_audit_ci.judge(report) == 0
    assert "no fix released yet" in capsys.readouterr().out


def test_packages_that_could_not_be_looked_up_are_said_to_be_unaudited(capsys):
    report = {"dependencies": [{"name": "x", "skip_reason": "Dependency not found on PyPI"}]}
    assert pip_audit_ci.judge(report) == 0
    assert "NOT AUDITED" in capsys.readouterr().out


def test_a_missing_lock_file_skips_with_a_message(tmp_path, capsys):
    missing = ROOT / "requirements" / "no-such.lock"
    assert pip_audit_ci.main(["pip_audit.py", str(missing)]) == 0
    assert "SKIPPED" in capsys.readouterr().out
