#!/usr/bin/env bash
# Prints the Debian packages that hold the shared libraries the executables given load
# directly (their NEEDED entries, found where the dynamic loader finds them), one a line,
# sorted: what a machine that only runs them, such as the container image's last stage
# (Deployment/Containerfile), installs. Their own dependencies come with them through apt.
#
#   runtime-packages.sh [--except FOLDER] EXECUTABLE...
#
# A library that no installed package holds fails the run, naming it (a Swift runtime that
# is not linked in statically, a library built by hand), unless it lies in FOLDER.
set -euo pipefail

except=""
if [ "${1:-}" = "--except" ]; then except="$2"; shift 2; fi
[ $# -gt 0 ] || { echo "usage: runtime-packages.sh [--except FOLDER] EXECUTABLE..." >&2; exit 64; }

status=0
libraries=()
for executable in "$@"; do
    [ -x "$executable" ] || { echo "runtime-packages.sh: $executable is not an executable" >&2; exit 66; }
    resolved="$(ldd "$executable")"
    for library in $(readelf -d "$executable" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        # ldd prints "name => path (address)", or "path (address)" for the loader itself.
        path="$(awk -v name="$library" '$1 == name && $2 == "=>" { print $3 } $1 ~ "/" name "$" { print $1 }' <<< "$resolved" | head -n 1)"
        if [ -z "$path" ] || [ "$path" = "not" ]; then
            echo "runtime-packages.sh: $executable needs $library, which the loader does not find" >&2
            status=1
        elif [ -z "$except" ] || [ "${path#"$except"/}" = "$path" ]; then
            libraries+=("$path")
        fi
    done
done

# Debian 12 records some libraries under /lib and others under /usr/lib, one a link to the
# other: each library is asked by both spellings and by the link's target, all in one dpkg
# query (each reads every package's file list).
spellings() {
    echo "$1"
    readlink -f "$1"
    case "$1" in /usr/*) echo "${1#/usr}" ;; *) echo "/usr$1" ;; esac
}
owners="$(for path in "${libraries[@]}"; do spellings "$path"; done | sort -u | xargs -r dpkg -S 2>/dev/null || true)"
packages=""
for path in "${libraries[@]}"; do
    package=""
    while IFS= read -r spelling; do
        # dpkg -S prints "package:architecture: path" (packages joined by ", " when several:
        # the first is taken).
        package="$(awk -v path="$spelling" 'substr($0, length($0) - length(path) + 1) == path && index($0, ": " path) { sub(/[:,].*/, ""); print; exit }' <<< "$owners")"
        [ -n "$package" ] && break
    done < <(spellings "$path")
    if [ -n "$package" ]; then
        packages+="$package"$'\n'
    else
        echo "runtime-packages.sh: $path is loaded, and no installed package holds it" >&2
        status=1
    fi
done
printf '%s' "$packages" | sort -u
exit $status
