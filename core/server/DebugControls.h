// DebugControls: the debug panel's commands, sent to the server's /_debug endpoints (faults, teaching modes, reset),
// done to the bundled server process (kill), or to this client: the network conditioner between it and the server,
// and its crash points. Each server command reports its result as a signal for people.
#pragma once

#include "server/ServerState.h"

#include <QByteArray>
#include <QObject>
#include <QString>

namespace onceorder::core {

class BundledServer;
class NetworkConditioner;
class ServerApi;

struct FaultRequest
{
    // /orders: fail-before-commit, crash-before-commit, crash-after-commit, delay, unavailable;
    // /checkout: crash-after-started, -order-created, -charge, -payment-charged, -finished;
    // the payment gateway: gateway-decline, -timeout, -fail, -slow, webhook-duplicate, webhook-twin,
    // webhook-ack-lost; none (all off).
    QString fault;
    int count = 1;
    int delayMs = 0;
    int retryAfterSeconds = 0;
    QString label; // how the window names it ("Fail before commit"); empty: the fault's id
};

class DebugControls : public QObject
{
    Q_OBJECT

public:
    // bundled is null when the client uses an external server (--server URL); conditioner is null when the session
    // sends without one (the network commands then change nothing).
    DebugControls(ServerApi* api, BundledServer* bundled, NetworkConditioner* conditioner, QObject* parent = nullptr);

    void armFault(const FaultRequest& request);
    // mode: check_then_insert, unscoped_keys, store_transient or business_key_off.
    // `label` is how the window names the mode ("Business key off"); empty: its id.
    void setMode(const QString& mode, bool on, const QString& label = {});
    void resetServer();
    // One pass of the server's completer now: it finishes (or cleans up) checkouts abandoned between phases.
    void runCompleter();

    bool canKillServer() const { return m_bundled != nullptr; }
    // Kills the bundled server as a crash would; the session restarts it.
    void killBundledServer();

    bool hasConditioner() const { return m_conditioner != nullptr; }
    // mode: pass, offline, drop-request, drop-response, delay, blackhole or flaky; probability 0…1 (flaky only).
    void setNetworkMode(const QString& mode, int delayMs, double probability);

    // This client dies right after its next request is sent (the after-send crash point); false disarms.
    void armCrashAfterSend(bool armed);
    // This client dies now, like a power cut.
    void crashNow();

    // The JSON bodies, pure so they are tested without a server.
    static QByteArray faultBody(const FaultRequest& request);
    static QByteArray modeBody(const QString& mode, bool on);

Q_SIGNALS:
    // what: the command, for people ("Armed delay ×2"); state: the server's state after it.
    void succeeded(const QString& what, const onceorder::core::ServerState& state);
    void failed(const QString& what, const QString& reason, int httpStatus);
    // The conditioner's mode by name ("pass", "drop-response", …) after a network command.
    void networkModeChanged(const QString& mode);

private:
    void post(const QString& path, const QByteArray& body, const QString& what);

    ServerApi* m_api;
    BundledServer* m_bundled;
    NetworkConditioner* m_conditioner;
};

} // namespace onceorder::core
