#include "server/ServerMonitor.h"

#include "net/HttpReplyText.h"
#include "net/ServerApi.h"

#include <QJsonDocument>
#include <QPointer>

namespace onceorder::core {

namespace {
constexpr int kPollTimeoutMs = 3000;
constexpr int kReadTimeoutMs = 5000;
constexpr int kRefreshCoalesceMs = 150;
} // namespace

ServerMonitor::ServerMonitor(ServerApi* api, QObject* parent, StateParser parseState)
    : QObject(parent)
    , m_api(api)
    , m_parseState(parseState ? std::move(parseState) : StateParser(&ServerState::fromJson))
{
    m_parser.setObjectName(QStringLiteral("onceorder-monitor-parser"));
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &ServerMonitor::poll);
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(kRefreshCoalesceMs);
    connect(&m_refreshTimer, &QTimer::timeout, this, &ServerMonitor::refreshAll);
}

ServerMonitor::~ServerMonitor()
{
    // Work still queued there is dropped with its context; results already on their way are dropped by QObject.
    m_parser.quit();
    m_parser.wait();
}

template<typename Work, typename Done>
void ServerMonitor::offThread(Work work, Done done)
{
    if (!m_parserContext) {
        m_parserContext = std::make_unique<QObject>();
        m_parserContext->moveToThread(&m_parser);
        m_parser.start();
    }
    QMetaObject::invokeMethod(
        m_parserContext.get(),
        [this, work = std::move(work), done = std::move(done)]() mutable {
            auto result = work();
            QMetaObject::invokeMethod(
                this, [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
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
    ++m_lastChanges;
    Q_EMIT stateChanged(state);
}

void ServerMonitor::forgetShownState()
{
    // What the window shows now is the failure, not the last state: the next state read is shown even if it is the
    // same (a restarted server with the same rows), so the failure does not stay on screen.
    if (m_last) {
        m_last.reset();
        ++m_lastChanges;
    }
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
                   if (reply.status != 200 || m_statesAccepted != acceptedBefore) {
                       m_inFlight = false;
                       if (reply.status != 200) {
                           forgetShownState();
                           Q_EMIT unavailable(describeReply(reply), reply.status);
                       } else {
                           m_pollAgain = true; // a debug command's state came meanwhile: which is newer is unknown
                       }
                       pollDone();
                       return;
                   }
                   struct Parsed
                   {
                       std::optional<ServerState> state; // nullopt: not a debug state
                       bool unchanged = false; // equal to what was shown when the answer came
                   };
                   offThread(
                       [parse = m_parseState, body = reply.body, shown = m_last] {
                           Parsed parsed {parse(body)};
                           parsed.unchanged = parsed.state && parsed.state == shown;
                           if (parsed.unchanged) {
                               parsed.state =
                                   shown; // a shared copy: the parsed one is freed here, not on the monitor's
                           }
                           return parsed;
                       },
                       [this, acceptedBefore, changesBefore = m_lastChanges](Parsed parsed) {
                           m_inFlight = false;
                           if (m_statesAccepted != acceptedBefore) {
                               m_pollAgain = true; // a debug command's state came while this one was parsed
                           } else if (!parsed.state) {
                               forgetShownState();
                               Q_EMIT unavailable(tr("the server's answer is not a debug state"), 200);
                           } else if (!parsed.unchanged || m_lastChanges != changesBefore) {
                               showState(*parsed.state); // compares again: something was shown since the answer came
                           }
                           pollDone();
                       });
               });
}

void ServerMonitor::pollDone()
{
    if (m_pollAgain) {
        m_pollAgain = false;
        poll();
        return;
    }
    schedule();
}

void ServerMonitor::refreshProducts()
{
    m_api->get(QStringLiteral("/products"), kReadTimeoutMs,
               [this, alive = QPointer(this), asked = ++m_productsAsked](const HttpReply& reply) {
                   if (!alive || reply.status == 0 || asked < m_productsShown) {
                       return;
                   }
                   // OnceOrder answers its catalogue as a JSON list: anything else is another program.
                   if (reply.status != 200 || !QJsonDocument::fromJson(reply.body).isArray()) {
                       Q_EMIT notOnceOrder(reply.status == 200 ? tr("GET /products answered 200 without a product list")
                                                               : tr("GET /products answered %1").arg(reply.status));
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
                   // Answers are used in the order they came: an older one arriving after this is the past.
                   m_ordersShown = asked;
                   struct Parsed
                   {
                       QList<ServerOrderRow> orders;
                       bool unchanged = false; // equal to what was shown when the answer came
                   };
                   offThread(
                       [body = reply.body, shown = m_lastOrders] {
                           Parsed parsed {ServerState::ordersFromJson(body)};
                           parsed.unchanged = parsed.orders == shown;
                           if (parsed.unchanged) {
                               parsed.orders = shown; // a shared copy: the parsed rows are freed here
                           }
                           return parsed;
                       },
                       [this, changesBefore = m_lastOrdersChanges](Parsed parsed) {
                           if (parsed.unchanged && m_lastOrdersChanges == changesBefore) {
                               return; // refilling an unchanged table costs the window's event loop for nothing
                           }
                           if (parsed.orders == m_lastOrders) {
                               return;
                           }
                           m_lastOrders = std::move(parsed.orders);
                           ++m_lastOrdersChanges;
                           Q_EMIT ordersChanged(m_lastOrders);
                       });
               });
}

void ServerMonitor::schedule()
{
    if (m_active) {
        m_timer.start(m_intervalMs);
    }
}

} // namespace onceorder::core
