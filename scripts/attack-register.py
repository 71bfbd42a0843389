#!/usr/bin/env python3
"""The registration flood of docs/security.md, measured: N parallel sign-ups from one address
while another client polls GET /api/plans; prints the statuses, the server's peak RSS and the
plans route's p50/p99 latency during the flood. Standard library only.

    scripts/attack-register.py http://127.0.0.1:8080 [--pid PID] [--count 300]
"""
import argparse, json, threading, time, urllib.request, urllib.error, collections

def post(base, i, out):
    body = json.dumps({"email": f"flood{i}-{time.time_ns()}@example.com", "username": f"f{i}x{time.time_ns() % 10**9}", "password": "correct-horse"}).encode()
    req = urllib.request.Request(base + "/api/auth/register", data=body, headers={"Content-Type": "application/json", "Origin": base})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            out.append(r.status)
    except urllib.error.HTTPError as e:
        out.append(e.code)
    except Exception:
        out.append(0)

def rss_kib(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("base"); ap.add_argument("--pid", type=int); ap.add_argument("--count", type=int, default=300)
    a = ap.parse_args()
    statuses, latencies, stop = [], [], threading.Event()
    def poll():
        while not stop.is_set():
            t = time.perf_counter()
            try:
                urllib.request.urlopen(a.base + "/api/plans", timeout=10).read()
                latencies.append((time.perf_counter() - t) * 1000)
            except Exception:
                latencies.append(10_000)
    poller = threading.Thread(target=poll); poller.start()
    threads = [threading.Thread(target=post, args=(a.base, i, statuses)) for i in range(a.count)]
    for t in threads: t.start()
    for t in threads: t.join()
    stop.set(); poller.join()
    lat = sorted(latencies)
    pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
    print("statuses:", dict(collections.Counter(statuses)))
    print(f"GET /api/plans during the flood: {len(lat)} requests, p50 {pct(0.5):.1f} ms, p99 {pct(0.99):.1f} ms")
    if a.pid:
        print(f"server peak RSS: {rss_kib(a.pid) / 1024:.0f} MiB")

if __name__ == "__main__":
    main()
