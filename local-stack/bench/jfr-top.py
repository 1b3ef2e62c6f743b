#!/usr/bin/env python3
"""Aggregates one JFR recording of a service (e.g. the fetch worker under the steady benchmark):
the methods with the most self time (top frame of each execution sample), the methods with the
most total time (anywhere on the stack, thread plumbing left out), each sample's nearest frame of
Freshet's own code, the threads, and allocation (jdk.ObjectAllocationSample weight) by class, by
allocating frame and by nearest own frame.

  local-stack/bench/jfr-top.py RECORDING.jfr [--last SECONDS] [--top N]

--last: only samples of the last SECONDS before the recording's final sample (the measured window,
without start-up and warm-up). The jfr tool is $JFR, else the one beside bin/find-java's java."""
import argparse
import collections
import datetime
import json
import os
import subprocess

PLUMBING = ("java.lang.Thread.", "java.util.concurrent.FutureTask", "java.util.concurrent.ThreadPoolExecutor",
            "jdk.internal.vm.Continuation", "java.lang.VirtualThread", "java.util.concurrent.ThreadPerTaskExecutor",
            "java.util.concurrent.CompletableFuture", "java.util.concurrent.ForkJoin",
            "jdk.internal.net.http.common.SequentialScheduler")


def jfr_tool():
    if os.environ.get("JFR"):
        return os.environ["JFR"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    java = subprocess.run([os.path.join(root, "bin", "find-java")], capture_output=True, text=True).stdout.strip()
    return os.path.join(os.path.dirname(java), "jfr") if java else "jfr"


def events(tool, kind, path):
    out = subprocess.run([tool, "print", "--json", "--stack-depth", "96", "--events", kind, path],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["recording"]["events"]


def at(e):
    return datetime.datetime.fromisoformat(e["values"]["startTime"].replace("Z", "+00:00")).timestamp()


def frames(e):
    st = e["values"].get("stackTrace")
    return [] if not st else [(f["method"]["type"]["name"] + "." + f["method"]["name"]).replace("/", ".")
                              for f in st["frames"]]


def own(fr):
    return next((m for m in fr if m.startswith("io.freshet") and "$$Lambda" not in m), "(no io.freshet frame)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--last", type=float, default=0)
    ap.add_argument("--top", type=int, default=15)
    a = ap.parse_args()
    tool = jfr_tool()

    def window(evs):
        if not evs or not a.last:
            return evs
        hi = max(at(e) for e in evs)
        return [e for e in evs if at(e) >= hi - a.last]

    def show(title, counter, total, fmt):
        print(f"\n== {title}")
        for k, v in counter.most_common(a.top):
            print(f"{100 * v / total:6.2f}%  {fmt(v)}  {k}")

    ex = window(events(tool, "jdk.ExecutionSample", a.file))
    n = max(1, len(ex))
    self_t, total, nearest, threads = (collections.Counter() for _ in range(4))
    for e in ex:
        fr = frames(e)
        if not fr:
            continue
        self_t[fr[0]] += 1
        for m in set(fr):
            if "$$Lambda" not in m and ".lambda$" not in m and not m.startswith(PLUMBING):
                total[m] += 1
        nearest[own(fr)] += 1
        th = e["values"].get("sampledThread") or {}
        threads["(virtual)" if th.get("virtual") else (th.get("javaName") or "?").rstrip("0123456789-")] += 1
    print(f"execution samples: {len(ex)}")
    count = lambda v: f"{v:6d}"
    show("self time (top frame)", self_t, n, count)
    show("total time (anywhere on the stack, thread plumbing left out)", total, n, count)
    show("nearest io.freshet frame", nearest, n, count)
    show("threads", threads, n, count)

    al = window(events(tool, "jdk.ObjectAllocationSample", a.file))
    weight = sum(e["values"]["weight"] for e in al) or 1
    by_class, by_frame, by_own = (collections.Counter() for _ in range(3))
    for e in al:
        w, fr = e["values"]["weight"], frames(e)
        by_class[e["values"]["objectClass"]["name"]] += w
        by_frame[" < ".join(m.rsplit(".", 2)[-2] + "." + m.rsplit(".", 1)[-1] for m in fr[:4])] += w
        by_own[own(fr)] += w
    print(f"\nallocation samples: {len(al)}, weight {weight / 2**20:.0f} MiB")
    mib = lambda v: f"{v / 2**20:8.1f} MiB"
    show("allocation by class", by_class, weight, mib)
    show("allocation by allocating frames", by_frame, weight, mib)
    show("allocation by nearest io.freshet frame", by_own, weight, mib)


if __name__ == "__main__":
    main()
