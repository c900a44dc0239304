#!/usr/bin/env bash
# Converts one library module's documentation for make docs:
#   Scripts/docc-convert.sh DOCC EXTRACTED MODULE
# copies MODULE's symbol graphs (its own and its extensions of other modules) from the
# folder EXTRACTED into .build/docs-symbols/MODULE, and runs DOCC convert on
# Sources/MODULE/MODULE.docc into docs/api/MODULE, a warning failing it. What docc printed is
# written at the end as one block, so that conversions run side by side do not mix their lines.
set -u
docc="$1" extracted="$2" module="$3"
graphs=".build/docs-symbols/$module"
rm -rf "$graphs" && mkdir -p "$graphs" || exit 1
cp "$extracted/$module.symbols.json" "$graphs/" || exit 1
for extension in "$extracted/$module"@*.symbols.json; do
	if [ -e "$extension" ]; then cp "$extension" "$graphs/" || exit 1; fi
done
output="$("$docc" convert "Sources/$module/$module.docc" --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
	--additional-symbol-graph-dir "$graphs" --output-path "docs/api/$module" --transform-for-static-hosting --hosting-base-path "$module" \
	--warnings-as-errors 2>&1)"
status=$?
printf '== %s (exit %s)\n%s\n' "$module" "$status" "$output"
exit $status
