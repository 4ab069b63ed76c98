#include "net/NetworkConditioner.h"

#include "retry/Clock.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <array>
#include <deque>
#include <utility>

namespace onceorder::core {

namespace {

// A request or response head larger than this is not HTTP we relay; it also bounds what a client can make us buffer.
constexpr qsizetype kMaxHead = 64 * 1024;

HttpFrame complete(qsizetype length, int status)
{
    return HttpFrame {HttpFrame::State::Complete, length, status};
}

HttpFrame malformed()
{
    return HttpFrame {HttpFrame::State::Malformed, 0, 0};
}

// Where a chunked body that starts at `pos` ends (RFC 9112 §7.1), trailers included.
HttpFrame chunkedFrame(const QByteArray& data, qsizetype pos, int status)
{
    for (;;) {
        const qsizetype lineEnd = data.indexOf("\r\n", pos);
        if (lineEnd < 0) {
            return data.size() - pos > kMaxHead ? malformed() : HttpFrame {};
        }
        QByteArray sizeText = data.mid(pos, lineEnd - pos);
        if (const qsizetype extension = sizeText.indexOf(';'); extension >= 0) {
            sizeText.truncate(extension);
        }
        bool ok = false;
        const qlonglong size = sizeText.trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0) {
            return malformed();
        }
        pos = lineEnd + 2;
        if (size == 0) {
            // Trailer lines up to an empty one.
            for (;;) {
                const qsizetype end = data.indexOf("\r\n", pos);
                if (end < 0) {
                    return HttpFrame {};
                }
                if (end == pos) {
                    return complete(end + 2, status);
                }
                pos = end + 2;
            }
        }
        // Compared this way round so a huge announced size cannot overflow.
        if (size > data.size() - pos - 2) {
            return HttpFrame {};
        }
        if (data.mid(pos + size, 2) != "\r\n") {
            return malformed();
        }
        pos += size + 2;
    }
}

// "POST /orders": what the GUI's log names a request by.
QByteArray requestLine(const QByteArray& request)
{
    const QByteArray firstLine = request.trimmed().left(request.trimmed().indexOf("\r\n"));
    const QList<QByteArray> parts = firstLine.split(' ');
    return parts.size() >= 2 ? parts[0] + ' ' + parts[1] : firstLine.left(80);
}

} // namespace

HttpFrame NetworkConditioner::frame(const QByteArray& data, HttpMessageKind kind)
{
    // Empty lines before a message are tolerated, as RFC 9112 §2.2 asks.
    qsizetype start = 0;
    while (data.size() >= start + 2 && data[start] == '\r' && data[start + 1] == '\n') {
        start += 2;
    }
    const qsizetype headEnd = data.indexOf("\r\n\r\n", start);
    if (headEnd < 0) {
        return data.size() - start > kMaxHead ? malformed() : HttpFrame {};
    }
    const qsizetype bodyStart = headEnd + 4;
    const qsizetype startLineEnd = data.indexOf("\r\n", start);
    const QByteArray startLine = data.mid(start, startLineEnd - start);

    int status = 0;
    if (kind != HttpMessageKind::Request) {
        const QList<QByteArray> parts = startLine.split(' ');
        bool ok = false;
        status = parts.size() >= 2 ? parts[1].toInt(&ok) : 0;
        if (!startLine.startsWith("HTTP/") || !ok || status < 100 || status > 999) {
            return malformed();
        }
    }

    std::optional<qlonglong> contentLength;
    bool chunked = false;
    const QByteArray fields = startLineEnd < headEnd ? data.mid(startLineEnd + 2, headEnd - startLineEnd - 2) : "";
    for (const QByteArray& line : fields.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            continue;
        }
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed().toLower();
        if (name == "content-length") {
            bool ok = false;
            const qlonglong length = value.toLongLong(&ok);
            if (!ok || length < 0 || (contentLength && *contentLength != length)) {
                return malformed();
            }
            contentLength = length;
        } else if (name == "transfer-encoding") {
            chunked = value.split(',').last().trimmed() == "chunked";
        }
    }

    const bool bodyless =
        kind == HttpMessageKind::ResponseToHead || (status >= 100 && status < 200) || status == 204 || status == 304;
    if (bodyless) {
        return complete(bodyStart, status);
    }
    if (chunked) {
        return chunkedFrame(data, bodyStart, status);
    }
    if (contentLength) {
        return *contentLength > data.size() - bodyStart ? HttpFrame {} : complete(bodyStart + *contentLength, status);
    }
    // A request without a length has no body; a response without one lasts until the server closes.
    return kind == HttpMessageKind::Request ? complete(bodyStart, status) : HttpFrame {};
}

// One client connection and the upstream connection it is relayed to. It handles the client's requests one at
// a time: the next one is framed and decided only when the previous response is complete.
class NetworkConditioner::Link : public QObject
{
public:
    Link(NetworkConditioner* owner, QTcpSocket* client)
        : QObject(owner)
        , m_owner(owner)
        , m_client(client)
    {
        m_client->setParent(this);
        m_client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        m_clock.start();
        connect(m_client, &QTcpSocket::readyRead, this, &Link::readClient);
        connect(m_client, &QTcpSocket::disconnected, this, &Link::clientClosed);
        for (QTimer& timer : m_timers) {
            timer.setSingleShot(true);
            timer.setTimerType(Qt::PreciseTimer);
        }
        connect(&m_timers[ToClient], &QTimer::timeout, this, [this] { release(ToClient); });
        connect(&m_timers[ToUpstream], &QTimer::timeout, this, [this] { release(ToUpstream); });
    }

    ~Link() override
    {
        // The sockets are children and outlive this body; nothing they emit while closing may reach us.
        QObject::disconnect(m_client, nullptr, this, nullptr);
        if (m_upstream) {
            QObject::disconnect(m_upstream, nullptr, this, nullptr);
        }
    }

    Link(const Link&) = delete;
    Link& operator=(const Link&) = delete;

    // Going offline: both sides are cut at once, whatever is under way.
    void cut() { abortNow(); }

private:
    enum Direction
    {
        ToClient,
        ToUpstream
    };

    struct Exchange
    {
        Decision decision = Decision::Forward;
        bool flaky = false;
        QString what; // "POST /orders"
        HttpMessageKind responseKind = HttpMessageKind::Response;
        int delayMs = 0;
        bool sent = false; // handed to the upstream socket (a delayed request waits first)
        QByteArray response;
    };

    struct Held
    {
        qint64 dueMs = 0;
        QByteArray data;
    };

    void readClient()
    {
        const QByteArray data = m_client->readAll();
        if (m_swallowing || m_ending) {
            return;
        }
        m_fromClient += data;
        next();
    }

    void next()
    {
        while (!m_exchange && !m_ending && !m_swallowing) {
            const HttpFrame request = NetworkConditioner::frame(m_fromClient, HttpMessageKind::Request);
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
    void begin(const QByteArray& request)
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

    void hold(Direction direction, QByteArray data, int delayMs)
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

    void release(Direction direction)
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

    void deliver(Direction direction, const QByteArray& data)
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

    void connectUpstream()
    {
        m_upstreamUrl = m_owner->m_upstream;
        m_upstream = new QTcpSocket(this);
        connect(m_upstream, &QTcpSocket::connected, this, [this] {
            m_upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            m_upstream->write(std::exchange(m_upstreamPending, {}));
        });
        connect(m_upstream, &QTcpSocket::readyRead, this, &Link::readUpstream);
        connect(m_upstream, &QTcpSocket::disconnected, this, &Link::upstreamClosed);
        connect(m_upstream, &QTcpSocket::errorOccurred, this, &Link::upstreamError);
        m_upstream->connectToHost(m_upstreamUrl.host(), static_cast<quint16>(m_upstreamUrl.port(80)));
    }

    void dropUpstream()
    {
        QObject::disconnect(m_upstream, nullptr, this, nullptr);
        m_upstream->abort();
        m_upstream->deleteLater();
        m_upstream = nullptr;
        m_upstreamPending.clear();
    }

    void readUpstream()
    {
        const QByteArray data = m_upstream->readAll();
        if (!m_exchange || m_swallowing || m_ending) {
            return; // nothing is waiting for it (e.g. a server's goodbye on an idle connection)
        }
        m_exchange->response += data;
        if (m_exchange->decision != Decision::DropResponse) {
            hold(ToClient, data, m_exchange->delayMs);
        }
        for (;;) {
            const HttpFrame response = NetworkConditioner::frame(m_exchange->response, m_exchange->responseKind);
            if (response.state == HttpFrame::State::Incomplete) {
                return;
            }
            if (response.state == HttpFrame::State::Malformed) {
                // Unframeable: relay what came, then close both sides as a plain relay would.
                finishByClose();
                return;
            }
            m_exchange->response.remove(0, response.length);
            // An interim 1xx is followed by the real response.
            if (response.status >= 200 || response.status == 101) {
                completeExchange();
                return;
            }
        }
    }

    void completeExchange()
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
    void finishByClose()
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

    void upstreamClosed()
    {
        const bool waiting = m_exchange && m_exchange->sent && !m_swallowing && !m_ending;
        const bool answered = waiting && !m_exchange->response.isEmpty();
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

    void upstreamError(QAbstractSocket::SocketError error)
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
        m_owner->record(
            ConditionerAction::UpstreamUnreachable,
            NetworkConditioner::tr("could not reach the server at %1 for %2: %3").arg(server, what, reason));
    }

    void clientClosed()
    {
        if (m_ending) {
            finish();
        } else {
            abortNow(); // the client gave up (e.g. its timeout after a blackhole): nothing more to relay
        }
    }

    // Lets the bytes already written reach the client, then closes, as the server itself would have.
    void closeGracefully()
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

    void abortNow()
    {
        m_ending = true;
        QObject::disconnect(m_client, nullptr, this, nullptr);
        m_client->abort();
        finish();
    }

    void finish()
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

    NetworkConditioner* m_owner;
    QTcpSocket* m_client;
    QTcpSocket* m_upstream = nullptr;
    QUrl m_upstreamUrl;
    QByteArray m_upstreamPending; // written while the upstream connection was still being made
    QByteArray m_fromClient; // received, not yet framed into a request
    std::optional<Exchange> m_exchange;
    std::array<std::deque<Held>, 2> m_held;
    std::array<QTimer, 2> m_timers;
    QElapsedTimer m_clock;
    bool m_swallowing = false; // blackholed: everything from the client is read and thrown away
    bool m_closeWhenDrained = false; // the server closed; close the client once the held bytes are out
    bool m_ending = false;
    bool m_finished = false;
};

NetworkConditioner::NetworkConditioner(QObject* parent)
    : QObject(parent)
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
        for (Link* link : std::vector<Link*>(m_links)) {
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
        m_links.push_back(new Link(this, socket));
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

void NetworkConditioner::forget(Link* link)
{
    m_links.erase(std::remove(m_links.begin(), m_links.end(), link), m_links.end());
}

} // namespace onceorder::core
