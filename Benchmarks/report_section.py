"""Rewrites one marked section of a report (BENCHMARKS.md), for the benchmarks that can run alone."""
import os
import re


def replace(report, begin, end, lines):
    """Puts `lines` (which start with `begin` and end with `end`) in place of the section
    between those markers in `report`, or at its end when it has none."""
    text = open(report).read() if os.path.exists(report) else "# Benchmarks\n"
    section = "\n".join(lines)
    if begin in text:
        text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: section, text, flags=re.S)
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    open(report, "w").write(text)


def run(measure, report, begin, end):
    """A benchmark run alone: measures, prints the section and puts it in `report`."""
    lines = measure()
    print("\n".join(lines))
    replace(report, begin, end, lines)
