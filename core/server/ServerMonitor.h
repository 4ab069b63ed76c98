// ServerMonitor: polls the server's GET /_debug/state while someone is looking and reports each new snapshot, so
// the window can show the idempotency keys, orders and stock live.
#pragma once

#include "server/ServerState.h"

#include <QObject>
#include <QTimer>

#include <optional>

namespace onceorder::core {

class ServerApi;

class ServerMonitor : public QObject
{
    Q_OBJECT

public:
    explicit ServerMonitor(ServerApi* api, QObject* parent = nullptr);

    // Polling runs only while active (the dock is visible): a hidden table costs the server nothing.
    void setActive(bool active);
    bool isActive() const { return m_active; }
    void setIntervalMs(int intervalMs) { m_intervalMs = intervalMs; }
    // Asks now (e.g. right after an order or a debug command) instead of waiting for the next tick.
    void pollNow();

    const std::optional<ServerState>& lastState() const { return m_last; }

    // Shows a snapshot that arrived another way (every debug endpoint answers with the state).
    void acceptState(const ServerState& state);

Q_SIGNALS:
    void stateChanged(const onceorder::core::ServerState& state);
    // The state cannot be read: the reason for people, and the HTTP status (404: no --debug-endpoints; 0: down).
    void unavailable(const QString& reason, int httpStatus);

private:
    void poll();
    void schedule();

    ServerApi* m_api;
    QTimer m_timer;
    int m_intervalMs = 500;
    bool m_active = false;
    bool m_inFlight = false;
    bool m_pollAgain = false;
    std::optional<ServerState> m_last;
};

} // namespace onceorder::core
