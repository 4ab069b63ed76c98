#include "OrderServer.h"

#include "checkout/CheckoutService.h"
#include "checkout/StubPaymentGateway.h"
#include "checkout/WebhookHandler.h"
#include "http/HttpApi.h"
#include "orders/OrderQueries.h"
#include "orders/OrderService.h"
#include "storage/Store.h"

#include <httplib.h>

#include <cstdio>
#include <cstdlib>
#include <sys/socket.h>

namespace onceorder::server {

namespace {

constexpr int kReapBatch = 500;

std::string webhookSecret()
{
    const char* secret = std::getenv("ONCEORDER_WEBHOOK_SECRET");
    return secret && *secret ? secret : kDemoWebhookSecret;
}

} // namespace

OrderServer::OrderServer(const ServerOptions& options, const Clock& clock)
    : m_options(options)
    , m_clock(clock)
    , m_store(std::make_unique<Store>(options.dbPath, options.synchronous, options.threads + 2))
    , m_orders(std::make_unique<OrderService>(*m_store, m_faults, clock, options.keyTtl))
    , m_queries(std::make_unique<OrderQueries>(*m_store))
    , m_gateway(
          std::make_unique<StubPaymentGateway>(gatewayDatabasePath(options.dbPath), m_faults, clock, webhookSecret()))
    , m_checkout(
          std::make_unique<CheckoutService>(*m_store, *m_gateway, m_faults, clock, options.keyTtl, options.lockTimeout))
    , m_webhooks(std::make_unique<WebhookHandler>(*m_store, clock, webhookSecret()))
    , m_api(std::make_unique<HttpApi>(*m_store, *m_orders, *m_queries, m_faults, m_metrics, options.debugEndpoints))
    , m_http(std::make_unique<httplib::Server>())
{
    // Whoever held a checkout's lock before this start is gone: its request can be resumed at once.
    m_checkout->releaseLocks();
    m_api->enableCheckout(*m_checkout, *m_webhooks, *m_gateway);
    m_http->set_tcp_nodelay(true);
    // An idle kept-alive connection holds a worker until this runs out, and a graceful stop waits for it.
    m_http->set_keep_alive_timeout(2);
    m_http->set_read_timeout(options.readTimeout);
    // An answer here is one whole JSON document: there is no partial content. httplib would cut any answer to a
    // Range header's bytes (a 200 holding the first four bytes of a JSON text, a 416 for an error past its end);
    // RFC 9110 §14.2 lets a server ignore Range, so the parsed ranges are dropped before routing. The request is
    // httplib's own non-const object, handed to this hook as const.
    m_http->set_pre_routing_handler([](const httplib::Request& req, httplib::Response&) {
        const_cast<httplib::Request&>(req).ranges.clear();
        return httplib::Server::HandlerResponse::Unhandled;
    });
    m_http->set_payload_max_length(1024 * 1024); // beyond our own 64 KiB check, httplib refuses to read at all
    const int threads = options.threads;
    m_http->new_task_queue = [threads] {
        return new httplib::ThreadPool(static_cast<size_t>(threads));
    };
    m_api->registerRoutes(*m_http);
    m_reaper = std::thread([this] { reaperLoop(); });
    if (options.completerInterval.count() > 0) {
        m_completer = std::thread([this] { completerLoop(); });
    }
}

OrderServer::~OrderServer()
{
    stop();
    if (m_reaper.joinable()) {
        m_reaper.join();
    }
    if (m_completer.joinable()) {
        m_completer.join();
    }
}

int OrderServer::bind()
{
    // httplib listens with a backlog of 5 (compiled into Debian's library); a burst of retries overflows that and
    // clients wait seconds for SYN retransmits. Remember the socket httplib creates and, once it listens, widen
    // the backlog (calling listen() again on a listening socket updates it on Linux).
    int listening = -1;
    m_http->set_socket_options([&listening](socket_t sock) {
        httplib::default_socket_options(sock);
        listening = sock;
    });
    const int port = m_options.port == 0 ? m_http->bind_to_any_port(m_options.host)
                                         : (m_http->bind_to_port(m_options.host, m_options.port) ? m_options.port : -1);
    // The lambda refers to a local: do not leave it behind for a later socket.
    m_http->set_socket_options(httplib::default_socket_options);
    if (port > 0 && listening >= 0) {
        ::listen(listening, SOMAXCONN);
    }
    if (port > 0) {
        // The gateway delivers its webhooks over HTTP to this very server, as an outside gateway would.
        const bool wildcard = m_options.host == "0.0.0.0" || m_options.host == "::" || m_options.host.empty();
        const std::string host = wildcard ? "127.0.0.1" : m_options.host;
        m_gateway->setWebhookSink([host, port](const std::string& body, const std::string& signature) {
            httplib::Client client(host, port);
            client.set_connection_timeout(2, 0);
            client.set_read_timeout(5, 0);
            auto result =
                client.Post("/webhooks/payments", {{"Gateway-Signature", signature}}, body, "application/json");
            return result && result->status >= 200 && result->status < 300;
        });
    }
    return port;
}

void OrderServer::run()
{
    m_http->listen_after_bind();
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
        const int reaped = m_store->reapExpiredKeys(m_clock.nowMs(), kReapBatch);
        total += reaped;
        if (reaped < kReapBatch) {
            break;
        }
    }
    while (true) {
        const int reaped = m_checkout->reapExpired(m_clock.nowMs(), kReapBatch);
        total += reaped;
        if (reaped < kReapBatch) {
            break;
        }
    }
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
    const int completed = m_checkout->completeAbandoned();
    m_metrics.recordCheckoutsCompleted(completed);
    return completed;
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
