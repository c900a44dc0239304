#!/usr/bin/env python3
"""Writes the CI section of BENCHMARKS.md from the output of one `.ci/run` on a fresh clone:

    git clone REPO ci/main && cp -r shared ci/shared && (cd ci/main && CI=true bash .ci/run) > ci.log 2>&1
    python3 Benchmarks/ci_phases.py ci.log "what the run was (machine, commit, anything beside it)"

The phases, their seconds and how busy the machine's cores were during each come from the
list `.ci/run` prints at its end (Scripts/timed.sh measures each). The section is kept in Benchmarks/CI-PHASES.md too, which `make bench` appends
when it writes the report anew.
"""
import os
import re
import sys

import report_section

BEGIN, END = "<!-- ci-phases -->", "<!-- /ci-phases -->"
BUDGET = 25 * 60


def phases(log):
    """The (phase, seconds, percent of the cores busy or None) rows and the total of the run's
    closing list."""
    text = open(log, encoding="utf-8", errors="replace").read()
    listed = text.rsplit("== Phases (seconds):", 1)
    if len(listed) != 2:
        sys.exit(f"{log} holds no '== Phases (seconds):' list: not the output of .ci/run")
    rows, total = [], None
    for line in listed[1].splitlines():
        match = re.match(r"== In all: (\d+) s", line)
        if match:
            total = int(match.group(1))
            break
        if "\t" in line:
            name, *figures = line.split("\t")
            busy = int(figures[1]) if len(figures) > 1 else None
            rows.append((name, int(figures[0]), busy))
    return rows, total


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows, total = phases(sys.argv[1])
    lines = [BEGIN, "## CI on a fresh clone", "", sys.argv[2], "",
             "| phase | seconds | minutes | cores busy |", "|---|---|---|---|"]
    lines += [f"| {name} | {seconds} | {seconds / 60:.1f} | {'' if busy is None else f'{busy} %'} |"
              for name, seconds, busy in rows]
    lines += [f"| **in all** | **{total}** | **{total / 60:.1f}** | |", "",
              "A phase marked beside another shares the machine with it; its cores figure is the machine's.", "",
              f"The budget is {BUDGET // 60} minutes; this run is {total / BUDGET:.2f}x it.", END]
    here = os.path.dirname(os.path.abspath(__file__))
    open(os.path.join(here, "CI-PHASES.md"), "w").write("\n".join(lines) + "\n")
    report_section.replace(os.path.join(os.path.dirname(here), "BENCHMARKS.md"), BEGIN, END, lines)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
