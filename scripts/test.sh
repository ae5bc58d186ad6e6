#!/usr/bin/env bash
# `npm test`: every tier in order (typecheck, ESLint, unit, render, e2e, extension host), each
# run even when an earlier one failed, then one summary with the counts of each tier and a
# closing "N passed, N failed" line over all of them. Each tier's line ends with its duration in
# seconds (wall clock), and a line before the closing one gives the whole run's.
set -uo pipefail
cd "$(dirname "$0")/.."

tiers=(typecheck lint test:unit test:render test:e2e test:exthost)
total_pass=0
total_fail=0
status=0
summary=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
run_start=$SECONDS

for tier in "${tiers[@]}"; do
  echo
  echo "=== npm run $tier"
  tier_start=$SECONDS
  npm run --silent "$tier" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  secs=$((SECONDS - tier_start))
  # mocha prints "N passing" / "N failing"; the browser runners print "N passed, N failed".
  pass=$(grep -aoE '^[[:space:]]*[0-9]+ passing|^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 | grep -oE '^[[:space:]]*[0-9]+' | tr -d ' ')
  fail=$(grep -aoE '^[[:space:]]*[0-9]+ failing|^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -1 | grep -oE '[0-9]+ f' | grep -oE '[0-9]+')
  pass=${pass:-0}
  fail=${fail:-0}
  # A tier that failed without counting a failed test (a crash, a type error) counts as one failure.
  if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then fail=1; fi
  [ "$rc" -ne 0 ] && status=1
  total_pass=$((total_pass + pass))
  total_fail=$((total_fail + fail))
  if [ "$tier" = typecheck ] || [ "$tier" = lint ]; then
    summary+=("$(printf '  %-13s %-30s %5ds' "$tier" "$([ "$rc" -eq 0 ] && echo ok || echo FAILED)" "$secs")")
  else
    summary+=("$(printf '  %-13s %-30s %5ds' "$tier" "$(printf '%5d passed, %d failed%s' "$pass" "$fail" "$([ "$rc" -eq 0 ] && echo '' || echo " (exit $rc)")")" "$secs")")
  fi
done

echo
echo "=== Summary"
printf '%s\n' "${summary[@]}"
printf '  %-13s %-30s %5ds\n' total '' "$((SECONDS - run_start))"
echo "$total_pass passed, $total_fail failed"
exit $status
