#include "net/HttpExchange.h"

#include <QSslSocket>
#include <QTcpSocket>

namespace onceorder::core {

namespace {

QNetworkReply::NetworkError toNetworkError(QAbstractSocket::SocketError error)
{
    switch (error) {
    case QAbstractSocket::ConnectionRefusedError:
        return QNetworkReply::ConnectionRefusedError;
    case QAbstractSocket::HostNotFoundError:
        return QNetworkReply::HostNotFoundError;
    case QAbstractSocket::RemoteHostClosedError:
        return QNetworkReply::RemoteHostClosedError;
    case QAbstractSocket::SocketTimeoutError:
        return QNetworkReply::TimeoutError;
    case QAbstractSocket::SslHandshakeFailedError:
        return QNetworkReply::SslHandshakeFailedError;
    default:
        return QNetworkReply::UnknownNetworkError;
    }
}

// Decodes a complete chunked body; false while incomplete.
bool dechunk(const QByteArray& data, QByteArray& body)
{
    body.clear();
    qsizetype at = 0;
    while (true) {
        const qsizetype lineEnd = data.indexOf("\r\n", at);
        if (lineEnd < 0) {
            return false;
        }
        bool ok = false;
        const qsizetype size = data.mid(at, lineEnd - at).split(';').first().trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0) {
            return false;
        }
        at = lineEnd + 2;
        if (size == 0) {
            return data.indexOf("\r\n", at) >= 0; // trailers end with an empty line
        }
        if (data.size() < at + size + 2) {
            return false;
        }
        body += data.mid(at, size);
        at += size + 2;
    }
}

} // namespace

HttpExchange::HttpExchange(const QByteArray& method, const QUrl& url, const Headers& headers, const QByteArray& body,
                           int timeoutMs, std::function<void(const HttpReply&)> done, QObject* parent)
    : QObject(parent)
    , m_socket(url.scheme() == u"https" ? static_cast<QAbstractSocket*>(new QSslSocket(this)) : new QTcpSocket(this))
    , m_done(std::move(done))
{
    const QByteArray target =
        url.path(QUrl::FullyEncoded).isEmpty() ? QByteArray("/") : url.path(QUrl::FullyEncoded).toLatin1();
    const QByteArray query = url.hasQuery() ? "?" + url.query(QUrl::FullyEncoded).toLatin1() : QByteArray();
    const int defaultPort = url.scheme() == u"https" ? 443 : 80;
    m_request = method + ' ' + target + query + " HTTP/1.1\r\nHost: " + url.host(QUrl::FullyEncoded).toLatin1();
    if (url.port(defaultPort) != defaultPort) {
        m_request += ':' + QByteArray::number(url.port());
    }
    m_request += "\r\nConnection: close\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto& [name, value] : headers) {
        m_request += name + ": " + value + "\r\n";
    }
    m_request += "\r\n" + body;
    m_unwritten = m_request.size();

    m_idleTimer.setSingleShot(true);
    m_idleTimer.setTimerType(Qt::PreciseTimer);
    m_idleTimer.setInterval(timeoutMs);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        HttpReply reply;
        reply.error = QNetworkReply::OperationCanceledError;
        reply.errorString = tr("no data for %1 ms (transfer timeout)").arg(m_idleTimer.interval());
        reply.timedOut = true;
        finish(reply);
    });
    connect(m_socket, &QAbstractSocket::connected, this, &HttpExchange::onConnected);
    connect(m_socket, &QAbstractSocket::readyRead, this, &HttpExchange::onReadyRead);
    connect(m_socket, &QAbstractSocket::bytesWritten, this, &HttpExchange::onBytesWritten);
    connect(m_socket, &QAbstractSocket::errorOccurred, this, &HttpExchange::onSocketError);
    connect(m_socket, &QAbstractSocket::disconnected, this, &HttpExchange::onDisconnected);
    m_idleTimer.start();
    if (auto* ssl = qobject_cast<QSslSocket*>(m_socket)) {
        connect(ssl, &QSslSocket::encrypted, this, [this] { m_socket->write(m_request); });
        ssl->connectToHostEncrypted(url.host(), static_cast<quint16>(url.port(defaultPort)));
    } else {
        m_socket->connectToHost(url.host(), static_cast<quint16>(url.port(defaultPort)));
    }
}

HttpExchange::~HttpExchange()
{
    m_socket->disconnect(this);
}

void HttpExchange::abort()
{
    HttpReply reply;
    reply.error = QNetworkReply::OperationCanceledError;
    reply.errorString = tr("aborted");
    finish(reply);
}

void HttpExchange::onConnected()
{
    m_idleTimer.start();
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    if (!qobject_cast<QSslSocket*>(m_socket)) {
        m_socket->write(m_request);
    }
}

void HttpExchange::onBytesWritten(qint64 bytes)
{
    m_idleTimer.start();
    m_unwritten -= bytes;
    if (m_unwritten <= 0 && bytes > 0) {
        m_unwritten = 0;
        Q_EMIT requestSent();
    }
}

void HttpExchange::onReadyRead()
{
    m_idleTimer.start();
    m_response += m_socket->readAll();
    HttpReply reply;
    if (parseResponse(m_response, false, reply)) {
        finish(reply);
    }
}

void HttpExchange::onDisconnected()
{
    m_response += m_socket->readAll();
    HttpReply reply;
    if (parseResponse(m_response, true, reply)) {
        finish(reply);
        return;
    }
    reply = HttpReply {};
    reply.error = QNetworkReply::RemoteHostClosedError;
    reply.errorString = m_response.isEmpty() ? tr("the connection was closed before any answer")
                                             : tr("the connection was closed in the middle of the answer");
    finish(reply);
}

void HttpExchange::onSocketError(QAbstractSocket::SocketError error)
{
    if (error == QAbstractSocket::RemoteHostClosedError) {
        onDisconnected();
        return;
    }
    HttpReply reply;
    reply.error = toNetworkError(error);
    reply.errorString = m_socket->errorString();
    finish(reply);
}

void HttpExchange::finish(HttpReply reply)
{
    if (m_finished) {
        return;
    }
    m_finished = true;
    m_idleTimer.stop();
    m_socket->disconnect(this);
    m_socket->abort();
    deleteLater();
    if (m_done) {
        m_done(reply);
    }
}

bool HttpExchange::parseResponse(const QByteArray& raw, bool closed, HttpReply& reply)
{
    const qsizetype headerEnd = raw.indexOf("\r\n\r\n");
    if (headerEnd < 0) {
        return false;
    }
    const QList<QByteArray> lines = raw.left(headerEnd).split('\n');
    const QList<QByteArray> statusLine = lines.first().trimmed().split(' ');
    bool statusOk = false;
    const int status = statusLine.value(1).toInt(&statusOk);
    if (!statusLine.first().startsWith("HTTP/1.") || !statusOk) {
        return false;
    }
    qsizetype contentLength = -1;
    bool chunked = false;
    reply = HttpReply {};
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            continue;
        }
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-length") {
            contentLength = value.toLongLong();
        } else if (name == "transfer-encoding") {
            chunked = value.toLower().contains("chunked");
        } else if (name == "idempotent-replayed") {
            reply.replayed = value.toLower() == "true";
        } else if (name == "retry-after") {
            reply.retryAfter = value;
        }
    }
    const QByteArray payload = raw.mid(headerEnd + 4);
    if (chunked) {
        if (!dechunk(payload, reply.body)) {
            return false;
        }
    } else if (contentLength >= 0) {
        if (payload.size() < contentLength) {
            return false;
        }
        reply.body = payload.left(contentLength);
    } else if (closed) {
        reply.body = payload;
    } else {
        return false;
    }
    reply.status = status;
    return true;
}

} // namespace onceorder::core
