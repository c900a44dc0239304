"""The server as a fleet: one `hostapp serve` against three replicas behind HAProxy, on a
throwaway PostgreSQL, on this machine (Tests/Support/fleet.py starts them, as the fleet
tests do).

- Throughput and latency (wrk, BENCH_FLEET_SECONDS per run, default 10): 32 connections each
  asking for pages of R's reference manual picked at random among its first 200, at 72 dpi,
  from one replica directly, from one behind HAProxy, and from three behind it.
- The page caches' hit rates in those runs (each replica's own, and the memcached they
  share), from each replica's /api/metrics.
- What a reader waits across a rolling restart: four readers through HAProxy asking for
  pages while each of three replicas is stopped (SIGTERM) and started again in turn; the
  answers' times (p50, p99, the longest) and how many were not 200.

Run alone by `make bench-fleet`, and by `make bench`. Needs wrk and HAProxy (make bench-deps
and make setup install them).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from report_section import run

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Support"))
from fleet import TOKEN, Fleet, request  # noqa: E402

HOSTAPP = os.environ.get("HOSTAPP", ".build/release/hostapp")
SECONDS = float(os.environ.get("BENCH_FLEET_SECONDS", "10"))
MANUAL = "/usr/share/R/doc/manual/refman.pdf"
DOCUMENT = "docs/refman.pdf"
PAGES = 200
BEGIN, END = "<!-- fleet -->", "<!-- /fleet -->"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def wrk(port, folder):
    """(requests per second, p50 ms, p99 ms, non-2xx answers) of wrk's run against `port`."""
    script = os.path.join(folder, "pages.lua")
    with open(script, "w") as f:
        f.write('math.randomseed(%d)\nrequest = function()\n  return wrk.format("GET", "/api/documents/%s/pages/" .. math.random(0, %d) .. "/image?dpi=72")\nend\n'
                % (int(time.time()), urllib.parse.quote(DOCUMENT, safe=""), PAGES - 1))
    output = subprocess.run(
        ["wrk", "-t2", "-c32", "-d%ds" % SECONDS, "--latency", "-s", script, "-H", "Authorization: Bearer " + TOKEN, "http://127.0.0.1:%d/" % port],
        capture_output=True, text=True, check=True).stdout

    def milliseconds(label):
        value, unit = re.search(r"^\s*%s\s+([\d.]+)(us|ms|s)\s*$" % label, output, re.M).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)), milliseconds("50%"), milliseconds("99%"), int(failed.group(1)) if failed else 0


CACHE_METRICS = ["hostapp_page_cache_hits_total", "hostapp_page_cache_misses_total", "hostapp_shared_page_cache_hits_total"]


def cache_counts(fleet):
    """Every replica's page cache hits, misses and shared cache hits so far, summed."""
    counts = [0.0] * len(CACHE_METRICS)
    for port in fleet.ports:
        body = request(port, "GET", "/api/metrics")[2].decode()
        for index, name in enumerate(CACHE_METRICS):
            counts[index] += sum(float(value) for value in re.findall(r"^%s(?:\{[^}]*\})? ([\d.e+]+)$" % name, body, re.M))
    return counts


def measured_run(fleet, port, folder):
    """wrk's figures, then the share of lookups a replica's own cache answered and the share
    the shared cache answered after the own missed."""
    before = cache_counts(fleet)
    rate, p50, p99, failed = wrk(port, folder)
    hits, misses, shared = [after - earlier for after, earlier in zip(cache_counts(fleet), before)]
    return rate, p50, p99, failed, hits / max(1, hits + misses), shared / max(1, hits + misses)


def rolling_restart(fleet):
    """The times (ms) of readers' answers through HAProxy while each replica restarts, and
    the statuses that were not 200."""
    stopping, lock, times, others = threading.Event(), threading.Lock(), [], []

    def read(seed):
        number = seed
        while not stopping.is_set():
            number = (number * 7 + 3) % PAGES
            started = time.perf_counter()
            status = fleet.through_balancer("GET", "/api/documents/%s/pages/%d/image?dpi=72" % (urllib.parse.quote(DOCUMENT, safe=""), number))[0]
            with lock:
                times.append((time.perf_counter() - started) * 1000)
                if status != 200:
                    others.append(status)
    readers = [threading.Thread(target=read, args=(seed,)) for seed in range(4)]
    for reader in readers:
        reader.start()
    try:
        time.sleep(2)
        for index in range(len(fleet.ports)):
            fleet.stop(index)
            fleet.start(index)
            fleet.wait_until(lambda: fleet.ready(index), "replica %d ready" % index)
            time.sleep(1)
    finally:
        stopping.set()
        for reader in readers:
            reader.join()
    return times, others


def measure():
    rows = []
    folder = tempfile.mkdtemp(prefix="bench-fleet-")
    try:
        for replicas in (1, 3):
            fleet = Fleet(HOSTAPP, os.path.join(folder, str(replicas)), replicas, documents=[MANUAL])
            try:
                if replicas == 1:
                    rows.append(("one replica, directly", *measured_run(fleet, fleet.ports[0], folder)))
                rows.append(("%s behind HAProxy" % ("one replica" if replicas == 1 else "three replicas"), *measured_run(fleet, fleet.balancer_port, folder)))
                if replicas == 3:
                    restart_times, restart_others = rolling_restart(fleet)
            finally:
                fleet.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    single = rows[0][1]
    lines = [
        BEGIN,
        "## The server as a fleet",
        "",
        f"`Benchmarks/fleet_load.py` (`{os.path.relpath(HOSTAPP)}`), replicas on a throwaway PostgreSQL sharing one documents folder,",
        f"behind Debian's HAProxy (round robin, each replica checked on `/api/ready` every 100 ms). wrk for {SECONDS:.0f} s, 32 connections,",
        f"pages of R's reference manual picked at random among its first {PAGES}, at 72 dpi. Each replica keeps its own page cache,",
        "and they share a memcached (`--shared-cache`): a page one replica drew, another finds there (shares of every lookup).",
        "",
        "| Served by | Requests/s | Against one replica | p50 | p99 | Not 2xx | Own cache hits | Shared cache hits |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, rate, p50, p99, failed, own, shared in rows:
        lines.append(f"| {name} | {rate:.0f} | {rate / single:.2f}x | {p50:.1f} ms | {p99:.1f} ms | {failed} | {own:.0%} | {shared:.0%} |")
    lines += [
        "",
        f"A rolling restart of the three (each stopped with SIGTERM, started again and ready before the next), under four readers",
        f"through HAProxy: {len(restart_times)} answers, p50 {percentile(restart_times, 0.5):.1f} ms, p99 {percentile(restart_times, 0.99):.1f} ms,"
        f" the longest {max(restart_times):.0f} ms; {len(restart_others)} not 200.",
        "",
        "This machine has two cores: three replicas share them, so the figures show what the balancer and the replicas'",
        "separate caches cost, not what more machines give.",
        END,
    ]
    return lines


if __name__ == "__main__":
    run(measure, "BENCHMARKS.md", BEGIN, END)
