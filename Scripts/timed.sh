#!/usr/bin/env bash
# Runs a command as one phase of a longer job and says how long it took:
#   Scripts/timed.sh LABEL COMMAND [ARGUMENT...]
# prints "== LABEL" before and "== LABEL: N s (exit S)" after, appends "LABEL N" to the file
# $PHASE_TIMES when set (for a summary at the end), and exits with the command's status.
set -u
label="$1"
shift
echo "== $label"
start=$(date +%s)
"$@"
status=$?
seconds=$(( $(date +%s) - start ))
echo "== $label: $seconds s (exit $status)"
if [ -n "${PHASE_TIMES:-}" ]; then printf '%s\t%s\n' "$label" "$seconds" >> "$PHASE_TIMES"; fi
exit $status
