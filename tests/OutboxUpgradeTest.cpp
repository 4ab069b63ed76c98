// Outbox files written by earlier releases (tests/fixtures/*.sql, checked in with the .db they generate): the
// schema version and its migrations, and what a resume does with their rows against the real onceorder-server.
// A key the server may have forgotten (its TTL is 24 h) must never be sent again: that would be a second order.
// The clock is a ManualClock at the fixtures' "now"; every wait is on a signal, with a guard against hangs.
#include "submission/Outbox.h"
#include "submission/SubmissionEngine.h"
#include "support/ServerProcess.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QTimer>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <set>

using namespace onceorder::core;
using namespace onceorder::test;

namespace {

// The fixtures' "now" (see their .sql): the rows were made relative to it.
constexpr qint64 kFixtureNowMs = 1'790'000'000'000;
constexpr qint64 kDayMs = 24LL * 60 * 60 * 1000;
constexpr qint64 kLegacyWindowMs = 15 * 60 * 1000;
// No deadline later than the server's key TTL (24 h) less an hour's margin after the submission was made.
constexpr qint64 kLatestDeadlineAfterMs = kDayMs - 60 * 60 * 1000;

// A copy of the fixture as <dir>/client/client.db: the fixture itself is never written.
QString stateFrom(const TempDir& dir, const char* fixture)
{
    const std::filesystem::path state = dir.path() / "client";
    std::filesystem::create_directories(state);
    std::filesystem::copy_file(std::filesystem::path(ONCEORDER_FIXTURES_DIR) / fixture, state / "client.db");
    return QString::fromStdString(state.string());
}

int userVersion(const QString& state)
{
    SQLite::Database db(QDir(state).filePath(QStringLiteral("client.db")).toStdString(), SQLite::OPEN_READONLY,
                        kReadBusyTimeoutMs);
    return db.execAndGet("PRAGMA user_version").getInt();
}

class OutboxUpgradeTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    // Resumes what `outbox` holds for the bundled target against the real server; waits until each is settled.
    void resumeAgainstTheServer(Outbox& outbox)
    {
        ServerApi api(QUrl(QString::fromStdString(server.url())), QStringLiteral("demo-key-A"));
        EngineConfig config;
        config.resumeSpreadMs = 0;
        config.policy.baseDelayMs = 10;
        config.policy.maxDelayMs = 100;
        SubmissionEngine engine(outbox, &api, QStringLiteral("bundled"), clock, random, config);
        std::set<qint64> settled;
        QObject::connect(&engine, &SubmissionEngine::settled, [&](const Submission& s) { settled.insert(s.id); });
        const auto resumed = engine.resumePending();
        ASSERT_TRUE(resumed);
        ASSERT_FALSE(resumed->isEmpty());
        QTimer guard;
        guard.setSingleShot(true);
        guard.start(30'000);
        const auto allSettled = [&] {
            return std::all_of(resumed->begin(), resumed->end(), [&](qint64 id) { return settled.count(id) > 0; });
        };
        while (!allSettled() && guard.isActive()) {
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
        }
        ASSERT_TRUE(allSettled()) << "timed out";
    }

    long long ordersFor(const std::string& cartId) const
    {
        SQLite::Database db(serverDb, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        SQLite::Statement count(db, "SELECT count(*) FROM orders WHERE cart_id = ?");
        count.bind(1, cartId);
        count.executeStep();
        return count.getColumn(0).getInt64();
    }
    long long orders() const
    {
        SQLite::Database db(serverDb, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        return db.execAndGet("SELECT count(*) FROM orders").getInt64();
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "OutboxUpgradeTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    TempDir dir;
    std::string serverDb = dir.file("server.db");
    ServerProcess server {std::vector<std::string> {"--db", serverDb}};
    ManualClock clock {kFixtureNowMs};
    SeededRandom random {4};
};

} // namespace

TEST_F(OutboxUpgradeTest, TheUnversionedOutboxGetsItsSchemaVersionAndEveryDeadlineWithinTheKeyTtl)
{
    TempDir state;
    const QString folder = stateFrom(state, "outbox-unversioned.db");
    ASSERT_EQ(userVersion(folder), 0);
    Outbox outbox(folder);
    EXPECT_EQ(userVersion(folder), 3);

    const qint64 twoDaysAgo = kFixtureNowMs - 2 * kDayMs;
    const auto noDeadline = outbox.find(1);
    ASSERT_TRUE(noDeadline);
    EXPECT_EQ(noDeadline->deadlineMs, twoDaysAgo + kLegacyWindowMs) << "0 meant no deadline at all";
    EXPECT_EQ(noDeadline->key, QStringLiteral("key-two-days-no-deadline"));
    ASSERT_EQ(noDeadline->attempts.size(), 1);
    const auto farDeadline = outbox.find(2);
    ASSERT_TRUE(farDeadline);
    EXPECT_EQ(farDeadline->deadlineMs, twoDaysAgo + kLatestDeadlineAfterMs) << "beyond the key's TTL";
    EXPECT_LT(farDeadline->deadlineMs, twoDaysAgo + kDayMs);
    EXPECT_EQ(outbox.find(3)->deadlineMs, kFixtureNowMs - 60'000 + kLegacyWindowMs) << "a fitting one is kept";
    EXPECT_EQ(outbox.find(4)->state, SubmissionState::Placed);
    EXPECT_EQ(outbox.find(4)->orderId, 5);

    // Opening it again (another process, a later run) migrates nothing twice.
    Outbox again(folder);
    EXPECT_EQ(again.find(3)->deadlineMs, kFixtureNowMs - 60'000 + kLegacyWindowMs);
    EXPECT_EQ(userVersion(folder), 3);
}

TEST_F(OutboxUpgradeTest, ResumingTheUnversionedOutboxNeverSendsAKeyOlderThanTheServersTtl)
{
    // The reported run: `resume` on an outbox of the previous release sent a key made two days earlier, after the
    // server had forgotten it: a second order. Now those give up before sending and read the cart back; the
    // submission made a minute ago is sent and placed.
    TempDir state;
    Outbox outbox(stateFrom(state, "outbox-unversioned.db"));
    resumeAgainstTheServer(outbox);

    for (const qint64 id : {1, 2}) {
        const Submission s = *outbox.find(id);
        EXPECT_EQ(s.state, SubmissionState::GaveUp) << s.cartId.toStdString() << ": " << s.problemDetail.toStdString();
        EXPECT_EQ(s.attempts.size(), 1) << "no attempt after the deadline";
        EXPECT_EQ(ordersFor(s.cartId.toStdString()), 0) << "the old key was sent again";
    }
    const Submission fresh = *outbox.find(3);
    EXPECT_EQ(fresh.state, SubmissionState::Placed) << fresh.problemDetail.toStdString();
    EXPECT_EQ(ordersFor("cart-a-minute-ago"), 1);
    EXPECT_EQ(orders(), 1);
}

TEST_F(OutboxUpgradeTest, ResumingAnOutboxFromBeforeDeadlinesNeverSendsTheOldKey)
{
    TempDir state;
    const QString folder = stateFrom(state, "outbox-before-deadlines.db");
    Outbox outbox(folder);
    EXPECT_EQ(userVersion(folder), 3);
    EXPECT_EQ(outbox.find(1)->deadlineMs, kFixtureNowMs - 2 * kDayMs + kLegacyWindowMs);
    resumeAgainstTheServer(outbox);
    const Submission s = *outbox.find(1);
    EXPECT_EQ(s.state, SubmissionState::GaveUp) << s.problemDetail.toStdString();
    EXPECT_EQ(s.attempts.size(), 1);
    EXPECT_EQ(orders(), 0);
}

TEST_F(OutboxUpgradeTest, NoDeadlineIsStoredBeyondTheKeyTtlAndNoneMeansTheDefaultWindow)
{
    TempDir state;
    Outbox outbox(QString::fromStdString(state.file("client")));
    Submission far;
    far.key = QStringLiteral("k-far");
    far.cartId = QStringLiteral("c-far");
    far.body = "{}";
    far.target = QUrl(QStringLiteral("bundled"));
    far.createdMs = kFixtureNowMs;
    far.deadlineMs = kFixtureNowMs + 3 * kDayMs;
    outbox.create(far, QStringLiteral("demo-key-A"));
    EXPECT_EQ(outbox.find(far.id)->deadlineMs, kFixtureNowMs + kLatestDeadlineAfterMs);

    Submission none = far;
    none.key = QStringLiteral("k-none");
    none.cartId = QStringLiteral("c-none");
    none.deadlineMs = 0;
    outbox.create(none, QStringLiteral("demo-key-A"));
    EXPECT_EQ(outbox.find(none.id)->deadlineMs, kFixtureNowMs + kLegacyWindowMs);

    // A row an older client writes into the migrated file later is bounded when read.
    {
        SQLite::Database raw(state.file("client/client.db"), SQLite::OPEN_READWRITE, kReadBusyTimeoutMs);
        raw.exec("UPDATE submissions SET deadline_at = 0 WHERE idem_key = 'k-far'");
    }
    EXPECT_EQ(outbox.find(far.id)->deadlineMs, kFixtureNowMs + kLegacyWindowMs);

    // A policy configured for longer than the TTL allows still stores no later deadline.
    RetryPolicyConfig longWindow;
    longWindow.retryWindowMs = 3 * kDayMs;
    EXPECT_EQ(RetryPolicy(longWindow).deadlineFor(kFixtureNowMs), kFixtureNowMs + kLatestDeadlineAfterMs);
}

TEST_F(OutboxUpgradeTest, AnOutboxOfANewerClientIsRefusedWithAClearError)
{
    TempDir state;
    const QString folder = stateFrom(state, "outbox-unversioned.db");
    {
        SQLite::Database raw(QDir(folder).filePath(QStringLiteral("client.db")).toStdString(), SQLite::OPEN_READWRITE);
        raw.exec("PRAGMA user_version = 99");
    }
    try {
        Outbox outbox(folder);
        FAIL() << "opened an outbox of schema version 99";
    } catch (const std::exception& error) {
        EXPECT_NE(std::string(error.what()).find("newer"), std::string::npos) << error.what();
    }
    EXPECT_EQ(userVersion(folder), 99) << "left as it was";
}
