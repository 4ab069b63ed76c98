#include "server/ServerMonitor.h"

#include "net/HttpReplyText.h"
#include "net/ServerApi.h"

#include <QPointer>

namespace onceorder::core {

namespace {
constexpr int kPollTimeoutMs = 3000;
constexpr int kReadTimeoutMs = 5000;
constexpr int kRefreshCoalesceMs = 150;
} // namespace

ServerMonitor::ServerMonitor(ServerApi* api, QObject* parent)
    : QObject(parent)
    , m_api(api)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ServerMonitor::poll);
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshCoalesceMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &ServerMonitor::refreshAll);
}

void ServerMonitor::setActive(bool active)
{
    m_active = active;
    if (active) {
        pollNow();
    } else {
        m_timer.stop();
    }
}

void ServerMonitor::pollNow()
{
    if (m_inFlight) {
        // One request at a time; the answer in flight may predate what the caller wants to see.
        m_pollAgain = true;
        return;
    }
    m_timer.stop();
    poll();
}

void ServerMonitor::refreshAll()
{
    refreshProducts();
    refreshOrders();
    pollNow();
}

void ServerMonitor::scheduleRefresh()
{
    if (!m_refreshTimer.isActive()) {
        m_refreshTimer.start();
    }
}

void ServerMonitor::acceptState(const ServerState& state)
{
    ++m_statesAccepted;
    showState(state);
}

void ServerMonitor::showState(const ServerState& state)
{
    if (m_last == state) {
        return;
    }
    m_last = state;
    Q_EMIT stateChanged(state);
}

void ServerMonitor::poll()
{
    if (m_api->baseUrl().isEmpty()) {
        schedule();
        return;
    }
    m_inFlight = true;
    m_api->get(withLiveLimit(QStringLiteral("/_debug/state")), kPollTimeoutMs,
               [this, alive = QPointer(this), acceptedBefore = m_statesAccepted](const HttpReply& reply) {
                   if (!alive) {
                       return; // the reply outlived the monitor
                   }
                   m_inFlight = false;
                   if (reply.status == 200 && m_statesAccepted != acceptedBefore) {
                       m_pollAgain = true; // a debug command's state came meanwhile: which is newer is unknown
                   } else if (reply.status == 200) {
                       if (auto state = ServerState::fromJson(reply.body)) {
                           showState(*state);
                       } else {
                           Q_EMIT unavailable(tr("the server's answer is not a debug state"), reply.status);
                       }
                   } else {
                       Q_EMIT unavailable(describeReply(reply), reply.status);
                   }
                   if (m_pollAgain) {
                       m_pollAgain = false;
                       poll();
                       return;
                   }
                   schedule();
               });
}

void ServerMonitor::refreshProducts()
{
    m_api->get(QStringLiteral("/products"), kReadTimeoutMs,
               [this, alive = QPointer(this), asked = ++m_productsAsked](const HttpReply& reply) {
                   if (!alive || reply.status != 200 || asked < m_productsShown) {
                       return;
                   }
                   m_productsShown = asked;
                   Q_EMIT productsReceived(ServerApi::parseProducts(reply.body));
               });
}

void ServerMonitor::refreshOrders()
{
    m_api->get(withLiveLimit(QStringLiteral("/orders")), kReadTimeoutMs,
               [this, alive = QPointer(this), asked = ++m_ordersAsked](const HttpReply& reply) {
                   if (!alive || reply.status != 200 || asked < m_ordersShown) {
                       return;
                   }
                   m_ordersShown = asked;
                   auto orders = ServerState::ordersFromJson(reply.body);
                   if (orders == m_lastOrders) {
                       return; // refilling an unchanged table costs the window's event loop for nothing
                   }
                   m_lastOrders = std::move(orders);
                   Q_EMIT ordersChanged(m_lastOrders);
               });
}

void ServerMonitor::schedule()
{
    if (m_active) {
        m_timer.start(m_intervalMs);
    }
}

} // namespace onceorder::core
