// ServerMonitor: keeps the window's picture of the server current and reports each new snapshot as a typed signal:
// the catalogue (GET /products), this client's orders (GET /orders) and, polled while someone is looking, the
// server's debug state (GET /_debug/state) with its idempotency keys, orders and stock.
//
// The answers' JSON (up to kLiveRowLimit rows of each table, ~100 kB) is parsed and compared with what is shown on a
// thread of the monitor's own, not on the thread the monitor lives on (the window's): while a hundred carts settle,
// parsing there cost the window 5–11 ms per refresh. Answers are still used in the order they came, on the
// monitor's thread, and only the ones that change something reach the signals.
#pragma once

#include "net/ServerApi.h"
#include "server/ServerState.h"

#include <QList>
#include <QObject>
#include <QThread>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace onceorder::core {

class ServerMonitor : public QObject
{
    Q_OBJECT

public:
    // How an answer of GET /_debug/state becomes a snapshot; called on the monitor's parsing thread. Injected by the
    // tests (to see where and when it runs); ServerState::fromJson otherwise.
    using StateParser = std::function<std::optional<ServerState>(const QByteArray&)>;

    explicit ServerMonitor(ServerApi* api, QObject* parent = nullptr, StateParser parseState = {});
    ~ServerMonitor() override;

    // Polling runs only while active (the dock is visible): a hidden table costs the server nothing.
    void setActive(bool active);
    bool isActive() const { return m_active; }
    void setIntervalMs(int intervalMs) { m_intervalMs = intervalMs; }
    // Asks now (e.g. right after an order or a debug command) instead of waiting for the next tick.
    void pollNow();
    // Asks for everything at once: the catalogue, this client's orders and the debug state (the server is up).
    void refreshAll();
    // refreshAll() once, shortly, however many times it is asked meanwhile: a hundred carts settling within a
    // second is one round of requests.
    void scheduleRefresh();

    const std::optional<ServerState>& lastState() const { return m_last; }

    // Shows a snapshot that arrived another way (every debug endpoint answers with the state). A poll already in
    // flight may have been answered before it or after it, so that poll's answer is not shown: it asks again.
    void acceptState(const ServerState& state);

Q_SIGNALS:
    void stateChanged(const onceorder::core::ServerState& state);
    // The state cannot be read: the reason for people, and the HTTP status (404: no --debug-endpoints; 0: down).
    void unavailable(const QString& reason, int httpStatus);
    // Every answer of GET /products, unchanged ones too: the window also takes stock from the debug state, and
    // the newest answer of either must win.
    void productsReceived(const QList<onceorder::core::Product>& products);
    // The server answered GET /products, but not as OnceOrder does (another program on that port, a proxy's error
    // page): what it answered, for people. Not for a server that does not answer at all (that is "down").
    void notOnceOrder(const QString& answer);
    // This client's newest orders, only when they differ from the last ones reported.
    void ordersChanged(const QList<onceorder::core::ServerOrderRow>& orders);

private:
    void poll();
    // After a poll's answer has been used (or dropped): asks again at once if that was wanted, else at the interval.
    void pollDone();
    void schedule();
    void refreshProducts();
    void refreshOrders();
    void showState(const ServerState& state);
    // After a failed poll: the next state read is reported as a change, whatever it holds.
    void forgetShownState();
    // Runs work() on the parsing thread, then done(result) on the monitor's thread: in the order they were asked.
    template<typename Work, typename Done>
    void offThread(Work work, Done done);

    ServerApi* m_api;
    QTimer m_timer;
    QTimer m_refreshTimer;
    int m_intervalMs = 500;
    bool m_active = false;
    bool m_inFlight = false;
    bool m_pollAgain = false;
    // Each answer carries the number of its request; one that arrives after a newer request's answer is the past
    // and is dropped (two GETs on two connections can be answered in either order).
    quint64 m_productsAsked = 0;
    quint64 m_productsShown = 0;
    quint64 m_ordersAsked = 0;
    quint64 m_ordersShown = 0;
    quint64 m_statesAccepted = 0; // snapshots from acceptState()
    std::optional<ServerState> m_last;
    QList<ServerOrderRow> m_lastOrders; // starts empty: an empty first answer changes nothing shown
    // Count the changes of m_last and m_lastOrders: the parsing thread compares an answer with a copy taken when the
    // answer came, and that comparison holds only if nothing was shown meanwhile.
    quint64 m_lastChanges = 0;
    quint64 m_lastOrdersChanges = 0;
    StateParser m_parseState;
    QThread m_parser; // started on the first answer
    std::unique_ptr<QObject> m_parserContext; // lives on m_parser: the target of the work queued there
};

} // namespace onceorder::core
