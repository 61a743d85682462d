#!/bin/sh
# Backups of the event store: pg_dump's custom format (README.md, "Production",
# says why not a base backup with WAL archiving).
#
#   deploy/pg_backup.sh backup                # DATABASE_URL -> $BACKUP_DIR/sultan-<UTC time>.dump
#   deploy/pg_backup.sh restore FILE          # FILE -> RESTORE_URL, a new or empty database
#
# `make backup` / `make restore` and compose's `backup` / `restore` services run
# this script. A backup is taken from the running service: pg_dump reads one
# consistent snapshot and blocks no writer. A restore refuses a database that
# already has tables: it never overwrites the live store.
set -eu

die() { echo "pg_backup: $*" >&2; exit 1; }

case "${1:-}" in
backup)
    [ -n "${DATABASE_URL:-}" ] || die "set DATABASE_URL (postgres://user:pass@host:5432/name)"
    dir="${BACKUP_DIR:-backups}"
    mkdir -p "$dir"
    file="$dir/sultan-$(date -u +%Y%m%dT%H%M%SZ).dump"
    # Written under a temporary name: a half-written dump never looks like a backup.
    pg_dump --format=custom --compress=6 --no-owner --no-privileges \
        --dbname="$DATABASE_URL" --file="$file.partial"
    mv "$file.partial" "$file"
    pg_restore --list "$file" >/dev/null || die "$file does not read back"
    echo "$file"
    ;;
restore)
    file="${2:-}"
    [ -n "$file" ] && [ -f "$file" ] || die "usage: $0 restore FILE (FILE must exist)"
    [ -n "${RESTORE_URL:-}" ] || die "set RESTORE_URL to a new or empty database"
    name="${RESTORE_URL##*/}"
    name="${name%%\?*}"
    maintenance="${RESTORE_URL%/*}/postgres"
    exists=$(psql --dbname="$maintenance" -tAc "SELECT 1 FROM pg_database WHERE datname = '$name'")
    if [ "$exists" != "1" ]; then
        createdb --maintenance-db="$maintenance" "$name"
    fi
    tables=$(psql --dbname="$RESTORE_URL" -tAc \
        "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
    [ "$tables" = "0" ] || die "$name already has $tables tables: restore into an empty database"
    pg_restore --no-owner --no-privileges --exit-on-error --single-transaction \
        --dbname="$RESTORE_URL" "$file"
    echo "restored $file into $name; check it: DATABASE_URL=$RESTORE_URL manage.py verify_games"
    ;;
*)
    die "usage: $0 backup | restore FILE"
    ;;
esac
