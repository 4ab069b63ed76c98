#include "net/ConditionerLink.h"

#include <QList>
#include <QTcpSocket>

#include <algorithm>
#include <utility>

namespace onceorder::core {

namespace {

// "POST /orders": what the GUI's log names a request by.
QByteArray requestLine(const QByteArray& request)
{
    const QByteArray firstLine = request.trimmed().left(request.trimmed().indexOf("\r\n"));
    const QList<QByteArray> parts = firstLine.split(' ');
    return parts.size() >= 2 ? parts[0] + ' ' + parts[1] : firstLine.left(80);
}

} // namespace

ConditionerLink::ConditionerLink(NetworkConditioner* owner, QTcpSocket* client)
    : QObject(owner)
    , m_owner(owner)
    , m_client(client)
{
    m_client->setParent(this);
    m_client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    m_clock.start();
    connect(m_client, &QTcpSocket::readyRead, this, &ConditionerLink::readClient);
    connect(m_client, &QTcpSocket::disconnected, this, &ConditionerLink::clientClosed);
    for (QTimer& timer : m_timers) {
        timer.setSingleShot(true);
        timer.setTimerType(Qt::PreciseTimer);
    }
    connect(&m_timers[ToClient], &QTimer::timeout, this, [this] { release(ToClient); });
    connect(&m_timers[ToUpstream], &QTimer::timeout, this, [this] { release(ToUpstream); });
}

ConditionerLink::~ConditionerLink()
{
    // The sockets are children and outlive this body; nothing they emit while closing may reach us.
    QObject::disconnect(m_client, nullptr, this, nullptr);
    if (m_upstream) {
        QObject::disconnect(m_upstream, nullptr, this, nullptr);
    }
}

void ConditionerLink::readClient()
{
    const QByteArray data = m_client->readAll();
    if (m_swallowing || m_ending) {
        return;
    }
    m_fromClient += data;
    next();
}

void ConditionerLink::next()
{
    while (!m_exchange && !m_ending && !m_swallowing) {
        const HttpFrame request = HttpFramer::frame(m_fromClient, HttpMessageKind::Request);
        if (request.state == HttpFrame::State::Incomplete) {
            return;
        }
        if (request.state == HttpFrame::State::Malformed) {
            abortNow();
            return;
        }
        begin(m_fromClient.left(request.length));
        m_fromClient.remove(0, request.length);
    }
}

// Socket work first, signals last: a slot connected to them may change the mode or cut this link.
void ConditionerLink::begin(const QByteArray& request)
{
    const QByteArray line = requestLine(request);
    const QString what = QString::fromLatin1(line);
    const bool flaky = m_owner->m_mode == ConditionerMode::Flaky;
    const Decision decision = m_owner->decide();
    switch (decision) {
    case Decision::Refuse:
        abortNow();
        m_owner->count(&ConditionerCounters::refused);
        m_owner->record(ConditionerAction::Refused, NetworkConditioner::tr("refused %1: offline").arg(what));
        return;
    case Decision::DropRequest:
        abortNow();
        m_owner->count(&ConditionerCounters::requestsDropped);
        m_owner->record(ConditionerAction::DroppedRequest,
                        NetworkConditioner::tr("dropped the request %1 before it reached the server").arg(what));
        return;
    case Decision::Blackhole:
        m_swallowing = true;
        m_fromClient.clear();
        m_owner->count(&ConditionerCounters::blackholed);
        m_owner->record(ConditionerAction::Blackholed,
                        NetworkConditioner::tr("blackholed %1: no answer will come").arg(what));
        return;
    case Decision::Forward:
    case Decision::Delay:
    case Decision::DropResponse:
        break;
    }

    Exchange exchange;
    exchange.decision = decision;
    exchange.flaky = flaky;
    exchange.what = what;
    exchange.responseKind = line.startsWith("HEAD ") ? HttpMessageKind::ResponseToHead : HttpMessageKind::Response;
    exchange.response = HttpResponseStream(exchange.responseKind);
    exchange.delayMs = decision == Decision::Delay ? m_owner->m_delayMs : 0;
    m_exchange = std::move(exchange);
    const int delayMs = m_exchange->delayMs;
    hold(ToUpstream, request, delayMs);
    if (m_ending) {
        return;
    }
    m_owner->count(&ConditionerCounters::requestsForwarded);
    if (decision == Decision::Delay) {
        m_owner->count(&ConditionerCounters::delayed);
        m_owner->record(ConditionerAction::Delayed,
                        NetworkConditioner::tr("delayed %1 by %2 ms each way").arg(what).arg(delayMs));
    } else if (decision == Decision::Forward) {
        m_owner->record(ConditionerAction::Forwarded, NetworkConditioner::tr("forwarded %1").arg(what));
    }
}

void ConditionerLink::hold(Direction direction, QByteArray data, int delayMs)
{
    std::deque<Held>& queue = m_held[direction];
    if (delayMs <= 0 && queue.empty()) {
        deliver(direction, data);
        return;
    }
    // Due times only grow, so first in is first out in both directions.
    queue.push_back(Held {m_clock.elapsed() + std::max(delayMs, 0), std::move(data)});
    if (!m_timers[direction].isActive()) {
        m_timers[direction].start(std::max<qint64>(queue.front().dueMs - m_clock.elapsed(), 0));
    }
}

void ConditionerLink::release(Direction direction)
{
    std::deque<Held>& queue = m_held[direction];
    while (!queue.empty() && queue.front().dueMs <= m_clock.elapsed()) {
        const QByteArray data = std::move(queue.front().data);
        queue.pop_front();
        deliver(direction, data);
        if (m_ending) {
            return;
        }
    }
    if (!queue.empty()) {
        m_timers[direction].start(std::max<qint64>(queue.front().dueMs - m_clock.elapsed(), 0));
    } else if (direction == ToClient && m_closeWhenDrained) {
        closeGracefully();
    }
}

void ConditionerLink::deliver(Direction direction, const QByteArray& data)
{
    if (direction == ToClient) {
        m_client->write(data);
        return;
    }
    if (m_exchange) {
        m_exchange->sent = true;
    }
    if (m_upstream && m_upstreamUrl != m_owner->m_upstream) {
        // The server moved since this connection was opened: the next request goes to the new one.
        dropUpstream();
    }
    if (!m_upstream) {
        connectUpstream();
        if (m_ending) {
            return; // it failed at once
        }
    }
    if (m_upstream->state() == QAbstractSocket::ConnectedState) {
        m_upstream->write(data);
    } else {
        m_upstreamPending += data;
    }
}

void ConditionerLink::connectUpstream()
{
    m_upstreamUrl = m_owner->m_upstream;
    m_upstream = new QTcpSocket(this);
    connect(m_upstream, &QTcpSocket::connected, this, [this] {
        m_upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_upstream->write(std::exchange(m_upstreamPending, {}));
    });
    connect(m_upstream, &QTcpSocket::readyRead, this, &ConditionerLink::readUpstream);
    connect(m_upstream, &QTcpSocket::disconnected, this, &ConditionerLink::upstreamClosed);
    connect(m_upstream, &QTcpSocket::errorOccurred, this, &ConditionerLink::upstreamError);
    m_upstream->connectToHost(m_upstreamUrl.host(), static_cast<quint16>(m_upstreamUrl.port(80)));
}

void ConditionerLink::dropUpstream()
{
    QObject::disconnect(m_upstream, nullptr, this, nullptr);
    m_upstream->abort();
    m_upstream->deleteLater();
    m_upstream = nullptr;
    m_upstreamPending.clear();
}

void ConditionerLink::readUpstream()
{
    const QByteArray data = m_upstream->readAll();
    if (!m_exchange || m_swallowing || m_ending) {
        return; // nothing is waiting for it (e.g. a server's goodbye on an idle connection)
    }
    m_exchange->answered = true;
    if (m_exchange->decision != Decision::DropResponse) {
        hold(ToClient, data, m_exchange->delayMs);
    }
    // Framed as it streams, never from the start again: what the link holds of a response is capped whatever the
    // server sends (an endless chunked body with huge chunk extensions, a head that never ends).
    switch (m_exchange->response.feed(data)) {
    case HttpResponseStream::State::Incomplete:
        return;
    case HttpResponseStream::State::Malformed:
        // Unframeable: relay what came, then close both sides as a plain relay would.
        finishByClose();
        return;
    case HttpResponseStream::State::TooLarge: {
        // Over HttpExchange's limits: cut as a lost connection, so the client's attempt ends as "may have been sent"
        // and the cart is read back.
        const QString what = m_exchange->what;
        abortNow();
        m_owner->count(&ConditionerCounters::upstreamFailures);
        m_owner->record(
            ConditionerAction::UpstreamUnreachable,
            NetworkConditioner::tr("cut the response to %1: it is larger than the client accepts").arg(what));
        return;
    }
    case HttpResponseStream::State::Complete:
        completeExchange();
        return;
    }
}

void ConditionerLink::completeExchange()
{
    if (m_exchange->decision == Decision::DropResponse) {
        const QString what = m_exchange->what;
        const bool flaky = m_exchange->flaky;
        abortNow();
        m_owner->count(&ConditionerCounters::responsesDropped);
        m_owner->record(
            ConditionerAction::DroppedResponse,
            flaky ? NetworkConditioner::tr("flaky: dropped the response to %1").arg(what)
                  : NetworkConditioner::tr("dropped the response to %1 (the server has processed it)").arg(what));
        return;
    }
    m_exchange.reset();
    next();
}

// The server closed while an exchange was under way: the response (if any) ends here.
void ConditionerLink::finishByClose()
{
    if (m_exchange->decision == Decision::DropResponse) {
        completeExchange();
        return;
    }
    m_exchange.reset();
    if (m_held[ToClient].empty()) {
        closeGracefully();
    } else {
        m_closeWhenDrained = true;
    }
}

void ConditionerLink::upstreamClosed()
{
    const bool waiting = m_exchange && m_exchange->sent && !m_swallowing && !m_ending;
    const bool answered = waiting && m_exchange->answered;
    const QString what = waiting ? m_exchange->what : QString();
    dropUpstream();
    if (!waiting) {
        return; // an idle connection (or one we no longer need): the next request opens a new one
    }
    if (answered || m_exchange->decision != Decision::DropResponse) {
        finishByClose();
        return;
    }
    abortNow();
    m_owner->count(&ConditionerCounters::upstreamFailures);
    m_owner->record(ConditionerAction::UpstreamUnreachable,
                    NetworkConditioner::tr("the server closed the connection without answering %1").arg(what));
}

void ConditionerLink::upstreamError(QAbstractSocket::SocketError error)
{
    // A connected socket's failure ends in disconnected(), handled there; this is about never getting through.
    if (m_upstream->state() == QAbstractSocket::ConnectedState || error == QAbstractSocket::RemoteHostClosedError) {
        return;
    }
    const QString reason = m_upstream->errorString();
    const QString what = m_exchange ? m_exchange->what : QString();
    const QString server = m_upstreamUrl.toString();
    abortNow();
    m_owner->count(&ConditionerCounters::upstreamFailures);
    m_owner->record(ConditionerAction::UpstreamUnreachable,
                    NetworkConditioner::tr("could not reach the server at %1 for %2: %3").arg(server, what, reason));
}

void ConditionerLink::clientClosed()
{
    if (m_ending) {
        finish();
    } else {
        abortNow(); // the client gave up (e.g. its timeout after a blackhole): nothing more to relay
    }
}

// Lets the bytes already written reach the client, then closes, as the server itself would have.
void ConditionerLink::closeGracefully()
{
    m_ending = true;
    if (m_upstream) {
        dropUpstream();
    }
    m_client->disconnectFromHost();
    if (m_client->state() == QAbstractSocket::UnconnectedState) {
        finish();
    }
    // Otherwise clientClosed() follows once the bytes are out.
}

void ConditionerLink::abortNow()
{
    m_ending = true;
    QObject::disconnect(m_client, nullptr, this, nullptr);
    m_client->abort();
    finish();
}

void ConditionerLink::finish()
{
    if (m_finished) {
        return;
    }
    m_finished = true;
    m_ending = true;
    QObject::disconnect(m_client, nullptr, this, nullptr);
    if (m_upstream) {
        dropUpstream();
    }
    for (QTimer& timer : m_timers) {
        timer.stop();
    }
    m_owner->forget(this);
    deleteLater();
}

} // namespace onceorder::core
