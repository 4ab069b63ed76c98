// ServerMonitor against the real onceorder-server process: what the window shows (the catalogue, this client's
// orders, the debug state) arrives as typed snapshots, whichever way the refresh is asked for.
#include "server/ServerMonitor.h"
#include "net/ServerApi.h"
#include "support/Http.h"
#include "support/ScriptedPeer.h"
#include "support/ServerProcess.h"
#include "support/TcpRelay.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

// The head of an answer whose body then comes one byte at a time.
const QByteArray kSlowHead = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n";

class ServerMonitorTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void SetUp() override
    {
        QObject::connect(&monitor, &ServerMonitor::productsReceived,
                         [this](const QList<Product>& received) { products.append(received); });
        QObject::connect(&monitor, &ServerMonitor::ordersChanged,
                         [this](const QList<ServerOrderRow>& changed) { orders.append(changed); });
        QObject::connect(&monitor, &ServerMonitor::stateChanged,
                         [this](const ServerState& changed) { state = changed; });
    }

    void placeOrder(const std::string& apiKey, const std::string& key, const std::string& product)
    {
        auto client = server.client();
        ASSERT_EQ(postOrder(*client, apiKey, key, R"({"product":")" + product + R"(","quantity":1})").status, 201);
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "ServerMonitorTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir dir;
    ServerProcess server {{"--db", dir.file("server.db"), "--debug-endpoints"}};
    ServerApi api {QUrl(QString::fromStdString(server.url())), QStringLiteral("demo-key-A")};
    ServerMonitor monitor {&api};
    QList<QList<Product>> products;
    QList<QList<ServerOrderRow>> orders;
    std::optional<ServerState> state;
};

} // namespace

TEST_F(ServerMonitorTest, RefreshAllReportsTheCatalogueAndTheDebugState)
{
    monitor.refreshAll();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !products.isEmpty() && state; }, 10'000));

    const QList<Product>& catalogue = products.first();
    ASSERT_EQ(catalogue.size(), 3);
    const auto kniha = std::find_if(catalogue.cbegin(), catalogue.cend(),
                                    [](const Product& product) { return product.id == u"kniha"; });
    ASSERT_NE(kniha, catalogue.cend());
    EXPECT_EQ(kniha->stock, 100);
    EXPECT_EQ(state->stock.size(), 3);
    EXPECT_TRUE(state->orders.isEmpty());
}

TEST_F(ServerMonitorTest, RefreshAllReportsOnlyThisClientsOrders)
{
    placeOrder("demo-key-A", "a-1", "kniha");
    placeOrder("demo-key-B", "b-1", "hrnek");

    monitor.refreshAll();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !orders.isEmpty() && state; }, 10'000));

    ASSERT_EQ(orders.first().size(), 1);
    EXPECT_EQ(orders.first().first().items, QStringLiteral("kniha × 1"));
    EXPECT_EQ(state->orders.size(), 2); // the debug state shows every client's
}

TEST_F(ServerMonitorTest, AScheduledRefreshAsksForTheCatalogueAndTheOrders)
{
    placeOrder("demo-key-A", "a-1", "propiska");

    // A burst of outcomes asks several times; the answers still come.
    monitor.scheduleRefresh();
    monitor.scheduleRefresh();
    monitor.scheduleRefresh();
    ASSERT_TRUE(QTest::qWaitFor([&] { return !products.isEmpty() && !orders.isEmpty() && state; }, 10'000));

    EXPECT_EQ(orders.first().first().items, QStringLiteral("propiska × 1"));
    EXPECT_EQ(state->orders.size(), 1);
}

TEST_F(ServerMonitorTest, AnOlderAnswerArrivingLastDoesNotHideANewerOrder)
{
    // Two GET /orders on two connections may be answered in either order. The relay keeps the first answer (no
    // orders yet) back until the second (one order) has been shown; the first must not then empty the table.
    TcpRelay relay(server.port());
    ServerApi relayedApi(QUrl(QString::fromStdString(relay.url())), QStringLiteral("demo-key-A"));
    ServerMonitor relayed(&relayedApi);
    QList<QList<ServerOrderRow>> shown;
    QObject::connect(&relayed, &ServerMonitor::ordersChanged,
                     [&](const QList<ServerOrderRow>& changed) { shown.append(changed); });
    int ordersAnswered = 0;
    QObject::connect(&relayedApi, &ServerApi::exchangeFinished,
                     [&](const QByteArray&, const QUrl& url, int) { ordersAnswered += url.path() == u"/orders"; });
    placeOrder("demo-key-A", "a-1", "kniha");

    relay.holdAnswerTo("GET /orders");
    relayed.refreshAll();
    ASSERT_TRUE(QTest::qWaitFor([&] { return relay.heldRequests() == 1; }, 10'000));
    placeOrder("demo-key-A", "a-2", "hrnek");
    relayed.refreshAll();
    ASSERT_TRUE(QTest::qWaitFor([&] { return ordersAnswered == 1 && shown.size() == 1; }, 10'000));
    ASSERT_EQ(shown.last().size(), 2);

    relay.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return ordersAnswered == 2; }, 10'000));
    // Answers are parsed on the monitor's own thread, in the order they came, and used after: a third answer (three
    // orders) shown means whatever the held one led to has been shown before it.
    placeOrder("demo-key-A", "a-3", "propiska");
    relayed.refreshAll();
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.last().size() == 3; }, 10'000));
    ASSERT_EQ(shown.size(), 2) << "the older answer (one order) was shown after the newer one (two)";
    EXPECT_EQ(shown[0].size(), 2);
}

TEST_F(ServerMonitorTest, TheDebugStateIsParsedOffTheMonitorsThreadAndUsedOnIt)
{
    // The window's thread only hands the answer on: the parser runs elsewhere, and while it runs the monitor's
    // thread keeps turning its event loop (here: this test's qWaitFor).
    QSemaphore parsing;
    QSemaphore release;
    std::atomic<QThread*> parsedOn {nullptr};
    ServerMonitor held(&api, nullptr, [&](const QByteArray& json) {
        parsedOn = QThread::currentThread();
        parsing.release();
        // Inline on the monitor's thread this could never be released: it waits at most 10 s, then the test fails.
        release.tryAcquire(1, 10'000);
        return ServerState::fromJson(json);
    });
    std::optional<ServerState> shown;
    QThread* shownOn = nullptr;
    QObject::connect(&held, &ServerMonitor::stateChanged, [&](const ServerState& changed) {
        shown = changed;
        shownOn = QThread::currentThread();
    });
    placeOrder("demo-key-A", "a-1", "kniha");

    held.pollNow();
    ASSERT_TRUE(QTest::qWaitFor([&] { return parsing.available() == 1; }, 10'000));
    EXPECT_NE(parsedOn.load(), QThread::currentThread());
    EXPECT_FALSE(shown) << "shown before its parse finished";
    release.release();
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown.has_value(); }, 10'000));
    EXPECT_EQ(shownOn, QThread::currentThread()) << "the signal must come on the monitor's thread";
    EXPECT_EQ(shown->orders.size(), 1);
}

TEST_F(ServerMonitorTest, APollAnsweredAroundADebugCommandIsAskedAgain)
{
    // A poll in flight when a debug command's state arrives may hold the state from before the command; which of
    // the two is newer cannot be told, so the poll's answer is not shown and the monitor asks again.
    TcpRelay relay(server.port());
    ServerApi relayedApi(QUrl(QString::fromStdString(relay.url())), QStringLiteral("demo-key-A"));
    ServerMonitor relayed(&relayedApi);
    QList<ServerState> shown;
    QObject::connect(&relayed, &ServerMonitor::stateChanged,
                     [&](const ServerState& changed) { shown.append(changed); });
    int polls = 0;
    QObject::connect(&relayedApi, &ServerApi::exchangeFinished,
                     [&](const QByteArray&, const QUrl& url, int) { polls += url.path() == u"/_debug/state"; });
    relayed.setIntervalMs(60'000); // only the polls this test asks for
    relay.holdAnswerTo("GET /_debug/state");
    relayed.setActive(true);
    ASSERT_TRUE(QTest::qWaitFor([&] { return relay.heldRequests() == 1; }, 10'000));

    placeOrder("demo-key-A", "a-1", "kniha");
    auto client = server.client();
    const Reply now = get(*client, "/_debug/state", "demo-key-A");
    ASSERT_EQ(now.status, 200);
    const auto newer = ServerState::fromJson(QByteArray::fromStdString(now.body));
    ASSERT_TRUE(newer);
    relayed.acceptState(*newer);
    ASSERT_EQ(shown.size(), 1);

    relay.release(); // the held answer: no orders yet
    ASSERT_TRUE(QTest::qWaitFor([&] { return polls == 2; }, 10'000)) << "no second poll after the held one";
    EXPECT_EQ(shown.size(), 1) << "the held state was shown after the debug command's";
    ASSERT_TRUE(relayed.lastState());
    EXPECT_EQ(relayed.lastState()->orders.size(), 1);
}

TEST_F(ServerMonitorTest, ADebugStatePollThatTricklesEndsAtItsDeadlineWithAClearError)
{
    // Through QNetworkAccessManager the poll had only a transfer timeout, which every byte restarts: a server that
    // trickles kept the poll in flight (and every later one waiting) for as long as it trickled, and said nothing.
    // Every call now goes through HttpExchange with a total deadline: the poll's 3 s.
    ScriptedPeer peer([](const PeerRequest&) { return ScriptedPeer::hold(); });
    ASSERT_TRUE(peer.listening);
    ServerApi peerApi(peer.url(), QStringLiteral("demo-key-A"));
    ServerMonitor trickled(&peerApi);
    std::optional<QString> reason;
    int status = -1;
    QObject::connect(&trickled, &ServerMonitor::unavailable, [&](const QString& why, int httpStatus) {
        reason = why;
        status = httpStatus;
    });
    int written = 0;
    QTimer trickle; // the peer's pace, not the test's synchronisation
    QObject::connect(&trickle, &QTimer::timeout, [&] {
        if (peer.heldCount() == 1) {
            peer.trickle(0, written++ == 0 ? kSlowHead : QByteArray(" "));
        }
    });
    trickle.start(50);
    QElapsedTimer elapsed;
    elapsed.start();
    trickled.pollNow();
    ASSERT_TRUE(QTest::qWaitFor([&] { return reason.has_value(); }, 10'000)) << "the trickling poll never ended";
    EXPECT_LT(elapsed.elapsed(), 8'000);
    EXPECT_GT(written, 10) << "the peer kept sending bytes until the deadline";
    // The words are describeReply's (HttpReplyText); the exchange's own error is in ServerApiTest.
    EXPECT_EQ(status, 0) << "no answer: " << reason->toStdString();
    EXPECT_FALSE(reason->isEmpty());
}

TEST_F(ServerMonitorTest, ADebugStateOverTheSizeCapIsNotReadAndSaysSo)
{
    // A valid state padded to 5 MiB: QNetworkAccessManager read it whole (in the report a 1.5 GB answer took
    // 1.5 GB of memory) and showed it. Over HttpExchange's cap nothing is read beyond it and the monitor says why.
    auto client = server.client();
    const Reply now = get(*client, "/_debug/state", "demo-key-A");
    ASSERT_EQ(now.status, 200);
    const QByteArray padded = QByteArray::fromStdString(now.body) + QByteArray(5 * 1024 * 1024, ' ');
    ASSERT_TRUE(ServerState::fromJson(padded)) << "a valid state, only large";
    ScriptedPeer peer([&](const PeerRequest&) { return ScriptedPeer::answer(200, "OK", padded); });
    ASSERT_TRUE(peer.listening);
    ServerApi peerApi(peer.url(), QStringLiteral("demo-key-A"));
    ServerMonitor oversized(&peerApi);
    std::optional<QString> reason;
    int status = -1;
    bool shown = false;
    QObject::connect(&oversized, &ServerMonitor::unavailable, [&](const QString& why, int httpStatus) {
        reason = why;
        status = httpStatus;
    });
    QObject::connect(&oversized, &ServerMonitor::stateChanged, [&](const ServerState&) { shown = true; });
    oversized.pollNow();
    ASSERT_TRUE(QTest::qWaitFor([&] { return reason.has_value() || shown; }, 10'000));
    EXPECT_FALSE(shown) << "an answer over the size cap was read and shown";
    ASSERT_TRUE(reason.has_value());
    EXPECT_EQ(status, 0) << "not read, so no answer: " << reason->toStdString();
    EXPECT_FALSE(reason->isEmpty());
}

TEST_F(ServerMonitorTest, AStateReadAgainAfterAFailedPollIsShownEvenIfItIsTheSame)
{
    // Kill the server in the window: the dock turns red ("Cannot read the server's tables"); the restarted server holds
    // the same rows, so its state equalled the last one shown and was not reported, and the red stayed until the
    // next change. A failed poll forgets what was shown: the next state read is reported, whatever it holds.
    auto client = server.client();
    const Reply now = get(*client, "/_debug/state", "demo-key-A");
    ASSERT_EQ(now.status, 200);
    const QByteArray body = QByteArray::fromStdString(now.body);
    std::atomic<int> asked {0};
    ScriptedPeer peer([&](const PeerRequest&) {
        return ++asked == 2 ? ScriptedPeer::answer(503, "Service Unavailable", "{}")
                            : ScriptedPeer::answer(200, "OK", body);
    });
    ASSERT_TRUE(peer.listening);
    ServerApi peerApi(peer.url(), QStringLiteral("demo-key-A"));
    ServerMonitor restarted(&peerApi);
    int shown = 0;
    int failed = 0;
    QObject::connect(&restarted, &ServerMonitor::stateChanged, [&](const ServerState&) { ++shown; });
    QObject::connect(&restarted, &ServerMonitor::unavailable, [&](const QString&, int) { ++failed; });

    restarted.pollNow();
    ASSERT_TRUE(QTest::qWaitFor([&] { return shown == 1; }, 10'000)) << "the first state was not shown";
    restarted.pollNow();
    ASSERT_TRUE(QTest::qWaitFor([&] { return failed == 1; }, 10'000)) << "the failed poll was not reported";
    restarted.pollNow();
    EXPECT_TRUE(QTest::qWaitFor([&] { return shown == 2; }, 10'000))
        << "the same state read after a failure was not reported: the failure stays on screen";
    EXPECT_EQ(asked.load(), 3);
}
