"""What the benchmark scripts share: timing commands with hyperfine, each writing into a
folder emptied first."""
import json
import subprocess
import tempfile


def hyperfine(commands, runs):
    """Median seconds of each command (name -> shell command), `runs` runs each, in one hyperfine call."""
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        args = ["hyperfine", "--style", "none", "--runs", str(runs), "--export-json", report.name]
        for name, command in commands.items():
            args += ["--command-name", name, command]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        return {r["command"]: r["median"] for r in json.load(open(report.name))["results"]}


def into(directory, command):
    """`command`, writing into `directory` emptied first (the emptying is timed too, for every tool alike)."""
    return f"rm -rf {directory} && mkdir -p {directory} && {command}"
