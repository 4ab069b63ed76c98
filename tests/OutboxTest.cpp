// The client's state database, on a fresh folder per test.
#include "submission/Outbox.h"
#include "support/ServerProcess.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Exception.h>
#include <gtest/gtest.h>

#include <unistd.h>

using namespace onceorder::core;
using onceorder::test::TempDir;

namespace {

Submission newSubmission(const QString& cartId)
{
    Submission s;
    s.key = QStringLiteral("key-") + cartId;
    s.cartId = cartId;
    s.body = QByteArray(R"({"cart_id":")") + cartId.toUtf8() + R"(","items":[{"product":"kniha","quantity":1}]})";
    s.target = QUrl(QStringLiteral("bundled"));
    s.createdMs = 1000;
    return s;
}

QString dirOf(const TempDir& dir)
{
    return QString::fromStdString(dir.path().string());
}

} // namespace

TEST(OutboxTest, ASubmissionSurvivesReopeningWithItsKeyBytesAndAttempts)
{
    TempDir dir;
    qint64 id = 0;
    Submission original = newSubmission(QStringLiteral("c1"));
    {
        Outbox outbox(dirOf(dir));
        outbox.create(original, QStringLiteral("demo-key-A"));
        id = original.id;
        Attempt first {1, 2000, 0, AttemptOutcome::InFlight, 0, false, {}, -1, {}};
        outbox.recordAttemptStart(id, first);
        first.endedMs = 2500;
        first.outcome = AttemptOutcome::MaybeSent;
        first.error = QStringLiteral("Connection closed");
        first.delayAfterMs = 300;
        first.delayReason = QStringLiteral("backoff");
        outbox.recordAttemptEnd(id, first);
        outbox.recordAttemptStart(id, Attempt {2, 2800, 0, AttemptOutcome::InFlight, 0, false, {}, -1, {}});
    }
    Outbox reopened(dirOf(dir));
    const auto loaded = reopened.find(id);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->key, original.key);
    EXPECT_EQ(loaded->body, original.body);
    EXPECT_EQ(loaded->state, SubmissionState::Pending);
    ASSERT_EQ(loaded->attempts.size(), 2);
    EXPECT_EQ(loaded->attempts[0].outcome, AttemptOutcome::MaybeSent);
    EXPECT_EQ(loaded->attempts[0].delayAfterMs, 300);
    EXPECT_EQ(loaded->attempts[0].error, QStringLiteral("Connection closed"));
    EXPECT_EQ(loaded->attempts[1].outcome, AttemptOutcome::InFlight) << "a crash mid-attempt is visible";
    EXPECT_EQ(reopened.pending(QStringLiteral("bundled"), QStringLiteral("demo-key-A")).size(), 1);
    EXPECT_TRUE(reopened.pending(QStringLiteral("http://elsewhere"), QStringLiteral("demo-key-A")).isEmpty());
    EXPECT_TRUE(reopened.pending(QStringLiteral("bundled"), QStringLiteral("demo-key-B")).isEmpty());
    EXPECT_EQ(reopened.pendingCount(QStringLiteral("bundled"), QStringLiteral("demo-key-A")), 1);
    EXPECT_EQ(reopened.pendingCount(QStringLiteral("http://elsewhere"), QStringLiteral("demo-key-A")), 0);
    EXPECT_EQ(reopened.pendingCount(QStringLiteral("bundled"), QStringLiteral("demo-key-B")), 0);
}

TEST(OutboxTest, OneCartHasAtMostOnePendingSubmission)
{
    TempDir dir;
    Outbox outbox(dirOf(dir));
    Submission first = newSubmission(QStringLiteral("c1"));
    outbox.create(first, QStringLiteral("demo-key-A"));
    Submission again = newSubmission(QStringLiteral("c1"));
    EXPECT_THROW(outbox.create(again, QStringLiteral("demo-key-A")), SQLite::Exception);
    EXPECT_EQ(outbox.pendingForCart(QStringLiteral("c1"), QStringLiteral("demo-key-A"))->id, first.id);

    first.state = SubmissionState::Placed;
    first.orderId = 7;
    outbox.update(first);
    EXPECT_FALSE(outbox.pendingForCart(QStringLiteral("c1"), QStringLiteral("demo-key-A")));
    EXPECT_EQ(outbox.find(first.id)->orderId, 7);
    Submission reorder = newSubmission(QStringLiteral("c1"));
    EXPECT_NO_THROW(outbox.create(reorder, QStringLiteral("demo-key-A"))) << "a settled cart no longer blocks";
    EXPECT_EQ(outbox.all().size(), 2);
}

// The names are stored in client.db: a renamed state would load older rows as Pending (and resend them), so the
// stored spelling is pinned here, not only the round trip through the one table.
TEST(OutboxTest, StateNamesAreTheStoredSpellings)
{
    const std::pair<SubmissionState, const char*> stored[] {
        {SubmissionState::Pending, "pending"},     {SubmissionState::Placed, "placed"},
        {SubmissionState::Rejected, "rejected"},   {SubmissionState::GaveUp, "gave-up"},
        {SubmissionState::Abandoned, "abandoned"}, {SubmissionState::Duplicated, "duplicated"},
    };
    for (const auto& [state, name] : stored) {
        EXPECT_EQ(submissionStateName(state), QLatin1String(name));
        EXPECT_EQ(submissionStateFromName(QLatin1String(name)), state) << name;
    }
    EXPECT_EQ(submissionStateFromName(QStringLiteral("Placed")), std::nullopt) << "no case folding";
    EXPECT_EQ(submissionStateFromName(QStringLiteral("sent")), std::nullopt);
}

TEST(OutboxTest, AnUnusableFolderIsAnError)
{
    EXPECT_THROW(Outbox(QStringLiteral("/proc/onceorder-cannot-be-here")), SQLite::Exception);
}

TEST(OutboxTest, ACheckoutSubmissionKeepsItsPath)
{
    TempDir dir;
    Submission paid = newSubmission(QStringLiteral("c1"));
    paid.path = QStringLiteral("/checkout");
    Submission plain = newSubmission(QStringLiteral("c2"));
    {
        Outbox outbox(dirOf(dir));
        outbox.create(paid, QStringLiteral("demo-key-A"));
        outbox.create(plain, QStringLiteral("demo-key-A"));
    }
    Outbox reopened(dirOf(dir));
    EXPECT_EQ(reopened.find(paid.id)->path, QStringLiteral("/checkout"));
    EXPECT_EQ(reopened.find(plain.id)->path, QStringLiteral("/orders"));
}

TEST(OutboxTest, AnOutboxFromBeforeCheckoutOpensWithItsSubmissionsAsOrders)
{
    TempDir dir;
    {
        // The schema as the first release wrote it, with one pending submission.
        SQLite::Database old(dir.file("client.db"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        old.exec("CREATE TABLE submissions (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL, "
                 "cart_id TEXT NOT NULL, body BLOB NOT NULL, target TEXT NOT NULL, api_key TEXT NOT NULL, "
                 "state TEXT NOT NULL, order_id INTEGER, replayed INTEGER NOT NULL DEFAULT 0, "
                 "http_status INTEGER NOT NULL DEFAULT 0, problem_type TEXT, problem_detail TEXT, "
                 "created_at INTEGER NOT NULL, next_attempt_at INTEGER NOT NULL DEFAULT 0)");
        old.exec("INSERT INTO submissions (idem_key, cart_id, body, target, api_key, state, created_at) "
                 "VALUES ('k-old', 'c-old', '{}', 'bundled', 'demo-key-A', 'pending', 1000)");
    }
    Outbox outbox(dirOf(dir));
    const auto pending = outbox.pending(QStringLiteral("bundled"), QStringLiteral("demo-key-A"));
    ASSERT_EQ(pending.size(), 1);
    EXPECT_EQ(pending.first().key, QStringLiteral("k-old"));
    EXPECT_EQ(pending.first().path, QStringLiteral("/orders"));
    Submission paid = newSubmission(QStringLiteral("c-new"));
    paid.path = QStringLiteral("/checkout");
    outbox.create(paid, QStringLiteral("demo-key-A"));
    EXPECT_EQ(outbox.find(paid.id)->path, QStringLiteral("/checkout"));
}

TEST(OutboxTest, AnOutboxFromBeforeDeadlinesGetsTheDefaultWindowFromItsCreation)
{
    TempDir dir;
    {
        SQLite::Database old(dir.file("client.db"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        old.exec("CREATE TABLE submissions (id INTEGER PRIMARY KEY AUTOINCREMENT, idem_key TEXT NOT NULL, "
                 "cart_id TEXT NOT NULL, body BLOB NOT NULL, target TEXT NOT NULL, path TEXT NOT NULL DEFAULT "
                 "'/orders', api_key TEXT NOT NULL, state TEXT NOT NULL, order_id INTEGER, replayed INTEGER NOT "
                 "NULL DEFAULT 0, http_status INTEGER NOT NULL DEFAULT 0, problem_type TEXT, problem_detail TEXT, "
                 "created_at INTEGER NOT NULL, next_attempt_at INTEGER NOT NULL DEFAULT 0)");
        old.exec("INSERT INTO submissions (idem_key, cart_id, body, target, api_key, state, created_at) "
                 "VALUES ('k-old', 'c-old', '{}', 'bundled', 'demo-key-A', 'pending', 1000)");
    }
    Outbox outbox(dirOf(dir));
    const auto pending = outbox.pending(QStringLiteral("bundled"), QStringLiteral("demo-key-A"));
    ASSERT_EQ(pending.size(), 1);
    EXPECT_EQ(pending.first().deadlineMs, 1000 + 15 * 60 * 1000);
    EXPECT_EQ(pending.first().apiKey, QStringLiteral("demo-key-A"));
    Submission fresh = newSubmission(QStringLiteral("c-new"));
    fresh.deadlineMs = 5000;
    outbox.create(fresh, QStringLiteral("demo-key-A"));
    EXPECT_EQ(outbox.find(fresh.id)->deadlineMs, 5000);
}

TEST(OutboxTest, TwoProcessesNeverSendOneSubmissionAtOnceAndNumberAttemptsFromTheDatabase)
{
    TempDir dir;
    Outbox first(dirOf(dir));
    Outbox second(dirOf(dir)); // another process's connection, with its own lease name
    Submission s = newSubmission(QStringLiteral("c1"));
    first.create(s, QStringLiteral("demo-key-A"));

    const auto a = first.startAttempt(s.id, 10'000, 70'000, QStringLiteral("interrupted"));
    ASSERT_EQ(a.claim, Outbox::Claim::Started);
    EXPECT_EQ(a.submission.attempts.last().number, 1);
    const auto b = second.startAttempt(s.id, 10'001, 70'001, QStringLiteral("interrupted"));
    EXPECT_EQ(b.claim, Outbox::Claim::LeasedElsewhere) << "the holder's process is alive and its lease runs";
    EXPECT_EQ(b.leaseUntilMs, 70'000);

    // The lease runs out (the holder hung): the other may send, numbering after what is stored, and the
    // attempt left in flight is now "maybe sent".
    const auto c = second.startAttempt(s.id, 70'001, 130'000, QStringLiteral("interrupted"));
    ASSERT_EQ(c.claim, Outbox::Claim::Started);
    ASSERT_EQ(c.submission.attempts.size(), 2);
    EXPECT_EQ(c.submission.attempts[0].outcome, AttemptOutcome::MaybeSent);
    EXPECT_EQ(c.submission.attempts[1].number, 2);

    Submission placed = c.submission;
    placed.state = SubmissionState::Placed;
    placed.orderId = 9;
    Attempt end = placed.attempts.last();
    end.outcome = AttemptOutcome::Placed;
    end.endedMs = 70'100;
    EXPECT_TRUE(second.endAttempt(end, placed, 0));
    // The first process's late answer and stale copy change nothing: placed stays placed.
    Submission stale = a.submission;
    stale.state = SubmissionState::GaveUp;
    EXPECT_FALSE(first.endAttempt(a.submission.attempts.last(), stale, 0));
    EXPECT_FALSE(first.update(a.submission));
    EXPECT_EQ(first.find(s.id)->state, SubmissionState::Placed);
    EXPECT_EQ(first.startAttempt(s.id, 80'000, 90'000, {}).claim, Outbox::Claim::NotPending);
}

TEST(OutboxTest, ALeaseWrittenBeforeTheClockSteppedBackOrByAProcessThatIsGoneIsFree)
{
    TempDir dir;
    Outbox mine(dirOf(dir));
    Submission s = newSubmission(QStringLiteral("c1"));
    mine.create(s, QStringLiteral("demo-key-A"));
    {
        SQLite::Database db(dir.file("client.db"), SQLite::OPEN_READWRITE);
        // A holder that was killed: a pid that cannot be alive.
        db.exec("UPDATE submissions SET lease_owner = 'gone', lease_pid = 2147483600, lease_until = 99999999");
    }
    EXPECT_EQ(mine.startAttempt(s.id, 1000, 2000, {}).claim, Outbox::Claim::Started);
    {
        SQLite::Database db(dir.file("client.db"), SQLite::OPEN_READWRITE);
        // A live holder (this process) of an older client, whose wall-clock lease ends ten hours after "now": the
        // clock stepped back.
        db.exec("UPDATE submissions SET lease_owner = 'other', lease_pid = " + std::to_string(::getpid()) +
                ", lease_until = 36001000, lease_boot = NULL");
    }
    EXPECT_EQ(mine.startAttempt(s.id, 1000, 2000, {}).claim, Outbox::Claim::Started);
    {
        SQLite::Database db(dir.file("client.db"), SQLite::OPEN_READWRITE);
        // A live holder's lease on the machine's monotonic clock: no wall-clock step shortens it, however far
        // ahead it lies...
        db.exec("UPDATE submissions SET lease_owner = 'other', lease_pid = " + std::to_string(::getpid()) +
                ", lease_until = 36001000");
    }
    EXPECT_EQ(mine.startAttempt(s.id, 1000, 2000, {}, std::nullopt, true, 99'999'999'999).claim,
              Outbox::Claim::LeasedElsewhere);
    {
        SQLite::Database db(dir.file("client.db"), SQLite::OPEN_READWRITE);
        // ...but one taken under an earlier boot of the machine ended with it.
        db.exec("UPDATE submissions SET lease_boot = 'an-earlier-boot'");
    }
    EXPECT_EQ(mine.startAttempt(s.id, 1000, 2000, {}).claim, Outbox::Claim::Started);
    const Submission again = newSubmission(QStringLiteral("c1"));
    Submission copy = again;
    const auto existing = mine.createUnlessPending(copy, QStringLiteral("demo-key-A"));
    ASSERT_TRUE(existing);
    EXPECT_EQ(existing->id, s.id);
}
