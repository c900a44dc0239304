#!/usr/bin/env bash
# Installs hostapp into a prefix, or removes what it installed there.
#
#   install.sh PREFIX BIN_DIR MANUAL  install hostapp and hostapp-full from BIN_DIR, and
#                                     MANUAL, the page ArgumentParser's generate-manual
#                                     tool wrote (make install makes it)
#   install.sh --uninstall PREFIX  remove what an install into PREFIX wrote
#
# What goes where (under PREFIX):
#   bin/hostapp, bin/hostapp-full
#   share/applications/hostapp.desktop          "open with": hostapp view %f
#   share/thumbnailers/hostapp.thumbnailer      file managers' thumbnails: hostapp thumbnail
#   share/man/man1/hostapp.1                    MANUAL, from the command line's own help
#   share/bash-completion/completions/hostapp, share/zsh/site-functions/_hostapp,
#   share/fish/vendor_completions.d/hostapp.fish
#   share/hostapp/installed-files               the list uninstall removes
# Debian's shared MIME database already knows every type hostapp opens (PDF, EPUB,
# FictionBook, XPS and OpenXPS, CBZ), so no MIME package is installed.
#
# Everything is made in a staging folder beside the prefix first and moved into place file
# by file; when a move fails, the files moved so far are taken back, so an install is whole
# or absent. An existing file of the same name is replaced.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

# Removes the folders an install makes under $1 when they are empty.
remove_empty_folders() {
    for dir in share/hostapp share/thumbnailers share/applications share/man/man1 share/man share/bash-completion/completions \
               share/bash-completion share/zsh/site-functions share/zsh share/fish/vendor_completions.d share/fish share bin; do
        rmdir "$1/$dir" 2>/dev/null || true
    done
}

if [ "${1:-}" = "--uninstall" ]; then
    prefix="$2"
    list="$prefix/share/hostapp/installed-files"
    [ -f "$list" ] || { echo "install.sh: nothing installed in $prefix (no $list)" >&2; exit 1; }
    while IFS= read -r file; do rm -f "$prefix/$file"; done < "$list"
    rm -f "$list"
    remove_empty_folders "$prefix"
    echo "removed hostapp from $prefix"
    exit 0
fi

prefix="$1"
bin="$2"
manual="$3"
for program in hostapp hostapp-full; do
    [ -x "$bin/$program" ] || { echo "install.sh: $bin/$program is not built" >&2; exit 1; }
done
[ -f "$manual" ] || { echo "install.sh: the manual page $manual is not written" >&2; exit 1; }
mkdir -p "$prefix" 2>/dev/null || { echo "install.sh: cannot make $prefix" >&2; exit 1; }
[ -w "$prefix" ] || { echo "install.sh: $prefix is not writable" >&2; exit 1; }
stage="$(mktemp -d "$prefix/.hostapp-install-XXXXXX")"
trap 'rm -rf "$stage"' EXIT

install -D -m 755 "$bin/hostapp" "$stage/bin/hostapp"
install -D -m 755 "$bin/hostapp-full" "$stage/bin/hostapp-full"
install -D -m 644 "$here/Packaging/hostapp.desktop" "$stage/share/applications/hostapp.desktop"
install -D -m 644 "$here/Packaging/hostapp.thumbnailer" "$stage/share/thumbnailers/hostapp.thumbnailer"
mkdir -p "$stage/share/man/man1" "$stage/share/bash-completion/completions" "$stage/share/zsh/site-functions" "$stage/share/fish/vendor_completions.d"
install -m 644 "$manual" "$stage/share/man/man1/hostapp.1"
"$bin/hostapp-full" --generate-completion-script bash > "$stage/share/bash-completion/completions/hostapp"
"$bin/hostapp-full" --generate-completion-script zsh > "$stage/share/zsh/site-functions/_hostapp"
"$bin/hostapp-full" --generate-completion-script fish > "$stage/share/fish/vendor_completions.d/hostapp.fish"
mkdir -p "$stage/share/hostapp"
files="$( (cd "$stage" && find . -type f | sed 's|^\./||'; echo "share/hostapp/installed-files") | sort)"
printf '%s\n' "$files" > "$stage/share/hostapp/installed-files"

moved=()
undo() {
    for file in "${moved[@]}"; do rm -f "$prefix/$file"; done
    remove_empty_folders "$prefix"
    echo "install.sh: could not install into $prefix; nothing was left there" >&2
    exit 1
}
while IFS= read -r file; do
    mkdir -p "$(dirname "$prefix/$file")" || undo
    mv -f "$stage/$file" "$prefix/$file" || undo
    moved+=("$file")
done <<< "$files"
echo "installed hostapp into $prefix"
