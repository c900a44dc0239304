#!/usr/bin/env bash
# Runs a command as one phase of a longer job and says how long it took:
#   Scripts/timed.sh LABEL COMMAND [ARGUMENT...]
# prints "== LABEL" before and "== LABEL: N s (exit S), the cores P % busy" after, appends
# "LABEL<TAB>N<TAB>P" to the file $PHASE_TIMES when set (for a summary at the end), and exits
# with the command's status. P is how busy the whole machine's cores were during the phase
# (from /proc/stat, so phases that run beside each other share it): a phase well below
# 100 % waits for something other than the processor, and another may run beside it.
set -u
label="$1"
shift
# The time the processors have spent busy and in all, in clock ticks.
ticks() { awk '/^cpu / { idle = $5 + $6; total = 0; for (i = 2; i <= NF; i++) total += $i; print total - idle, total }' /proc/stat; }
echo "== $label"
start=$(date +%s)
read -r busy_before all_before < <(ticks)
"$@"
status=$?
seconds=$(( $(date +%s) - start ))
read -r busy_after all_after < <(ticks)
percent=$(( (busy_after - busy_before) * 100 / (all_after - all_before > 0 ? all_after - all_before : 1) ))
echo "== $label: $seconds s (exit $status), the cores $percent % busy"
if [ -n "${PHASE_TIMES:-}" ]; then printf '%s\t%s\t%s\n' "$label" "$seconds" "$percent" >> "$PHASE_TIMES"; fi
exit $status
