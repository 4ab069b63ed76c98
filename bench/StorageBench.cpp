// StorageBench: the storage ceiling of POST /orders. The very transaction the HTTP handler runs
// (OrderService::placeOrder on a Store backed by a file), with no HTTP in front of it, at both --synchronous
// settings; the replay path (same key); and the CPU work before the transaction (JSON parse, fingerprint).
// The HTTP numbers of bench/run-server are judged against these, measured in the same run.
#include "orders/OrderCommand.h"
#include "orders/OrderService.h"
#include "storage/sqlite/Store.h"
#include "teaching/Faults.h"

#include <SQLiteCpp/Statement.h>
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unistd.h>

using namespace onceorder::server;

namespace {

constexpr const char* kBody = R"({"product":"kniha","quantity":1})";
constexpr const char* kCartBody =
    R"({"cart_id":"cart-7","items":[{"product":"hrnek","quantity":2},{"product":"propiska","quantity":3}]})";

// One database per --synchronous mode, in a fresh directory (ONCEORDER_BENCH_DIR, else the system temp dir),
// removed at exit. Shared by all benchmarks of that mode, like the server shares one file between its threads.
class StorageFixture
{
public:
    explicit StorageFixture(Synchronous synchronous)
    {
        const char* base = std::getenv("ONCEORDER_BENCH_DIR");
        std::filesystem::path root =
            base && *base ? std::filesystem::path(base) : std::filesystem::temp_directory_path();
        m_dir = root /
            ("onceorder-storage-bench-" + std::to_string(::getpid()) + "-" +
             (synchronous == Synchronous::Full ? "full" : "normal"));
        std::filesystem::remove_all(m_dir);
        std::filesystem::create_directories(m_dir);
        m_store = std::make_unique<Store>((m_dir / "server.db").string(), synchronous, 8);
        // Unique keys would run the demo stock dry in 100 orders; give the benchmark room (operator's absolute set).
        auto db = m_store->lease();
        db->exec("UPDATE products SET stock = 1000000000");
        m_service = std::make_unique<OrderService>(*m_store, m_faults, m_clock, std::chrono::seconds(86400));
    }
    ~StorageFixture()
    {
        m_service.reset();
        m_store.reset();
        std::error_code ignored;
        std::filesystem::remove_all(m_dir, ignored);
    }
    StorageFixture(const StorageFixture&) = delete;
    StorageFixture& operator=(const StorageFixture&) = delete;

    OrderService& service() { return *m_service; }
    Store& store() { return *m_store; }
    std::string nextKey() { return "bench-" + std::to_string(m_counter.fetch_add(1)); }

    long long orderCount()
    {
        auto db = m_store->lease();
        return db->execAndGet("SELECT count(*) FROM orders").getInt64();
    }

private:
    std::filesystem::path m_dir;
    Faults m_faults;
    SystemClock m_clock;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<OrderService> m_service;
    std::atomic<long long> m_counter {0};
};

StorageFixture& fixture(Synchronous synchronous)
{
    static std::mutex lock;
    static std::map<Synchronous, std::unique_ptr<StorageFixture>> fixtures;
    std::lock_guard guard(lock);
    auto& slot = fixtures[synchronous];
    if (!slot) {
        slot = std::make_unique<StorageFixture>(synchronous);
    }
    return *slot;
}

Synchronous modeOf(const benchmark::State& state)
{
    return state.range(0) == 0 ? Synchronous::Full : Synchronous::Normal;
}

OrderCommand command(const char* body)
{
    auto parsed = parseOrderCommand(body);
    if (!std::holds_alternative<OrderCommand>(parsed)) {
        throw std::logic_error("the benchmark's own body does not parse");
    }
    return std::get<OrderCommand>(parsed);
}

const Client kClient {"A", false};

// The unique-key path: key row, order, line, stock, stored response, commit (one fsync with FULL in WAL mode).
void BM_PlaceOrderUnique(benchmark::State& state)
{
    auto& f = fixture(modeOf(state));
    const OrderCommand order = command(kBody);
    const long long before = state.thread_index() == 0 ? f.orderCount() : 0;
    long long created = 0;
    for (auto _ : state) {
        const OrderResponse response = f.service().placeOrder(kClient, f.nextKey(), order);
        if (response.status != 201) {
            state.SkipWithError(
                ("unexpected status " + std::to_string(response.status) + ": " + response.body).c_str());
            break;
        }
        ++created;
    }
    state.counters["orders"] = benchmark::Counter(static_cast<double>(created), benchmark::Counter::kIsRate);
    state.SetItemsProcessed(state.iterations());
    if (state.thread_index() == 0 && state.threads() == 1 && f.orderCount() - before != created) {
        state.SkipWithError("order count does not match the number of 201 answers");
    }
}
BENCHMARK(BM_PlaceOrderUnique)->ArgName("sync_normal")->Arg(0)->Arg(1)->UseRealTime()->MinTime(2.0);
// The server runs --threads 8 workers against one writer lock: the same with concurrent callers.
BENCHMARK(BM_PlaceOrderUnique)->ArgName("sync_normal")->Arg(0)->Arg(1)->Threads(8)->UseRealTime()->MinTime(2.0);

// The replay path: the key row exists and is completed, so the stored response is read back by one SELECT, without
// the writer lock or a write transaction.
void BM_PlaceOrderReplay(benchmark::State& state)
{
    auto& f = fixture(modeOf(state));
    const OrderCommand order = command(kBody);
    const std::string key = "replay-" + std::to_string(state.thread_index()) + "-" + f.nextKey();
    f.service().placeOrder(kClient, key, order);
    for (auto _ : state) {
        const OrderResponse response = f.service().placeOrder(kClient, key, order);
        if (!response.replayed) {
            state.SkipWithError("not a replay");
            break;
        }
        benchmark::DoNotOptimize(response.body.data());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PlaceOrderReplay)->ArgName("sync_normal")->Arg(0)->Arg(1)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_PlaceOrderReplay)->ArgName("sync_normal")->Arg(0)->Arg(1)->Threads(8)->UseRealTime()->MinTime(1.0);

// What if the statements were prepared once per connection? The same SQL as OrderService::placeOrder (copied
// here, in the same order, under the same writer lock and BEGIN IMMEDIATE), with every statement prepared once
// and reset after use. An estimate for the statement-cache finding in docs/performance.md, not the server's code:
// only the key, order, line, stock and stored-response statements of a one-line order without a cart id.
class CachedPlaceOrder
{
public:
    explicit CachedPlaceOrder(SQLite::Database& db)
        : m_begin(db, "BEGIN IMMEDIATE")
        , m_commit(db, "COMMIT")
        , m_forget(db, "DELETE FROM idempotency_keys WHERE client_id = ? AND idem_key = ? AND expires_at <= ?")
        , m_claim(db,
                  "INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, expires_at, "
                  "locked_at) VALUES (?, ?, ?, 'started', ?, ?, ?) ON CONFLICT (client_id, idem_key) DO NOTHING")
        , m_savepoint(db, "SAVEPOINT order_effect")
        , m_release(db, "RELEASE order_effect")
        , m_insertOrder(
              db, "INSERT INTO orders (client_id, cart_id, cart_key, idem_key, created_at) VALUES (?, ?, ?, ?, ?)")
        , m_takeStock(db, "UPDATE products SET stock = stock - ? WHERE id = ? AND stock >= ?")
        , m_insertLine(db, "INSERT INTO order_lines (order_id, product_id, quantity) VALUES (?, ?, ?)")
        , m_store(db,
                  "UPDATE idempotency_keys SET status = 'completed', response_code = ?, response_body = ?, "
                  "order_id = ?, locked_at = NULL WHERE client_id = ? AND idem_key = ?")
        , m_stored(db,
                   "SELECT fingerprint, status, response_code, response_body FROM idempotency_keys "
                   "WHERE client_id = ? AND idem_key = ?")
        , m_db(db)
    {
    }

    // Returns the response body (stored or new); throws on any surprise.
    std::string place(const std::string& client, const std::string& key, const OrderCommand& command, std::int64_t now)
    {
        const std::string print = OrderService::fingerprint(command);
        run(m_begin);
        try {
            m_forget.bind(1, client);
            m_forget.bind(2, key);
            m_forget.bind(3, static_cast<int64_t>(now));
            run(m_forget);
            m_claim.bind(1, client);
            m_claim.bind(2, key);
            m_claim.bind(3, print);
            m_claim.bind(4, static_cast<int64_t>(now));
            m_claim.bind(5, static_cast<int64_t>(now + 86'400'000));
            m_claim.bind(6, static_cast<int64_t>(now));
            const bool claimed = run(m_claim) == 1;
            std::string body;
            if (claimed) {
                run(m_savepoint);
                m_insertOrder.bind(1, client);
                m_insertOrder.bind(4, key);
                m_insertOrder.bind(5, static_cast<int64_t>(now));
                run(m_insertOrder);
                const long long orderId = m_db.getLastInsertRowid();
                for (const auto& line : command.lines) {
                    m_takeStock.bind(1, line.quantity);
                    m_takeStock.bind(2, line.product);
                    m_takeStock.bind(3, line.quantity);
                    if (run(m_takeStock) != 1) {
                        throw std::runtime_error("out of stock");
                    }
                    m_insertLine.bind(1, static_cast<int64_t>(orderId));
                    m_insertLine.bind(2, line.product);
                    m_insertLine.bind(3, line.quantity);
                    run(m_insertLine);
                }
                run(m_release);
                body = "{\"order_id\":" + std::to_string(orderId) +
                    ",\"status\":\"placed\",\"items\":[{\"product\":\"kniha\",\"quantity\":1}],\"created_at\":\"" +
                    isoTime(now) + "\"}";
                m_store.bind(1, 201);
                m_store.bind(2, body);
                m_store.bind(3, static_cast<int64_t>(orderId));
                m_store.bind(4, client);
                m_store.bind(5, key);
                if (run(m_store) != 1) {
                    throw std::runtime_error("key row vanished");
                }
            } else {
                m_stored.bind(1, client);
                m_stored.bind(2, key);
                if (!m_stored.executeStep() || m_stored.getColumn(0).getString() != print) {
                    throw std::runtime_error("not a replay");
                }
                body = m_stored.getColumn(3).getString();
                m_stored.reset();
            }
            run(m_commit);
            return body;
        } catch (...) {
            m_stored.reset();
            m_db.exec("ROLLBACK");
            throw;
        }
    }

private:
    static int run(SQLite::Statement& statement)
    {
        const int changes = statement.exec();
        statement.reset();
        statement.clearBindings();
        return changes;
    }

    SQLite::Statement m_begin, m_commit, m_forget, m_claim, m_savepoint, m_release, m_insertOrder, m_takeStock,
        m_insertLine, m_store, m_stored;
    SQLite::Database& m_db;
};

// range(0): 0 full / 1 normal; range(1): 0 unique keys / 1 replay. Compare with BM_PlaceOrderUnique/Replay.
void BM_WhatIfCachedStatements(benchmark::State& state)
{
    auto& f = fixture(modeOf(state));
    const OrderCommand order = command(kBody);
    const bool replay = state.range(1) == 1;
    SystemClock clock;
    auto db = f.store().lease();
    CachedPlaceOrder cached(*db);
    const std::string replayKey = "whatif-replay-" + f.nextKey();
    {
        std::lock_guard writer(f.store().writerLock());
        cached.place("A", replayKey, order, clock.nowMs());
    }
    for (auto _ : state) {
        std::lock_guard writer(f.store().writerLock());
        std::string body = cached.place("A", replay ? replayKey : "whatif-" + f.nextKey(), order, clock.nowMs());
        benchmark::DoNotOptimize(body.data());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_WhatIfCachedStatements)
    ->ArgNames({"sync_normal", "replay"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->UseRealTime()
    ->MinTime(1.0);

// The CPU work of POST /orders before the database: strict JSON parse + validation, then the fingerprint.
void BM_ParseOrder(benchmark::State& state)
{
    const char* body = state.range(0) == 0 ? kBody : kCartBody;
    for (auto _ : state) {
        auto parsed = parseOrderCommand(body);
        benchmark::DoNotOptimize(parsed);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseOrder)->ArgName("cart")->Arg(0)->Arg(1);

void BM_Fingerprint(benchmark::State& state)
{
    const OrderCommand order = command(state.range(0) == 0 ? kBody : kCartBody);
    for (auto _ : state) {
        std::string print = OrderService::fingerprint(order);
        benchmark::DoNotOptimize(print.data());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Fingerprint)->ArgName("cart")->Arg(0)->Arg(1);

void BM_ParseAndFingerprint(benchmark::State& state)
{
    for (auto _ : state) {
        auto parsed = parseOrderCommand(kBody);
        std::string print = OrderService::fingerprint(std::get<OrderCommand>(parsed));
        benchmark::DoNotOptimize(print.data());
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ParseAndFingerprint);

} // namespace

BENCHMARK_MAIN();
