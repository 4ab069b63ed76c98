// HttpExchange (libcurl driven from the Qt event loop) against a scripted raw TCP server on loopback: what the
// client sends, and how it reads the edges of HTTP (1xx before the answer, chunked, IPv6, unreadable lengths,
// huge or trickling answers). Every wait is on an event, with a guard against hangs.
#include "net/HttpExchange.h"
#include "retry/RetryPolicy.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <gtest/gtest.h>

#include <functional>
#include <optional>

using namespace onceorder::core;

namespace {

// Accepts connections, reads one request each (headers and a Content-Length body) and answers with `respond`.
class ScriptedServer : public QObject
{
public:
    using Respond = std::function<void(QTcpSocket*)>;

    explicit ScriptedServer(Respond respond, const QHostAddress& address = QHostAddress::LocalHost)
        : m_respond(std::move(respond))
    {
        listening = m_server.listen(address, 0);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                ++connections;
                QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onData(socket); });
            }
        });
    }
    quint16 port() const { return m_server.serverPort(); }

    bool listening = false;
    int connections = 0;
    QList<QByteArray> requests;

private:
    void onData(QTcpSocket* socket)
    {
        QByteArray& buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            return;
        }
        qsizetype length = 0;
        for (const QByteArray& line : buffer.left(end).split('\n')) {
            if (line.toLower().startsWith("content-length:")) {
                length = line.mid(15).trimmed().toLongLong();
            }
        }
        if (buffer.size() < end + 4 + length) {
            return;
        }
        requests.append(buffer);
        m_buffers.remove(socket);
        m_respond(socket);
    }

    QTcpServer m_server;
    Respond m_respond;
    QHash<QTcpSocket*, QByteArray> m_buffers;
};

ScriptedServer::Respond answer(const QByteArray& bytes, bool close = true)
{
    return [bytes, close](QTcpSocket* socket) {
        socket->write(bytes);
        if (close) {
            socket->disconnectFromHost();
        }
    };
}

class HttpExchangeTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    HttpReply post(const QUrl& url, int timeoutMs = 5000, int totalTimeoutMs = 0, bool* sent = nullptr)
    {
        std::optional<HttpReply> result;
        auto* exchange = new HttpExchange(
            "POST", url, {{"Content-Type", "application/json"}, {"Idempotency-Key", "\"k1\""}},
            R"({"product":"kniha","quantity":1})", timeoutMs, [&](const HttpReply& reply) { result = reply; }, nullptr,
            totalTimeoutMs);
        if (sent) {
            QObject::connect(exchange, &HttpExchange::requestSent, [sent] { *sent = true; });
        }
        QElapsedTimer guard;
        guard.start();
        while (!result && guard.elapsed() < 20'000) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        }
        EXPECT_TRUE(result) << "timed out";
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        return result.value_or(HttpReply {});
    }

    static QUrl local(quint16 port) { return QUrl(QStringLiteral("http://127.0.0.1:%1/orders").arg(port)); }

    static inline int s_argc = 1;
    static inline char s_name[] = "HttpExchangeTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;
};

} // namespace

TEST_F(HttpExchangeTest, AnAnswerWithItsHeadersAndTheRequestAsSentOnOneConnection)
{
    ScriptedServer server(answer("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nidempotent-replayed: "
                                 "true\r\nRetry-After: 7\r\nContent-Length: 14\r\n\r\n{\"order_id\":1}"));
    ASSERT_TRUE(server.listening);
    bool sent = false;
    const HttpReply reply = post(local(server.port()), 5000, 0, &sent);
    EXPECT_EQ(reply.status, 201);
    EXPECT_EQ(reply.body, QByteArray("{\"order_id\":1}"));
    EXPECT_TRUE(reply.replayed);
    EXPECT_EQ(reply.retryAfter, QByteArray("7"));
    EXPECT_TRUE(sent);
    ASSERT_EQ(server.requests.size(), 1);
    EXPECT_EQ(server.connections, 1);
    const QByteArray request = server.requests.first();
    EXPECT_TRUE(request.startsWith("POST /orders HTTP/1.1\r\n")) << request.toStdString();
    EXPECT_TRUE(request.contains("\r\nAccept-Encoding: identity\r\n")) << request.toStdString();
    EXPECT_TRUE(request.contains("\r\nIdempotency-Key: \"k1\"\r\n"));
    EXPECT_FALSE(request.toLower().contains("expect:")) << "no 100-continue wait";
    EXPECT_TRUE(request.endsWith("\r\n\r\n{\"product\":\"kniha\",\"quantity\":1}"));
}

TEST_F(HttpExchangeTest, InterimAnswersBeforeTheFinalOneAreNotTheAnswer)
{
    // 100 Continue and 103 Early Hints are not the outcome: the 201 after them is.
    ScriptedServer server(answer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n"
                                 "HTTP/1.1 201 Created\r\nContent-Length: 14\r\n\r\n{\"order_id\":5}"));
    const HttpReply reply = post(local(server.port()));
    EXPECT_EQ(reply.status, 201);
    EXPECT_EQ(reply.body, QByteArray("{\"order_id\":5}"));
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::Placed);
}

TEST_F(HttpExchangeTest, ChunkedAndReadUntilCloseBodies)
{
    ScriptedServer chunked(
        answer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n", false));
    EXPECT_EQ(post(local(chunked.port())).body, QByteArray("Wikipedia"));
    ScriptedServer unframed(answer("HTTP/1.1 200 OK\r\n\r\nall of it"));
    const HttpReply reply = post(local(unframed.port()));
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, QByteArray("all of it"));
}

TEST_F(HttpExchangeTest, AnIpv6ServerGetsABracketedHost)
{
    ScriptedServer server(answer("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}"), QHostAddress::LocalHostIPv6);
    if (!server.listening) {
        GTEST_SKIP() << "no IPv6 loopback here";
    }
    const HttpReply reply = post(QUrl(QStringLiteral("http://[::1]:%1/orders").arg(server.port())));
    EXPECT_EQ(reply.status, 201);
    ASSERT_EQ(server.requests.size(), 1);
    EXPECT_TRUE(
        server.requests.first().contains(QStringLiteral("\r\nHost: [::1]:%1\r\n").arg(server.port()).toLatin1()))
        << server.requests.first().toStdString();
}

TEST_F(HttpExchangeTest, AnUnreadableContentLengthIsNotAnEmptyAnswer)
{
    ScriptedServer server(answer("HTTP/1.1 201 Created\r\nContent-Length: 1x4\r\n\r\n{\"order_id\":1}", false));
    const HttpReply reply = post(local(server.port()), 2000);
    EXPECT_FALSE(reply.status == 201 && reply.body.isEmpty()) << "read as 0 bytes: an order without its id";
    EXPECT_EQ(reply.status, 0);
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::MaybeSent);
}

TEST_F(HttpExchangeTest, AHugeAnswerIsCutAtTheLimit)
{
    const qint64 size = HttpExchange::kMaxResponseBytes + 1;
    ScriptedServer server([size](QTcpSocket* socket) {
        socket->write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        const QByteArray chunk(64 * 1024, 'x');
        for (qint64 written = 0; written < size; written += chunk.size()) {
            socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
        }
        socket->write("0\r\n\r\n");
    });
    const HttpReply reply = post(local(server.port()));
    EXPECT_EQ(reply.status, 0);
    EXPECT_TRUE(reply.errorString.contains(QStringLiteral("larger"))) << reply.errorString.toStdString();
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::MaybeSent);
}

TEST_F(HttpExchangeTest, ATricklingServerIsCutAtTheTotalDeadline)
{
    // One byte every 50 ms keeps the idle timeout (1 s) from ever firing; the total deadline (600 ms) ends it.
    QList<QPointer<QTcpSocket>> sockets;
    QTimer trickle;
    ScriptedServer server([&](QTcpSocket* socket) {
        socket->write("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n");
        sockets.append(socket);
    });
    QObject::connect(&trickle, &QTimer::timeout, [&] {
        for (const auto& socket : sockets) {
            if (socket) {
                socket->write("x");
            }
        }
    });
    trickle.start(50);
    QElapsedTimer clock;
    clock.start();
    const HttpReply reply = post(local(server.port()), 1000, 600);
    EXPECT_EQ(reply.status, 0);
    EXPECT_TRUE(reply.timedOut);
    EXPECT_LT(clock.elapsed(), 3000);
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::MaybeSent);
}

TEST_F(HttpExchangeTest, RefusedIsNeverSentAndSilenceMaySendIt)
{
    quint16 closedPort = 0;
    {
        QTcpServer probe;
        ASSERT_TRUE(probe.listen(QHostAddress::LocalHost, 0));
        closedPort = probe.serverPort();
    }
    const HttpReply refused = post(local(closedPort));
    EXPECT_EQ(refused.error, QNetworkReply::ConnectionRefusedError);
    EXPECT_EQ(RetryPolicy::classify(refused), AttemptOutcome::NotSent);

    ScriptedServer silent([](QTcpSocket*) {});
    bool sent = false;
    const HttpReply timedOut = post(local(silent.port()), 300, 0, &sent);
    EXPECT_TRUE(timedOut.timedOut);
    EXPECT_TRUE(sent);
    EXPECT_EQ(RetryPolicy::classify(timedOut), AttemptOutcome::MaybeSent);

    ScriptedServer garbage(answer("SSH-2.0-OpenSSH\r\n\r\n"));
    const HttpReply notHttp = post(local(garbage.port()));
    EXPECT_EQ(notHttp.status, 0);
    EXPECT_EQ(RetryPolicy::classify(notHttp), AttemptOutcome::MaybeSent);
}
