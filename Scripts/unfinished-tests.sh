#!/usr/bin/env bash
# Runs a Swift test command, passing its output through, and when it fails names the Swift
# Testing tests that started and never ended (a hang, or the test running when a crash came):
#   Scripts/unfinished-tests.sh COMMAND [ARGUMENT...]
# Exits with the command's status.
set -uo pipefail
output="$(mktemp)"
trap 'rm -f "$output"' EXIT
"$@" 2>&1 | tee "$output"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
	echo "== The test command ended with status $status$([ "$status" -eq 124 ] && echo ", stopped by its time limit")."
	echo "== Tests that started and did not end:"
	awk '/^◇ Test [^ ]+ started\.$/ { started[$3] = 1; next }
		/^(✔|✘|➜) Test [^ ]+ / { delete started[$3] }
		END { for (name in started) print "   " name }' "$output" | sort
fi
exit "$status"
