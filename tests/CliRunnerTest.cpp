// runCli in this process, without a server: every usage error (exit 64 with its message, nothing sent, nothing
// stored), a state folder that cannot be opened (exit 3), and `status` on an outbox with pending and settled work.
// Commands that talk to a server: CliEndToEndTest and CrashMatrixTest (the real processes).
#include "session/CliRunner.h"
#include "session/CliProgress.h"
#include "submission/Outbox.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include <memory>

using namespace onceorder::core;

namespace {

struct CliOutcome
{
    int exitCode = -1;
    QString out;
    QString err;
};

class CliRunnerTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void SetUp() override { ASSERT_TRUE(dir.isValid()); }

    QString stateDir() const { return dir.filePath(QStringLiteral("state")); }

    // onceorder-cli ARGS --state <a temporary folder>
    CliOutcome run(const QStringList& args)
    {
        testing::internal::CaptureStdout();
        testing::internal::CaptureStderr();
        CliOutcome result;
        result.exitCode =
            runCli(QStringList {QStringLiteral("onceorder-cli")} + args + QStringList {"--state", stateDir()});
        result.out = QString::fromStdString(testing::internal::GetCapturedStdout());
        result.err = QString::fromStdString(testing::internal::GetCapturedStderr());
        return result;
    }

    // A usage error: exit 64, the message on stderr, and no state database created.
    void expectUsageError(const QStringList& args, const QString& message)
    {
        const CliOutcome r = run(args);
        EXPECT_EQ(r.exitCode, 64) << args.join(u' ').toStdString();
        EXPECT_EQ(r.err, QStringLiteral("onceorder-cli: %1 (see --help)\n").arg(message))
            << args.join(u' ').toStdString();
        EXPECT_TRUE(r.out.isEmpty());
        EXPECT_FALSE(QFile::exists(QDir(stateDir()).filePath(QStringLiteral("client.db"))))
            << "a usage error opens nothing: " << args.join(u' ').toStdString();
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "CliRunnerTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    QTemporaryDir dir;
};

const QStringList kSubmit {"submit", "--product", "kniha", "--server", "http://127.0.0.1:9"};

} // namespace

TEST_F(CliRunnerTest, EveryEngineOptionOutsideItsRangeIsAUsageError)
{
    const QString window = QStringLiteral("--retry-window wants a whole number from 1 to 82800");
    expectUsageError(kSubmit + QStringList {"--retry-window", "0"}, window);
    expectUsageError(kSubmit + QStringList {"--retry-window", "82801"}, window);
    expectUsageError(kSubmit + QStringList {"--retry-window", "ten"}, window);
    const QString base = QStringLiteral("--base-delay-ms wants a whole number from 1 to 600000");
    expectUsageError(kSubmit + QStringList {"--base-delay-ms", "0"}, base);
    expectUsageError(kSubmit + QStringList {"--base-delay-ms", "600001"}, base);
    expectUsageError(kSubmit + QStringList {"--base-delay-ms", "1.5"}, base);
    const QString max = QStringLiteral("--max-delay-ms wants a whole number from 1 to 3600000");
    expectUsageError(kSubmit + QStringList {"--max-delay-ms", "0"}, max);
    expectUsageError(kSubmit + QStringList {"--max-delay-ms", "3600001"}, max);
    const QString timeout = QStringLiteral("--timeout-ms wants a whole number from 50 to 600000");
    expectUsageError(kSubmit + QStringList {"--timeout-ms", "49"}, timeout);
    expectUsageError(kSubmit + QStringList {"--timeout-ms", "600001"}, timeout);
    expectUsageError(kSubmit + QStringList {"--timeout-ms", ""}, timeout);
}

TEST_F(CliRunnerTest, TheFirstBadEngineOptionIsTheOneReported)
{
    expectUsageError(kSubmit + QStringList {"--timeout-ms", "1", "--retry-window", "0"},
                     QStringLiteral("--retry-window wants a whole number from 1 to 82800"));
}

TEST_F(CliRunnerTest, BadClientOptionsAreUsageErrors)
{
    expectUsageError({"status", "--api-key", ""}, QStringLiteral("--api-key must not be empty"));
    expectUsageError({"status", "--lang", "de"}, QStringLiteral("--lang wants en or cs, got \"de\""));
    expectUsageError({"status", "--server", "ftp://example.org"},
                     QStringLiteral("--server wants an http:// or https:// URL, got \"ftp://example.org\""));
    expectUsageError({"status", "--server", "http://"},
                     QStringLiteral("--server wants an http:// or https:// URL, got \"http://\""));
}

TEST_F(CliRunnerTest, ExactlyOneKnownCommandIsExpected)
{
    const QString message = QStringLiteral("expected one command: submit, resume or status");
    expectUsageError({}, message);
    expectUsageError({"submit", "status", "--product", "kniha"}, message);
    expectUsageError({"place", "--product", "kniha"}, message);
}

TEST_F(CliRunnerTest, SubmitNeedsAProductAPositiveQuantityAndANonEmptyPaymentMethod)
{
    const QString message = QStringLiteral("submit needs --product P and a positive --quantity N");
    expectUsageError({"submit"}, message);
    expectUsageError({"submit", "--product", "kniha", "--quantity", "0"}, message);
    expectUsageError({"submit", "--product", "kniha", "--quantity", "two"}, message);
    expectUsageError({"submit", "--product", "kniha", "--pay", ""},
                     QStringLiteral("--pay needs a payment method, e.g. --pay card"));
}

TEST_F(CliRunnerTest, AStateFolderThatCannotBeOpenedIsExitThree)
{
    // A file where the state folder should be.
    QFile blocker(stateDir());
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
    blocker.close();

    const CliOutcome r = run({"status"});
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_TRUE(
        r.err.startsWith(QStringLiteral("onceorder-cli: cannot open the state database in %1: ").arg(stateDir())))
        << r.err.toStdString();
    EXPECT_TRUE(r.out.isEmpty());
}

TEST_F(CliRunnerTest, StatusListsEverySubmissionWithItsStateAndServer)
{
    {
        Outbox outbox(stateDir());
        Submission pending;
        pending.key = QStringLiteral("key-pending");
        pending.cartId = QStringLiteral("cart-pending");
        pending.body = R"({"product":"kniha","quantity":1})";
        pending.target = QUrl(QStringLiteral("http://127.0.0.1:9"));
        outbox.create(pending, QStringLiteral("demo-key-A"));

        Submission paid;
        paid.key = QStringLiteral("key-paid");
        paid.cartId = QStringLiteral("cart-paid");
        paid.body = R"({"cart":{"product":"hrnek","quantity":1},"payment_method":"card"})";
        paid.target = QUrl(QStringLiteral("https://shop.example"));
        paid.path = QStringLiteral("/checkout");
        outbox.create(paid, QStringLiteral("demo-key-A"));
        Submission rejected = paid;
        rejected.state = SubmissionState::Rejected;
        rejected.httpStatus = 402;
        rejected.problemType = QStringLiteral("/problems/payment-declined");
        rejected.problemDetail = QStringLiteral("card declined");
        ASSERT_TRUE(outbox.settle(rejected, SubmissionState::Pending));
    }

    const CliOutcome r = run({"status"});
    EXPECT_EQ(r.exitCode, 0) << r.err.toStdString();
    EXPECT_TRUE(r.err.isEmpty()) << r.err.toStdString();
    const QStringList lines = r.out.trimmed().split(u'\n');
    ASSERT_EQ(lines.size(), 2) << r.out.toStdString();
    QJsonObject first = QJsonDocument::fromJson(lines[0].toUtf8()).object();
    QJsonObject second = QJsonDocument::fromJson(lines[1].toUtf8()).object();
    if (first.value("cart_id") != "cart-pending") {
        std::swap(first, second);
    }
    EXPECT_EQ(first.value("state").toString(), QStringLiteral("pending"));
    EXPECT_EQ(first.value("key").toString(), QStringLiteral("key-pending"));
    EXPECT_EQ(first.value("server").toString(), QStringLiteral("http://127.0.0.1:9"));
    EXPECT_EQ(first.value("attempts").toInt(), 0);
    EXPECT_FALSE(first.contains("path")) << "/orders is not named";
    EXPECT_FALSE(first.contains("order_id"));
    EXPECT_FALSE(first.contains("http_status"));

    EXPECT_EQ(second.value("state").toString(), QStringLiteral("rejected"));
    EXPECT_EQ(second.value("path").toString(), QStringLiteral("/checkout"));
    EXPECT_EQ(second.value("server").toString(), QStringLiteral("https://shop.example"));
    EXPECT_EQ(second.value("http_status").toInt(), 402);
    EXPECT_EQ(second.value("problem_type").toString(), QStringLiteral("/problems/payment-declined"));
    EXPECT_EQ(second.value("detail").toString(), QStringLiteral("card declined"));
    EXPECT_FALSE(second.contains("order_id")) << "a rejection without an order names none";
}

// CliProgress with the time as numbers: what a person at the terminal hears while the CLI waits (issue 29).
namespace {

const QUrl kDownServer(QStringLiteral("http://127.0.0.1:19001"));

Submission pendingSubmission()
{
    Submission s;
    s.id = 7;
    s.cartId = QStringLiteral("c-7");
    s.target = kDownServer;
    s.deadlineMs = 100'000;
    return s;
}

Attempt refusedAttempt(int number, qint64 startedMs, qint64 delayAfterMs)
{
    Attempt a;
    a.number = number;
    a.startedMs = startedMs;
    a.endedMs = startedMs + 1;
    a.outcome = AttemptOutcome::NotSent;
    // libcurl 7.88's words for ECONNREFUSED, as HttpExchange passes them on.
    a.error = QStringLiteral("Failed to connect to 127.0.0.1 port 19001 after 0 ms: Couldn't connect to server");
    a.delayAfterMs = delayAfterMs;
    return a;
}

} // namespace

TEST(CliProgressTest, ADownServerIsSaidOnceAWaitPassesASecondAndAgainOnlyWhenItChangesOrAfterTenSeconds)
{
    CliProgress progress(10'000);
    Submission s = pendingSubmission();
    progress.update(s, 0);
    s.attempts.append(refusedAttempt(1, 10, 300));
    progress.update(s, 11);
    EXPECT_TRUE(progress.tick(500).isEmpty()) << "a wait under a second is not worth a line";
    EXPECT_TRUE(progress.tick(999).isEmpty());

    const QStringList first = progress.tick(1000);
    ASSERT_EQ(first.size(), 1);
    EXPECT_TRUE(first.first().contains(QStringLiteral("connection refused"))) << first.first().toStdString();
    EXPECT_TRUE(first.first().contains(QStringLiteral("http://127.0.0.1:19001"))) << first.first().toStdString();
    EXPECT_TRUE(first.first().contains(QStringLiteral("attempt 1 failed"))) << first.first().toStdString();
    EXPECT_FALSE(first.first().contains(QStringLiteral("Couldn't connect"))) << "libcurl's words stay out";

    // More refusals of the same kind: nothing new to say until ten seconds later.
    for (int n = 2; n < 20; ++n) {
        s.attempts.append(refusedAttempt(n, 1000 + n * 100, 50));
        progress.update(s, 1001 + n * 100);
        EXPECT_TRUE(progress.tick(1002 + n * 100).isEmpty()) << n;
    }
    const QStringList repeated = progress.tick(11'000);
    ASSERT_EQ(repeated.size(), 1);
    EXPECT_TRUE(repeated.first().contains(QStringLiteral("attempt 19 failed"))) << repeated.first().toStdString();
}

TEST(CliProgressTest, AnAttemptUnansweredForASecondSaysWhatItWaitsFor)
{
    QLocale::setDefault(QLocale::c()); // "1.1 s" whatever the machine's language (the CLI's --lang sets it)
    CliProgress progress(1500);
    Submission s = pendingSubmission();
    Attempt a;
    a.number = 1;
    a.startedMs = 0;
    s.attempts.append(a);
    progress.update(s, 0);
    EXPECT_TRUE(progress.tick(900).isEmpty());
    const QStringList lines = progress.tick(1100);
    ASSERT_EQ(lines.size(), 1);
    EXPECT_EQ(lines.first(),
              QStringLiteral("waiting for http://127.0.0.1:19001 to answer attempt 1 (sent 1.1 s ago; "
                             "1.5 s without a byte, or 60.0 s in all, ends the attempt)"));
}

TEST(CliProgressTest, WhatAWaitSaysIsTrueAtEveryMoment)
{
    // Issue 37: with a 10 s window and 3 s without a byte, a trickling answer is cut when the window ends, not after
    // 60 s; and while the order a 422 named is read back, the line says that, not "waiting for attempt 1".
    QLocale::setDefault(QLocale::c());
    CliProgress progress(3000, 60'000);
    Submission s = pendingSubmission();
    s.deadlineMs = 10'000;
    Attempt a;
    a.number = 1;
    a.startedMs = 0;
    s.attempts.append(a);
    progress.update(s, 0);
    const QStringList inFlight = progress.tick(5000);
    ASSERT_EQ(inFlight.size(), 1);
    EXPECT_TRUE(inFlight.first().contains(QStringLiteral("3.0 s without a byte, or 10.0 s in all")))
        << inFlight.first().toStdString();

    s.attempts.last().outcome = AttemptOutcome::AlreadyPlaced;
    s.attempts.last().endedMs = 5100;
    s.attempts.last().httpStatus = 422;
    progress.update(s, 5100);
    const QStringList readBack = progress.tick(6200);
    ASSERT_EQ(readBack.size(), 1);
    EXPECT_TRUE(readBack.first().contains(QStringLiteral("asking http://127.0.0.1:19001 for the order it named")))
        << readBack.first().toStdString();
}

TEST(CliProgressTest, TheBundledServerStartingIsAWaitToo)
{
    CliProgress progress(10'000);
    progress.serverStarting(0);
    EXPECT_TRUE(progress.tick(999).isEmpty());
    const QStringList lines = progress.tick(1200);
    ASSERT_EQ(lines.size(), 1);
    EXPECT_TRUE(lines.first().contains(QStringLiteral("bundled onceorder-server"))) << lines.first().toStdString();
    EXPECT_TRUE(progress.tick(5000).isEmpty()) << "said once";
}

TEST(CliProgressTest, GivingUpNamesTheCauseOfTheLastFailure)
{
    CliProgress progress(10'000);
    Submission s = pendingSubmission();
    progress.update(s, 0);
    s.attempts.append(refusedAttempt(1, 0, 100));
    s.attempts.append(refusedAttempt(2, 101, -1));
    s.state = SubmissionState::GaveUp;
    s.problemDetail = QStringLiteral("retry window of 4 s is over");
    const auto line = progress.settled(s, 3500);
    ASSERT_TRUE(line);
    EXPECT_TRUE(line->contains(QStringLiteral("connection refused"))) << line->toStdString();
    EXPECT_TRUE(line->contains(QStringLiteral("gave-up"))) << line->toStdString();
    EXPECT_TRUE(line->contains(QStringLiteral("retry window of 4 s is over"))) << line->toStdString();
    EXPECT_TRUE(progress.tick(20'000).isEmpty()) << "settled: nothing more about it";

    s.state = SubmissionState::Placed;
    EXPECT_FALSE(progress.settled(s, 3600)) << "a placed order needs no cause";
}

TEST(CliProgressTest, EachKindOfNetworkFailureHasItsSentence)
{
    Attempt a;
    a.outcome = AttemptOutcome::MaybeSent;
    a.error = QStringLiteral("no data for 1500 ms (transfer timeout)");
    EXPECT_TRUE(CliProgress::cause(a, kDownServer).startsWith(QStringLiteral("no answer from")));
    a.error = QStringLiteral("Empty reply from server");
    EXPECT_TRUE(CliProgress::cause(a, kDownServer).contains(QStringLiteral("closed without an answer")));
    a.outcome = AttemptOutcome::NotSent;
    a.error = QStringLiteral("Could not resolve host: shop.invalid");
    EXPECT_EQ(CliProgress::cause(a, QUrl(QStringLiteral("http://shop.invalid"))),
              QStringLiteral("host not found: shop.invalid does not resolve"));
    a.outcome = AttemptOutcome::RetryLater;
    a.httpStatus = 503;
    a.error = QStringLiteral("Service unavailable");
    EXPECT_EQ(CliProgress::cause(a, kDownServer), QStringLiteral("HTTP 503: Service unavailable"));
}
