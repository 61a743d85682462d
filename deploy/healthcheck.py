"""The container's health check: exit 0 when this process's /healthz answers 200.

Django refuses a Host it does not serve, so the probe names the first allowed
host, as the proxy would.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

PORT = os.environ.get("SULTAN_PORT", "8000")


def main() -> int:
    hosts = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h.strip()]
    host = hosts[0].lstrip(".") if hosts and hosts[0] != "*" else "localhost"
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}/healthz", headers={"Host": host})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return 0 if response.status == 200 else 1
    except (urllib.error.URLError, OSError) as failure:
        print(f"unhealthy: {failure}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
