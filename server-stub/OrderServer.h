// OrderServer: the whole server assembled (database, checkout, HTTP, reaper, completer), for main() and in-process
// tests. The database is whichever backend takes --db (storage/Backend.h): the order path, the checkout, the stub
// gateway and the webhooks all run on it.
#pragma once

#include "ServerOptions.h"
#include "routes/Metrics.h"
#include "support/Clock.h"
#include "teaching/Faults.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace onceorder::server {

class OpenedDatabase;
class OrderQueries;
class OrderService;
class OrderStore;
class RunLease;
class CheckoutService;
class CheckoutCompleter;
class CheckoutReaper;
class StubPaymentGateway;
class WebhookHandler;
class HttpApi;
class HttpServer;
class Replication;

class OrderServer
{
public:
    OrderServer(const ServerOptions& options, const Clock& clock);
    ~OrderServer();
    OrderServer(const OrderServer&) = delete;
    OrderServer& operator=(const OrderServer&) = delete;

    // Binds the listening socket; returns the port (useful with port 0) or -1.
    int bind();
    // Serves until stop(); in-flight requests finish before it returns.
    void run();
    void stop();

    // One pass of the reaper: deletes expired keys (of /orders and /checkout) in batches until none are left;
    // returns how many.
    int reapExpiredKeys();
    // One pass of the completer: finishes abandoned checkouts; returns how many.
    int completeAbandonedCheckouts();

    Faults& faults() { return m_faults; }
    // The transport's memory budget (--memory-budget): the bytes charged now, and the most ever charged at once.
    std::size_t heldBytes() const;
    std::size_t heldBytesPeak() const;

private:
    void reaperLoop();
    void completerLoop();
    void heartbeatLoop();

    ServerOptions m_options;
    const Clock& m_clock;
    Faults m_faults;
    Metrics m_metrics;
    // The order path, the read side and the SQL the checkout runs on, on the backend --db names.
    std::unique_ptr<OpenedDatabase> m_database;
    // POST /orders, the read side and the reaper, built here over the database's transactions and group commit;
    // they end before the database.
    std::unique_ptr<OrderService> m_orderService;
    std::unique_ptr<OrderQueries> m_queries;
    std::unique_ptr<OrderStore> m_orders;
    // This process's run in server_runs, renewed by the heartbeat thread: while it lives, the checkout locks it holds
    // are alive (storage/RunLease).
    std::unique_ptr<RunLease> m_lease;
    std::string m_webhookSecret;
    std::unique_ptr<StubPaymentGateway> m_gateway;
    std::unique_ptr<CheckoutService> m_checkout;
    // Finishes the checkouts nobody works on (completer thread); lets go of dead runs' locks and deletes expired
    // finished key rows (at start, and the reaper thread).
    std::unique_ptr<CheckoutCompleter> m_checkoutCompleter;
    std::unique_ptr<CheckoutReaper> m_checkoutReaper;
    std::unique_ptr<WebhookHandler> m_webhooks;
    // A SQLite file with --debug-endpoints: the standby of the failover lesson (teaching/Replication.h).
    std::unique_ptr<Replication> m_replication;
    std::unique_ptr<HttpApi> m_api;
    std::unique_ptr<HttpServer> m_http;

    std::mutex m_reaperLock;
    std::condition_variable m_reaperWake;
    bool m_stopping = false;
    std::thread m_reaper;
    std::thread m_completer;
    std::thread m_heartbeat;
};

} // namespace onceorder::server
