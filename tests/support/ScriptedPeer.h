// ScriptedPeer: a hostile HTTP peer on loopback, written by hand, for the client's tests. It reads each request
// (headers and a Content-Length body) and writes back exactly the bytes the test's script returns for it, then
// closes the connection: a 101 before a 201, a 200 with HTML, a 201 naming another cart, a short body. It runs on
// the test's own Qt event loop, beside the engine it answers; it never decides anything by time.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QUrl>

#include <functional>

namespace onceorder::test {

struct PeerRequest
{
    QByteArray method;
    QByteArray target; // path and query, as sent
    QByteArray head; // the request line and the headers
    QByteArray body;

    QByteArray header(const QByteArray& name) const
    {
        for (const QByteArray& line : head.split('\n')) {
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == name.toLower()) {
                return line.mid(colon + 1).trimmed();
            }
        }
        return {};
    }
};

class ScriptedPeer : public QObject
{
public:
    // The bytes to answer a request with (written as they are, then the connection is closed). A null QByteArray
    // (hold()) answers nothing for now: the request stays on the wire until the test release()s it, as an answer
    // that is late.
    using Script = std::function<QByteArray(const PeerRequest&)>;
    static QByteArray hold() { return {}; }

    explicit ScriptedPeer(Script script)
        : m_script(std::move(script))
    {
        listening = m_server.listen(QHostAddress::LocalHost, 0);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onData(socket); });
                QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            }
        });
    }

    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort())); }

    // The requests answered so far, in order.
    QList<PeerRequest> requests;
    // How many requests are held, answered or not yet.
    int heldCount() const { return static_cast<int>(m_held.size()); }
    // Writes these bytes to the index-th held request's connection and keeps it open (an answer that trickles).
    void trickle(int index, const QByteArray& bytes)
    {
        if (QTcpSocket* socket = m_held.value(index)) {
            socket->write(bytes);
        }
    }
    // Answers the index-th held request (in the order they came) with these bytes, and closes its connection.
    void release(int index, const QByteArray& bytes)
    {
        if (QTcpSocket* socket = m_held.value(index)) {
            socket->write(bytes);
            socket->disconnectFromHost();
        }
    }
    bool listening = false;

    QList<PeerRequest> requestsTo(const QByteArray& method, const QByteArray& pathPrefix) const
    {
        QList<PeerRequest> found;
        for (const PeerRequest& request : requests) {
            if (request.method == method && request.target.startsWith(pathPrefix)) {
                found.append(request);
            }
        }
        return found;
    }

    // A whole HTTP/1.1 answer with a Content-Length.
    static QByteArray answer(int status, const QByteArray& reason, const QByteArray& body,
                             const QByteArray& contentType = "application/json", const QByteArray& extraHeaders = {})
    {
        return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\nContent-Type: " + contentType + "\r\n" +
            extraHeaders + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
    }

private:
    void onData(QTcpSocket* socket)
    {
        QByteArray& buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            return;
        }
        PeerRequest request;
        request.head = buffer.left(end);
        const qsizetype length = request.header("Content-Length").toLongLong();
        if (buffer.size() < end + 4 + length) {
            return;
        }
        request.body = buffer.mid(end + 4, length);
        const QList<QByteArray> requestLine = request.head.left(request.head.indexOf("\r\n")).split(' ');
        request.method = requestLine.value(0);
        request.target = requestLine.value(1);
        m_buffers.remove(socket);
        requests.append(request);
        const QByteArray answer = m_script(request);
        if (answer.isNull()) {
            m_held.append(socket);
            return;
        }
        socket->write(answer);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    Script m_script;
    QHash<QTcpSocket*, QByteArray> m_buffers;
    QList<QPointer<QTcpSocket>> m_held;
};

} // namespace onceorder::test
