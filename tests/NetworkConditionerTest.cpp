// NetworkConditioner between a real ServerApi (HttpExchange) and the real onceorder-server process: each
// mode breaks the exchange where it says, and the server's SQLite file shows what the server actually saw.
#include "net/NetworkConditioner.h"
#include "net/HttpExchange.h"
#include "net/HttpFramer.h"
#include "net/HttpResponseStream.h"
#include "net/ServerApi.h"
#include "retry/Clock.h"
#include "support/ScriptedPeer.h"
#include "support/ServerProcess.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUuid>
#include <SQLiteCpp/Database.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

const QByteArray kOne = R"({"product":"kniha","quantity":1})";

QString newKey()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

class NetworkConditionerTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void SetUp() override
    {
        ASSERT_TRUE(conditioner.listen(serverUrl()));
        api = std::make_unique<ServerApi>(conditioner.url(), QStringLiteral("demo-key-A"));
        QObject::connect(&conditioner, &NetworkConditioner::acted,
                         [this](ConditionerAction action, const QString&) { actions.push_back(action); });
    }

    QUrl serverUrl() const { return QUrl(QString::fromStdString(server->url())); }

    // Runs the event loop until `done` has been called: the waiting is on the reply itself; the guard only stops a
    // hang from hanging the suite.
    template<typename Start>
    HttpReply await(Start start)
    {
        std::optional<HttpReply> result;
        QEventLoop loop;
        bool waiting = true;
        auto* request = start([&](const HttpReply& done) {
            if (waiting) {
                result = done;
                loop.quit();
            }
        });
        QTimer guard;
        guard.setSingleShot(true);
        QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
        guard.start(20'000);
        if (!result) {
            loop.exec();
        }
        waiting = false;
        if (!result) {
            ADD_FAILURE() << "no reply within 20 s";
            request->abort();
            return HttpReply {};
        }
        return *result;
    }

    HttpReply post(const QString& key, int timeoutMs = 10'000)
    {
        return await([&](auto done) {
            return api->postIdempotent(QStringLiteral("/orders"), key, kOne, timeoutMs, std::move(done));
        });
    }

    // Through a QNetworkAccessManager of the test's own, which keeps its connection alive between requests (the
    // client never does: every ServerApi call is a fresh connection), so a connection carries several requests.
    HttpReply get(const QString& path)
    {
        return await([&](auto done) {
            QUrl url = conditioner.url();
            url.setPath(path);
            QNetworkRequest request(url);
            request.setRawHeader("Authorization", "Bearer demo-key-A");
            QNetworkReply* reply = keepAlive.get(request);
            QObject::connect(reply, &QNetworkReply::finished, reply, [reply, done = std::move(done)] {
                reply->deleteLater();
                HttpReply result;
                result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                result.body = reply->readAll();
                result.error = reply->error();
                result.errorString = reply->errorString();
                done(result);
            });
            return reply;
        });
    }

    long long orders() const
    {
        SQLite::Database db(dbPath, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        return db.execAndGet("SELECT count(*) FROM orders").getInt64();
    }

    long long actionCount(ConditionerAction action) const { return std::count(actions.begin(), actions.end(), action); }

    static inline int s_argc = 1;
    static inline char s_name[] = "NetworkConditionerTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir dir;
    std::string dbPath = dir.file("server.db");
    std::unique_ptr<ServerProcess> server = std::make_unique<ServerProcess>(std::vector<std::string> {"--db", dbPath});
    NetworkConditioner conditioner;
    std::unique_ptr<ServerApi> api;
    QNetworkAccessManager keepAlive;
    std::vector<ConditionerAction> actions;
};

} // namespace

TEST_F(NetworkConditionerTest, PassRelaysEachRequestOnOneKeepAliveConnection)
{
    const HttpReply placed = post(newKey());
    EXPECT_EQ(placed.status, 201) << placed.errorString.toStdString();
    EXPECT_FALSE(placed.replayed);
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(get(QStringLiteral("/products")).status, 200);
    EXPECT_EQ(get(QStringLiteral("/orders")).status, 200);
    // The POST on a connection of its own (HttpExchange), both GETs on one kept-alive connection: the decision is
    // taken per request, not per connection.
    EXPECT_EQ(conditioner.counters().connectionsAccepted, 2);
    EXPECT_EQ(conditioner.counters().requestsForwarded, 3);
    EXPECT_EQ(actionCount(ConditionerAction::Forwarded), 3);
}

TEST_F(NetworkConditionerTest, OfflineRefusesConnectionsAndComesBackOnTheSamePort)
{
    ASSERT_EQ(get(QStringLiteral("/products")).status, 200); // an idle keep-alive connection for offline to cut
    const quint16 port = conditioner.port();

    ASSERT_TRUE(conditioner.setMode(ConditionerMode::Offline));
    const HttpReply refused = post(newKey());
    EXPECT_EQ(refused.status, 0);
    EXPECT_EQ(refused.error, QNetworkReply::ConnectionRefusedError) << refused.errorString.toStdString();
    EXPECT_EQ(conditioner.counters().refused, 1);
    EXPECT_EQ(conditioner.url().port(), port);

    ASSERT_TRUE(conditioner.setMode(ConditionerMode::Pass));
    EXPECT_EQ(conditioner.port(), port);
    const HttpReply back = post(newKey());
    EXPECT_EQ(back.status, 201) << back.errorString.toStdString();
    EXPECT_EQ(get(QStringLiteral("/products")).status, 200);
    EXPECT_EQ(orders(), 1);
}

TEST_F(NetworkConditionerTest, DropRequestNeverReachesTheServer)
{
    conditioner.setMode(ConditionerMode::DropRequest);
    const HttpReply reply = post(newKey());
    EXPECT_EQ(reply.status, 0);
    EXPECT_EQ(reply.error, QNetworkReply::RemoteHostClosedError) << reply.errorString.toStdString();
    EXPECT_FALSE(reply.timedOut);
    EXPECT_EQ(orders(), 0);
    EXPECT_EQ(conditioner.counters().requestsDropped, 1);
    EXPECT_EQ(conditioner.counters().requestsForwarded, 0);
    EXPECT_EQ(actionCount(ConditionerAction::DroppedRequest), 1);
}

TEST_F(NetworkConditionerTest, DropResponseLeavesTheOrderPlacedAndTheSameKeyReplaysIt)
{
    const QString key = newKey();
    conditioner.setMode(ConditionerMode::DropResponse);
    const HttpReply lost = post(key);
    EXPECT_EQ(lost.status, 0);
    EXPECT_NE(lost.error, QNetworkReply::NoError);
    EXPECT_EQ(orders(), 1) << "the server processed the request whose response was dropped";
    EXPECT_EQ(conditioner.counters().requestsForwarded, 1);
    EXPECT_EQ(conditioner.counters().responsesDropped, 1);
    EXPECT_EQ(actionCount(ConditionerAction::DroppedResponse), 1);

    conditioner.setMode(ConditionerMode::Pass);
    const HttpReply retry = post(key);
    EXPECT_EQ(retry.status, 201) << retry.errorString.toStdString();
    EXPECT_TRUE(retry.replayed);
    EXPECT_EQ(orders(), 1);
}

TEST_F(NetworkConditionerTest, DelayHoldsEachDirection)
{
    constexpr int delayMs = 150;
    conditioner.setDelayMs(delayMs);
    conditioner.setMode(ConditionerMode::Delay);
    QElapsedTimer elapsed;
    elapsed.start();
    const HttpReply reply = post(newKey());
    const qint64 tookMs = elapsed.elapsed();
    EXPECT_EQ(reply.status, 201) << reply.errorString.toStdString();
    EXPECT_GE(tookMs, 2 * delayMs) << "the request and the response are each held delayMs";
    EXPECT_EQ(conditioner.counters().delayed, 1);
    EXPECT_EQ(conditioner.counters().requestsForwarded, 1);
    EXPECT_EQ(orders(), 1);
}

TEST_F(NetworkConditionerTest, BlackholeLetsTheClientTimeOutAndTheServerSeesNothing)
{
    const QString key = newKey();
    conditioner.setMode(ConditionerMode::Blackhole);
    const HttpReply lost = post(key, 300);
    EXPECT_TRUE(lost.timedOut) << lost.errorString.toStdString();
    EXPECT_EQ(lost.status, 0);
    EXPECT_EQ(orders(), 0);
    EXPECT_EQ(conditioner.counters().blackholed, 1);
    EXPECT_EQ(conditioner.counters().requestsForwarded, 0);

    conditioner.setMode(ConditionerMode::Pass);
    const HttpReply retry = post(key);
    EXPECT_EQ(retry.status, 201) << retry.errorString.toStdString();
    EXPECT_FALSE(retry.replayed);
    EXPECT_EQ(orders(), 1);
}

TEST_F(NetworkConditionerTest, FlakyDropsResponsesInTheSeededPattern)
{
    constexpr int requests = 20;
    constexpr double probability = 0.3;
    constexpr quint64 seed = 2024;
    // One draw per request, in order: the pattern the conditioner must follow.
    SeededRandom expected(seed);
    std::vector<ConditionerAction> pattern;
    for (int i = 0; i < requests; ++i) {
        pattern.push_back(expected.uniform() < probability ? ConditionerAction::DroppedResponse
                                                           : ConditionerAction::Forwarded);
    }
    const int drops = static_cast<int>(std::count(pattern.begin(), pattern.end(), ConditionerAction::DroppedResponse));
    ASSERT_GT(drops, 0);
    ASSERT_LT(drops, requests);

    SeededRandom random(seed);
    conditioner.setRandomSource(&random);
    conditioner.setDropProbability(probability);
    conditioner.setMode(ConditionerMode::Flaky);
    for (int i = 0; i < requests; ++i) {
        const HttpReply reply = post(newKey());
        const bool dropped = pattern[static_cast<std::size_t>(i)] == ConditionerAction::DroppedResponse;
        EXPECT_EQ(reply.status, dropped ? 0 : 201) << "request " << i;
    }
    conditioner.setRandomSource(nullptr);

    EXPECT_EQ(actions, pattern);
    EXPECT_EQ(conditioner.counters().connectionsAccepted, requests); // every order attempt has its own connection
    EXPECT_EQ(conditioner.counters().requestsForwarded, requests);
    EXPECT_EQ(conditioner.counters().responsesDropped, drops);
    // Dropped responses were processed: every key is exactly one order on the server.
    EXPECT_EQ(orders(), requests);
}

TEST_F(NetworkConditionerTest, FollowsTheServerToItsNewPort)
{
    ASSERT_EQ(post(newKey()).status, 201);
    server->kill(); // as the debug panel's "kill server" does; the bundled server then restarts on a new port

    const HttpReply down = post(newKey());
    EXPECT_EQ(down.status, 0);
    EXPECT_GE(conditioner.counters().upstreamFailures, 1);
    EXPECT_GE(actionCount(ConditionerAction::UpstreamUnreachable), 1);

    server = std::make_unique<ServerProcess>(std::vector<std::string> {"--db", dbPath});
    conditioner.setUpstream(serverUrl());
    const HttpReply up = post(newKey());
    EXPECT_EQ(up.status, 201) << up.errorString.toStdString();
    EXPECT_EQ(orders(), 2);
}

TEST_F(NetworkConditionerTest, AnEndlessChunkedAnswerIsCutAtTheClientsLimitsNotRelayedForEver)
{
    // Issue 37: a 201 that is chunked and never ends, 1-byte chunks each with a 60 KB extension. The relay kept the
    // whole response and framed it from the start on every read (the window grew past 1.6 GB); now it streams, holds
    // at most one chunk-size line, and past HttpExchange's limits (4 MiB of framing) cuts the connection: the client's
    // attempt ends as a lost connection (maybe sent; the cart is read back), not by waiting for its timeout.
    const QByteArray chunk = "1;" + QByteArray(60'000, 'x') + "\r\n{\r\n";
    QByteArray endless = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    for (int i = 0; i < 100; ++i) { // 6 MB, and the connection stays open: no end in sight
        endless += chunk;
    }
    ScriptedPeer* peerPointer = nullptr;
    ScriptedPeer peer([&](const PeerRequest&) {
        QTimer::singleShot(0, peerPointer, [&] { peerPointer->trickle(0, endless); });
        return ScriptedPeer::hold();
    });
    peerPointer = &peer;
    ASSERT_TRUE(peer.listening);
    NetworkConditioner relay;
    ASSERT_TRUE(relay.listen(peer.url()));
    std::vector<QString> said;
    QObject::connect(&relay, &NetworkConditioner::acted,
                     [&](ConditionerAction, const QString& text) { said.push_back(text); });
    ServerApi through(relay.url(), QStringLiteral("demo-key-A"));
    const HttpReply reply = await([&](auto done) {
        return through.postIdempotent(QStringLiteral("/orders"), newKey(), kOne, 15'000, std::move(done));
    });
    EXPECT_EQ(reply.status, 0) << "an answer that never ended was taken";
    EXPECT_FALSE(reply.timedOut) << "the relay held the endless answer open until the client's timeout";
    EXPECT_NE(reply.error, QNetworkReply::NoError);
    EXPECT_TRUE(std::any_of(said.begin(), said.end(), [](const QString& text) { return text.contains(u"larger"); }));
}

TEST(HttpResponseStreamTest, HoldsAtMostOneLineAndEndsWhereTheResponseEnds)
{
    HttpResponseStream endless;
    ASSERT_EQ(endless.feed("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n"),
              HttpResponseStream::State::Incomplete);
    const QByteArray chunk = "1;" + QByteArray(60'000, 'x') + "\r\n{\r\n";
    int fed = 0;
    qsizetype mostHeld = 0;
    while (endless.state() == HttpResponseStream::State::Incomplete && fed < 1000) {
        // In pieces that split the lines anywhere, as reads do.
        endless.feed(chunk.left(1000));
        endless.feed(chunk.mid(1000));
        mostHeld = std::max(mostHeld, endless.heldBytes());
        ++fed;
    }
    EXPECT_EQ(endless.state(), HttpResponseStream::State::TooLarge);
    EXPECT_LE(fed * chunk.size(), HttpResponseStream::kMaxFramingBytes + chunk.size());
    EXPECT_LE(mostHeld, HttpResponseStream::kMaxChunkLineBytes + 2);

    HttpResponseStream whole;
    EXPECT_EQ(whole.feed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n"
                         "4;ext=1\r\nabcd\r\n0\r\nX-Trailer: 1\r\n"),
              HttpResponseStream::State::Incomplete);
    EXPECT_EQ(whole.feed("\r\n"), HttpResponseStream::State::Complete);
    EXPECT_EQ(whole.status(), 201);

    HttpResponseStream counted;
    EXPECT_EQ(counted.feed("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab"), HttpResponseStream::State::Incomplete);
    EXPECT_EQ(counted.feed("cde"), HttpResponseStream::State::Complete);

    HttpResponseStream tooLong;
    EXPECT_EQ(tooLong.feed("HTTP/1.1 200 OK\r\nContent-Length: 99999999\r\n\r\n"), HttpResponseStream::State::TooLarge);
    HttpResponseStream headless;
    EXPECT_EQ(headless.feed("HTTP/1.1 200 OK\r\nX: " + QByteArray(70'000, 'y')), HttpResponseStream::State::TooLarge);
    HttpResponseStream bad;
    EXPECT_EQ(bad.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
              HttpResponseStream::State::Malformed);
}

TEST(NetworkConditionerNamesTest, NamesAreStableAndRoundTrip)
{
    const std::vector<std::pair<ConditionerMode, QString>> names {
        {ConditionerMode::Pass, QStringLiteral("pass")},
        {ConditionerMode::Offline, QStringLiteral("offline")},
        {ConditionerMode::DropRequest, QStringLiteral("drop-request")},
        {ConditionerMode::DropResponse, QStringLiteral("drop-response")},
        {ConditionerMode::Delay, QStringLiteral("delay")},
        {ConditionerMode::Blackhole, QStringLiteral("blackhole")},
        {ConditionerMode::Flaky, QStringLiteral("flaky")},
    };
    for (const auto& [mode, name] : names) {
        EXPECT_EQ(NetworkConditioner::modeName(mode), name);
        EXPECT_EQ(NetworkConditioner::modeFromName(name), mode);
    }
    EXPECT_EQ(NetworkConditioner::modeFromName(QStringLiteral("Pass")), std::nullopt);
    EXPECT_EQ(NetworkConditioner::modeFromName(QString()), std::nullopt);
}

TEST(NetworkConditionerFramingTest, RequestsEndAfterTheirContentLength)
{
    const QByteArray post = "POST /orders HTTP/1.1\r\nHost: x\r\ncontent-length: 5\r\n\r\nhello";
    EXPECT_EQ(NetworkConditioner::frame(post.left(post.size() - 1), HttpMessageKind::Request).state,
              HttpFrame::State::Incomplete);
    const HttpFrame pipelined = NetworkConditioner::frame(post + "GET / HTTP/1.1\r\n\r\n", HttpMessageKind::Request);
    EXPECT_EQ(pipelined.state, HttpFrame::State::Complete);
    EXPECT_EQ(pipelined.length, post.size());

    const QByteArray get = "GET /orders HTTP/1.1\r\nHost: x\r\n\r\n";
    EXPECT_EQ(NetworkConditioner::frame(get, HttpMessageKind::Request).length, get.size());
    EXPECT_EQ(
        NetworkConditioner::frame("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", HttpMessageKind::Request).state,
        HttpFrame::State::Malformed);
    EXPECT_EQ(NetworkConditioner::frame("GET / HTTP/1.1\r\nHost: x\r\n", HttpMessageKind::Request).state,
              HttpFrame::State::Incomplete);
}

// Found by fuzz_http_frame (tests/fuzz/corpus/http_frame/regression-content-length-nul): "7\0\xfe" was read as 7,
// and "+5" as 5, where the server reads something else.
TEST(NetworkConditionerFramingTest, AContentLengthOfAnythingButDigitsIsMalformed)
{
    for (const QByteArray& value :
         {QByteArray("+5"), QByteArray("7\0\xfe", 3), QByteArray("0x10"), QByteArray("5 5"), QByteArray("")}) {
        const QByteArray request = "POST / HTTP/1.1\r\nContent-Length: " + value + "\r\n\r\nhello, and more";
        EXPECT_EQ(HttpFramer::frame(request, HttpMessageKind::Request).state, HttpFrame::State::Malformed)
            << value.toStdString();
    }
    const HttpFrame spaced =
        HttpFramer::frame("POST / HTTP/1.1\r\nContent-Length: \t5 \r\n\r\nhello", HttpMessageKind::Request);
    EXPECT_EQ(spaced.state, HttpFrame::State::Complete);
}

TEST(NetworkConditionerFramingTest, ResponsesEndByLengthChunksStatusOrClose)
{
    const QByteArray chunked =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n";
    for (qsizetype cut = 0; cut < chunked.size(); ++cut) {
        EXPECT_EQ(NetworkConditioner::frame(chunked.left(cut), HttpMessageKind::Response).state,
                  HttpFrame::State::Incomplete)
            << cut;
    }
    const HttpFrame whole = NetworkConditioner::frame(chunked, HttpMessageKind::Response);
    EXPECT_EQ(whole.state, HttpFrame::State::Complete);
    EXPECT_EQ(whole.length, chunked.size());
    EXPECT_EQ(whole.status, 200);

    const QByteArray noContent = "HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\n";
    EXPECT_EQ(NetworkConditioner::frame(noContent, HttpMessageKind::Response).length, noContent.size());
    const QByteArray head = "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n";
    EXPECT_EQ(NetworkConditioner::frame(head, HttpMessageKind::ResponseToHead).length, head.size());
    const HttpFrame interim =
        NetworkConditioner::frame("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\n", HttpMessageKind::Response);
    EXPECT_EQ(interim.state, HttpFrame::State::Complete);
    EXPECT_EQ(interim.status, 100);

    EXPECT_EQ(NetworkConditioner::frame("HTTP/1.0 200 OK\r\n\r\nuntil close", HttpMessageKind::Response).state,
              HttpFrame::State::Incomplete);
    EXPECT_EQ(NetworkConditioner::frame("SSH-2.0-OpenSSH\r\n\r\n", HttpMessageKind::Response).state,
              HttpFrame::State::Malformed);
    EXPECT_EQ(NetworkConditioner::frame("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                                        HttpMessageKind::Response)
                  .state,
              HttpFrame::State::Malformed);
}
