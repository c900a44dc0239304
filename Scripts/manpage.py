#!/usr/bin/env python3
"""Writes hostapp's manual page (troff, section 1) from the command line's own help: the
JSON that `hostapp-full --experimental-dump-help` prints (swift-argument-parser's), so the
page says exactly what `--help` says. Each subcommand, nested ones included, is a section.

  manpage.py HOSTAPP_FULL OUTPUT.1
"""
import json
import subprocess
import sys


def escape(text):
    """Text as troff reads it: backslashes doubled, a leading dot or quote kept literal."""
    lines = (text or "").replace("\\", "\\e").replace("-", "\\-").splitlines()
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line for line in lines)


def flag_names(argument):
    names = argument.get("names") or []
    spelled = ", ".join(("--" if name["kind"] == "long" else "-") + name["name"] for name in names)
    if argument["kind"] == "option":
        spelled += " <" + argument.get("valueName", "value") + ">"
    if argument["kind"] == "positional":
        spelled = "<" + argument.get("valueName", "value") + ">"
    return spelled


def section(command, path, out):
    name = " ".join(path)
    out.append(".SH " + escape(name.upper()) if len(path) > 1 else ".SH DESCRIPTION")
    if command.get("abstract"):
        out.append(escape(command["abstract"]))
    if command.get("discussion"):
        out.append(".PP")
        out.append(escape(command["discussion"]))
    for argument in command.get("arguments") or []:
        if not argument.get("shouldDisplay", True):
            continue
        out.append(".TP")
        out.append(".B " + escape(flag_names(argument)))
        out.append(escape(argument.get("abstract") or ""))
    for sub in command.get("subcommands") or []:
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            section(sub, path + [sub["commandName"]], out)


def main():
    hostapp_full, output = sys.argv[1], sys.argv[2]
    dump = json.loads(subprocess.run([hostapp_full, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    command = dump["command"]
    out = [
        '.TH HOSTAPP 1 "" "hostapp" "User Commands"',
        ".SH NAME",
        "hostapp \\- " + escape(command.get("abstract", "")),
        ".SH SYNOPSIS",
        ".B hostapp",
        "[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIarguments\\fR]",
        ".PP",
        "Commands: " + escape(", ".join(sub["commandName"] for sub in command.get("subcommands") or []
                                        if sub.get("shouldDisplay", True) and sub["commandName"] != "help")) + ".",
    ]
    section(command, ["hostapp"], out)
    with open(output, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
