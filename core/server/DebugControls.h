// DebugControls: the debug panel's commands, sent to the server's /_debug endpoints (faults, teaching modes, reset)
// or done to the bundled server process (kill). Each command reports its result as a signal for people.
#pragma once

#include "server/ServerState.h"

#include <QByteArray>
#include <QObject>
#include <QString>

namespace onceorder::core {

class BundledServer;
class ServerApi;

struct FaultRequest
{
    // /orders: fail-before-commit, crash-before-commit, crash-after-commit, delay, unavailable;
    // /checkout: crash-after-started, -order-created, -charge, -payment-charged, -finished;
    // the payment gateway: gateway-decline, -timeout, -fail, -slow, webhook-duplicate, webhook-twin; none (all off).
    QString fault;
    int count = 1;
    int delayMs = 0;
    int retryAfterSeconds = 0;
};

class DebugControls : public QObject
{
    Q_OBJECT

public:
    // bundled is null when the client uses an external server (--server URL).
    DebugControls(ServerApi* api, BundledServer* bundled, QObject* parent = nullptr);

    void armFault(const FaultRequest& request);
    // mode: check_then_insert, unscoped_keys, store_transient or business_key_off.
    void setMode(const QString& mode, bool on);
    void resetServer();
    // One pass of the server's completer now: it finishes (or cleans up) checkouts abandoned between phases.
    void runCompleter();

    bool canKillServer() const { return m_bundled != nullptr; }
    // Kills the bundled server as a crash would; the session restarts it.
    void killBundledServer();

    // The JSON bodies, pure so they are tested without a server.
    static QByteArray faultBody(const FaultRequest& request);
    static QByteArray modeBody(const QString& mode, bool on);

Q_SIGNALS:
    // what: the command, for people ("Armed delay ×2"); state: the server's state after it.
    void succeeded(const QString& what, const onceorder::core::ServerState& state);
    void failed(const QString& what, const QString& reason, int httpStatus);

private:
    void post(const QString& path, const QByteArray& body, const QString& what);

    ServerApi* m_api;
    BundledServer* m_bundled;
};

} // namespace onceorder::core
