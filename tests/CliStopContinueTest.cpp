// The real onceorder-cli stopped (SIGSTOP: Ctrl-Z, a suspended laptop) while its attempt is on the wire, for longer
// than its lease, and continued (issue 28): meanwhile another process on the same outbox acted on the cart; after
// SIGCONT the CLI reports what truly became of it and exits.
//
// The other process is a SubmissionEngine in this test on its own outbox connection (its own lease name), as in
// EvidenceBeatsTimeTest. How long the CLI stays stopped is injected: the other process's clocks (the machine's
// monotonic clock, on which leases are measured, and its wall clock) read ten minutes later than the CLI's, so the
// CLI's lease is over for it. The server is a ScriptedPeer that holds the CLI's order POST open until the test
// answers it; every wait is on an event (a request arriving, a signal, the process ending) with a guard.
#include "net/ServerApi.h"
#include "retry/Clock.h"
#include "submission/SubmissionEngine.h"
#include "support/ScriptedPeer.h"
#include "support/ServerProcess.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <gtest/gtest.h>

#include <csignal>
#include <memory>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

constexpr qint64 kMinuteMs = 60'000;
constexpr qint64 kStoppedForMs = 10 * kMinuteMs; // far longer than a lease (one attempt's time and 5 s)

QByteArray created(qint64 orderId, const QString& cartId)
{
    return ScriptedPeer::answer(201, "Created",
                                "{\"order_id\":" + QByteArray::number(orderId) +
                                    ",\"status\":\"placed\",\"cart_id\":\"" + cartId.toUtf8() +
                                    "\",\"items\":[{\"product\":\"kniha\",\"quantity\":1}]}");
}

class CliStopContinueTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void TearDown() override
    {
        if (m_cli.state() != QProcess::NotRunning) {
            ::kill(static_cast<pid_t>(m_cli.processId()), SIGCONT);
            m_cli.kill();
            m_cli.waitForFinished(5000);
        }
    }

    template<typename Predicate>
    bool runUntil(Predicate done, qint64 timeoutMs = 20'000)
    {
        QElapsedTimer guard;
        guard.start();
        while (!done() && guard.elapsed() < timeoutMs) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        }
        return done();
    }

    // `onceorder-cli submit` of one book as cart `cartId`, against the peer, with a window of `windowSeconds`.
    void startCli(const QString& cartId, int windowSeconds)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("ONCEORDER_CRASH_AT"));
        env.remove(QStringLiteral("ONCEORDER_TEST_CLOCK_OFFSET_MS"));
        env.insert(QStringLiteral("HOME"), QString::fromStdString(m_dir.file("home")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), QString::fromStdString(m_dir.file("home")));
        m_cli.setProcessEnvironment(env);
        // A transfer timeout longer than the test: the attempt ends only by what the peer does.
        m_cli.start(QStringLiteral(ONCEORDER_CLI_BIN),
                    {"submit", "--product", "kniha", "--quantity", "1", "--cart-id", cartId, "--server",
                     m_peer->url().toString(), "--state", m_stateDir, "--retry-window", QString::number(windowSeconds),
                     "--timeout-ms", "120000"});
        ASSERT_TRUE(m_cli.waitForStarted(10'000));
    }

    // The other process: its own connection to the outbox, its clocks `kStoppedForMs` after the CLI's.
    void startOtherProcess(qint64 retryWindowMs)
    {
        m_machine.setMs(BootClock::instance().nowMs() + kStoppedForMs);
        m_wall.setMs(QDateTime::currentMSecsSinceEpoch() + kStoppedForMs);
        m_outbox = std::make_unique<Outbox>(m_stateDir);
        m_api = std::make_unique<ServerApi>(m_peer->url(), QStringLiteral("demo-key-A"));
        EngineConfig config;
        config.policy.baseDelayMs = 5;
        config.policy.maxDelayMs = 40;
        config.policy.retryWindowMs = retryWindowMs;
        config.policy.transferTimeoutMs = 20'000;
        config.budget.capacity = 1000;
        config.resumeSpreadMs = 0;
        config.monotonicClock = &m_machine;
        m_engine = std::make_unique<SubmissionEngine>(*m_outbox, m_api.get(), m_peer->url().toString(), m_wall,
                                                      m_random, config);
        QObject::connect(m_engine.get(), &SubmissionEngine::settled,
                         [this](const Submission& s) { m_otherSettled.push_back(s); });
    }

    // The CLI's last line of output once it has exited.
    QJsonObject lastLine()
    {
        const QList<QByteArray> lines = m_cli.readAllStandardOutput().trimmed().split('\n');
        return QJsonDocument::fromJson(lines.last()).object();
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "CliStopContinueTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir m_dir;
    QString m_stateDir = QString::fromStdString(m_dir.file("client"));
    std::unique_ptr<ScriptedPeer> m_peer;
    QProcess m_cli;
    ManualClock m_machine;
    ManualClock m_wall;
    SeededRandom m_random {28};
    std::unique_ptr<Outbox> m_outbox;
    std::unique_ptr<ServerApi> m_api;
    std::unique_ptr<SubmissionEngine> m_engine;
    std::vector<Submission> m_otherSettled;
};

} // namespace

TEST_F(CliStopContinueTest, AStoppedCliReportsTheOrderAnotherProcessPlacedWhileItWasStopped)
{
    const QString cartId = QStringLiteral("c-stopped-placed");
    m_peer = std::make_unique<ScriptedPeer>([&](const PeerRequest& request) -> QByteArray {
        if (request.method != "POST") {
            return ScriptedPeer::answer(200, "OK", "[]");
        }
        // The CLI's attempt stays on the wire; the other process's (the same key) is answered.
        return m_peer->heldCount() == 0 ? ScriptedPeer::hold() : created(41, cartId);
    });
    ASSERT_TRUE(m_peer->listening);
    startCli(cartId, 3600);
    ASSERT_TRUE(runUntil([&] { return m_peer->heldCount() == 1; })) << m_cli.readAllStandardError().toStdString();
    ASSERT_EQ(::kill(static_cast<pid_t>(m_cli.processId()), SIGSTOP), 0);

    startOtherProcess(3600'000);
    const auto pending = m_outbox->pendingForCart(cartId, QStringLiteral("demo-key-A"));
    ASSERT_TRUE(pending);
    m_engine->retryNow(pending->id);
    ASSERT_TRUE(runUntil([&] { return !m_otherSettled.empty(); })) << "the other process did not take over";
    ASSERT_EQ(m_otherSettled.back().state, SubmissionState::Placed)
        << m_otherSettled.back().problemDetail.toStdString();

    ASSERT_EQ(::kill(static_cast<pid_t>(m_cli.processId()), SIGCONT), 0);
    m_peer->release(0, {}); // its connection closes without an answer: maybe sent
    ASSERT_TRUE(runUntil([&] { return m_cli.state() == QProcess::NotRunning; }))
        << "the continued CLI never reported: " << m_cli.readAllStandardError().toStdString();
    const QString err = QString::fromUtf8(m_cli.readAllStandardError());
    EXPECT_EQ(m_cli.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(m_cli.exitCode(), 0) << err.toStdString();
    const QJsonObject line = lastLine();
    EXPECT_EQ(line.value("state").toString(), QStringLiteral("placed")) << err.toStdString();
    EXPECT_EQ(line.value("order_id").toInteger(), 41) << err.toStdString();

    const QList<PeerRequest> posts = m_peer->requestsTo("POST", "/orders");
    ASSERT_EQ(posts.size(), 2);
    EXPECT_EQ(posts[0].header("Idempotency-Key"), posts[1].header("Idempotency-Key")) << "one key for the cart";
    EXPECT_EQ(m_outbox->find(pending->id)->state, SubmissionState::Placed);
}

TEST_F(CliStopContinueTest, AStoppedCliWhoseCartAnotherProcessGaveUpReportsItsLate201AsPlacedAfterAll)
{
    // The first path, at process level: the other process finds the lease over and the window over, reads
    // back nothing yet and gives the cart up; then the stopped CLI's 201 arrives.
    const QString cartId = QStringLiteral("c-stopped-late");
    m_peer = std::make_unique<ScriptedPeer>([](const PeerRequest& request) -> QByteArray {
        return request.method == "POST" ? ScriptedPeer::hold() : ScriptedPeer::answer(200, "OK", "[]");
    });
    ASSERT_TRUE(m_peer->listening);
    startCli(cartId, 60);
    ASSERT_TRUE(runUntil([&] { return m_peer->heldCount() == 1; })) << m_cli.readAllStandardError().toStdString();
    ASSERT_EQ(::kill(static_cast<pid_t>(m_cli.processId()), SIGSTOP), 0);

    startOtherProcess(60'000);
    const auto pending = m_outbox->pendingForCart(cartId, QStringLiteral("demo-key-A"));
    ASSERT_TRUE(pending);
    m_engine->retryNow(pending->id);
    ASSERT_TRUE(runUntil([&] { return !m_otherSettled.empty(); })) << "the other process did not take over";
    ASSERT_EQ(m_otherSettled.back().state, SubmissionState::GaveUp)
        << m_otherSettled.back().problemDetail.toStdString();
    EXPECT_EQ(m_peer->requestsTo("POST", "/orders").size(), 1) << "only the CLI's attempt: none after the window";

    ASSERT_EQ(::kill(static_cast<pid_t>(m_cli.processId()), SIGCONT), 0);
    m_peer->release(0, created(12, cartId));
    ASSERT_TRUE(runUntil([&] { return m_cli.state() == QProcess::NotRunning; }))
        << "the continued CLI never reported: " << m_cli.readAllStandardError().toStdString();
    const QString err = QString::fromUtf8(m_cli.readAllStandardError());
    EXPECT_EQ(m_cli.exitStatus(), QProcess::NormalExit);
    EXPECT_EQ(m_cli.exitCode(), 0) << err.toStdString();
    const QJsonObject line = lastLine();
    EXPECT_EQ(line.value("state").toString(), QStringLiteral("placed")) << err.toStdString();
    EXPECT_EQ(line.value("order_id").toInteger(), 12);
    EXPECT_EQ(line.value("placed_after").toString(), QStringLiteral("gave-up"));

    const Submission stored = *m_outbox->find(pending->id);
    EXPECT_EQ(stored.state, SubmissionState::Placed);
    EXPECT_EQ(stored.orderId, 12);
    EXPECT_EQ(stored.overruled, SubmissionState::GaveUp);
    EXPECT_EQ(m_peer->requestsTo("POST", "/orders").size(), 1);
}
