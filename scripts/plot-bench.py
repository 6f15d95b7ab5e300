#!/usr/bin/env python3
"""Turns the benchmark figures (docs/benchmarks/*.json, written by apns-bench) into PNG plots and the
generated part of docs/benchmarks.md. Usage: scripts/plot-bench.py [docs/benchmarks]"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

folder = sys.argv[1] if len(sys.argv) > 1 else "docs/benchmarks"
worker = json.load(open(os.path.join(folder, "worker.json")))
client_path = os.path.join(folder, "client.json")
client = json.load(open(client_path)) if os.path.exists(client_path) else None

# Throughput against prefetch, one line per connection count.
plt.figure(figsize=(6, 4))
for connections in sorted({run["connections"] for run in worker["sweep"]}):
    runs = sorted((r for r in worker["sweep"] if r["connections"] == connections), key=lambda r: r["prefetch"])
    plt.plot([r["prefetch"] for r in runs], [r["rate"] for r in runs], marker="o", label=f"{connections} connection(s)")
if worker.get("brokerLimit"):
    limit = worker["brokerLimit"]["jobs"] / worker["brokerLimit"]["seconds"]
    plt.axhline(limit, linestyle="--", color="grey", label="broker limit")
if worker.get("ceiling"):
    ceiling = worker["ceiling"]["jobs"] / worker["ceiling"]["seconds"]
    plt.axhline(ceiling, linestyle=":", color="black", label="ceiling (limit + HTTP/2 exchange)")
plt.xscale("log")
plt.xlabel("prefetch (jobs in flight)")
plt.ylabel("jobs/s")
plt.title("Worker throughput vs prefetch and APNs connections")
plt.legend()
plt.grid(alpha=0.3)
plt.tight_layout()
plt.savefig(os.path.join(folder, "throughput.png"), dpi=110)

# Latency CDF at each offered load.
plt.figure(figsize=(6, 4))
for run in worker["latencies"]:
    samples = run["samples"]
    fractions = [(i + 1) / len(samples) for i in range(len(samples))]
    plt.plot(samples, fractions, label=f"{run['offeredRate']:.0f} jobs/s")
plt.xscale("log")
plt.xlabel("enqueue → result latency (ms)")
plt.ylabel("fraction of jobs")
plt.title("Latency CDF at fixed offered loads")
plt.legend()
plt.grid(alpha=0.3)
plt.tight_layout()
plt.savefig(os.path.join(folder, "latency-cdf.png"), dpi=110)
print(f"plots written to {folder}/throughput.png and {folder}/latency-cdf.png")
