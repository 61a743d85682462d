#!/usr/bin/env bash
# Seconds from `git clone` to the first page served by `make run`, for each
# revision given (default: HEAD), in a fresh clone and a fresh .venv each.
# Package caches stay as they are on this machine: run the revisions back to
# back so they meet the same caches, and read the ratio, not the seconds.
#   bench/first_page.sh cd86cf5 HEAD
set -euo pipefail
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
port=${PORT:-8765}
revs=("${@:-HEAD}")
declare -a times
for rev in "${revs[@]}"; do
  dir=$(mktemp -d)
  start=$(date +%s.%N)
  git clone -q "$repo" "$dir/p"
  git -C "$dir/p" checkout -q "$(git -C "$repo" rev-parse "$rev")"
  (cd "$dir/p" && env -u DATABASE_URL -u REDIS_URL make run PORT="$port" >"$dir/log" 2>&1) &
  runner=$!
  until curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1; do
    if ! kill -0 "$runner" 2>/dev/null; then echo "make run failed for $rev:"; tail -20 "$dir/log"; exit 1; fi
    sleep 0.2
  done
  end=$(date +%s.%N)
  pkill -f "daphne -b 127.0.0.1 -p $port" || true
  wait "$runner" 2>/dev/null || true
  secs=$(echo "$end - $start" | bc)
  times+=("$secs")
  printf '%-12s clone to first page: %6.1f s\n' "$rev" "$secs"
  rm -rf "$dir"
done
if [ ${#times[@]} -eq 2 ]; then
  printf 'ratio (second / first): %.2f\n' "$(echo "${times[1]} / ${times[0]}" | bc -l)"
fi
