#!/usr/bin/env python3
"""Jepsen-style failover test for onceorder-server on a pg_auto_failover pair (scripts/ha/cluster).

Clients storm POST /orders and POST /checkout (each request under its own Idempotency-Key, retried with the SAME key
on 503, 409, a timeout or a connection error, capped exponential backoff, on the next server) while the nemesis
kills the primary NODE (scripts/ha/cluster kill-primary: keeper, postmaster and backends, kill -9), waits for the
failover, brings the node back as a standby and waits until the pair is healthy again, --failovers times.
With --nemesis zombie it freezes the primary NODE instead (SIGSTOP of all its processes), waits until the monitor
has promoted the standby, resumes the old primary (SIGCONT: a zombie that still believes it is the primary until its
keeper hears from the monitor) and waits until the pair is healthy again.

Afterwards, read on the new primary (psql) and through the servers:
  lost        every 201 a client received names an order that exists and whose key row names that order
  duplicated  no (client, key) has two orders, no order lacks its key row
  charges     no checkout order has two payments, every acknowledged checkout is paid
  stock       each product's stock is what was set minus the quantities of the orders that exist
  servers     every server is the process it was at the start (no restarts), answers /readyz, and placed orders
              again after every failover; its webhooks drained (nothing pending at the gateway)
  bounded     every HTTP exchange was answered within --answer-limit seconds (8), a 503/409 always with Retry-After
  zombie      no acknowledged order is lost that was acknowledged after the old primary resumed (asynchronous
              replication loses what the standby had not received at the freeze; a write the zombie took is a loss
              too, and counted apart); every server took a checkout within --checkout-limit s (10) of the promotion

Standard library only. Exit 0 when every check holds; with --expect-loss (asynchronous replication) the run
passes when acknowledged orders were lost and everything else holds. The last line is one JSON object.
"""
import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
import uuid

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CLUSTER = os.path.join(ROOT, "scripts", "ha", "cluster")
CLIENT_KEYS = {"A": "demo-key-A", "B": "demo-key-B"}
PRODUCTS = ["hrnek", "kniha", "propiska"]
STOCK = 1_000_000


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def cluster(*args, timeout=300):
    out = subprocess.run([CLUSTER, *args], capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"cluster {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout.strip()


def psql(uri, sql):
    out = subprocess.run(["psql", "-X", "-qAt", "-F", "\t", uri, "-c", sql], capture_output=True, text=True,
                         timeout=60)
    if out.returncode != 0:
        raise RuntimeError(f"psql: {out.stderr.strip()}")
    return [line.split("\t") for line in out.stdout.splitlines() if line]


def request(port, method, path, body=None, headers=None, timeout=5.0):
    """One HTTP exchange; returns (status, headers dict, body text) or raises OSError/HTTPException."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = json.dumps(body) if body is not None else None
        h = {"Content-Type": "application/json"} if data is not None else {}
        h.update(headers or {})
        conn.request(method, path, body=data, headers=h)
        resp = conn.getresponse()
        return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read().decode("utf-8", "replace")
    finally:
        conn.close()


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0  # HTTP attempts
        self.statuses = {}  # status (or "timeout"/"conn-error") -> count
        self.no_retry_after = 0  # 503/409 without Retry-After
        self.acked = []  # (kind, client, key, order_id, quantities, t, port)
        self.failed = []  # (kind, client, key, last status, body): gave up or an unexpected answer
        self.events = []  # (t answered, port, t sent, kind): every 201, for throughput and recovery times
        self.max_latency = 0.0  # the longest HTTP exchange, answered or not (s)
        self.slow = []  # (seconds, status, port, t sent): exchanges longer than the answer limit
        self.answer_limit = 8.0

    def took(self, seconds, status, port, sent):
        with self.lock:
            self.max_latency = max(self.max_latency, seconds)
            if seconds > self.answer_limit:
                self.slow.append((round(seconds, 2), status, port, round(sent, 3)))

    def count(self, what):
        with self.lock:
            self.requests += 1
            self.statuses[what] = self.statuses.get(what, 0) + 1


class Storm:
    """Client threads: each sends one request at a time and retries it with the same key until it has a final
    answer (201 or a 4xx), or the request's own deadline passes."""

    def __init__(self, ports, clients, checkout_share, stats, run_id, give_up_s=120.0):
        self.ports = ports
        self.clients = clients
        self.checkout_share = checkout_share
        self.stats = stats
        self.run_id = run_id
        self.give_up_s = give_up_s
        self.stop = threading.Event()
        self.threads = []

    def start(self):
        for i in range(self.clients):
            t = threading.Thread(target=self.client, args=(i,), daemon=True)
            t.start()
            self.threads.append(t)

    def finish(self, timeout):
        self.stop.set()
        for t in self.threads:
            t.join(timeout)
        return all(not t.is_alive() for t in self.threads)

    def client(self, index):
        rng = random.Random(f"{self.run_id}-{index}")
        n = 0
        while not self.stop.is_set():
            n += 1
            client = "A" if index % 2 == 0 else "B"
            kind = "checkout" if rng.random() < self.checkout_share else "order"
            product = rng.choice(PRODUCTS)
            quantity = rng.randint(1, 3)
            body = {"product": product, "quantity": quantity}
            if kind == "checkout":
                body["payment_method"] = "card"
            key = f"{self.run_id}-{kind[0]}-{index}-{n}"
            self.one(rng, index, n, kind, client, key, body, {product: quantity})

    def one(self, rng, index, n, kind, client, key, body, quantities):
        path = "/orders" if kind == "order" else "/checkout"
        headers = {"Authorization": f"Bearer {CLIENT_KEYS[client]}", "Idempotency-Key": f'"{key}"'}
        started = time.monotonic()
        attempt = 0
        last = None
        while True:
            port = self.ports[(index + n + attempt) % len(self.ports)]
            sent = time.time()
            began = time.monotonic()
            try:
                status, h, text = request(port, "POST", path, body, headers, timeout=self.stats.answer_limit + 4)
                self.stats.took(time.monotonic() - began, status, port, sent)
                self.stats.count(status)
                last = (status, text[:200])
                if status == 201:
                    order_id = json.loads(text)["order_id"]
                    with self.stats.lock:
                        self.stats.acked.append((kind, client, key, order_id, quantities, time.time(), port))
                        self.stats.events.append((time.time(), port, sent, kind))
                    return
                if status in (503, 409):
                    if "retry-after" not in h:
                        with self.stats.lock:
                            self.stats.no_retry_after += 1
                elif status != 500:
                    with self.stats.lock:
                        self.stats.failed.append((kind, client, key, status, text[:300]))
                    return
                # 500 is not a final answer either: retried, and counted (a failover must not produce one)
            except (OSError, http.client.HTTPException) as e:
                self.stats.took(time.monotonic() - began, type(e).__name__, port, sent)
                self.stats.count("timeout" if "timed out" in str(e) else "conn-error")
                last = (type(e).__name__, str(e)[:200])
            attempt += 1
            if time.monotonic() - started > self.give_up_s:
                with self.stats.lock:
                    self.stats.failed.append((kind, client, key, "gave up", str(last)))
                return
            # capped exponential backoff with full jitter: 50 ms, 100 ms, ... at most 1 s
            time.sleep(rng.uniform(0, min(1.0, 0.05 * 2 ** min(attempt, 5))))


def set_stock(ports):
    for p in PRODUCTS:
        for _ in range(600):
            try:
                status, _, text = request(ports[0], "PUT", f"/products/{p}/stock", {"stock": STOCK},
                                          {"Authorization": "Bearer demo-key-admin"})
                if status == 200:
                    break
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.1)
        else:
            raise RuntimeError(f"could not set the stock of {p}")


def server_pids():
    d = os.environ.get("ONCEORDER_HA_DIR", "/tmp/onceorder-ha")
    pids, ports = [], []
    i = 1
    while os.path.exists(os.path.join(d, f"server{i}.pid")):
        pids.append(int(open(os.path.join(d, f"server{i}.pid")).read()))
        ports.append(int(open(os.path.join(d, f"server{i}.port")).read()))
        i += 1
    return pids, ports


def alive(pid):
    try:
        os.kill(pid, 0)
        return True
    except OSError:
        return False


def wait_for(what, seconds, check, every=0.5):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    return None


def first_201s(stats, ports, since, sent_after, kind=None):
    """Each server's first 201 answered after `since` to a request sent after `sent_after` (of `kind`, or any)."""
    with stats.lock:
        firsts = {}
        for t, port, sent, k in stats.events:
            if t >= since and sent > sent_after and (kind is None or k == kind) and port not in firsts:
                firsts[port] = t
    return firsts if len(firsts) == len(ports) else None


def zombie_cycle(i, label, stats, ports, args, problems):
    """Freeze the primary node, wait for the promotion, resume the old primary, wait until the pair is healthy."""
    before = cluster("primary")
    frozen, frozen_at = cluster("freeze-primary").split()
    frozen_at = float(frozen_at)
    log(f"{label}: zombie {i + 1}: froze {frozen}")
    promoted = wait_for("a new primary", 120, lambda: (lambda p: p if p and p != before else None)(
        cluster("primary")), every=0.1)
    promoted_at = time.time()
    if not promoted:
        problems.append(f"zombie {i + 1}: no standby was promoted within 120 s of the freeze")
    time.sleep(args.zombie_hold)
    _, resumed_at = cluster("thaw", frozen).split()
    resumed_at = float(resumed_at)
    log(f"{label}: zombie {i + 1}: {promoted} promoted {promoted_at - frozen_at:.1f} s after the freeze; "
        f"{frozen} resumed {resumed_at - promoted_at:.1f} s after the promotion")
    checkouts = wait_for("a checkout on every server", 60,
                         lambda: first_201s(stats, ports, promoted_at, frozen_at, "checkout"))
    orders = first_201s(stats, ports, promoted_at, frozen_at)
    entry = {"frozen": frozen, "promoted": promoted, "promoted_after_s": round(promoted_at - frozen_at, 1),
             "resumed_after_promotion_s": round(resumed_at - promoted_at, 1), "frozen_at": frozen_at,
             "resumed_at": resumed_at,
             "checkout_after_promotion_s": {str(p): round(t - promoted_at, 1) for p, t in (checkouts or {}).items()},
             "recovery_s": {str(p): round(t - frozen_at, 1) for p, t in (orders or {}).items()}}
    slow = [p for p, t in (checkouts or {}).items() if t - promoted_at > args.checkout_limit]
    if not checkouts or slow:
        problems.append(f"zombie {i + 1}: not every server took a checkout within {args.checkout_limit:.0f} s of "
                        f"the promotion: {entry['checkout_after_promotion_s']}")
    try:
        cluster("wait-healthy", "240", timeout=260)
    except RuntimeError as e:
        problems.append(f"zombie {i + 1}: the pair did not become healthy again: {e}")
        return None
    entry["healthy_at"] = time.time()
    log(f"{label}: zombie {i + 1}: {entry}")
    return entry


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--failovers", type=int, default=5)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--checkout-share", type=float, default=0.2)
    ap.add_argument("--hold-wal-ms", type=int, default=1500,
                    help="SIGSTOP the primary's walsender this long before the kill (0: plain kill)")
    ap.add_argument("--load-seconds", type=float, default=5.0, help="storm before each kill")
    ap.add_argument("--throughput-seconds", type=float, default=15.0,
                    help="a first phase with no fault: 201s per second, for the sync/async comparison")
    ap.add_argument("--recovery-limit", type=float, default=60.0,
                    help="each server must answer a 201 this many seconds after each kill")
    ap.add_argument("--nemesis", choices=("kill", "zombie"), default="kill",
                    help="kill -9 the primary node, or freeze it (SIGSTOP) until the standby is promoted and resume it")
    ap.add_argument("--zombie-hold", type=float, default=1.0,
                    help="zombie: seconds between the promotion and the old primary's resumption")
    ap.add_argument("--answer-limit", type=float, default=8.0, help="every HTTP exchange answered within this (s)")
    ap.add_argument("--checkout-limit", type=float, default=10.0,
                    help="zombie: every server takes a checkout this many seconds after the promotion")
    ap.add_argument("--expect-loss", action="store_true",
                    help="asynchronous replication: pass only if acknowledged orders were lost")
    ap.add_argument("--allow-loss", action="store_true",
                    help="asynchronous replication with the zombie nemesis: what the standby had not received at the "
                         "freeze may be lost (reported); a write the resumed old primary took may not")
    ap.add_argument("--zombie-loss-allowed", action="store_true",
                    help="report the writes the resumed old primary took without failing (servers without "
                         "--db-monitor, to measure the window it closes)")
    ap.add_argument("--label", default="")
    args = ap.parse_args()

    uri = cluster("uri")
    pids, ports = server_pids()
    if not ports:
        raise SystemExit("no servers: scripts/ha/cluster up first")
    sync_names = psql(uri, "SHOW synchronous_standby_names")
    replication = "sync" if sync_names and sync_names[0][0] else "async"
    label = args.label or replication
    log(f"{label}: replication {replication} (synchronous_standby_names '{sync_names[0][0] if sync_names else ''}'), "
        f"servers {ports}, {args.clients} clients, {args.failovers} failovers")

    set_stock(ports)
    first_order = int(psql(uri, "SELECT coalesce(max(id), 0) FROM orders")[0][0])
    stock_start = {p: STOCK for p in PRODUCTS}
    run_id = f"ha{int(time.time())}{label}"
    stats = Stats()
    stats.answer_limit = args.answer_limit
    storm = Storm(ports, args.clients, args.checkout_share, stats, run_id)

    t0 = time.time()
    storm.start()
    time.sleep(args.throughput_seconds)
    with stats.lock:
        steady = sum(1 for e in stats.events if e[0] >= t0 + 2)  # the first 2 s warm the pools up
    throughput = steady / (args.throughput_seconds - 2)
    log(f"{label}: steady state {throughput:.1f} acknowledged requests/s")

    failovers = []
    problems = []
    for i in range(args.failovers):
        time.sleep(args.load_seconds)
        if args.nemesis == "zombie":
            entry = zombie_cycle(i, label, stats, ports, args, problems)
            if entry is None:
                break
            failovers.append(entry)
            continue
        before = cluster("primary")
        killed, killed_at = cluster("kill-primary", "--hold-wal", str(args.hold_wal_ms)).split()
        killed_at = float(killed_at)
        log(f"{label}: failover {i + 1}: killed {killed} (walsender held {args.hold_wal_ms} ms first)")

        def recovered():
            with stats.lock:
                firsts = {}
                # a 201 to a request sent after the kill: an answer in flight at the kill does not count
                for t, port, sent, _kind in stats.events:
                    if sent > killed_at and port not in firsts:
                        firsts[port] = t
            return firsts if len(firsts) == len(ports) else None

        firsts = wait_for("every server to place orders again", args.recovery_limit, recovered)
        promoted = wait_for("a new primary", 60, lambda: (lambda p: p if p and p != before else None)(
            cluster("primary")))
        cluster("start-node", killed)
        try:
            cluster("wait-healthy", "240", timeout=260)
        except RuntimeError as e:
            problems.append(f"failover {i + 1}: the pair did not become healthy again: {e}")
            break
        entry = {"killed": killed, "promoted": promoted,
                 "recovery_s": {str(p): round(t - killed_at, 1) for p, t in (firsts or {}).items()}}
        if not firsts:
            with stats.lock:
                seen = {port for t, port, sent, _kind in stats.events if sent > killed_at}
            entry["not_recovered"] = sorted(set(ports) - seen)
            problems.append(f"failover {i + 1}: servers {entry['not_recovered']} placed no order within "
                            f"{args.recovery_limit:.0f} s of the kill")
        failovers.append(entry)
        log(f"{label}: failover {i + 1}: {entry}")

    log(f"{label}: stopping the clients (each finishes its request)")
    if not storm.finish(180):
        problems.append("a client thread did not finish its request in 180 s")
    elapsed = time.time() - t0

    # Let the completer and the webhook deliveries finish what the failovers interrupted.
    def settled():
        rows = psql(uri, f"SELECT count(*) FROM orders WHERE id > {first_order} AND status = 'pending'")
        pending_hooks = psql(uri, "SELECT count(*) FROM gateway_deliveries WHERE delivered_at IS NULL")
        return int(rows[0][0]) == 0 and int(pending_hooks[0][0]) == 0

    if not wait_for("pending checkouts and webhooks", 90, settled):
        problems.append("after 90 s some checkout orders are still pending or webhooks undelivered: "
                        + str(psql(uri, f"SELECT (SELECT count(*) FROM orders WHERE id > {first_order} AND status = "
                                   "'pending'), (SELECT count(*) FROM gateway_deliveries WHERE delivered_at IS NULL)")))

    # ---- the checks, on the primary of now ----
    orders = {int(r[0]): r for r in psql(uri, "SELECT id, client_id, coalesce(idem_key, ''), status FROM orders "
                                         f"WHERE id > {first_order}")}
    order_keys = {(r[0], r[1]): int(r[2]) for r in psql(
        uri, "SELECT client_id, idem_key, order_id FROM idempotency_keys WHERE order_id IS NOT NULL "
             f"AND idem_key LIKE '{run_id}-%'")}
    checkout_keys = {(r[0], r[1]): int(r[2]) for r in psql(
        uri, "SELECT client_id, idem_key, order_id FROM checkout_keys WHERE order_id IS NOT NULL "
             f"AND idem_key LIKE '{run_id}-%'")}

    # An acknowledged order is intact when the order row with its id is still this client's order under this key,
    # and the key row names it. After an asynchronous failover neither may hold: the order and its key row are gone,
    # and the new primary hands out the same ids again (an identity's sequence is WAL-logged 32 values ahead, and
    # that record was lost too), so the id a client holds can name another client's order.
    lost, mismatched = [], []
    for kind, client, key, order_id, _q, t, port in stats.acked:
        stored = (order_keys if kind == "order" else checkout_keys).get((client, key))
        row = orders.get(order_id)
        if row is None or row[1] != client or row[2] != key:
            lost.append({"kind": kind, "client": client, "key": key, "order_id": order_id,
                         "acknowledged_at": time.strftime("%H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}",
                         "by_port": port, "key_row": stored,
                         "id_now": None if row is None else f"client {row[1]} key {row[2]}"})
        elif stored != order_id:
            mismatched.append({"kind": kind, "client": client, "key": key, "order_id": order_id, "key_row": stored})

    # The lost ones through a server too (not only psql): GET /orders/{id} must say 404 for each.
    for item in lost[:50]:
        status, _, _ = request(ports[0], "GET", f"/orders/{item['order_id']}",
                               headers={"Authorization": f"Bearer {CLIENT_KEYS[item['client']]}"})
        item["GET"] = status
    # And a sample of the acknowledged ones that exist: 200 through every server.
    lost_keys = {item["key"] for item in lost}
    sample = [a for a in stats.acked if a[2] not in lost_keys]
    random.Random(1).shuffle(sample)
    for kind, client, key, order_id, *_ in sample[:100]:
        for port in ports:
            status, _, _ = request(port, "GET", f"/orders/{order_id}",
                                   headers={"Authorization": f"Bearer {CLIENT_KEYS[client]}"})
            if status != 200:
                problems.append(f"GET /orders/{order_id} on {port} answered {status} (psql has the order)")

    dup_keys = psql(uri, f"SELECT client_id, idem_key, count(*) FROM orders WHERE id > {first_order} "
                         "AND idem_key IS NOT NULL GROUP BY 1, 2 HAVING count(*) > 1")
    keyed = set(order_keys.values()) | set(checkout_keys.values())
    orphans = [oid for oid, r in orders.items() if r[2].startswith(run_id) and oid not in keyed]
    double_charges = psql(uri, f"SELECT order_id, count(*) FROM payments WHERE order_id > {first_order} "
                               "GROUP BY 1 HAVING count(*) > 1")
    acked_checkouts = [a[3] for a in stats.acked if a[0] == "checkout" and a[2] not in lost_keys]
    unpaid = [oid for oid in acked_checkouts if orders[oid][3] != "paid"]
    paid_orders = {int(r[0]) for r in psql(uri, f"SELECT DISTINCT order_id FROM payments WHERE order_id > {first_order}")}
    unpaid += [oid for oid in acked_checkouts if oid not in paid_orders and oid not in unpaid]

    taken = {p: 0 for p in PRODUCTS}
    for r in psql(uri, "SELECT l.product_id, sum(l.quantity) FROM order_lines l JOIN orders o ON o.id = l.order_id "
                       f"WHERE o.id > {first_order} AND o.status <> 'payment_failed' GROUP BY 1"):
        taken[r[0]] = int(r[1])
    stock_now = {r[0]: int(r[1]) for r in psql(uri, "SELECT id, stock FROM products")}
    stock_off = {p: stock_now[p] - (stock_start[p] - taken[p]) for p in PRODUCTS
                 if stock_now[p] != stock_start[p] - taken[p]}

    restarted = [pid for pid in pids if not alive(pid)]
    not_ready = []
    for port in ports:
        try:
            status, _, _ = request(port, "GET", "/readyz")
        except (OSError, http.client.HTTPException) as e:
            status = str(e)
        if status != 200:
            not_ready.append((port, status))

    # The background work of each server after the failovers, from its /metrics (evidence, not a check).
    background = {}
    for port in ports:
        try:
            _, _, text = request(port, "GET", "/metrics")
        except (OSError, http.client.HTTPException):
            continue
        figures = {}
        for line in text.splitlines():
            for name in ("onceorder_checkouts_completed_total", "onceorder_completer_errors_total",
                         "onceorder_idempotency_keys_reaped_total"):
                if line.startswith(name):
                    figures[name[len("onceorder_"):]] = figures.get(name[len("onceorder_"):], 0) + float(
                        line.rsplit(" ", 1)[1])
        background[str(port)] = figures

    if mismatched:
        problems.append(f"{len(mismatched)} acknowledged orders whose key row names another order: {mismatched[:5]}")
    if dup_keys:
        problems.append(f"keys with two orders: {dup_keys[:10]}")
    if orphans:
        problems.append(f"{len(orphans)} orders of this run that no key row names (a second order for a key?): "
                        f"{orphans[:10]}")
    if double_charges:
        problems.append(f"checkout orders with two payments: {double_charges[:10]}")
    if unpaid:
        problems.append(f"{len(unpaid)} acknowledged checkouts not paid in the database: {unpaid[:10]}")
    if stock_off:
        problems.append(f"stock does not add up (now minus expected): {stock_off}")
    if restarted:
        problems.append(f"server processes gone: {restarted}")
    if not_ready:
        problems.append(f"servers not ready at the end: {not_ready}")
    if stats.statuses.get(500):
        problems.append(f"{stats.statuses[500]} answers were 500 (a failover must be a 503 with Retry-After)")
    if stats.no_retry_after:
        problems.append(f"{stats.no_retry_after} 503/409 answers without Retry-After")
    if stats.failed:
        problems.append(f"{len(stats.failed)} requests without a final 201: {stats.failed[:5]}")
    if len(failovers) < args.failovers:
        problems.append(f"only {len(failovers)} of {args.failovers} failovers happened")
    # A write the resumed old primary took: acknowledged after it resumed and before the pair was healthy again.
    zombie_lost = [item for item, a in ((item, next(a for a in stats.acked if a[2] == item["key"])) for item in lost)
                   if any(f.get("resumed_at", 1e18) <= a[5] <= f.get("healthy_at", 0) for f in failovers)]
    if zombie_lost and not args.zombie_loss_allowed:
        problems.append(f"{len(zombie_lost)} acknowledged orders written on the resumed old primary are gone: "
                        f"{zombie_lost[:5]}")
    if stats.slow:
        problems.append(f"{len(stats.slow)} exchanges took longer than {args.answer_limit:.0f} s: {stats.slow[:10]}")
    if args.expect_loss:
        if not lost:
            problems.append("asynchronous replication lost no acknowledged order (expected a loss)")
    elif lost and not args.allow_loss:
        problems.append(f"{len(lost)} acknowledged orders are gone")

    result = {
        "label": label, "replication": replication, "failovers": len(failovers), "requests": stats.requests,
        "acknowledged": len(stats.acked), "lost": len(lost),
        "lost_ids_reissued": sum(1 for item in lost if item["id_now"]), "duplicated": len(dup_keys) + len(orphans),
        "double_charges": len(double_charges), "statuses": {str(k): v for k, v in sorted(stats.statuses.items(),
                                                                                         key=lambda kv: str(kv[0]))},
        "nemesis": args.nemesis, "zombie_lost": len(zombie_lost), "max_latency_s": round(stats.max_latency, 2),
        "over_answer_limit": len(stats.slow), "throughput_per_s": round(throughput, 1), "seconds": round(elapsed), "failover_detail": failovers, "background": background,
        "lost_orders": lost, "problems": problems, "ok": not problems,
    }
    for p in problems:
        log(f"{label}: FAIL {p}")
    for item in lost[:20]:
        log(f"{label}: LOST {item}")
    if len(lost) > 20:
        log(f"{label}: ... and {len(lost) - 20} more lost (all of them in the JSON line)")
    log(f"{label}: {len(failovers)} failovers, {stats.requests} requests, {len(stats.acked)} acknowledged, "
        f"{len(lost)} lost, {result['duplicated']} duplicated, {len(double_charges)} double charges, "
        f"{throughput:.1f}/s steady: {'ok' if not problems else 'FAILED'}")
    print(json.dumps(result))
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
