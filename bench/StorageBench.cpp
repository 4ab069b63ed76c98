// StorageBench: the storage ceiling of POST /orders. The very transaction the HTTP handler runs
// (OrderService::placeOrder on a Store backed by a file), with no HTTP in front of it, at both --synchronous
// settings; the replay path (same key); and the CPU work before the transaction (JSON parse, fingerprint).
// The HTTP numbers of bench/run-server are judged against these, measured in the same run.
#include "Faults.h"
#include "OrderCommand.h"
#include "OrderService.h"
#include "Store.h"

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

// The replay path: the key row exists, the stored response is read back (still a write transaction:
// BEGIN IMMEDIATE, the expired-key DELETE and the INSERT ... DO NOTHING run before the SELECT).
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
