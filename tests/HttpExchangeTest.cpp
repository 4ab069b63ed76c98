// HttpExchange (libcurl driven from the Qt event loop) against a scripted raw TCP server on loopback: what the
// client sends, and how it reads the edges of HTTP (1xx before the answer, chunked, IPv6, unreadable lengths,
// huge or trickling answers). Every wait is on an event, with a guard against hangs.
#include "net/HttpExchange.h"
#include "retry/RetryPolicy.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPointer>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
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

TEST_F(HttpExchangeTest, ASwitchingProtocolsAnswerIsNeverTheFinalAnswer)
{
    // We never ask for an upgrade. After a 101 the connection speaks another protocol, so the bytes that follow
    // (here, what looks like a 201) are not an HTTP answer: the exchange ended without a final status, and the
    // request went out (the server may have acted on it).
    ScriptedServer server(answer("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"
                                 "HTTP/1.1 201 Created\r\nContent-Length: 14\r\n\r\n{\"order_id\":5}"));
    bool sent = false;
    const HttpReply reply = post(local(server.port()), 5000, 0, &sent);
    EXPECT_EQ(reply.status, 0) << "HTTP " << reply.status << " taken as the final answer";
    EXPECT_TRUE(sent);
    EXPECT_TRUE(reply.errorString.contains(QStringLiteral("101"))) << reply.errorString.toStdString();
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::MaybeSent);

    // However it reaches the classifier, a 1xx is never a final outcome.
    for (int code : {100, 101, 102, 103, 199}) {
        HttpReply interim;
        interim.status = code;
        EXPECT_EQ(RetryPolicy::classify(interim), AttemptOutcome::MaybeSent) << code;
    }
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

namespace {

// A self-signed certificate for 127.0.0.1 (made once with openssl req -x509, valid until 2126): no client trusts it.
constexpr const char* kUntrustedCertificate = "-----BEGIN CERTIFICATE-----\n"
                                              "MIIDJjCCAg6gAwIBAgIUGTRPGvPo4ltX1OdU1i1U16RzhowwDQYJKoZIhvcNAQEL\n"
                                              "BQAwGTEXMBUGA1UEAwwOb25jZW9yZGVyLXRlc3QwIBcNMjYxMjAzMDkyMjE3WhgP\n"
                                              "MjEyNjExMDkwOTIyMTdaMBkxFzAVBgNVBAMMDm9uY2VvcmRlci10ZXN0MIIBIjAN\n"
                                              "BgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAw8lfLc/3NNxSXaEuZ3KVQxdFMmTa\n"
                                              "+pbwINEAVj+x1IZOM+KpAg6Rwf8bPrtQlTvw0pOXNWuyszhT12tANW3jqlCNDPAI\n"
                                              "PsHY2jBkmkWo02cM5lO6ZJ1VICCLsjSBSOkYCid+xas/Fc2X993QpD74eQMAIHzw\n"
                                              "S4ua4Saj1ALXAdWYRdX36zaUdLTbIfZDNuXVGUrfpEH+yFihq/vsqBeC0/khuQ0M\n"
                                              "3v5JpHwoPuAU9pWRVSyzmyk1Wxf/HVEA9si9eRE/PZ0hHIbeZOsFRmUSWmJ91T3B\n"
                                              "NE5MxzejrdwBRkrUMC7azWiAd3XLszx4VbLgiR/PvUKmbjoQ6ToAzhHYiQIDAQAB\n"
                                              "o2QwYjAdBgNVHQ4EFgQUKtLTnFBDlBimdUPaakKLB5INbnwwHwYDVR0jBBgwFoAU\n"
                                              "KtLTnFBDlBimdUPaakKLB5INbnwwDwYDVR0TAQH/BAUwAwEB/zAPBgNVHREECDAG\n"
                                              "hwR/AAABMA0GCSqGSIb3DQEBCwUAA4IBAQBlTP0jh7WFrzpbo1knP41wGg7B5jf8\n"
                                              "k9WSKMR2AoIGbv7hiUx9+gS0DTgN9TOUWnSQ8cy5a8x0H15EgzRAtZZ7LeXO28tu\n"
                                              "G8HirDZigS3TfWa8ar8ral2pXAN5ysdx9fiHIdhZnqjdqOqpcfLvsIq2Q1q7E44C\n"
                                              "vroOjSQSpZf4mWRPxsyHy5JwBZywE5gi7Eepxq58qJjWdE7leeuZYXBJ14Dy9OOy\n"
                                              "VzXrWdM/ufhmQ7Myqc/LJh8vwPBVkv8x0LWYRiIb6f1UgNNHHBSB94gxEp24q7ht\n"
                                              "X2GHm8oqrTUlULT9gdTugeGaw9O2xSRu7BzBqB/+PtHeaWgURpfo80UC\n"
                                              "-----END CERTIFICATE-----\n";
constexpr const char* kUntrustedKey = "-----BEGIN PRIVATE KEY-----\n"
                                      "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDDyV8tz/c03FJd\n"
                                      "oS5ncpVDF0UyZNr6lvAg0QBWP7HUhk4z4qkCDpHB/xs+u1CVO/DSk5c1a7KzOFPX\n"
                                      "a0A1beOqUI0M8Ag+wdjaMGSaRajTZwzmU7pknVUgIIuyNIFI6RgKJ37Fqz8VzZf3\n"
                                      "3dCkPvh5AwAgfPBLi5rhJqPUAtcB1ZhF1ffrNpR0tNsh9kM25dUZSt+kQf7IWKGr\n"
                                      "++yoF4LT+SG5DQze/kmkfCg+4BT2lZFVLLObKTVbF/8dUQD2yL15ET89nSEcht5k\n"
                                      "6wVGZRJaYn3VPcE0TkzHN6Ot3AFGStQwLtrNaIB3dcuzPHhVsuCJH8+9QqZuOhDp\n"
                                      "OgDOEdiJAgMBAAECggEACvc4QR3+5etpoxQcH9/lb4eqAOGweJzT1/iwxMPmQ0We\n"
                                      "823AYsy7WfLefSfbYnJkIX0x+MReksZmvr/jbaKpH9DJZ6Y5hf9QNJ9FgTUB2M5S\n"
                                      "pQNfQxOjUQx1mo5xh8qDZc0yvuJBoyhb2L6IGSzsOIXkH82znT2VWAM0pZMfpPrv\n"
                                      "BF54eNgAfLTOmLbYIAaHM2MEo4qDPsq+ZYTIVJcL5WKZh9PorCIk6ElcsFTnZBfP\n"
                                      "RJAZiCjNTGYxMUwt8aXeyOnR/b9CMGp2Ce8U+foNBO7Q2oE1HOZJK+vYw9DZpyKn\n"
                                      "35To51xvvdpMgqgtXCowpvh89XXpHUGQOkBQ8PS4kQKBgQD5+jTaoAdBl93DJG4g\n"
                                      "T+bHnQWMQ4x31I83WSaDaOV9Rl03UYnxt4PflT6tllxKCz1EVK6+U3r1JJz6MNQC\n"
                                      "pRxWshTsGHTSayl+o2gmmtjauVRxgSX8k7BFGHGro5tbs2IlQ9uJOSSsx8kHpalN\n"
                                      "/QbHBMC/NPfvRmttxVh42lnKcQKBgQDIgO5kVMALEvCviA3TxUqEIftp8/F1vUrN\n"
                                      "KDeKimDLQveOEd9A/J3VBhgAtUD9Vb277ZwSXLYFeat1PtQjRMZ2vv4lDs4MDwuN\n"
                                      "Jf5bGJa9cw2yaFTayhqcrIgTmDcBytsnDmAHw3l+4EqjbxIxM29OK6PPUVFB4UIx\n"
                                      "k6iJpoULmQKBgGsAnCE9QP3l2OpQLMeuDBZD83z/6R/eH9PMWH0FqL5AIWSthYOv\n"
                                      "T0akZuj9JNIZD4exS/9yUn6exocd4ZKkRIYjwmrxaQgtEN0Ba3Ki89JkZG4Vn0IH\n"
                                      "ofthpD6ZUMYm+gsDifSqPjWrazTXx6n3djA4q5ztOnf0x8V8JQvOQ4MxAoGAefy/\n"
                                      "jblmchZe61zKlNqHAKcwMIFjme/GD9X1HMweIeyncv96pi5L1Kx1dBDS7o749dqV\n"
                                      "xzIy6FfjMl08cgzI9rwzIdbFE98fdwvzmfb212KlpbMGVWr7D/GEhO9qICQMe9Gq\n"
                                      "KW8Lf1706kSMe/TANn4kluDxoDRtsn4U31K5xZkCgYEAqd3YEw5pys8TuRD6SLG5\n"
                                      "SgbO2H80VoloRmk4RUSlz+tF5yg1xVi0HlaTLqP32IFMWmc7O8SSlLrK2KizXZPY\n"
                                      "GykG2UOaZIks99tBwBzzgXkEEcEJe+FKrmB6zLs1XHyaFP4I/+8fSOOcBWFftFcl\n"
                                      "6W7F+dBBG4fHYUihpL9EgZ8=\n"
                                      "-----END PRIVATE KEY-----\n";

} // namespace

TEST_F(HttpExchangeTest, ARefusedCertificateIsNeverSentAndNotRetried)
{
    QSslServer server;
    QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
    tls.setLocalCertificate(QSslCertificate(QByteArray(kUntrustedCertificate)));
    tls.setPrivateKey(QSslKey(QByteArray(kUntrustedKey), QSsl::Rsa));
    server.setSslConfiguration(tls);
    if (!QSslSocket::supportsSsl() || !server.listen(QHostAddress::LocalHost, 0)) {
        GTEST_SKIP() << "no TLS backend here";
    }
    int requests = 0;
    QObject::connect(&server, &QSslServer::pendingConnectionAvailable, [&] {
        while (QTcpSocket* socket = server.nextPendingConnection()) {
            QObject::connect(socket, &QTcpSocket::readyRead, [&requests] { ++requests; });
        }
    });
    const HttpReply reply = post(QUrl(QStringLiteral("https://127.0.0.1:%1/orders").arg(server.serverPort())));
    EXPECT_EQ(reply.status, 0);
    EXPECT_EQ(reply.error, QNetworkReply::SslHandshakeFailedError) << reply.errorString.toStdString();
    EXPECT_EQ(RetryPolicy::classify(reply), AttemptOutcome::Failed) << "definitive: the same certificate again";
    EXPECT_EQ(requests, 0);
}
