"""The public set of documents the scripts of this folder read: the PDFs Debian installs under
the folders given (by default /usr/share/doc and /usr/share/R/doc), symbolic links left out.
No file is committed or downloaded."""
import os
import sys

DEFAULT_FOLDERS = ["/usr/share/doc", "/usr/share/R/doc"]


def arguments(usage):
    """The hostapp binary and the set's files, from the command line (`HOSTAPP [FOLDER ...]`);
    exits with `usage` when no binary is given, and says so when the folders hold no PDF."""
    if len(sys.argv) < 2:
        sys.exit(usage)
    folders = sys.argv[2:] or DEFAULT_FOLDERS
    files = sorted(os.path.join(root, name) for folder in folders for root, _, names in os.walk(folder)
                   for name in names if name.lower().endswith(".pdf") and not os.path.islink(os.path.join(root, name)))
    if not files:
        sys.exit("no PDF under " + ", ".join(folders))
    return sys.argv[1], files
