// ClientSession: everything one running client needs, wired together: the server (bundled or external), the
// HTTP API, the outbox and the submission engine. The GUI and the CLI each own one.
//
// Threads. The CLI and the engine's tests drive the engine on their own thread. The window calls
// useWorkerThread(): the SubmissionEngine (with its Outbox connection, its retry timers and the order ServerApi with
// its HttpExchanges) and the NetworkConditioner (a TCP relay) then live on one worker QThread owned by the
// session, so an outbox commit (synchronous=FULL, an fsync or two per step) or a relayed byte never holds up the
// window's event loop. The window talks to them only by queued calls (submit(), resumePending(), and the timeline's
// and debug panel's signals, which Qt queues across threads) and listens to the engine's signals, which carry
// Submission values (copies), also queued. The counts it shows come with pendingCountsChanged(); the session's
// read-only second connection (pendingCount(), submission()) is for tests and benchmarks: in WAL mode a read never
// waits for the engine's commits and never syncs. The durable rules are the engine's and do not change with the
// thread: a key is committed before its request is sent, an outcome before it is emitted, and several processes
// still share one outbox through its leases and IMMEDIATE transactions.
#pragma once

#include "net/NetworkConditioner.h"
#include "net/ServerApi.h"
#include "retry/Clock.h"
#include "server/BundledServer.h"
#include "session/ClientOptions.h"
#include "submission/Outbox.h"
#include "submission/SubmissionEngine.h"

#include <QObject>
#include <QThread>

#include <memory>
#include <optional>
#include <type_traits>

namespace onceorder::core {

class ClientSession : public QObject
{
    Q_OBJECT

public:
    // Opens the outbox in options.stateDir; throws SQLite::Exception if that is impossible.
    explicit ClientSession(ClientOptions options, EngineConfig engineConfig = {}, QObject* parent = nullptr);
    ~ClientSession() override;

    // Routes the order traffic (the engine's requests) through a NetworkConditioner on loopback, so the debug
    // panel can break it. Call before start(). Debug, catalogue and monitoring calls stay direct, so breaking the
    // network does not also blind the teacher's live tables. Plain http only (a relay would break TLS names).
    void enableConditioner();

    // Moves the engine (its outbox connection, timers and HTTP client) and the conditioner to a worker thread of
    // this session (see the top of this file). Call after enableConditioner() and before start(). From then on
    // engine() and conditioner() must only be called through queued connections, submit()/resumePending(), or
    // onEngineThread().
    // The worker thread and the bundled server also run at a lower CPU priority than the window (nice +5; see
    // backgroundNiceness()).
    void useWorkerThread();
    bool hasWorkerThread() const { return m_worker != nullptr; }
    // How much lower: kBackgroundNiceness, or ONCEORDER_BACKGROUND_NICE (0–19) for a benchmark's comparison.
    static int backgroundNiceness();
    static constexpr int kBackgroundNiceness = 5;

    // Starts the bundled server if no --server was given; serverReady() follows either way.
    void start();

    // Commands for the window. Queued to the engine's thread when it has its own; direct otherwise. A refused cart
    // is reported by SubmissionEngine::submitRefused, the rest by its submissionChanged.
    void submit(const Cart& cart);
    void resumePending();
    void setOffline(bool offline);

    // Reads through the session's own read-only use of the outbox file (another connection; WAL: never blocked by
    // the engine's commits, never syncs). For tests and benchmarks; the window takes its counts from signals.
    int pendingCount() const;
    int pendingElsewhereCount() const;
    std::optional<Submission> submission(qint64 id) const;

    // Runs fn on the engine's thread and waits for its result (directly when there is no worker). Blocks the caller:
    // for tests and benchmarks, never the window.
    template<typename F>
    auto onEngineThread(F fn) const -> std::invoke_result_t<F>
    {
        if (!m_worker || QThread::currentThread() == m_worker) {
            return fn();
        }
        if constexpr (std::is_void_v<std::invoke_result_t<F>>) {
            QMetaObject::invokeMethod(m_workerContext, fn, Qt::BlockingQueuedConnection);
        } else {
            std::invoke_result_t<F> result {};
            QMetaObject::invokeMethod(
                m_workerContext, [&result, &fn] { result = fn(); }, Qt::BlockingQueuedConnection);
            return result;
        }
    }

    const ClientOptions& options() const { return m_options; }
    bool usesBundledServer() const { return m_options.server.isEmpty(); }
    // What the outbox binds submissions to: "bundled", or the external server's URL.
    QString target() const;
    // Direct to the server: catalogue, orders list, debug endpoints.
    ServerApi* api() const { return m_api; }
    // What the engine sends through: the conditioner when enabled, else the same server.
    ServerApi* orderApi() const { return m_orderApi; }
    NetworkConditioner* conditioner() const { return m_conditioner; }
    SubmissionEngine* engine() const { return m_engine; }
    Outbox& outbox() const { return *m_outbox; }
    BundledServer* bundledServer() const { return m_bundled; }
    const Clock& clock() const { return m_clock; }

Q_SIGNALS:
    // The engine's signals of the same name, re-emitted on the session's (the window's) thread: what a test spies on.
    void submissionChanged(const onceorder::core::Submission& submission);
    void settled(const onceorder::core::Submission& submission);
    void serverReady(const QUrl& url);
    void serverFailed(const QString& reason);

private:
    void watchReachability();
    void connectTo(const QUrl& serverUrl);
    // Points the engine's requests at the server, through the conditioner if there is one. On the engine's thread.
    void routeOrders(const QUrl& serverUrl);
    const Outbox& reader() const;

    ClientOptions m_options;
    OffsetClock m_clock; // the wall clock; tests step it with ONCEORDER_TEST_CLOCK_OFFSET_MS
    SystemRandom m_random;
    std::unique_ptr<Outbox> m_outbox;
    BundledServer* m_bundled = nullptr;
    ServerApi* m_api;
    ServerApi* m_orderApi;
    NetworkConditioner* m_conditioner = nullptr;
    SubmissionEngine* m_engine;
    QThread* m_worker = nullptr; // useWorkerThread(): the engine's and the conditioner's thread
    QObject* m_workerContext = nullptr; // lives on m_worker: the target of queued calls there
    mutable std::unique_ptr<Outbox> m_reader; // opened on first use by pendingCount()/submission()
};

} // namespace onceorder::core
