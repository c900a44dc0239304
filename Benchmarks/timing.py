"""What the benchmark scripts share: timing commands with hyperfine, each writing into a
folder emptied first."""
import json
import statistics
import subprocess
import tempfile


def hyperfine(commands, runs, rounds=1, shell=True):
    """Median seconds of each command (name -> shell command), `runs` runs each. With several
    `rounds`, the runs are split into that many hyperfine calls that take the commands in turn,
    so that a machine slowing down for a while slows every command alike; the median is of
    all runs. Without `shell`, each command is a program and its arguments, run directly: for
    runs of a few milliseconds, where hyperfine's subtraction of a shell's start is noise."""
    times = {name: [] for name in commands}
    for _ in range(rounds):
        with tempfile.NamedTemporaryFile(suffix=".json") as report:
            args = ["hyperfine", "--style", "none", "--runs", str(max(2, runs // rounds)), "--export-json", report.name]
            if not shell:
                args += ["--shell", "none"]
            for name, command in commands.items():
                args += ["--command-name", name, command]
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
            for result in json.load(open(report.name))["results"]:
                times[result["command"]] += result["times"]
    return {name: statistics.median(values) for name, values in times.items()}


def into(directory, command):
    """`command`, writing into `directory` emptied first (the emptying is timed too, for every tool alike)."""
    return f"rm -rf {directory} && mkdir -p {directory} && {command}"
