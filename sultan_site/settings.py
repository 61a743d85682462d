"""Settings for Sultan, read from the environment.

With nothing set it runs for development: DEBUG on, SQLite in the project
root, the in-memory channel layer. Production sets DJANGO_DEBUG=0 and must
then also set DJANGO_SECRET_KEY.
"""

import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url

from sultan_site.env import (
    ConfigError,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_url,
    env_url_value,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", default=True)

SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ConfigError("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-never-used-in-production"

# The daily deal's key (games/daily/rules.py, docs/rules.md): the day's seeds are
# a keyed hash of the date, secret until the day is over. Set it once and keep
# it: every day's deal follows from it. Unset, production derives one from
# DJANGO_SECRET_KEY (secret too, but rotating that would change the days to come);
# in development that is the development key.
DAILY_KEY = env_str("SULTAN_DAILY_KEY") or f"daily:{SECRET_KEY}"

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

# Daphne's app only makes `manage.py runserver` serve ASGI (websockets too); importing it
# installs Twisted's reactor, 0.9 s of CPU in every process that sets Django up (each
# solver process, each management command, each test worker). `make run` and production
# run Daphne itself (docs/performance.md, "Setting Django up").
RUNSERVER = sys.argv[1:2] == ["runserver"]

INSTALLED_APPS = [
    *(["daphne"] if RUNSERVER else []),
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    # Only for its bundled Redoc (the /api/ page): no CDN (games/api/).
    "ninja",
    "games",
]

MIDDLEWARE = [
    # First: its time covers every other middleware (games/metrics/).
    "games.metrics.middleware.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "sultan_site.headers.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's language: the switch's cookie, else the browser's
    # Accept-Language, else LANGUAGE_CODE (docs/pages.md, "Language").
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # The site's own 404 page, under DEBUG too (games/pages/notfound.py).
    "games.pages.notfound.SiteNotFoundMiddleware",
    # A domain refusal no view answered: the refusal page, never a 500 (games/pages/refusals.py).
    "games.pages.refusals.RefusalMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it answers a locked-out log-in.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "sultan_site.urls"
ASGI_APPLICATION = "sultan_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "frontend" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

_database_url = env_url("DATABASE_URL", schemes={"postgres", "postgresql", "sqlite"})
if _database_url:
    DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=60)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        options = DATABASES["default"].setdefault("OPTIONS", {})
        # A database that does not answer must fail a request in seconds, not
        # hold a worker thread for the kernel's TCP timeout (minutes).
        options["connect_timeout"] = env_int("DATABASE_CONNECT_TIMEOUT_S", 5)
        # Under ASGI every HTTP request runs in a thread of its own, and a
        # persistent connection (CONN_MAX_AGE) stays with that thread: a burst
        # of page loads opened one connection each until PostgreSQL refused
        # more ("too many clients", bench/race_load.py seating 504 racers).
        # A pool per process bounds them and reuses them across threads.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        options["pool"] = {
            "min_size": 2,
            "max_size": env_int("DATABASE_POOL_SIZE", 20),
            # Waiting longer for a connection only delays the `unavailable` answer.
            "timeout": env_int("DATABASE_POOL_TIMEOUT_S", 3),
        }
        # With a pool, a round trip before a connection is handed out: after a
        # database restart the pooled connections are dead, and a page or a
        # move would fail on each of them once (docs/performance.md: the cost).
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DATABASE_HEALTH_CHECKS", True)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL with synchronous=NORMAL and IMMEDIATE transactions: about 100x cheaper
    # inserts than the default journal, and writers queue instead of failing.
    # Opening a SQLite connection runs the PRAGMAs below: keep connections.
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"].setdefault("TEST", {})
    DATABASES["default"]["TEST"]["NAME"] = env_str(
        "SQLITE_TEST_PATH", str(BASE_DIR / "test-db.sqlite3")
    )

_redis_url = env_url("REDIS_URL", schemes={"redis", "rediss", "unix"})
REDIS_URL = _redis_url
# The cache holds the quota counters (games/quotas/): in Redis they are shared
# by every web process; in memory (one process) they are this process's. Its keys,
# and presence's (games/friends/presence.py), start with this: deployments sharing a
# Redis database each need their own.
REDIS_KEY_PREFIX = env_str("SULTAN_REDIS_KEY_PREFIX", "sultan")
if _redis_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _redis_url,
            "KEY_PREFIX": REDIS_KEY_PREFIX,
            # A Redis away must not hold a request: the quotas then let it through.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Several Redis servers for the channel layer (comma-separated URLs): each race's
# group lives on the one its name hashes to (docs/scaling.md). Default: REDIS_URL.
_channel_redis = [
    env_url_value("SULTAN_CHANNEL_REDIS_URLS", raw, {"redis", "rediss", "unix"})
    for raw in env_list("SULTAN_CHANNEL_REDIS_URLS", [])
] or ([_redis_url] if _redis_url else [])
if _channel_redis:
    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's pub/sub layer, its broadcasts sent in parallel.
            "BACKEND": "sultan_site.channel_layer.RedisParallelPublishChannelLayer",
            # Several deployments (or test runs) may share Redis servers: pub/sub
            # channels are not scoped by database number, so a prefix of their own.
            "CONFIG": {
                "hosts": _channel_redis,
                "prefix": env_str("SULTAN_CHANNEL_PREFIX", "asgi"),
            },
        }
    }
else:
    # One process only: Channels' in-memory layer, its housekeeping paced.
    CHANNEL_LAYERS = {"default": {"BACKEND": "sultan_site.channel_layer.LocalChannelLayer"}}

# Argon2 first: new passwords and every log-in with an older hash get it
# (Django re-hashes on a successful log-in); the others only read old hashes.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

# Failed log-ins are throttled per account and per address (django-axes, in the
# database): after AXES_FAILURE_LIMIT failures either one is refused for the
# cool-off, whatever the password, with a page that says so (HTTP 429).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("SULTAN_LOGIN_FAILURES", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("SULTAN_LOGIN_COOLOFF_MIN", 15))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "games.accounts.views.login_locked_out"
# The address Daphne's --proxy-headers took from nginx (deploy/nginx/nginx.conf).
AXES_CLIENT_IP_CALLABLE = "games.common.http.client_ip"
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
# Each named in its own language: the header's switch shows them as they are.
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switch's choice lives in this cookie for a year (Django's default name).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "frontend" / "static"]
# collectstatic writes here; nginx serves it (deploy/nginx/nginx.conf).
STATIC_ROOT = Path(env_str("DJANGO_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# TLS ends at the proxy in front of Daphne (deploy/nginx/), which says so in
# this header; Daphne itself only ever speaks plain HTTP on a private network.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Sent on HTTPS responses only. Off in debug: a browser would remember it for
# localhost. Subdomains and preload are a site-wide promise: opt in explicitly.
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", default=False)
# Redirecting plain HTTP is the TLS terminator's job; turn it on here only when
# nothing in front does it (health checks on plain HTTP would then get a 301).
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", default=False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# `check --deploy` is clean: what it would warn about here is a documented
# choice (README.md, "Production"), silenced only while that choice stands.
SILENCED_SYSTEM_CHECKS = [
    check
    for check, chosen in (
        ("security.W008", not SECURE_SSL_REDIRECT),  # the TLS terminator redirects
        ("security.W005", not SECURE_HSTS_INCLUDE_SUBDOMAINS),  # a promise for the domain
        ("security.W021", not SECURE_HSTS_PRELOAD),  # the same, to the browsers' list
    )
    if chosen
]
SESSION_COOKIE_HTTPONLY = True
# Also Django's defaults, stated because the security review asks for them:
# no MIME sniffing, no referrer to other sites, no framing (and CSP's
# frame-ancestors, sultan_site/headers.py).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

SITE_NAME = env_str("SULTAN_SITE_NAME", "Sultan")
LOG_LEVEL = env_str("DJANGO_LOG_LEVEL", "INFO")
# Seconds between the host's start and the first move allowed.
RACE_COUNTDOWN_S = env_int("SULTAN_RACE_COUNTDOWN_S", 5)
# A public race's countdown, from its second racer; it seats more until then.
RACE_PUBLIC_COUNTDOWN_S = env_int("SULTAN_RACE_PUBLIC_COUNTDOWN_S", 15)
# Frames a race socket may send per second (and in one burst) before it is throttled.
WS_RATE_PER_S = env_int("SULTAN_WS_RATE_PER_S", 30)
# Race sockets one client (session, else address) may open: a burst, then a rate.
# Each costs a snapshot; a reconnect loop is refused before that (games/races/limits.py).
# A client is a session that exists, else its address (an invented cookie is no client).
WS_CONNECT_BURST = env_int("SULTAN_WS_CONNECT_BURST", 10)
WS_CONNECTS_PER_MIN = env_int("SULTAN_WS_CONNECTS_PER_MIN", 30)
# Every socket from one address, sessions or not: several people may share an address.
WS_ADDRESS_CONNECT_BURST = env_int("SULTAN_WS_ADDRESS_CONNECT_BURST", 100)
WS_ADDRESS_CONNECTS_PER_MIN = env_int("SULTAN_WS_ADDRESS_CONNECTS_PER_MIN", 300)
# Sockets (race, site, tournament; cookie or token) one address may hold open at once,
# per process; nginx's limit_conn is this times the processes (deploy/serve_prod.py).
WS_OPEN_PER_ADDRESS = env_int("SULTAN_WS_OPEN_PER_ADDRESS", 50)
# Sockets one player (an account, by cookie or token; a guest's session) may hold open
# at once, per process, from any address: a person's tabs, a bot's races.
WS_OPEN_PER_PLAYER = env_int("SULTAN_WS_OPEN_PER_PLAYER", 20)
# Heartbeats (docs/protocol.md): the server sends a frame at least this often, and
# closes a socket it has heard nothing from for the second (clients ping every 20 s).
WS_HEARTBEAT_S = env_int("SULTAN_WS_HEARTBEAT_S", 20)
WS_SILENCE_CLOSE_S = env_int("SULTAN_WS_SILENCE_CLOSE_S", 60)
# A client that stops reading (docs/protocol.md, *Slow readers*): past the first many
# bytes unsent its progress frames wait, coalesced; past the second, or behind for the
# seconds, its socket is closed with 4012. Bounds the server's memory per socket.
WS_SHED_BYTES = env_int("SULTAN_WS_SHED_BYTES", 64 * 1024)
WS_STALL_CLOSE_BYTES = env_int("SULTAN_WS_STALL_CLOSE_BYTES", 1024 * 1024)
WS_STALL_CLOSE_S = env_int("SULTAN_WS_STALL_CLOSE_S", 15)
# The kernel's send buffer of a race socket (0: the kernel's own, which grows to
# net.ipv4.tcp_wmem's maximum, 4 MB, for a client that stops reading).
WS_SEND_BUFFER_BYTES = env_int("SULTAN_WS_SEND_BUFFER_BYTES", 64 * 1024)
# Fault injection only: seconds the race publisher waits between a commit and its
# announcement, so a test can kill the process in between (games/races/publisher.py).
RACE_FAULT_PUBLISH_DELAY_S = env_int("SULTAN_FAULT_PUBLISH_DELAY_S", 0)

# Solver work (hints, analyses, winnable deals) one process runs at once, and
# how long a request waits for a slot before it is refused `busy` (games/quotas/).
SULTAN_SOLVER_SLOTS = env_int("SULTAN_SOLVER_SLOTS", 1)
SULTAN_SOLVER_WAIT_S = env_int("SULTAN_SOLVER_WAIT_MS", 500) / 1000
# Solver work in processes of its own, below the web processes' priority. Off
# only to measure what that buys (bench/faults/solver_abuse.py --compare).
SULTAN_SOLVER_PROCESSES = env_bool("SULTAN_SOLVER_PROCESSES", default=True)
# Started with the web process, not at the first solve (tests' servers turn it off).
SULTAN_SOLVER_WARM = env_bool("SULTAN_SOLVER_WARM", default=True)
# The solver processes' niceness (0-19): below the web processes, so the kernel hands
# a core to a racer's move first. The tests' servers run it at 0: beside a busy loop
# (.ci/loaded) a solver at 10 got ~5% of a core and the hints the tests wait for took
# minutes; what the priority buys is measured by bench/faults/solver_abuse.py.
SULTAN_SOLVER_NICE = env_int("SULTAN_SOLVER_NICE", 10)
if not 0 <= SULTAN_SOLVER_NICE <= 19:
    raise ConfigError(f"SULTAN_SOLVER_NICE={SULTAN_SOLVER_NICE} is not a niceness from 0 to 19")
# Per kind of work: requests per player and per address in each window.
SULTAN_QUOTA_WINDOW_S = env_int("SULTAN_QUOTA_WINDOW_S", 600)


def _quota(kind: str, per_player: int, per_address: int) -> tuple[int, int]:
    name = f"SULTAN_QUOTA_{kind.upper()}"
    raw = env_list(name, default=[str(per_player), str(per_address)])
    if len(raw) != 2 or not all(n.isdigit() and int(n) > 0 for n in raw):
        raise ConfigError(f"{name} is 'per player,per address', two whole numbers above 0")
    return int(raw[0]), int(raw[1])


SULTAN_QUOTAS = {
    "hint": _quota("hint", 60, 180),
    "analysis": _quota("analysis", 20, 60),
    "winnable": _quota("winnable", 10, 30),
    "race": _quota("race", 30, 90),
    # The public API (games/api/): requests per token (not per player: each
    # program its own) and per address, in each window.
    "api": _quota("api", 600, 1800),
    # House bots added to races, per player and per address.
    "bot": _quota("bot", 20, 60),
    # Invitations to races sent (games/friends/), per player and per address.
    "invite": _quota("invite", 20, 60),
    # New guests and sign-ups per address (the per-player number is unused: there is
    # no player yet). A fresh identity is a fresh sight of every deal (docs/anticheat.md).
    "guest": _quota("guest", 1, 10),
    "signup": _quota("signup", 1, 5),
}

# Bots (games/bots/): the minimum gap between a bot's moves, enforced on the race
# socket (docs/protocol.md, "Bots"); how long a public lobby waits for a second
# racer before the house bot takes the seat (0: never).
# The site socket's presence (games/friends/presence.py): a socket not heard from
# for this long no longer counts (a killed process's sockets lapse).
SULTAN_PRESENCE_TTL_S = env_int("SULTAN_PRESENCE_TTL_S", 30)
SULTAN_BOT_MIN_GAP_MS = env_int("SULTAN_BOT_MIN_GAP_MS", 300)
SULTAN_BOT_FILL_AFTER_S = env_int("SULTAN_BOT_FILL_AFTER_S", 60)
# Where the house bot opens its race socket, with its token: e.g. ws://127.0.0.1:8000.
# Unset, this process's own address (the local end of the connections it serves);
# never a request's Host (games/bots/address.py).
SULTAN_BOT_SOCKET_URL = env_url("SULTAN_BOT_SOCKET_URL", schemes={"ws", "wss"}) or ""

LOG_FORMAT = env_str("DJANGO_LOG_FORMAT", "plain").strip().lower()
if LOG_FORMAT not in ("plain", "json"):
    raise ConfigError(f"DJANGO_LOG_FORMAT={LOG_FORMAT!r} is not one of plain, json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "sultan_site.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}

# What a result is worth against whom (games/fairness/worth.py, docs/anticheat.md,
# "Farming"). A racer's results move other players' ratings once they have been placed
# against this many distinct opponents; a pair's first this-many meetings of a UTC
# day count, in ratings and tournament points. Changing either changes every
# rating: run `manage.py rebuild_ratings` after.
RATING_ESTABLISHED_OPPONENTS = env_int("SULTAN_RATING_ESTABLISHED_OPPONENTS", 3)
PAIR_RESULTS_PER_DAY = env_int("SULTAN_PAIR_RESULTS_PER_DAY", 3)

# Arena tournaments (docs/tournaments.md). The site's daily arena of each variant
# starts at this UTC hour and lasts this many minutes; every tournament race has
# this time limit; the pairing loop runs this often, and seats a race short of
# full once its first waiter has waited this long.
TOURNAMENT_DAILY_HOUR_UTC = env_int("SULTAN_TOURNAMENT_DAILY_HOUR_UTC", 18)
TOURNAMENT_DAILY_MINUTES = env_int("SULTAN_TOURNAMENT_DAILY_MINUTES", 60)
TOURNAMENT_RACE_S = env_int("SULTAN_TOURNAMENT_RACE_S", 300)
TOURNAMENT_TICK_MS = env_int("SULTAN_TOURNAMENT_TICK_MS", 1000)
TOURNAMENT_GATHER_S = env_int("SULTAN_TOURNAMENT_GATHER_S", 3)
# After a race, its racers rest this long (their results, a Pause) before the pairing
# seats them again: the race page counts it down (docs/tournaments.md, "Carried").
TOURNAMENT_REST_S = env_int("SULTAN_TOURNAMENT_REST_S", 10)
# A racer with no move of their own this long after their race's start is withdrawn:
# their game times out and they are paused (docs/tournaments.md, "Absent racers").
TOURNAMENT_IDLE_S = env_int("SULTAN_TOURNAMENT_IDLE_S", 60)
# Shortest and longest tournament a player may create, in minutes (tests shorten it).
TOURNAMENT_MINUTES = (
    env_int("SULTAN_TOURNAMENT_MIN_MINUTES", 10),
    env_int("SULTAN_TOURNAMENT_MAX_MINUTES", 120),
)
