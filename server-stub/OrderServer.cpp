#include "OrderServer.h"

#include "auth/ApiKeys.h"
#include "checkout/CheckoutCompleter.h"
#include "checkout/CheckoutReaper.h"
#include "checkout/CheckoutService.h"
#include "checkout/HttpWebhookSink.h"
#include "checkout/StubPaymentGateway.h"
#include "checkout/WebhookHandler.h"
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "orders/SqlOrderStore.h"
#include "routes/HttpApi.h"
#include "storage/Backend.h"
#include "storage/DatabaseFailure.h"
#include "storage/RunLease.h"
#include "storage/Standby.h"
#include "teaching/CrashPoints.h"
#include "teaching/Replication.h"
#include "teaching/TeachingLessons.h"
#include "transport/HttpServer.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <thread>

namespace onceorder::server {

namespace {

constexpr int kReapBatch = 500;

// The I/O threads only parse and write; the request workers (--threads) do the work. One per core, at most four.
int ioThreads()
{
    return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

// The secret the gateway signs webhooks with: the one configured (ONCEORDER_WEBHOOK_SECRET), else the one made for
// this database.
std::string webhookSecret(const ServerOptions& options, const std::string& generated, const std::string& where)
{
    if (!options.webhookSecret.empty()) {
        std::fprintf(stderr, "webhook secret: from ONCEORDER_WEBHOOK_SECRET\n");
        return options.webhookSecret;
    }
    std::fprintf(stderr,
                 "webhook secret: generated for this database, in %s, table server_meta, name 'webhook_secret'\n",
                 where.c_str());
    return generated;
}

// SPEC §3: the demo keys are published. A new database gets them on loopback, or beyond it when told so.
bool seedsDemoClients(const ServerOptions& options)
{
    return listensOnLoopback(options.host) || options.allowDemoKeys;
}

// Beyond loopback the published keys open nothing unless told so (--allow-demo-keys), and the operator's never: an
// operator key is generated instead, printed once, and stored as its hash.
void guardPublishedKeys(OrderStore& store, const ServerOptions& options)
{
    if (listensOnLoopback(options.host)) {
        return;
    }
    ClientKeys& keys = store.clients();
    if (keys.holdsPublishedKeys() && !options.allowDemoKeys) {
        throw std::runtime_error("the database holds the published demo keys (demo-key-A, demo-key-B, demo-key-admin), "
                                 "which anyone can read: listening on " +
                                 options.host +
                                 " needs a database without them, or --allow-demo-keys to accept them anyway");
    }
    keys.refusePublishedOperatorKey();
    if (keys.hasOperator()) {
        return;
    }
    const std::string key = apikeys::generate();
    if (!store.addClient("operator", apikeys::hash(key), true)) {
        throw std::runtime_error("a client named \"operator\" exists but is no operator, or another instance has just "
                                 "issued the operator key: start again");
    }
    std::fprintf(stderr, "operator key (shown only now; the database keeps its hash): %s\n", key.c_str());
}

// A database step of the start, tried once more if it meets a transient failure. Behind a transaction pooler the
// first named statement can land on a server connection where another client prepared it, or where it was never
// prepared (SQLSTATE 42P05, 26000): PgWorkTx then sends every statement unnamed, and the second try gets through.
template<typename Step>
void startStep(const char* what, Step step)
{
    try {
        step();
    } catch (const std::exception& error) {
        if (classifyDatabaseFailure(std::current_exception()) != DatabaseFailure::Transient) {
            throw;
        }
        std::fprintf(stderr, "onceorder-server: %s failed (%s); trying once more\n", what, error.what());
        step();
    }
}

} // namespace

OrderServer::OrderServer(const ServerOptions& options, const Clock& clock)
    : m_options(options)
    , m_clock(clock)
{
    m_database = backendFor(options.dbPath).open(options, seedsDemoClients(options));
    m_orderService = std::make_unique<OrderService>(m_database->orderSql(), std::make_unique<TeachingLessons>(m_faults),
                                                    clock, options.keyTtl, m_database->orderBatcher());
    m_queries = std::make_unique<OrderQueries>(m_database->orderSql());
    m_orders = std::make_unique<SqlOrderStore>(*m_database, *m_orderService, *m_queries);
    m_webhookSecret = webhookSecret(options, m_database->webhookSecret(), m_database->webhookSecretPlace());
    m_gateway = std::make_unique<StubPaymentGateway>(m_database->openGatewayDatabase(), m_faults, clock,
                                                     m_webhookSecret, options.webhookRedelivery);
    m_checkout = std::make_unique<CheckoutService>(m_database->sql(), m_database->instanceId(), *m_gateway, m_faults,
                                                   clock, options.keyTtl, options.lockTimeout);
    // The crash-after-* lessons watch each checkout request pass its recovery points.
    m_checkout->observePhases(std::make_unique<CrashPoints>(m_faults));
    m_checkoutCompleter = std::make_unique<CheckoutCompleter>(*m_checkout);
    m_checkoutReaper = std::make_unique<CheckoutReaper>(m_database->sql());
    m_webhooks = std::make_unique<WebhookHandler>(m_database->sql(), m_database->instanceId(), clock, m_webhookSecret);
    if (options.debugEndpoints) {
        if (auto standby = m_database->openStandby()) {
            m_replication = std::make_unique<Replication>(std::move(standby));
        }
    }
    // This process's run lease: its row is renewed by the heartbeat thread; every checkout lock it takes names the
    // run, and lives as long as the lease (on PostgreSQL, another instance takes the lock over once it has expired).
    m_lease = std::make_unique<RunLease>(m_database->leaseSql(), [] {
        std::random_device random;
        const auto high = static_cast<unsigned long long>(random()) & 0x7FFFFFFFu;
        return static_cast<long long>((high << 32) | random()) | 1; // positive, never 0 (0 stands for "none")
    });
    startStep("run lease", [this] { m_lease->begin(); });
    m_lease->setRenewBeforeUse(&m_database->leaseSql() != &m_database->sql());
    m_checkout->setRunLease(*m_lease);
    guardPublishedKeys(*m_orders, options);
    m_api = std::make_unique<HttpApi>(*m_orders, m_faults, m_metrics, options.debugEndpoints, options.threads);
    m_api->limitClients(options.clientRate, options.clientKeyRows, clock);
    // Each client's count of key rows is seeded from the database the first time its quota is decided (KeyRowQuota).
    m_orderService->countKeyRows(*m_api->keyRowQuota());
    m_checkout->countKeyRows(*m_api->keyRowQuota());
    m_http = std::make_unique<HttpServer>(
        [api = m_api.get()](HttpRequest request, Responder respond) {
            api->handle(std::move(request), std::move(respond));
        },
        &HttpApi::refusal,
        HttpLimits {.headerTimeout = options.headerTimeout,
                    .maxHeldBytes = options.memoryBudgetMiB * 1024 * 1024,
                    .maxConnections = options.maxConnections},
        ioThreads(), [api = m_api.get()](const HttpRequest& head) { return api->checkHeader(head); });
    // Whoever held a checkout's lock before this start and is gone: its request can be resumed at once. On SQLite
    // that is every lock; on PostgreSQL only those whose run's lease has expired (other instances run on).
    startStep("releasing dead runs' locks", [this] { m_checkoutReaper->releaseLocks(); });
    m_api->enableCheckout(*m_checkout, *m_webhooks, *m_gateway);
    if (m_replication) {
        m_api->enableReplication(*m_replication);
    }
    m_api->registerRoutes();
    m_reaper = std::thread([this] { reaperLoop(); });
    if (options.completerInterval.count() > 0) {
        m_completer = std::thread([this] { completerLoop(); });
    }
    m_heartbeat = std::thread([this] { heartbeatLoop(); });
}

OrderServer::~OrderServer()
{
    stop();
    // The request workers go before the HTTP server they answer into: a worker that still holds a finished request
    // must not outlive the sessions' registry.
    m_api.reset();
    if (m_reaper.joinable()) {
        m_reaper.join();
    }
    if (m_completer.joinable()) {
        m_completer.join();
    }
    if (m_heartbeat.joinable()) {
        m_heartbeat.join();
    }
    // The in-flight requests are done: this run's locks are let go now instead of after its lease.
    try {
        m_lease->end();
    } catch (const std::exception& error) {
        std::fprintf(stderr, "run lease: %s (the lease expires by itself)\n", error.what());
    }
}

int OrderServer::bind()
{
    const int port = m_http->bind(m_options.host, m_options.port);
    if (port > 0) {
        // The gateway delivers its webhooks over HTTP to this very server, as an outside gateway would.
        const bool wildcard = m_options.host == "0.0.0.0" || m_options.host == "::" || m_options.host.empty();
        const std::string host = wildcard ? "127.0.0.1" : m_options.host;
        m_gateway->setWebhookSink(httpWebhookSink(host, port));
        // From now on the gateway delivers (and redelivers what an earlier run left) on its own thread.
        m_gateway->webhooks().start();
    }
    return port;
}

std::size_t OrderServer::heldBytes() const
{
    return m_http->heldBytes();
}

std::size_t OrderServer::heldBytesPeak() const
{
    return m_http->heldBytesPeak();
}

void OrderServer::run()
{
    m_http->run();
}

void OrderServer::stop()
{
    {
        std::lock_guard lock(m_reaperLock);
        m_stopping = true;
    }
    m_reaperWake.notify_all();
    m_http->stop();
}

int OrderServer::reapExpiredKeys()
{
    int total = 0;
    while (true) {
        const int reaped =
            runOnceMoreIfRerunnable([&] { return m_orders->reapExpiredKeys(m_clock.nowMs(), kReapBatch); });
        total += reaped;
        if (reaped < kReapBatch) {
            break;
        }
    }
    while (true) {
        const int reaped =
            runOnceMoreIfRerunnable([&] { return m_checkoutReaper->reapExpired(m_clock.nowMs(), kReapBatch); });
        total += reaped;
        if (reaped < kReapBatch) {
            break;
        }
    }
    // Remembered webhook events go after their retention (longer than the gateway redelivers); not keys, not counted.
    while (runOnceMoreIfRerunnable([&] { return m_webhooks->pruneEvents(m_clock.nowMs(), kReapBatch); }) ==
           kReapBatch) { }
    if (total > 0) {
        m_metrics.recordKeysReaped(total);
    }
    return total;
}

void OrderServer::reaperLoop()
{
    std::unique_lock lock(m_reaperLock);
    while (!m_reaperWake.wait_for(lock, m_options.reapInterval, [this] { return m_stopping; })) {
        lock.unlock();
        try {
            reapExpiredKeys();
        } catch (const std::exception& error) {
            std::fprintf(stderr, "reaper: %s (will try again)\n", error.what());
        }
        lock.lock();
    }
}

} // namespace onceorder::server

namespace onceorder::server {

int OrderServer::completeAbandonedCheckouts()
{
    const auto pass = runOnceMoreIfRerunnable([&] { return m_checkoutCompleter->completeAbandoned(); });
    m_metrics.recordCheckoutsCompleted(pass.completed);
    m_metrics.recordCompleterErrors(pass.failed);
    return pass.completed;
}

void OrderServer::heartbeatLoop()
{
    std::unique_lock lock(m_reaperLock);
    while (!m_reaperWake.wait_for(lock, m_lease->heartbeatInterval(), [this] { return m_stopping; })) {
        lock.unlock();
        try {
            runOnceMoreIfRerunnable([&] { m_lease->heartbeat(); });
        } catch (const std::exception& error) {
            // The lease ages meanwhile; once it has expired the next heartbeat goes on as a new run.
            std::fprintf(stderr, "run lease: heartbeat failed: %s (will try again)\n", error.what());
        }
        lock.lock();
    }
}

void OrderServer::completerLoop()
{
    std::unique_lock lock(m_reaperLock);
    while (!m_reaperWake.wait_for(lock, m_options.completerInterval, [this] { return m_stopping; })) {
        lock.unlock();
        try {
            completeAbandonedCheckouts();
        } catch (const std::exception& error) {
            std::fprintf(stderr, "completer: %s (will try again)\n", error.what());
        }
        lock.lock();
    }
}

} // namespace onceorder::server
