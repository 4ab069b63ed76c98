// ServerApi: every call the client makes (the catalogue and the monitor's GETs, the debug commands' POSTs, the order
// POSTs) goes through HttpExchange with one set of limits, against a hand-written hostile peer on loopback: a total
// deadline that a trickling answer cannot stretch, and a size cap an oversized answer cannot pass.
#include "net/ServerApi.h"
#include "support/ScriptedPeer.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QTimer>
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <ostream>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

constexpr int kIdleMs = 2'000;
constexpr int kTotalMs = 1'000;
// The head of an answer whose body then comes one byte at a time.
const QByteArray kSlowHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";

// One kind of call, as its caller makes it.
struct Call
{
    const char* name;
    std::function<void(ServerApi&, std::function<void(const HttpReply&)>)> send;
};

// The window's calls name one timeout (as ServerMonitor and DebugControls do): it bounds the whole call too. The
// engine's order POST names both.
const Call kCalls[] = {
    {"CatalogueGet",
     [](ServerApi& api, auto done) {
         api.get(QStringLiteral("/products"), kTotalMs, std::move(done));
     }},
    {"DebugCommandPost",
     [](ServerApi& api, auto done) {
         api.postJson(QStringLiteral("/_debug/reset"), "{}", kTotalMs, std::move(done));
     }},
    {"OrderPost",
     [](ServerApi& api, auto done) {
         api.postIdempotent(QStringLiteral("/orders"), QStringLiteral("k-1"), "{}", kIdleMs, std::move(done), kTotalMs);
     }},
};

void PrintTo(const Call& call, std::ostream* out)
{
    *out << call.name;
}

class ServerApiTest : public ::testing::TestWithParam<Call>
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    static inline int s_argc = 1;
    static inline char s_name[] = "ServerApiTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;
};

} // namespace

TEST_P(ServerApiTest, ATricklingAnswerEndsAtTheTotalDeadline)
{
    // The catalogue and the debug commands went through QNetworkAccessManager with only a transfer timeout, which
    // every byte restarts: one byte every 50 ms kept the call open for as long as the peer liked.
    ScriptedPeer peer([](const PeerRequest&) { return ScriptedPeer::hold(); });
    ASSERT_TRUE(peer.listening);
    ServerApi api(peer.url(), QStringLiteral("demo-key-A"));
    int written = 0;
    QTimer trickle; // the peer's pace, not the test's synchronisation
    QObject::connect(&trickle, &QTimer::timeout, [&] {
        if (peer.heldCount() == 1) {
            peer.trickle(0, written++ == 0 ? kSlowHead : QByteArray(" "));
        }
    });
    trickle.start(50);
    std::optional<HttpReply> reply;
    QElapsedTimer elapsed;
    elapsed.start();
    GetParam().send(api, [&](const HttpReply& answer) { reply = answer; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return reply.has_value(); }, 8'000)) << "the trickling answer never ended";
    EXPECT_LT(elapsed.elapsed(), 5'000);
    EXPECT_GT(written, 5) << "the peer kept sending bytes";
    EXPECT_EQ(reply->status, 0);
    EXPECT_TRUE(reply->timedOut);
    EXPECT_TRUE(reply->errorString.contains(u"timed out", Qt::CaseInsensitive)) << reply->errorString.toStdString();
    ASSERT_EQ(peer.requests.size(), 1);
    EXPECT_EQ(peer.requests.first().header("Authorization"), "Bearer demo-key-A");
}

TEST_P(ServerApiTest, AnAnswerOverTheSizeCapIsNotRead)
{
    // 5 MiB of a valid JSON array: QNetworkAccessManager read any size whole (in the report a 1.5 GB answer took
    // 1.5 GB of memory). Over HttpExchange's cap the call ends with no status and says why.
    const QByteArray body = "[" + QByteArray(5 * 1024 * 1024, ' ') + "]";
    ScriptedPeer peer([&](const PeerRequest&) { return ScriptedPeer::answer(200, "OK", body); });
    ASSERT_TRUE(peer.listening);
    ServerApi api(peer.url(), QStringLiteral("demo-key-A"));
    std::optional<HttpReply> reply;
    GetParam().send(api, [&](const HttpReply& answer) { reply = answer; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return reply.has_value(); }, 8'000));
    EXPECT_EQ(reply->status, 0);
    EXPECT_LE(reply->body.size(), HttpExchange::kMaxResponseBytes);
    EXPECT_TRUE(reply->errorString.contains(u"larger than")) << reply->errorString.toStdString();
}

TEST_P(ServerApiTest, AnOrdinaryAnswerIsReadWhole)
{
    // The limits take nothing from an answer within them: the status, the body and the Retry-After come through.
    ScriptedPeer peer([](const PeerRequest&) {
        return ScriptedPeer::answer(503, "Service Unavailable", "[1,2,3]", "application/json", "Retry-After: 2\r\n");
    });
    ASSERT_TRUE(peer.listening);
    ServerApi api(peer.url(), QStringLiteral("demo-key-A"));
    std::optional<HttpReply> reply;
    int finished = 0;
    QObject::connect(&api, &ServerApi::exchangeFinished, [&](const QByteArray&, const QUrl&, int status) {
        EXPECT_TRUE(reply.has_value()) << "exchangeFinished before the caller's callback";
        EXPECT_EQ(status, 503);
        ++finished;
    });
    GetParam().send(api, [&](const HttpReply& answer) { reply = answer; });
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished == 1; }, 8'000));
    EXPECT_EQ(reply->status, 503);
    EXPECT_EQ(reply->body, "[1,2,3]");
    EXPECT_EQ(reply->retryAfter, QByteArray("2"));
}

INSTANTIATE_TEST_SUITE_P(EveryCall, ServerApiTest, ::testing::ValuesIn(kCalls),
                         [](const ::testing::TestParamInfo<Call>& call) { return std::string(call.param.name); });
