// ClientSession: everything one running client needs, wired together: the server (bundled or external), the
// HTTP API, the outbox and the submission engine. The GUI and the CLI each own one.
#pragma once

#include "net/NetworkConditioner.h"
#include "net/ServerApi.h"
#include "retry/Clock.h"
#include "server/BundledServer.h"
#include "session/ClientOptions.h"
#include "submission/Outbox.h"
#include "submission/SubmissionEngine.h"

#include <QObject>

#include <memory>

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

    // Starts the bundled server if no --server was given; serverReady() follows either way.
    void start();

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
    void serverReady(const QUrl& url);
    void serverFailed(const QString& reason);

private:
    void watchReachability();
    void connectTo(const QUrl& serverUrl);

    ClientOptions m_options;
    OffsetClock m_clock; // the wall clock; tests step it with ONCEORDER_TEST_CLOCK_OFFSET_MS
    SystemRandom m_random;
    std::unique_ptr<Outbox> m_outbox;
    BundledServer* m_bundled = nullptr;
    ServerApi* m_api;
    ServerApi* m_orderApi;
    NetworkConditioner* m_conditioner = nullptr;
    SubmissionEngine* m_engine;
};

} // namespace onceorder::core
