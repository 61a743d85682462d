#!/bin/sh
# The proxy image's start (nginx's /docker-entrypoint.d/): nginx.conf's cap on one
# address's sockets written from the web processes' own setting, as
# deploy/serve_prod.py writes it for `make serve-prod`: SULTAN_WS_OPEN_PER_ADDRESS
# (Django's default 50) times SULTAN_WEB_PROCESSES (compose runs 2), at most 65535
# (nginx refuses more). A malformed value stops the start: nginx's entrypoint runs
# this under `set -e`.
set -eu
conf="${NGINX_CONF:-/etc/nginx/nginx.conf}"
per_process="${SULTAN_WS_OPEN_PER_ADDRESS:-50}"
processes="${SULTAN_WEB_PROCESSES:-2}"
for value in "$per_process" "$processes"; do
    case "$value" in
        "" | *[!0-9]* | 0*)
            echo "limits.sh: SULTAN_WS_OPEN_PER_ADDRESS and SULTAN_WEB_PROCESSES must be whole numbers from 1 (got '$per_process', '$processes')" >&2
            exit 1
            ;;
    esac
done
total=$((per_process * processes))
if [ "$total" -gt 65535 ]; then
    total=65535
fi
grep -q "limit_conn sockets_per_address [0-9]*;" "$conf" || {
    echo "limits.sh: $conf has no 'limit_conn sockets_per_address' line" >&2
    exit 1
}
sed -i "s/limit_conn sockets_per_address [0-9]*;/limit_conn sockets_per_address $total;/" "$conf"
