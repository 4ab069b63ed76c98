#include "net/NetworkConditioner.h"

#include "net/ConditionerLink.h"
#include "retry/Clock.h"

#include <QHostAddress>
#include <QTcpSocket>

#include <algorithm>
#include <utility>

namespace onceorder::core {

HttpFrame NetworkConditioner::frame(const QByteArray& data, HttpMessageKind kind)
{
    return HttpFramer::frame(data, kind);
}

NetworkConditioner::NetworkConditioner(QObject* parent)
    : QObject(parent)
    , m_server(this) // a child, so it moves to another thread with the conditioner
    , m_ownRandom(std::make_unique<SystemRandom>())
    , m_random(m_ownRandom.get())
{
    connect(&m_server, &QTcpServer::newConnection, this, &NetworkConditioner::acceptConnections);
}

NetworkConditioner::~NetworkConditioner()
{
    qDeleteAll(std::exchange(m_links, {}));
}

bool NetworkConditioner::listen(const QUrl& upstream, quint16 port)
{
    m_upstream = upstream;
    if (m_server.isListening()) {
        m_server.close();
    }
    if (!m_server.listen(QHostAddress::LocalHost, port)) {
        return false;
    }
    m_port = m_server.serverPort();
    if (m_mode == ConditionerMode::Offline) {
        m_server.close(); // the port is now ours to come back to
    }
    return true;
}

QUrl NetworkConditioner::url() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(m_port);
    return url;
}

void NetworkConditioner::configure(ConditionerMode mode, int delayMs, double probability)
{
    setDelayMs(delayMs);
    setDropProbability(probability);
    setMode(mode);
    Q_EMIT configured(modeName(m_mode));
}

void NetworkConditioner::setUpstream(const QUrl& upstream)
{
    m_upstream = upstream;
}

bool NetworkConditioner::setMode(ConditionerMode mode)
{
    if (mode == m_mode) {
        return true;
    }
    if (mode == ConditionerMode::Offline) {
        m_mode = mode;
        // True refusal: the client's connect() fails, as with a server that is down or a cable pulled.
        m_server.close();
        const int open = static_cast<int>(m_links.size());
        for (ConditionerLink* link : std::vector<ConditionerLink*>(m_links)) {
            link->cut();
        }
        if (open > 0) {
            count(&ConditionerCounters::refused, open);
            record(ConditionerAction::Refused, tr("offline: cut %n open connection(s)", nullptr, open));
        }
        return true;
    }
    if (m_mode == ConditionerMode::Offline && m_port != 0 && !m_server.listen(QHostAddress::LocalHost, m_port)) {
        return false;
    }
    m_mode = mode;
    return true;
}

void NetworkConditioner::setDelayMs(int ms)
{
    m_delayMs = std::max(ms, 0);
}

void NetworkConditioner::setDropProbability(double probability)
{
    m_dropProbability = std::clamp(probability, 0.0, 1.0);
}

void NetworkConditioner::setRandomSource(RandomSource* random)
{
    m_random = random ? random : m_ownRandom.get();
}

void NetworkConditioner::resetCounters()
{
    m_counters = {};
    Q_EMIT countersChanged();
}

QString NetworkConditioner::modeName(ConditionerMode mode)
{
    switch (mode) {
    case ConditionerMode::Pass:
        return QStringLiteral("pass");
    case ConditionerMode::Offline:
        return QStringLiteral("offline");
    case ConditionerMode::DropRequest:
        return QStringLiteral("drop-request");
    case ConditionerMode::DropResponse:
        return QStringLiteral("drop-response");
    case ConditionerMode::Delay:
        return QStringLiteral("delay");
    case ConditionerMode::Blackhole:
        return QStringLiteral("blackhole");
    case ConditionerMode::Flaky:
        return QStringLiteral("flaky");
    }
    return {};
}

std::optional<ConditionerMode> NetworkConditioner::modeFromName(const QString& name)
{
    for (const ConditionerMode mode :
         {ConditionerMode::Pass, ConditionerMode::Offline, ConditionerMode::DropRequest, ConditionerMode::DropResponse,
          ConditionerMode::Delay, ConditionerMode::Blackhole, ConditionerMode::Flaky}) {
        if (modeName(mode) == name) {
            return mode;
        }
    }
    return std::nullopt;
}

void NetworkConditioner::acceptConnections()
{
    int accepted = 0;
    while (QTcpSocket* socket = m_server.nextPendingConnection()) {
        m_links.push_back(new ConditionerLink(this, socket));
        ++accepted;
    }
    if (accepted > 0) {
        count(&ConditionerCounters::connectionsAccepted, accepted);
    }
}

NetworkConditioner::Decision NetworkConditioner::decide()
{
    switch (m_mode) {
    case ConditionerMode::Pass:
        return Decision::Forward;
    case ConditionerMode::Offline:
        return Decision::Refuse;
    case ConditionerMode::DropRequest:
        return Decision::DropRequest;
    case ConditionerMode::DropResponse:
        return Decision::DropResponse;
    case ConditionerMode::Delay:
        return Decision::Delay;
    case ConditionerMode::Blackhole:
        return Decision::Blackhole;
    case ConditionerMode::Flaky:
        // Dropping the response, not the request: the worst case for a client, the server did the work and the
        // client cannot know, which is what the Idempotency-Key is there for.
        return m_random->uniform() < m_dropProbability ? Decision::DropResponse : Decision::Forward;
    }
    return Decision::Forward;
}

void NetworkConditioner::count(int ConditionerCounters::*counter, int by)
{
    m_counters.*counter += by;
    Q_EMIT countersChanged();
}

void NetworkConditioner::record(ConditionerAction action, const QString& description)
{
    Q_EMIT acted(action, description);
}

void NetworkConditioner::forget(ConditionerLink* link)
{
    m_links.erase(std::remove(m_links.begin(), m_links.end(), link), m_links.end());
}

} // namespace onceorder::core
