# The web image (Daphne serving the Django app) and the proxy image (nginx with
# the collected static files). docker-compose.yml builds both; README.md,
# "Production", says how to run them.

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
COPY games/ games/
RUN pip install --no-deps --no-build-isolation .
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
EXPOSE 8000
CMD ["daphne", "--bind", "0.0.0.0", "--port", "8000", "--proxy-headers", \
     "sultan_site.asgi:application"]


FROM nginx:1.28-alpine AS proxy
COPY deploy/nginx/nginx.conf /etc/nginx/nginx.conf
COPY --from=web /app/staticfiles/ /srv/static/
