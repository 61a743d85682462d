# The web image (Daphne serving the Django app) and the proxy image (nginx with
# the collected static files). docker-compose.yml builds both; README.md,
# "Production", says how to run them.

# The solver's compiled core (games/engine/solver/_core.c) needs a C compiler:
# it is built here, and only the built package goes on to the web image.
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The locked setuptools builds it (hashes checked), not whatever is newest.
COPY requirements/app.lock requirements/
RUN pip install --require-hashes --no-deps -r requirements/app.lock
COPY pyproject.toml setup.py README.md ./
COPY sultan_site/ sultan_site/
COPY games/ games/
# A wheel for site-packages, and the same extension next to the sources that
# Daphne imports from /app.
RUN pip wheel --no-deps --no-build-isolation --wheel-dir /wheels . \
    && python setup.py build_ext --inplace \
    && python -c "import games.engine.solver._core"


FROM python:3.11-slim AS web
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

# The locked dependencies first, in a layer of their own: a code change does
# not reinstall them. Hashes are checked (requirements/README.md).
COPY requirements/app.lock requirements/
RUN pip install --require-hashes --no-deps -r requirements/app.lock

COPY pyproject.toml README.md ./
COPY sultan_site/ sultan_site/
COPY --from=build /src/games/ games/
COPY --from=build /wheels/ /wheels/
RUN pip install --no-deps /wheels/*.whl && rm -rf /wheels
# Daphne and manage.py run from /app: settings find the templates, the static
# sources and the compiled translations (LOCALE_PATHS) next to the code.
COPY manage.py ./
COPY frontend/ frontend/
COPY locale/ locale/
COPY deploy/healthcheck.py deploy/

# The manifest storage hashes and compresses the static files at build time;
# a throwaway key, since settings refuse production without one.
RUN DJANGO_DEBUG=0 DJANGO_SECRET_KEY=collectstatic-only-not-a-secret \
    python manage.py collectstatic --noinput -v0

RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin sultan
USER sultan
# 8000: pages and sockets (behind nginx); 9100: Prometheus metrics when
# SULTAN_METRICS_PORT says so (compose), never published.
EXPOSE 8000 9100
# A listen backlog of 1024, not Twisted's 50, and 30 s for a handshake, not 5
# (deploy/serve_prod.py: LISTEN_BACKLOG, HANDSHAKE_TIMEOUT_S). `python -m daphne`: a solver
# process re-imports the main module it was started from, and the daphne script's would load
# Twisted into it (games/quotas/process.py).
CMD ["python", "-m", "daphne", "--endpoint", "tcp:port=8000:interface=0.0.0.0:backlog=1024", \
     "--websocket_connect_timeout", "30", \
     "--proxy-headers", "sultan_site.asgi:application"]


FROM nginx:1.28-alpine AS proxy
COPY deploy/nginx/nginx.conf /etc/nginx/nginx.conf
# Run by nginx's entrypoint before it starts: the socket cap from the setting.
COPY deploy/nginx/limits.sh /docker-entrypoint.d/40-sultan-limits.sh
COPY --from=web /app/staticfiles/ /srv/static/
