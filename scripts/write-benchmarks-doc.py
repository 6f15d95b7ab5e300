#!/usr/bin/env python3
"""Writes docs/benchmarks.md from the figures apns-bench left in docs/benchmarks/ (run by make bench)."""
import json
import os
import platform
import re
import statistics
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "docs/benchmarks"
worker = json.load(open(os.path.join(folder, "worker.json")))
client = json.load(open(os.path.join(folder, "client.json")))
jwt = open(os.path.join(folder, "jwt.txt")).read().strip()
profile = json.load(open(os.path.join(folder, "profile.json")))


def partition_section(path):
    """The partitioned-queues runs on the three-node cluster (`apns-bench partitions`), as a table of
    medians per partition count; nothing when the file is missing."""
    if not os.path.exists(path):
        return []
    pattern = re.compile(r"round (\d+), (\d+) partition\(s\): (\d+) jobs/s; CPU µs per job: broker ([\d.]+) \((.*)\); leaders: (.*)")
    runs = {}
    for line in open(path):
        match = pattern.match(line.strip())
        if not match:
            continue
        parts = dict((name, float(value)) for name, value in (item.rsplit(" ", 1) for item in match.group(5).split(", ")))
        runs.setdefault(int(match.group(2)), []).append((float(match.group(3)), float(match.group(4)), parts, match.group(6)))
    if not runs:
        return []
    lines = [
        "## Partitioned jobs queues on a three-node cluster (`apns-bench partitions`)",
        "",
        "The same jobs through one jobs queue and through three (`topology.partitions: 3`), on the local",
        "three-node cluster (`scripts/rabbitmq-cluster.sh`: all three nodes on these two cores), three worker",
        "processes each connected to another node first. Broker CPU is the three nodes together; each node",
        "holds a replica of every quorum queue. Medians over the rounds; the capacity arithmetic built on",
        "these figures is in docs/operations.md.",
        "",
        "| partitions | rounds | jobs/s | broker CPU µs per job | per node (rabbit1 / 2 / 3) | worker CPU µs per job | leaders |",
        "|---|---|---|---|---|---|---|",
    ]
    for partitions in sorted(runs):
        rows = runs[partitions]
        nodes = " / ".join(f"{statistics.median(r[2].get(f'rabbit{n}', 0) for r in rows):.0f}" for n in (1, 2, 3))
        lines.append(
            f"| {partitions} | {len(rows)} | {statistics.median(r[0] for r in rows):,.0f} | {statistics.median(r[1] for r in rows):.0f} | {nodes} "
            f"| {statistics.median(r[2].get('worker', 0) for r in rows):.0f} | {rows[-1][3]} |"
        )
    return lines + [""]


def quoted_section(path, heading, before, after=()):
    """A command's printout quoted as it came, under `heading`, between lines of prose; nothing when the
    file is missing (that part of `make bench` did not run)."""
    if not os.path.exists(path):
        return []
    return [heading, "", *before, "", "```", open(path).read().strip(), "```", "", *after, *([""] if after else [])]


def amqp_section(path):
    return quoted_section(path, "## The AMQP client against bare rabbitmq-c (`apns-bench amqp`)", [
        "The same pre-loaded jobs (prefetch 500) answered by `bench/bare-limit.c`, rabbitmq-c's own blocking",
        "loop in C, and by the limit loop, the project's client answering on its event loop",
        "(`AMQPClient.onLoop`: a 420-byte persistent result published with confirms, then the ack, no task or",
        "continuation), each a process of its own. CPU per job is each loop's own account from its first",
        "delivery to its last answer, the broker's from /proc over the run; then one more run of each under",
        "`strace -c -f` counts system calls per job. One run of the command:",
    ], [
        "The targets (issue 24) are the limit loop's CPU per job within 1.5× the bare loop's, and the broker's",
        "CPU per job under it within 1.1× of its figure under the bare loop. The limit loop writes once per",
        "event-loop tick however many frames it encoded; the bare loop's `amqp_basic_publish()` sends each",
        "frame with its own `send()`.",
    ])


def multicast_section(path):
    return quoted_section(path, "## Multicast jobs: notifications per broker message (`apns-bench multicast`)", [
        "The same notifications as jobs of 1, 100 and 1,000 tokens (`device_tokens`) through one jobs queue",
        "and one worker (prefetch 500, 2 connections) to the mock; CPU per notification of the broker and",
        "the worker; the client benchmark alone on the same mock for the CPU a notification needs at least;",
        "the worker's peak RSS with 10 jobs of 10,000 tokens in flight; and single jobs' latency with and",
        "without 20 jobs of 10,000 tokens ahead of them. Medians of the rounds, one run of the command:",
    ], [
        "The targets (issue 25) are 5× the single-job rate at 100 tokens, and worker CPU per notification",
        "within 1.1× of the client benchmark's (1.3× when multicast landed). The client alone against the same",
        "mock (no broker, no jobs) is the ceiling for notifications/s on these two cores, where the mock's one",
        "event loop, the broker and the worker share them; the CPU ratio is the figure that carries to real",
        "hardware. The client sends what the worker's senders send, as they send it: callbacks on the loop",
        "that holds its connections, each request to a device of its own under an apns-id of its own, so",
        "HPACK encodes a new `:path` and `apns-id` every time, as it does for the worker. Until 2026-11-30 it",
        "sent from tasks on the cooperative pool to one device without an apns-id, which cost it more than",
        "the worker's senders now pay and flattered the ratio; the line after it keeps that yardstick beside",
        "the new one (docs/decisions.md, \"Multicast jobs and broadcast channels\"). What the worker spends",
        "beyond the client is per-token work (the apns-id digest, the verdict, the tally), per-job work",
        "(decoding up to 10,000 tokens, publishing the result), and the wake-ups of loops that run below",
        "saturation while the broker and the mock hold the rest of the two cores.",
        "",
        "The last three lines are the lanes' (issue 26): single jobs at 1,000/s for 8 s published to the",
        "urgent lane, alone and while 200,000 bulk notifications drain, queued as 20 multicast jobs before",
        "the worker starts (target: p99 with the load at most 2× alone), and both lanes behind a campaign of",
        "100,000 single bulk jobs queued the same way. Latency is the producer's: from a job's publication to",
        "its result's arrival on the results queue, on the benchmark's clock in microseconds; behind",
        "multicast it counts only the jobs published before the backlog's last result came. The worker's own",
        "`latency_ms` (until the result leaves it, whole milliseconds) is printed after it.",
        "",
        "Behind single jobs the lanes keep the order they are for: bulk jobs wait for the backlog (p99 in",
        "seconds), urgent ones do not wait for it, but they do wait for CPU. The drain holds the two cores",
        "(the broker about 90% of one, sampled from /proc), an urgent job crosses the broker twice, and its",
        "result waits on the results queue among the campaign's, which this benchmark's own consumer must",
        "get through on the same cores (a producer that needs urgent results fast gives its jobs a",
        "`reply_to` queue: docs/messages.md): most of its latency is spent after it left the worker. Behind",
        "multicast jobs no job waits for the backlog either (they hold 20 slots, an urgent request has its",
        "reserved streams, and pacing cuts the bulk multicast requests in flight while urgent jobs are",
        "slower than their baseline: docs/operations.md, \"Pacing bulk multicast\"). Bulk work pays for it",
        "while urgent work flows: by hand, in four alternating pairs, the drain took 4.5–5.6 s with the",
        "urgent jobs against 4.2–4.9 s before, and a drain that outlasts the 8 s of urgent jobs is said",
        "so above. The ratio moves with the figure alone as much as with the load (p99 alone 1.8–4.9 ms",
        "between runs). Until 2026-11-27 the worst urgent jobs here were those of a stall of the mock's",
        "own: its table of accepted apns-ids rehashed under the lock its connections share, at about",
        "100,000 and 200,000 ids, and no answer left it for 30–50 ms. What else was tried inside the",
        "worker is in docs/decisions.md (lanes).",
        "",
        "What the p99 with the drain is made of, measured by hand on 2026-11-30 (`multicast --fairness-only",
        "--urgent-only`, seven runs of one build): the ratio came out 4.48, 3.07, 14.10, 2.13, 2.29, 3.29",
        "and 2.50. In three of them each job's latency was kept. The slowest 1% of urgent jobs (about 80)",
        "were not spread over the drain in two of the three: 69 fell in one 100 ms window of one run (p99",
        "19.1 ms), 65 in two adjacent windows of another (12.9 ms); in the third (10.0 ms) they were spread.",
        "For the first run's, the worker's own `latency_ms` (publication to the result leaving it) was 2 ms",
        "at the median and the rest, 26 ms, their results' way through the broker to the benchmark's",
        "consumer; for the second's, 7 ms and 12 ms. So the figure is decided by one stall of 50–100 ms per",
        "run, mostly outside the worker, on two cores that the drain keeps busy, and one run's ratio says",
        "little: the same build gave 2.13 and 14.10.",
        "",
        "Until 2026-11-26 this benchmark queued the backlog after the worker had started, while the worker",
        "was already taking it, and timed whole milliseconds from the worker's `latency_ms`: most of the",
        "200,000 notifications had drained before the first urgent job was published, and the figure it",
        "gave (urgent p99 2–4 ms with the load, a ratio of about 2) measured little of the drain.",
    ])


def shares_section(path):
    return quoted_section(path, "## Two teams on one worker (`apns-bench shares`)", [
        "Two credentials on one worker (prefetch 500). Team A's APNs answers take 1 s and 50,000 of its jobs",
        "are queued in the bulk queue first; team B then publishes single jobs at 1,000/s for 8 s: to the",
        "bulk queue, to a team lane of its own (`topology.team_lanes`), and to the urgent lane, each alone",
        "and behind A's backlog. p99 publication → result of B's jobs, timed by B's own results consumer:",
        "B's jobs name a results queue of their own (`reply_to`), as a team sharing a fleet takes its",
        "results, while A's go to the shared results exchange; and A's running jobs meanwhile (the median",
        "of scrapes every 0.5 s). One run of the command:",
    ], [
        "The target (issue 26) is B's p99 behind A within 1.5× alone, with A using its whole share. In the",
        "bulk queue no worker can meet it: the queue is first in, first out, so B's jobs reach a worker only",
        "after A's 50,000, whatever the shares (the worker never sees them while A's fill its prefetch). In a",
        "team lane B's jobs arrive in a window of their own and take the slots A's leave, while A keeps all",
        "500 of its queue's window busy. What B's p99 still gains there comes from A's answers arriving all",
        "at once: with every answer taking exactly 1 s, the 500 jobs A runs end together once a second, and",
        "the worker publishes 500 results, acks 500 deliveries and starts 500 requests in one burst that B's",
        "jobs of that moment wait behind (about 1% of them: the p99). Until 2026-11-29 B's results shared",
        "the results queue, and the benchmark's one consumer, with A's: each second's 500 results of A's",
        "came first, and up to 50 ms of a B job's latency was its result's way from the worker to the",
        "consumer (ratio 12.7 in the run before). With a results queue of B's own, three runs: p99 16.6,",
        "18.4, 14.5 ms behind A against 8.9, 5.6, 6.4 ms alone. With A's answers spread over 0.5–1.5 s",
        "(the same 1 s on average; APNs' answers do vary) the bursts are smaller.",
        "The urgent lane shows the same: the burst is CPU, which no lane reserves. Two changes that would",
        "help if B's jobs waited behind A's in the worker's event loop or in the broker's channel did not",
        "help: B's team lane on a worker process (and connection) of its own, and starting at most 32 or 8",
        "jobs per pass of the intake with the rest a millisecond later (both measured 2026-11-27 against",
        "one worker: docs/decisions.md, lanes); nor did concluding A's answers a few dozen per pass of the",
        "loop (2026-11-30: docs/decisions.md, \"Where a job's work runs\"). B's own `latency_ms` above",
        "(until its result left the worker) says how much of its p99 is spent before the result leaves.",
    ])


def rate_limit_section(path):
    return quoted_section(path, "## A credential's rate limit (`scripts/bench-rate-limit.sh`)", [
        "One worker (`fleet_size: 1`) with team-one's `rate_limit: 2000`, 75,000 jobs queued, the mock's",
        "accepted count over 30 s after a 5 s warm-up (target: within 5% of the limit):",
    ])


def logging_section(redact_path, malformed_path):
    """The log redaction per line, and a worker on refused jobs that each log a warning."""
    lines = quoted_section(redact_path, "## Logging (`apns-bench redact`, `apns-bench malformed`)", [
        "Every line the worker logs, and every metadata value, passes through `Redactor` (JWTs, bearer",
        "values, key material, URL passwords and device tokens never reach a log). Per logged line:",
    ])
    if os.path.exists(malformed_path):
        lines += [
            "A producer's bug as the worker meets it: every job refused (`BadDeviceToken`), each answered",
            "with a result and a dead letter and logged as a warning, at the log level the worker ships",
            "with (info):",
            "",
            "```",
            open(malformed_path).read().strip(),
            "```",
            "",
        ]
    return lines


def rate(run):
    return run["jobs"] / run["seconds"]


bare = rate(worker["bareLimit"])
limit = rate(worker["brokerLimit"])
ours = rate(worker["worker"])


def latency_at(share):
    """The latency run at `share` of the worker's rate: by the share it records, or (runs before
    2026-11-30 recorded none; their first was always at 25 %) by its rate against the first's."""
    runs = worker["latencies"]
    recorded = [run for run in runs if run.get("share") is not None]
    if recorded:
        return min(recorded, key=lambda run: abs(run["share"] - share))
    return min(runs, key=lambda run: abs(run["offeredRate"] / runs[0]["offeredRate"] - share / 0.25))


half = latency_at(0.5)
quarter = latency_at(0.25)
lines = [
    "# Benchmarks",
    "",
    "Figures only: nothing here passes or fails. Generated by `make bench` (scripts/bench.sh) on the",
    f"project's machine ({worker['machine']}, {platform.system()} {platform.release()}, Swift 6.3.1, release",
    "builds). RabbitMQ, the mock APNs and the load generators share those cores, and the machine is shared",
    "and noisy: compare figures from one run, not across runs.",
    "",
    "## The worker, end to end (`apns-bench worker`)",
    "",
    f"{worker['jobs']:,} realistic jobs (random 32-byte tokens, a ~300-byte alert) are pre-loaded into the jobs",
    "queue; a worker process (prefetch 500, two APNs connections) delivers them to the mock APNs, and the",
    "clock stops when the last job is acked, which the worker does only after its result is confirmed by",
    "the broker. The honest limit is `bench/bare-limit.c`, a bare rabbitmq-c loop in C built by the bench",
    "against the system library: it consumes the same jobs with the same prefetch, publishes a same-sized",
    "result with publisher confirms and acks each job after its confirm, with no HTTP/2 at all. The limit",
    "loop does the same through the project's own AMQP client, so the two differ only by that client.",
    "The ceiling is that limit loop plus one HTTP/2 request per job to the mock APNs, through the worker's",
    "own client and connections, run as the worker runs a single-device job: the request sent from the",
    "consumer's callback, the result published and the job acked from the answer's callback, with no task",
    "and nothing decoded, checked or built. It is the most any worker could reach on this machine, since",
    "the mock and the exchange take their share of the same cores; what the worker needs beyond it is its",
    "own work on each job.",
    "",
    f"Each of {len(worker['rounds'])} rounds runs the bare limit, the limit loop, the ceiling and then the worker, back to",
    "back; the round with the median worker ÷ bare limit is the headline. CPU is what each process used",
    "during the run, per job (from /proc).",
    "",
    "| round | bare C limit jobs/s | limit loop jobs/s | ceiling jobs/s | apns-worker jobs/s | worker ÷ bare limit | worker ÷ limit loop | worker ÷ ceiling "
    "| CPU µs/job, bare run | CPU µs/job, limit run | CPU µs/job, ceiling run | CPU µs/job, worker run |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
]


def cpu(run):
    return ", ".join(f"{name} {value:.0f}" for name, value in sorted(run.get("cpuMicrosecondsPerJob", {}).items()))


for number, round_ in enumerate(worker["rounds"], 1):
    lines.append(
        f"| {number} | {rate(round_['bare']):,.0f} | {rate(round_['limit']):,.0f} | {rate(round_['ceiling']):,.0f} | {rate(round_['worker']):,.0f} "
        f"| {rate(round_['worker']) / rate(round_['bare']):.2f} | {rate(round_['worker']) / rate(round_['limit']):.2f} "
        f"| {rate(round_['worker']) / rate(round_['ceiling']):.2f} "
        f"| {cpu(round_['bare'])} | {cpu(round_['limit'])} | {cpu(round_['ceiling'])} | {cpu(round_['worker'])} |"
    )
def median_ratio(numerator, denominator):
    ratios = sorted(rate(r[numerator]) / rate(r[denominator]) for r in worker["rounds"])
    return ratios[len(ratios) // 2]


def median_of(figure):
    values = sorted(figure(r) for r in worker["rounds"])
    return values[len(values) // 2]


def cpu_of(run, process):
    return run.get("cpuMicrosecondsPerJob", {}).get(process, float("nan"))


worker_cpu = worker["worker"].get("cpuMicrosecondsPerJob", {})
limit_cpu = worker["brokerLimit"].get("cpuMicrosecondsPerJob", {})
ceiling_cpu = worker["ceiling"].get("cpuMicrosecondsPerJob", {})
worker_us = median_of(lambda r: cpu_of(r["worker"], "worker"))
client_ratio = median_of(lambda r: cpu_of(r["limit"], "limit loop") / cpu_of(r["bare"], "bare loop"))
broker_ratio = median_of(lambda r: cpu_of(r["worker"], "broker") / cpu_of(r["bare"], "broker"))
worker_bare_cpu = median_of(lambda r: cpu_of(r["worker"], "worker") / cpu_of(r["bare"], "bare loop"))
worker_ceiling_cpu = median_of(lambda r: cpu_of(r["worker"], "worker") / cpu_of(r["ceiling"], "ceiling loop"))
lines += [
    "",
    f"**Median worker ÷ bare C limit: {median_ratio('worker', 'bare'):.2f}** ({bare:,.0f} jobs/s for the bare loop in the median round).",
    "",
    "CPU per job against the targets of issue 14 (medians over the rounds):",
    "",
    "| figure | measured | target |",
    "|---|---|---|",
    f"| worker CPU per job | {worker_us:.1f} µs | ≤ 25 µs |",
    f"| the project's AMQP client ÷ the bare C loop, CPU per job | {client_ratio:.2f} | ≤ 2 |",
    f"| broker CPU per job under the worker ÷ under the bare C loop | {broker_ratio:.2f} | ≤ 1 |",
    "",
    "And against issue 25's, each round's ratio of the worker's CPU per job to the loop's in the same round:",
    "",
    "| figure | measured | target |",
    "|---|---|---|",
    f"| worker CPU per job ÷ the bare C loop's | {worker_bare_cpu:.2f} | ≤ 4 |",
    f"| worker CPU per job ÷ the ceiling loop's | {worker_ceiling_cpu:.2f} | ≤ 1 |",
    "",
    f"Median worker ÷ limit loop: {ours / limit:.2f}: {limit:,.0f} jobs/s for the limit loop,",
    f"{ours:,.0f} jobs/s for the worker. Over the rounds the median ceiling ÷ limit was {median_ratio('ceiling', 'limit'):.2f}, and the",
    f"worker kept a median **{median_ratio('worker', 'ceiling'):.2f}** of the ceiling (each ratio's median over the rounds, not",
    "necessarily from one round).",
    "",
    f"Why it is not higher here: the limit loop's process needs {limit_cpu.get('limit loop', 0):.0f} µs of CPU per job; the",
    f"ceiling loop, which adds only the HTTP/2 exchange, needs {ceiling_cpu.get('ceiling loop', 0):.0f} µs, and the mock APNs (TLS,",
    f"HTTP/2 and request checks, standing in for Apple) {ceiling_cpu.get('mock', 0):.0f} µs more. The worker needs",
    f"{worker_cpu.get('worker', 0):.0f} µs, with the mock at {worker_cpu.get('mock', 0):.0f} µs and the broker at {worker_cpu.get('broker', 0):.0f} µs per job, all on",
    "the same two cores. Every microsecond the client and the mock spend is taken from the broker, so the",
    "ratio measures the CPU split of one small machine as much as the worker: with the mock on these cores,",
    f"a worker that does nothing but the exchange reached a median {median_ratio('ceiling', 'limit'):.2f} of the limit. In production the",
    "broker and APNs have cores of their own.",
    "",
    "### Where the worker's CPU goes (`apns-bench profile`)",
    "",
    f"`perf record -e cpu-clock -g` of the worker under full load for a few seconds ({profile['samples']:,} samples,",
    f"{profile['cpuMicrosecondsPerJob']:.1f} µs of CPU per job over that window). Each sample goes to the first frame, from the",
    "leaf up, that belongs to a part of the job's path: rabbitmq-c and the AMQP module are AMQP; nghttp2,",
    "OpenSSL, the HTTP2/TLS/Transport/APNsClient modules and SwiftNIO are HTTP/2 + TLS; the JSON module",
    "and the worker's decoder and result types are decoding and encoding. Shared code (kernel, libc, the",
    "Swift and concurrency runtimes) goes to its caller; samples with no such frame go by thread, and",
    "what is left (the job processor, scheduling, the concurrency runtime's own switches) is the rest.",
    "",
    "| part | µs per job | share |",
    "|---|---|---|",
]
for part in ["AMQP", "HTTP/2 + TLS", "job decoding + result encoding", "the rest"]:
    lines.append(f"| {part} | {profile['shares'][part] * profile['cpuMicrosecondsPerJob']:.1f} | {profile['shares'][part] * 100:.0f} % |")
lines += [
    "",
    "The largest leaf symbols:",
    "",
    "| share | symbol | library |",
    "|---|---|---|",
]
for symbol in profile["topSymbols"][:12]:
    lines.append(f"| {symbol['share'] * 100:.1f} % | `{symbol['name'][:70]}` | {os.path.basename(symbol['library'])} |")
lines += [
    "",
    "### Throughput vs APNs connections and prefetch",
    "",
    "![throughput vs prefetch](benchmarks/throughput.png)",
    "",
    "| connections | " + " | ".join(f"prefetch {p}" for p in sorted({r['prefetch'] for r in worker['sweep']})) + " |",
    "|---|" + "---|" * len({r['prefetch'] for r in worker['sweep']}),
]
for connections in sorted({r["connections"] for r in worker["sweep"]}):
    runs = sorted((r for r in worker["sweep"] if r["connections"] == connections), key=lambda r: r["prefetch"])
    lines.append(f"| {connections} | " + " | ".join(f"{r['rate']:,.0f}" for r in runs) + " |")
lines += [
    "",
    "### Scale-out: worker processes on one queue",
    "",
    "| workers | jobs/s |",
    "|---|---|",
]
for run in worker["scaleOut"]:
    lines.append(f"| {run['workers']} | {run['rate']:,.0f} |")
lines += [
    "",
    "With two cores shared by RabbitMQ and the mock, more processes add contention rather than capacity;",
    "on real hosts each worker brings its own cores.",
    "",
    "### Latency at fixed offered loads",
    "",
    "Jobs published at a steady rate (a share of the median worker rate of the rounds above, the same",
    "configuration: prefetch 500, two connections); latency is from the",
    "publisher's `published-at` stamp to the worker's result (every 2 ms the jobs due by then, a steady",
    "stream rather than bursts, with confirms awaited alongside). \"Kept\" is the rate the publisher",
    "achieved. Until 2026-11-30 it waited for each 2 ms batch's confirms before the next, and a busy",
    "broker's confirm round trip set its pace: asked by hand for 10,000 jobs/s it published about 6,500 a",
    "second, so rows labelled 10,340 jobs/s before then were likely nearer that. \"Broker alone\" is the",
    "same load consumed by the limit loop, stamp to arrival:",
    "what the queue itself costs. The worker's figures are whole milliseconds (the stamp and a result's",
    "`latency_ms` are), hence the steps in the plot. \"Machine busy\" is the share of both cores in use",
    "while the jobs were published (`/proc/stat`): the broker, the worker, the mock and the publisher",
    "share them, and the tail grows with it (docs/decisions.md, \"Where a job's work runs\").",
    "",
    "![latency CDF](benchmarks/latency-cdf.png)",
    "",
    "| offered load | kept | jobs | p50 ms | p99 ms | p99.9 ms | machine busy | broker alone: p50 / p99 / p99.9 ms | machine busy, broker alone |",
    "|---|---|---|---|---|---|---|---|---|",
]
brokers = worker.get("brokerLatencies", [])


def kept(run):
    """The rate the publisher achieved, when the run recorded it (runs before 2026-11-30 did not)."""
    return f"{run['achievedRate']:,.0f} jobs/s" if run.get("achievedRate") is not None else "-"


def busy(run):
    """The whole machine's busy share during a latency run (all cores), when the run recorded it."""
    return f"{run['machineBusy'] * 100:.0f} %" if run and run.get("machineBusy") is not None else "-"


for index, run in enumerate(worker["latencies"]):
    alone = brokers[index] if index < len(brokers) else None
    reference = f"{alone['p50']:.1f} / {alone['p99']:.1f} / {alone['p999']:.1f}" if alone else "-"
    lines.append(
        f"| {run['offeredRate']:,.0f} jobs/s | {kept(run)} | {run['jobs']:,} | {run['p50']:.1f} | {run['p99']:.1f} | {run['p999']:.1f} | {busy(run)} "
        f"| {reference} | {busy(alone)} |"
    )
lines += [
    "",
    f"At 50 % load: p99 {half['p99']:.1f} ms (issue 25's target: no worse than the 7 ms measured when it was filed; the first bound, issue 14's, was 25 ms).",
    f"That 7 ms was measured at 5,270–5,427 jobs/s, half of the worker of 2026-11-25; at a quarter of today's, {quarter['offeredRate']:,.0f} jobs/s, p99 {quarter['p99']:.1f} ms.",
    "A half of today's rate, published live on the same two cores as the broker, the worker and the mock, is",
    "at or past what they carry (by hand on 2026-11-30, at 10,000 jobs/s the broker alone had p99 1,013 ms):",
    "compare the broker alone at that load, and the machine's busy share. Between those loads one run's p99 can",
    "be one slowdown of the broker's, hundreds of milliseconds long, in which it starves the worker of deliveries",
    "(docs/decisions.md, \"The load the latency runs offered\").",
    "",
    "### Memory",
    "",
    "Worker peak RSS with 10,000 jobs in flight: prefetch 10,000 and APNs answering after 2 s, so the",
    "worker holds 10,000 unacked deliveries at once.",
    "",
    "| APNs connections | on APNs streams | waiting for a processing slot | worker peak RSS |",
    "|---|---|---|---|",
    f"| 2 (the default) | 2,000 | 8,000 | **{worker['memory']['peakRSSMiB']:.1f} MiB** (target ≤ 48 MiB) |",
    f"| 10 | 10,000 | 0 | {worker['memoryAllOnStreams']['peakRSSMiB']:.1f} MiB |",
    "",
    "A job only starts (decoded, a task, an HTTP/2 stream) when one of `worker.max_concurrent_jobs`",
    "slots is free, by default 1,000 per APNs connection: what APNs can have in flight. A delivery",
    "waiting for a slot is just its message. Peak RSS in the main run: "
    f"{worker['worker'].get('peakRSSMiB', 0):.0f} MiB.",
    "",
    "Up to 8 MiB of it is not the jobs in flight but the outcomes of jobs already answered, kept so",
    "that a redelivery publishes its outcome again instead of pushing twice (`AnsweredOutcomes`: its",
    "budget counts every entry as allocated, about 1 KB per single-job result; against a build that",
    "remembers nothing, `apns-bench memory` measured 7.5 MiB of RSS). It fills with jobs processed,",
    "whatever is in flight.",
    "",
    "Once it consumes, the worker unmaps the code pages start-up left mapped (`StartupCode`; since",
    "2026-11-27): about 9 MiB of this figure before, in three alternating pairs of `apns-bench memory`",
    "(docs/decisions.md). At the peak of one run by hand (41.7 MiB), `/proc/PID/smaps` counted 23.9 MiB",
    "of anonymous memory and 13.4 MiB of code the worker ran since, its binary's and its libraries',",
    "mapped again from the page cache.",
    "",
    "## The APNs client against h2load (`apns-bench client`)",
    "",
    f"{client['notifications']:,} notifications with a ~300-byte payload to the mock APNs (its own process, allowing",
    f"{client['streams']} streams per connection), through the client and through Debian's h2load with the identical",
    f"method, path, headers and body; {client['rounds']} rounds alternating the two, medians. h2load keeps every stream the",
    "server allows busy; the client keeps busy the nine tenths of them its ordinary requests may hold (a tenth of",
    "each connection's streams is kept for urgent requests), as a worker's jobs do: more callers would wait in the",
    "pool's line, a path a worker with fewer job slots than streams never takes.",
    f"The client's malloc is {client.get('allocator', 'glibc malloc (runs before 2026-11-30)')}, as in the worker's release build (h2load links jemalloc too).",
    "",
    "| run | notifications/s | latency ms | client CPU µs per notification | client peak RSS MiB |",
    "|---|---|---|---|---|",
]
for row in client["rows"]:
    lines.append(f"| {row['run']} | {row['rate']:,.0f} | {row['latency']} | {row['cpuMicroseconds']} | {row['peakRSSMiB']} |")
lines += [
    "",
    f"Client ÷ h2load with callbacks and no tasks, every connection on one loop (as a worker's shard answers its single-device jobs and its multicast senders send: each answer's callback, on the shard's loop, sends the next request): **{client.get('ratioOneConnectionCallbacks', float('nan')):.2f}** on one connection (target ≥ 0.95), **{client.get('ratioFourConnectionsCallbacks', float('nan')):.2f}** on four (target ≥ 0.90).",
    f"Its rounds, lowest to highest: {', '.join(f'{r:.2f}' for r in client.get('roundsOneConnectionCallbacks', []))} on one connection; {', '.join(f'{r:.2f}' for r in client.get('roundsFourConnectionsCallbacks', []))} on four.",
    f"Callers as tasks on the cooperative pool (as multicast senders ran until 2026-11-27): **{client['ratioOneConnection']:.2f}** on one connection, **{client.get('ratioFourConnections', float('nan')):.2f}** on four.",
    f"Callers as tasks on the connections' one event loop (`EventLoopTaskExecutor`, as h2load's one thread): **{client.get('ratioOneConnectionOnLoop', float('nan')):.2f}** on one connection, **{client.get('ratioFourConnectionsOnLoop', float('nan')):.2f}** on four.",
    "The difference between tasks on the pool and the rest is what the hops between Swift's",
    "cooperative pool and the event loop cost: a request's way onto the loop and its answer's way back.",
    "Callbacks and tasks on the loop keep the client to one thread, as h2load's `-t 1`; tasks on the",
    "pool spread it over NIO's loops (one per core), which it then shares with the mock. (Until",
    "2026-11-29 the callbacks too ran on every loop, as the worker's connections did before shards.)",
    "",
]
lines += amqp_section(os.path.join(folder, "amqp.txt"))
lines += multicast_section(os.path.join(folder, "multicast.txt"))
lines += shares_section(os.path.join(folder, "shares.txt"))
lines += rate_limit_section(os.path.join(folder, "rate-limit.txt"))
lines += partition_section(os.path.join(folder, "partitions.txt"))
lines += logging_section(os.path.join(folder, "redact.txt"), os.path.join(folder, "malformed.txt"))
lines += [
    "## Provider tokens (`apns-bench jwt`)",
    "",
    "```",
    jwt,
    "```",
    "",
    "## Reproduce",
    "",
    "`make bench` (about 20 minutes), or single parts: `swift build -c release --static-swift-stdlib --product P` for `apns-bench`, `apns-worker` and `mock-apns` (as the image builds the worker), then",
    f"`.build/release/apns-bench worker --count 200000 --rounds {len(worker['rounds'])}`, `.build/release/apns-bench throughput --count 150000 --with-ceiling`",
    "(one limit, worker and ceiling run, with CPU per job), `.build/release/apns-bench client --count 200000 --rounds 3`,",
    "`.build/release/apns-bench latency --rate 5000 --with-broker`,",
    "`.build/release/apns-bench memory --in-flight 10000 [--connections 10]`, `.build/release/apns-bench profile`,",
    "`.build/release/apns-bench jwt`, `.build/release/apns-bench redact`, `.build/release/apns-bench malformed`,",
    "`.build/release/apns-bench amqp --count 100000 --rounds 5` (needs strace),",
    "`.build/release/apns-bench multicast --count 200000 --rounds 3`, and with `scripts/rabbitmq-cluster.sh start`, `.build/release/apns-bench partitions`. Plots:",
    "`/usr/bin/python3 scripts/plot-bench.py docs/benchmarks`.",
    "",
    "How the client got to its figures is in docs/decisions.md and the commit history.",
]
print("\n".join(lines))
