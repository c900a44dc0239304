#!/usr/bin/env python3
"""The examples README.md and the guides under docs/ show, held to what the project does:

- the README's command-line block runs, line by line, in a scratch folder holding a copy of
  Samples/ (its `serve` line until the server prints its address), and each line's output is
  checked;
- the README's Swift block is, line for line, the example Tests/ConformanceTests/
  ReadmeExampleTests.swift builds and runs;
- every `hostapp` command in a shell block of README.md and docs/*.md names a command that
  exists and only options that command (or the global options) takes, as the command line's
  own description says (`hostapp-full --experimental-dump-help`).

  test_examples.py BIN_DIR [unittest arguments]     (BIN_DIR holds hostapp and hostapp-full)
"""
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = None


def blocks(path, language):
    """The fenced code blocks of one language in a Markdown file, as lists of lines, with the
    heading each stands under."""
    found, heading, current = [], None, None
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if current is not None:
                if line.startswith("```"):
                    found.append((heading, current))
                    current = None
                else:
                    current.append(line)
            elif line.startswith("```"):
                if line[3:].strip() == language:
                    current = []
            elif line.startswith("#"):
                heading = line.lstrip("#").strip()
    return found


def readme_block(language, heading):
    matches = [lines for under, lines in blocks(os.path.join(ROOT, "README.md"), language) if under == heading]
    assert len(matches) == 1, f"README.md has {len(matches)} {language} blocks under {heading!r}"
    return matches[0]


def command_of(line):
    """The words of a shell line's hostapp command (from `hostapp` to a pipe, a redirection or
    the comment), or None for a line that runs no hostapp."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:
        return None
    if "hostapp" not in words:
        return None
    words = words[words.index("hostapp"):]
    for stop in ("|", ">", "<", "&&", ";", "2>"):
        if stop in words:
            words = words[:words.index(stop)]
    return words


class Options:
    """The command tree and the options each command takes, from the dump of the help."""

    def __init__(self, dump):
        self.root = dump["command"]

    @staticmethod
    def names(command):
        """The option and flag names `command` takes, as typed (`--pages`, `-o`)."""
        names = set()
        for argument in command.get("arguments") or []:
            if argument["kind"] == "positional":
                continue
            for name in argument.get("names") or []:
                names.add(("-" if name["kind"] in ("short", "longWithSingleDash") else "--") + name["name"])
        return names | {"--help", "-h"}

    def takes_value(self, command, option):
        for argument in command.get("arguments") or []:
            for name in argument.get("names") or []:
                if ("-" if name["kind"] in ("short", "longWithSingleDash") else "--") + name["name"] == option:
                    return argument["kind"] == "option"
        return False

    def check(self, words):
        """The problems of one command line (an empty list when it is right)."""
        command, path, problems = self.root, ["hostapp"], []
        known = self.names(command)
        words = words[1:]
        index = 0
        while index < len(words):
            word = words[index]
            if word.startswith("-") and word != "-":
                option = word.split("=", 1)[0]
                subcommands = {sub["commandName"]: sub for sub in command.get("subcommands") or []}
                if option not in known and not (subcommands and any(option in self.names(sub) for sub in subcommands.values())):
                    problems.append(f"{' '.join(path)} takes no {option}")
                owner = command if option in self.names(command) else None
                if owner is None:
                    for sub in subcommands.values():
                        if option in self.names(sub):
                            owner = sub
                            break
                if owner is not None and "=" not in word and self.takes_value(owner, option):
                    index += 1
                index += 1
                continue
            subcommands = {sub["commandName"]: sub for sub in command.get("subcommands") or []}
            if subcommands and word in subcommands:
                command = subcommands[word]
                path.append(word)
                known = self.names(command)
            elif subcommands and path == ["hostapp"]:
                problems.append(f"hostapp has no command {word}")
                break
            index += 1
        return problems


class ExampleTests(unittest.TestCase):
    def test_the_readme_command_line_block_runs(self):
        lines = [line for line in readme_block("sh", "On the command line") if line.strip()]
        self.assertGreaterEqual(len(lines), 6)
        folder = tempfile.mkdtemp(prefix="readme-")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        shutil.copytree(os.path.join(ROOT, "Samples"), os.path.join(folder, "Samples"))
        environment = dict(os.environ, PATH=BIN + os.pathsep + os.environ["PATH"], XDG_DATA_HOME=os.path.join(folder, "data"))
        for line in lines:
            words = command_of(line)
            self.assertIsNotNone(words, line)
            if words[1] == "serve":
                server = subprocess.Popen(words, cwd=folder, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                try:
                    first = server.stdout.readline()
                    self.assertRegex(first, r"http://127\.0\.0\.1:\d+/\?token=[0-9a-f]+", line)
                finally:
                    server.send_signal(signal.SIGINT)
                    self.assertEqual(server.wait(timeout=110), 0, line)
                continue
            run = subprocess.run(words, cwd=folder, env=environment, capture_output=True, text=True, timeout=110)
            self.assertEqual(run.returncode, 0, f"{line}\n{run.stderr}")
            if words[1] == "search":
                self.assertRegex(run.stdout, r"page 3: .*\n[1-9]\d* hits?\n", line)
            if words[1] == "text":
                self.assertIn("Both engines draw this page", run.stdout, line)
        for made in ["page.png", "reviewed.pdf", "report/index.html"]:
            self.assertTrue(os.path.isfile(os.path.join(folder, made)), made)
        listed = subprocess.run([os.path.join(BIN, "hostapp"), "annotations", "list", "reviewed.pdf"], cwd=folder, env=environment,
                                capture_output=True, text=True, timeout=110)
        self.assertIn("Square", listed.stdout)

    def test_the_readme_swift_block_is_the_example_the_tests_run(self):
        shown = [line.strip() for line in readme_block("swift", "In Swift") if line.strip() and not line.startswith("import ")]
        with open(os.path.join(ROOT, "Tests", "ConformanceTests", "ReadmeExampleTests.swift"), encoding="utf-8") as f:
            source = f.read()
        inside = source.split("// README example begins\n", 1)[1].split("// README example ends", 1)[0]
        run = [line.strip() for line in inside.split("\n") if line.strip()]
        self.assertEqual(shown, run)

    def test_every_hostapp_command_in_the_docs_exists_with_its_options(self):
        dump = json.loads(subprocess.run([os.path.join(BIN, "hostapp-full"), "--experimental-dump-help"],
                                         capture_output=True, text=True, check=True, timeout=110).stdout)
        options = Options(dump)
        problems, checked = [], 0
        for path in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
            for _, lines in blocks(path, "sh"):
                for line in lines:
                    words = command_of(line)
                    if not words or len(words) < 2:
                        continue
                    checked += 1
                    problems += [f"{os.path.relpath(path, ROOT)}: {line.strip()}: {problem}" for problem in options.check(words)]
        self.assertGreater(checked, 50)
        self.assertEqual(problems, [])

    def test_no_help_text_shows_a_stray_backslash(self):
        # A discussion written with `\\` at a line's end (an escaped backslash, not Swift's line
        # continuation) shows the backslash and breaks the line in --help and the manual page.
        dump = json.loads(subprocess.run([os.path.join(BIN, "hostapp-full"), "--experimental-dump-help"],
                                         capture_output=True, text=True, check=True, timeout=110).stdout)
        stray = []

        def walk(command, path):
            for field in ["abstract", "discussion"]:
                if "\\" in command.get(field, ""):
                    stray.append(f"{path}: {field}")
            for argument in command.get("arguments", []):
                if "\\" in argument.get("abstract", "") + argument.get("discussion", ""):
                    stray.append(f"{path} {argument.get('valueName', '')}")
            for sub in command.get("subcommands", []):
                walk(sub, f"{path} {sub['commandName']}")

        walk(dump["command"], "hostapp")
        self.assertEqual(stray, [])

    def test_the_checker_finds_what_rotted(self):
        dump = json.loads(subprocess.run([os.path.join(BIN, "hostapp-full"), "--experimental-dump-help"],
                                         capture_output=True, text=True, check=True, timeout=110).stdout)
        options = Options(dump)
        self.assertEqual(options.check(["hostapp", "--backend", "poppler", "render", "x.pdf", "--dpi", "72", "-o", "out/"]), [])
        self.assertEqual(options.check(["hostapp", "render", "x.pdf", "--resolution", "72"]), ["hostapp render takes no --resolution"])
        self.assertEqual(options.check(["hostapp", "paint", "x.pdf"]), ["hostapp has no command paint"])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_examples.py BIN_DIR [unittest arguments]")
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
