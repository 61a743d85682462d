"""CI: audit the locked dependencies with pip-audit; fail on a known vulnerability
that has a fixed version, report everything else.

    python .ci/pip_audit.py [requirements/dev.lock]

Exit 0: nothing to fix (or the lock file does not exist yet, or the
vulnerability service could not be reached: both are said plainly, since an
audit that did not happen is not a clean audit). Exit 1: at least one locked
package has a known vulnerability with a fix available.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LOCK = ROOT / "requirements" / "dev.lock"


def main(argv: list[str]) -> int:
    lock = Path(argv[1]) if len(argv) > 1 else DEFAULT_LOCK
    if not lock.exists():
        print(f"pip-audit: SKIPPED: {lock.relative_to(ROOT)} does not exist yet in this branch")
        return 0
    tool = shutil.which("pip-audit") or str(Path(sys.executable).parent / "pip-audit")
    command = [
        tool,
        "--requirement",
        str(lock),
        "--require-hashes",
        "--disable-pip",
        "--format",
        "json",
        "--progress-spinner",
        "off",
    ]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"pip-audit: NOT RUN: {error}")
        return 0
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        # A traceback instead of a report: the service did not answer (no network
        # here), which says nothing about the dependencies.
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        print(f"pip-audit: NOT AUDITED: the vulnerability service could not be reached: {last}")
        return 0
    return judge(report)


def judge(report: dict[str, object]) -> int:
    dependencies = report.get("dependencies")
    assert isinstance(dependencies, list)
    fixable, unfixed, skipped = [], [], []
    for dependency in dependencies:
        name, version = dependency.get("name"), dependency.get("version", "?")
        if "skip_reason" in dependency:
            skipped.append(f"{name}: {dependency['skip_reason']}")
            continue
        for vuln in dependency.get("vulns", []):
            line = f"{name} {version}: {vuln['id']}"
            if vuln.get("fix_versions"):
                fixable.append(f"{line} (fixed in {', '.join(vuln['fix_versions'])})")
            else:
                unfixed.append(f"{line} (no fix released yet)")
    audited = len(dependencies) - len(skipped)
    print(f"pip-audit: {audited} of {len(dependencies)} locked packages audited")
    for line in skipped:
        print(f"  not audited: {line}")
    for line in unfixed:
        print(f"  known, no fix yet: {line}")
    for line in fixable:
        print(f"  VULNERABLE, fix available: {line}")
    if dependencies and not audited:
        print("pip-audit: NOT AUDITED: no package could be looked up (is PyPI's JSON API away?)")
    return 1 if fixable else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
