#include "server/ServerMonitor.h"

#include "net/HttpReplyText.h"
#include "net/ServerApi.h"

#include <QPointer>

namespace onceorder::core {

namespace {
constexpr int kPollTimeoutMs = 3000;
}

ServerMonitor::ServerMonitor(ServerApi* api, QObject* parent)
    : QObject(parent)
    , m_api(api)
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ServerMonitor::poll);
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

void ServerMonitor::acceptState(const ServerState& state)
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
               [this, alive = QPointer(this)](const HttpReply& reply) {
                   if (!alive) {
                       return; // the reply outlived the monitor
                   }
                   m_inFlight = false;
                   if (reply.status == 200) {
                       if (auto state = ServerState::fromJson(reply.body)) {
                           acceptState(*state);
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

void ServerMonitor::schedule()
{
    if (m_active) {
        m_timer.start(m_intervalMs);
    }
}

} // namespace onceorder::core
