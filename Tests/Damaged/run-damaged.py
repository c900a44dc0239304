#!/usr/bin/env python3
"""Runs every hostapp command that reads a document on each PDF of a folder, with each
backend (Ghostscript's: render, text and search, which it declares), and writes what happened to each run as JSON; prints each bad run as it ends, the
figures so far every 5,000 runs, and a summary.

    run-damaged.py --hostapp PATH DIR [--report FILE] [--jobs N] [--timeout S]
                   [--time-limit S] [--isolate] [--auto-commands LIST] [--check]

Each run gets hostapp's --time-limit (5 s by default), so that an engine that cannot be
stopped ends the run, in process, after twice that time without progress.

`auto` differs from the engine it picks only in how it opens a file (MuPDF first, then a
hand-off to Poppler), so --auto-commands may name the commands it runs (comma-separated;
all by default), for a run sized for CI.

Render, text and search read pages 1-2, or page 1 of a document in which info (run first,
with the same backend) finds one page. With --isolate, only the commands that can run their engine in a child process (info,
render, text) run, and they do so.

A run is one (file, backend, command). Its record holds the exit status (negative: the
signal that ended it), whether it ran past the timeout (and was killed), its time, and the
last line of its stderr. With --check, the exit status is 1 when any run died by a signal,
ran past the timeout, failed without a typed error (an exit code other than 64, 65, 70
and 74, or no "hostapp: error:" line on stderr), or failed at all on an undamaged real
document (real-*.pdf); compare's 1 (a page failed the thresholds) counts as success.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

BACKENDS = ["mupdf", "poppler", "ghostscript", "auto"]
COMMANDS = {
    "info": ["info", "{file}"],
    "render": ["render", "{file}", "--pages", "{pages}", "--dpi", "36", "-o", "{out}"],
    "text": ["text", "{file}", "--pages", "{pages}"],
    "search": ["search", "{file}", "e", "--pages", "{pages}"],
    "outline": ["outline", "{file}"],
    "links": ["links", "{file}"],
    "annotations": ["annotations", "list", "{file}"],
    "export": ["annotations", "export", "{file}", "--format", "xfdf"],
    "bookmarks": ["bookmarks", "list", "{file}"],
    "compare": ["compare", "{file}", "--pages", "1", "--dpi", "20"],
}
# The commands of a backend that reads and draws only (the others run every command).
BACKEND_COMMANDS = {"ghostscript": {"render", "text", "search"}}
TYPED_EXIT_CODES = {64, 65, 70, 74}
# The commands hostapp runs in an engine process with --isolate.
ISOLATED_COMMANDS = {"info", "render", "text"}
# How often a long run prints its figures so far.
PROGRESS_EVERY = 5000


def run_file(hostapp, path, backend, commands, timeout, time_limit, isolate, scratch, auto_commands):
    """Runs `commands` on one file with one backend: info first, whose page count decides
    the pages the others read (the first two, or the only one)."""
    records = []
    pages = "1-2"
    for command in commands:
        if command == "compare" and backend != "auto":
            continue
        if command not in BACKEND_COMMANDS.get(backend, COMMANDS):
            continue
        if backend == "auto" and command not in auto_commands:
            continue
        record, stdout = run_one(hostapp, path, backend, command, pages, timeout, time_limit, isolate, scratch)
        records.append(record)
        if command == "info" and record["status"] == 0:
            count = re.search(rb"^Pages: *(\d+)$", stdout, re.M)
            if count and int(count.group(1)) == 1:
                pages = "1"
    return records


def run_one(hostapp, path, backend, command, pages, timeout, time_limit, isolate, scratch):
    """Runs one command; returns its record and its standard output."""
    out = tempfile.mkdtemp(dir=scratch)
    arguments = [part.format(file=path, out=out, pages=pages) for part in COMMANDS[command]]
    if command != "compare":
        arguments[0:0] = ["--renderer", backend]
    if isolate:
        arguments.insert(0, "--isolate")
    arguments[0:0] = ["--time-limit", str(time_limit)]
    environment = dict(os.environ, XDG_DATA_HOME=scratch, HOSTAPP_RENDERER="", HOSTAPP_BACKEND="")
    started = time.monotonic()
    try:
        process = subprocess.run(
            [hostapp, *arguments], capture_output=True, stdin=subprocess.DEVNULL, timeout=timeout, env=environment)
        status, timed_out, stdout, stderr = process.returncode, False, process.stdout, process.stderr
    except subprocess.TimeoutExpired as expired:
        status, timed_out, stdout, stderr = None, True, b"", expired.stderr or b""
    shutil.rmtree(out, ignore_errors=True)
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    errors = [line for line in lines if line.startswith("hostapp: error:")]
    return {
        "file": os.path.basename(path), "backend": backend, "command": command, "pages": pages,
        "status": status, "timedOut": timed_out, "seconds": round(time.monotonic() - started, 3),
        "error": errors[-1] if errors else (lines[-1] if lines else ""), "typedError": bool(errors),
    }, stdout


def succeeded(record):
    # compare exits 1 when the engines differ, search when nothing matches.
    return record["status"] == 0 or (record["status"] == 1 and record["command"] in ("compare", "search"))


def is_bad(record):
    if record["timedOut"] or record["status"] is None or record["status"] < 0:
        return True
    if succeeded(record):
        return False
    if record["file"].startswith("real-"):
        return True
    return record["status"] not in TYPED_EXIT_CODES or not record["typedError"]


def summary(records, bad, file_count, when):
    successes = sum(1 for record in records if succeeded(record))
    slowest = max((record["seconds"] for record in records), default=0)
    return ("%d runs on %d files %s: %d succeeded, %d failed with a typed error, %d bad; slowest %.1f s"
            % (len(records), file_count, when, successes, len(records) - successes - len(bad), len(bad), slowest))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--hostapp", required=True)
    parser.add_argument("--report")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--time-limit", type=float, default=5)
    parser.add_argument("--isolate", action="store_true")
    parser.add_argument("--auto-commands", default=",".join(COMMANDS))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    auto_commands = set(args.auto_commands.split(","))
    if not auto_commands <= set(COMMANDS):
        parser.error("--auto-commands names no command: %s" % ", ".join(sorted(auto_commands - set(COMMANDS))))
    files = sorted(os.path.join(args.dir, name) for name in os.listdir(args.dir) if name.endswith(".pdf"))
    records, bad = [], []
    with tempfile.TemporaryDirectory() as scratch, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        commands = [command for command in COMMANDS if not args.isolate or command in ISOLATED_COMMANDS]
        futures = [
            pool.submit(run_file, args.hostapp, path, backend, commands, args.timeout, args.time_limit, args.isolate, scratch, auto_commands)
            for path in files for backend in BACKENDS
        ]
        for future in concurrent.futures.as_completed(futures):
            for record in future.result():
                records.append(record)
                if is_bad(record):
                    bad.append(record)
                    print("BAD", json.dumps(record), flush=True)
                if len(records) % PROGRESS_EVERY == 0:
                    print(summary(records, bad, len(files), "so far"), flush=True)
    records.sort(key=lambda record: (record["file"], record["backend"], record["command"]))
    if args.report:
        with open(args.report, "w") as file:
            json.dump(records, file, indent=1)
    print(summary(records, bad, len(files), "in all"))
    return 1 if args.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
