// onceorder-cli against the real server process.
#include "support/Http.h"
#include "support/ServerProcess.h"

#include "submission/Cart.h"
#include "submission/Outbox.h"

#include <SQLiteCpp/Database.h>

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTcpServer>
#include <gtest/gtest.h>

#include <csignal>
#include <sys/resource.h>

using namespace onceorder::test;

namespace {

struct CliRun
{
    int exitCode = -1;
    bool crashed = false;
    QJsonObject line; // the last one
    QList<QJsonObject> lines;
    QString stderrText;
};

// Every run gets a HOME of its own, so a run without --state never touches the developer's app-data folder.
QProcessEnvironment testEnvironment(const QMap<QString, QString>& extra = {})
{
    static TempDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("ONCEORDER_CRASH_AT"));
    env.remove(QStringLiteral("ONCEORDER_TEST_CLOCK_OFFSET_MS"));
    env.insert(QStringLiteral("HOME"), QString::fromStdString(home.path().string()));
    env.insert(QStringLiteral("XDG_DATA_HOME"), QString::fromStdString(home.file("data")));
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        env.insert(it.key(), it.value());
    }
    return env;
}

CliRun runCli(const QStringList& args, const QMap<QString, QString>& env = {})
{
    QProcess process;
    process.setProcessEnvironment(testEnvironment(env));
    process.start(QStringLiteral(ONCEORDER_CLI_BIN), args);
    EXPECT_TRUE(process.waitForFinished(60'000));
    CliRun run;
    run.exitCode = process.exitCode();
    run.crashed = process.exitStatus() == QProcess::CrashExit;
    const QList<QByteArray> lines = process.readAllStandardOutput().trimmed().split('\n');
    run.line = QJsonDocument::fromJson(lines.last()).object();
    for (const QByteArray& line : lines) {
        if (!line.trimmed().isEmpty()) {
            run.lines.append(QJsonDocument::fromJson(line).object());
        }
    }
    run.stderrText = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace

TEST(CliEndToEndTest, SubmitPlacesAnOrderAndPrintsOneJsonLine)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const CliRun run =
        runCli({"submit", "--product", "kniha", "--quantity", "2", "--server", QString::fromStdString(server.url()),
                "--state", QString::fromStdString(dir.file("client"))});
    EXPECT_EQ(run.exitCode, 0) << run.stderrText.toStdString();
    EXPECT_EQ(run.line.value("state").toString(), QStringLiteral("placed"));
    EXPECT_GT(run.line.value("order_id").toInteger(), 0);
    EXPECT_EQ(run.line.value("key").toString().size(), 36);
}

TEST(CliEndToEndTest, RejectionAndUsageErrorsHaveTheirExitCodes)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const QString url = QString::fromStdString(server.url());
    // Always an explicit state folder: never the developer's own client database.
    const QString state = QString::fromStdString(dir.file("client"));
    const CliRun unknown = runCli({"submit", "--product", "auto", "--server", url, "--state", state});
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_EQ(unknown.line.value("state").toString(), QStringLiteral("rejected"));
    EXPECT_EQ(runCli({"submit", "--server", url, "--state", state}).exitCode, 64) << "no product";
    EXPECT_EQ(runCli({"submit", "--product", "kniha", "--server", "not a url", "--state", state}).exitCode, 64);
    EXPECT_EQ(runCli({"frobnicate", "--state", state}).exitCode, 64);
}

TEST(CliEndToEndTest, PayGoesThroughCheckoutAndADeclineIsRejectedWithTheCancelledOrder)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db"), "--debug-endpoints"});
    const QStringList common {"--server", QString::fromStdString(server.url()), "--state",
                              QString::fromStdString(dir.file("client"))};
    const CliRun paid = runCli(QStringList {"submit", "--product", "kniha", "--pay", "card"} + common);
    EXPECT_EQ(paid.exitCode, 0) << paid.stderrText.toStdString();
    EXPECT_EQ(paid.line.value("state").toString(), QStringLiteral("placed"));
    EXPECT_EQ(paid.line.value("path").toString(), QStringLiteral("/checkout"));
    EXPECT_EQ(paid.line.value("http_status").toInt(), 201);

    ASSERT_EQ(postJson(*server.client(), "/_debug/faults", R"({"fault":"gateway-decline"})").status, 200);
    const CliRun declined = runCli(QStringList {"submit", "--product", "hrnek", "--pay", "card"} + common);
    EXPECT_EQ(declined.exitCode, 1);
    EXPECT_EQ(declined.line.value("state").toString(), QStringLiteral("rejected"));
    EXPECT_EQ(declined.line.value("http_status").toInt(), 402);
    EXPECT_GT(declined.line.value("order_id").toInteger(), paid.line.value("order_id").toInteger());

    EXPECT_EQ(runCli(QStringList {"submit", "--product", "kniha", "--pay", ""} + common).exitCode, 64);
}

namespace {

QStringList fast()
{
    return {"--base-delay-ms", "20", "--max-delay-ms", "200", "--timeout-ms", "5000"};
}

long long ordersOf(const std::string& dbPath, const QString& cartId = {})
{
    SQLite::Database db(dbPath, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
    if (cartId.isEmpty()) {
        return db.execAndGet("SELECT count(*) FROM orders").getInt64();
    }
    SQLite::Statement query(db, "SELECT count(*) FROM orders WHERE cart_id = ?");
    query.bind(1, cartId.toStdString());
    query.executeStep();
    return query.getColumn(0).getInt64();
}

} // namespace

TEST(CliEndToEndTest, AResumeAfterTheWindowReconcilesInsteadOfSendingTheOldKey)
{
    // The reported run: --key-ttl 2, killed after the server placed the order, resumed 3 s later with the
    // business key off and a 1 s window. The resume runs with its clock 3 s ahead instead of sleeping.
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db"), "--debug-endpoints", "--key-ttl", "2"});
    ASSERT_EQ(postJson(*server.client(), "/_debug/mode", R"({"business_key_off":true})").status, 200);
    const QStringList common = QStringList {"--server",       QString::fromStdString(server.url()),
                                            "--state",        QString::fromStdString(dir.file("client")),
                                            "--retry-window", "1"} +
        fast();
    const CliRun killed = runCli(QStringList {"submit", "--product", "kniha", "--cart-id", "c-late"} + common,
                                 {{"ONCEORDER_CRASH_AT", "after-response"}});
    ASSERT_TRUE(killed.crashed || killed.exitCode == 137);
    ASSERT_EQ(ordersOf(dir.file("server.db"), "c-late"), 1);

    const CliRun resumed = runCli(QStringList {"resume"} + common, {{"ONCEORDER_TEST_CLOCK_OFFSET_MS", "3000"}});
    EXPECT_EQ(resumed.exitCode, 0) << resumed.stderrText.toStdString();
    EXPECT_EQ(resumed.line.value("state").toString(), QStringLiteral("placed"));
    EXPECT_EQ(resumed.line.value("attempts").toInt(), 1) << "the old key was not sent again";
    EXPECT_TRUE(resumed.line.value("detail").toString().contains(QStringLiteral("reconciled")));
    EXPECT_EQ(ordersOf(dir.file("server.db"), "c-late"), 1);
}

TEST(CliEndToEndTest, SubmittingAPlacedCartAgainSendsNothingAndAnswersWithItsOrder)
{
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db"), "--debug-endpoints"});
    // A server that is not ours: no UNIQUE(cart_id), so every key that reaches POST /orders is one more order. A
    // script that reruns its submit after losing the output must not order the cart twice.
    ASSERT_EQ(postJson(*server.client(), "/_debug/mode", R"({"business_key_off":true})").status, 200);
    const QStringList common = QStringList {"--server", QString::fromStdString(server.url()), "--state",
                                            QString::fromStdString(dir.file("client"))} +
        fast();
    const CliRun first = runCli(QStringList {"submit", "--product", "kniha", "--cart-id", "c1"} + common);
    ASSERT_EQ(first.exitCode, 0) << first.stderrText.toStdString();
    const CliRun again = runCli(QStringList {"submit", "--product", "kniha", "--cart-id", "c1"} + common);
    EXPECT_EQ(again.exitCode, 0) << again.stderrText.toStdString();
    EXPECT_EQ(again.line.value("state").toString(), QStringLiteral("placed"));
    EXPECT_EQ(again.line.value("order_id").toInteger(), first.line.value("order_id").toInteger());
    EXPECT_EQ(again.line.value("key").toString(), first.line.value("key").toString()) << "the placed submission";
    EXPECT_TRUE(again.line.value("already_placed").toBool());
    EXPECT_TRUE(again.stderrText.contains(QStringLiteral("already placed"))) << again.stderrText.toStdString();
    EXPECT_EQ(ordersOf(dir.file("server.db"), "c1"), 1) << "no POST for a placed cart";

    // Other lines under the placed cart id: nothing sent either (a cart id names one intended order).
    const CliRun otherLines = runCli(QStringList {"submit", "--product", "hrnek", "--cart-id", "c1"} + common);
    EXPECT_EQ(otherLines.exitCode, 4) << otherLines.stderrText.toStdString();
    EXPECT_EQ(otherLines.line.value("reason").toString(), QStringLiteral("already-placed"));
    EXPECT_EQ(ordersOf(dir.file("server.db")), 1);

    // The same lines again, on purpose: a new cart id, a new order.
    const CliRun anew =
        runCli(QStringList {"submit", "--product", "kniha", "--cart-id", "c1", "--new-cart-id"} + common);
    EXPECT_EQ(anew.exitCode, 0) << anew.stderrText.toStdString();
    EXPECT_EQ(anew.line.value("state").toString(), QStringLiteral("placed"));
    EXPECT_NE(anew.line.value("cart_id").toString(), QStringLiteral("c1"));
    EXPECT_NE(anew.line.value("order_id").toInteger(), first.line.value("order_id").toInteger());
    EXPECT_EQ(ordersOf(dir.file("server.db")), 2);
    EXPECT_EQ(ordersOf(dir.file("server.db"), "c1"), 1);
}

TEST(CliEndToEndTest, ACartPendingForAnotherServerIsRefusedWithItsOwnExitCode)
{
    TempDir dir;
    ServerProcess one({"--db", dir.file("one.db")});
    ServerProcess two({"--db", dir.file("two.db")});
    const QString state = QString::fromStdString(dir.file("client"));
    const QStringList toOne {"--server", QString::fromStdString(one.url()), "--state", state};
    const QStringList toTwo {"--server", QString::fromStdString(two.url()), "--state", state};
    const CliRun killed = runCli(QStringList {"submit", "--product", "kniha", "--cart-id", "c9"} + toOne + fast(),
                                 {{"ONCEORDER_CRASH_AT", "after-persist"}});
    ASSERT_TRUE(killed.crashed || killed.exitCode == 137);

    const CliRun elsewhere = runCli(QStringList {"submit", "--product", "kniha", "--cart-id", "c9"} + toTwo + fast());
    EXPECT_EQ(elsewhere.exitCode, 4) << elsewhere.stderrText.toStdString();
    EXPECT_EQ(elsewhere.line.value("state").toString(), QStringLiteral("refused"));
    EXPECT_EQ(elsewhere.line.value("reason").toString(), QStringLiteral("other-server"));
    const CliRun otherLines = runCli(QStringList {"submit", "--product", "hrnek", "--cart-id", "c9"} + toOne + fast());
    EXPECT_EQ(otherLines.exitCode, 4);
    EXPECT_EQ(otherLines.line.value("reason").toString(), QStringLiteral("other-lines"));
    const CliRun resumeTwo = runCli(QStringList {"resume"} + toTwo + fast());
    EXPECT_EQ(resumeTwo.exitCode, 0);
    EXPECT_TRUE(resumeTwo.stderrText.contains(QStringLiteral("another server")));
    EXPECT_EQ(ordersOf(dir.file("two.db")), 0) << "never sent to the other server";
    const CliRun resumeOne = runCli(QStringList {"resume"} + toOne + fast());
    EXPECT_EQ(resumeOne.exitCode, 0);
    EXPECT_EQ(ordersOf(dir.file("one.db"), "c9"), 1);
}

TEST(CliEndToEndTest, TwoResumesOnOneOutboxFinishEveryCartOnceAndBothReportIt)
{
    // The reported run: 60 pending carts, two `resume` at once on the same state folder: aborts on a UNIQUE
    // constraint, a run waiting forever for what the other settled, placed rows turned back into pending.
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const QString url = QString::fromStdString(server.url());
    const QString state = QString::fromStdString(dir.file("client"));
    constexpr int kCarts = 60;
    {
        onceorder::core::Outbox outbox(state);
        for (int i = 0; i < kCarts; ++i) {
            onceorder::core::Cart cart(QStringLiteral("multi-%1").arg(i));
            cart.add(QStringLiteral("propiska"), 1);
            onceorder::core::Submission s;
            s.key = QStringLiteral("key-multi-%1").arg(i);
            s.cartId = cart.cartId();
            s.body = cart.toRequestBody();
            s.target = QUrl(url);
            s.createdMs = QDateTime::currentMSecsSinceEpoch();
            s.deadlineMs = s.createdMs + 600'000;
            outbox.create(s, QStringLiteral("demo-key-A"));
        }
    }
    const QStringList args = QStringList {"resume", "--server", url, "--state", state} + fast();
    QProcess a;
    QProcess b;
    for (QProcess* process : {&a, &b}) {
        process->setProcessEnvironment(testEnvironment());
        process->start(QStringLiteral(ONCEORDER_CLI_BIN), args);
    }
    // Each run reports every cart it found pending when it started, also those the other one then placed. A run
    // that starts late (a loaded machine) finds fewer pending; between them they report every cart.
    QSet<QString> reportedByEither;
    for (QProcess* process : {&a, &b}) {
        ASSERT_TRUE(process->waitForFinished(90'000)) << "a resume hung";
        EXPECT_EQ(process->exitStatus(), QProcess::NormalExit);
        EXPECT_EQ(process->exitCode(), 0) << process->readAllStandardError().toStdString();
        for (const QByteArray& line : process->readAllStandardOutput().split('\n')) {
            const QJsonObject json = QJsonDocument::fromJson(line).object();
            if (!json.isEmpty()) {
                EXPECT_EQ(json.value("state").toString(), QStringLiteral("placed"));
                reportedByEither.insert(json.value("cart_id").toString());
            }
        }
    }
    EXPECT_EQ(reportedByEither.size(), kCarts);
    EXPECT_EQ(ordersOf(dir.file("server.db")), kCarts);
    onceorder::core::Outbox outbox(state);
    for (const auto& s : outbox.all()) {
        EXPECT_EQ(s.state, onceorder::core::SubmissionState::Placed) << s.cartId.toStdString();
        EXPECT_EQ(ordersOf(dir.file("server.db"), s.cartId), 1);
    }
}

namespace {

// `onceorder-cli ARGS` whose writes stop at `fileSizeLimit` bytes per file (0: none): RLIMIT_FSIZE in the child,
// with SIGXFSZ ignored, so a write past it fails (EFBIG) the way a full disk does (ENOSPC) instead of killing the
// process. A run still going after 20 s is killed and reported as hung.
CliRun runCliLimited(const QStringList& args, rlim_t fileSizeLimit, bool* hung)
{
    QProcess process;
    process.setProcessEnvironment(testEnvironment());
    process.setChildProcessModifier([fileSizeLimit] {
        if (fileSizeLimit > 0) {
            std::signal(SIGXFSZ, SIG_IGN);
            const rlimit limit {fileSizeLimit, fileSizeLimit};
            setrlimit(RLIMIT_FSIZE, &limit);
        }
    });
    process.start(QStringLiteral(ONCEORDER_CLI_BIN), args);
    *hung = !process.waitForFinished(20'000);
    if (*hung) {
        process.kill();
        process.waitForFinished(5'000);
    }
    CliRun run;
    run.exitCode = *hung ? -1 : process.exitCode();
    run.crashed = process.exitStatus() == QProcess::CrashExit;
    for (const QByteArray& line : process.readAllStandardOutput().trimmed().split('\n')) {
        if (!line.trimmed().isEmpty()) {
            run.lines.append(QJsonDocument::fromJson(line).object());
        }
    }
    run.line = run.lines.isEmpty() ? QJsonObject {} : run.lines.last();
    run.stderrText = QString::fromUtf8(process.readAllStandardError());
    return run;
}

} // namespace

TEST(CliEndToEndTest, ACorruptAttemptsTableIsAClearErrorAndAnExitNotALoop)
{
    // The reported run: `submit` on an outbox whose attempts table was damaged printed "(trying again)" forever.
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const QString state = QString::fromStdString(dir.file("client"));
    {
        onceorder::core::Outbox create(state);
    }
    {
        SQLite::Database raw(dir.file("client/client.db"), SQLite::OPEN_READWRITE);
        raw.exec("DROP TABLE attempts");
        raw.exec("CREATE TABLE attempts (submission_id INTEGER NOT NULL, scribble TEXT)");
    }
    bool hung = false;
    const CliRun run = runCliLimited({"submit", "--product", "kniha", "--cart-id", "c-corrupt", "--server",
                                      QString::fromStdString(server.url()), "--state", state},
                                     0, &hung);
    ASSERT_FALSE(hung) << "still trying after 20 s: " << run.stderrText.left(400).toStdString();
    EXPECT_EQ(run.exitCode, 3) << run.stderrText.toStdString();
    EXPECT_FALSE(run.stderrText.contains(QStringLiteral("trying again"))) << run.stderrText.toStdString();
    EXPECT_TRUE(run.stderrText.contains(QStringLiteral("state database"))) << run.stderrText.toStdString();
    EXPECT_EQ(ordersOf(dir.file("server.db")), 0) << "nothing is sent from an outbox that cannot record it";
}

TEST(CliEndToEndTest, AFailingDiskStopsSendingAndGivingUpWithAClearMessageAndResumeFinishesIt)
{
    // The outbox's files may not grow past 32 KiB: the submission is stored, and a later write (the attempt, or
    // the 201 when it arrives) fails. Then nothing more is sent and nothing is given up; the CLI says why and
    // exits 3. Once the disk is writable again, `resume` finishes the cart with its stored key: one order.
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const QString url = QString::fromStdString(server.url());
    const QString state = QString::fromStdString(dir.file("client"));
    {
        onceorder::core::Outbox create(state);
    }
    bool hung = false;
    const CliRun full =
        runCliLimited({"submit", "--product", "kniha", "--cart-id", "c-full-disk", "--server", url, "--state", state},
                      32 * 1024, &hung);
    ASSERT_FALSE(hung) << "still trying after 20 s: " << full.stderrText.left(400).toStdString();
    EXPECT_FALSE(full.crashed);
    EXPECT_EQ(full.exitCode, 3) << full.stderrText.toStdString();
    EXPECT_FALSE(full.stderrText.contains(QStringLiteral("trying again"))) << full.stderrText.toStdString();
    EXPECT_TRUE(full.stderrText.contains(QStringLiteral("resume"))) << full.stderrText.toStdString();
    EXPECT_LE(ordersOf(dir.file("server.db"), "c-full-disk"), 1);

    {
        onceorder::core::Outbox outbox(state);
        const auto pending = outbox.pendingForCart(QStringLiteral("c-full-disk"), QStringLiteral("demo-key-A"));
        ASSERT_TRUE(pending) << "given up (or lost) while the disk was failing";
        EXPECT_LE(pending->attempts.size(), 1);
    }
    const CliRun resumed = runCliLimited({"resume", "--server", url, "--state", state}, 0, &hung);
    ASSERT_FALSE(hung);
    EXPECT_EQ(resumed.exitCode, 0) << resumed.stderrText.toStdString();
    EXPECT_EQ(resumed.line.value("state").toString(), QStringLiteral("placed"));
    EXPECT_EQ(ordersOf(dir.file("server.db"), "c-full-disk"), 1);
}

TEST(CliEndToEndTest, ResumeWaitsForTheReadBackOfAGivenUpCartAndReportsItPlacedAfterAll)
{
    // A give-up is committed before its read-back; if the read-back's answer was never recorded (the disk failed in
    // between, the process ended), the cart says "gave up" for an order the server holds. `resume` asks the server
    // again at its start, but used to exit at once with "nothing pending to resume": only the window heard the
    // answer, and the script that ran resume never learned that its order exists.
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    const QString url = QString::fromStdString(server.url());
    const QString state = QString::fromStdString(dir.file("client"));
    onceorder::core::Cart cart(QStringLiteral("c-gave-up"));
    cart.add(QStringLiteral("kniha"), 1);
    // The server placed the order under the submission's key; its answer never reached the client.
    ASSERT_EQ(postOrder(*server.client(), "demo-key-A", "key-gave-up", cart.toRequestBody().toStdString()).status, 201);
    {
        onceorder::core::Outbox outbox(state);
        onceorder::core::Submission s;
        s.key = QStringLiteral("key-gave-up");
        s.cartId = cart.cartId();
        s.body = cart.toRequestBody();
        s.target = QUrl(url);
        s.createdMs = QDateTime::currentMSecsSinceEpoch() - 60'000;
        s.deadlineMs = s.createdMs + 30'000;
        outbox.create(s, QStringLiteral("demo-key-A"));
        onceorder::core::Attempt attempt;
        attempt.number = 1;
        attempt.startedMs = s.createdMs;
        attempt.endedMs = s.createdMs + 5'000;
        attempt.outcome = onceorder::core::AttemptOutcome::MaybeSent;
        attempt.error = QStringLiteral("Operation timed out");
        outbox.recordAttemptStart(s.id, attempt);
        outbox.recordAttemptEnd(s.id, attempt);
        s.attempts = {attempt};
        s.state = onceorder::core::SubmissionState::GaveUp;
        ASSERT_TRUE(outbox.settle(s, onceorder::core::SubmissionState::Pending));
    }

    const CliRun resumed = runCli(QStringList {"resume", "--server", url, "--state", state} + fast());
    EXPECT_EQ(resumed.exitCode, 0) << resumed.stderrText.toStdString();
    EXPECT_TRUE(resumed.stderrText.contains(QStringLiteral("nothing pending to resume"))) << "nothing was sent";
    ASSERT_EQ(resumed.lines.size(), 1) << resumed.stderrText.toStdString();
    EXPECT_EQ(resumed.line.value("cart_id").toString(), QStringLiteral("c-gave-up"));
    EXPECT_EQ(resumed.line.value("state").toString(), QStringLiteral("placed"));
    EXPECT_EQ(resumed.line.value("placed_after").toString(), QStringLiteral("gave-up"));
    EXPECT_EQ(ordersOf(dir.file("server.db"), "c-gave-up"), 1) << "asked, never ordered again";
    onceorder::core::Outbox outbox(state);
    const auto stored = outbox.all();
    ASSERT_EQ(stored.size(), 1);
    EXPECT_EQ(stored.front().state, onceorder::core::SubmissionState::Placed);

    // A second resume has nothing to ask: the row is placed.
    const CliRun again = runCli(QStringList {"resume", "--server", url, "--state", state} + fast());
    EXPECT_EQ(again.exitCode, 0);
    EXPECT_TRUE(again.lines.isEmpty());
}

// Issue 29: against a server that is down the CLI used to print nothing until it gave up, and its give-up did not say
// "connection refused". Now a wait past a second is said on stderr, and the give-up names the cause; in Czech too.
namespace {

// A port on loopback where nothing listens: taken from the kernel, then let go.
QString downServerUrl()
{
    QTcpServer probe;
    EXPECT_TRUE(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close();
    return QStringLiteral("http://127.0.0.1:%1").arg(port);
}

// Short waits, so the retry window (2 s) is what the run waits through: no attempt is ever a second long, the
// whole wait always is (the engine gives up only when the next attempt would start after the window).
QStringList againstADownServer(const QString& url, const TempDir& dir)
{
    return {"submit",
            "--product",
            "kniha",
            "--server",
            url,
            "--state",
            QString::fromStdString(dir.file("client")),
            "--retry-window",
            "2",
            "--base-delay-ms",
            "50",
            "--max-delay-ms",
            "50"};
}

} // namespace

TEST(CliEndToEndTest, ADownServerIsSaidWhileWaitingAndItsRefusalNamedWhenGivingUp)
{
    TempDir dir;
    const QString url = downServerUrl();
    const CliRun run = runCli(againstADownServer(url, dir) + QStringList {"--lang", "en"});
    EXPECT_EQ(run.exitCode, 2) << run.stderrText.toStdString();
    EXPECT_EQ(run.line.value("state").toString(), QStringLiteral("gave-up"));
    const QStringList lines = run.stderrText.split(u'\n', Qt::SkipEmptyParts);
    ASSERT_GE(lines.size(), 2) << "a line while waiting and one when giving up: " << run.stderrText.toStdString();
    EXPECT_TRUE(
        lines.first().startsWith(QStringLiteral("onceorder-cli: waiting for an order from %1: attempt ").arg(url)))
        << run.stderrText.toStdString();
    EXPECT_TRUE(lines.first().contains(QStringLiteral("connection refused"))) << run.stderrText.toStdString();
    EXPECT_TRUE(lines.last().startsWith(QStringLiteral("onceorder-cli: no order (gave-up) after ")))
        << run.stderrText.toStdString();
    EXPECT_TRUE(lines.last().contains(QStringLiteral("connection refused: nothing accepts connections at %1").arg(url)))
        << run.stderrText.toStdString();
    EXPECT_FALSE(run.stderrText.contains(QStringLiteral("Couldn't connect"))) << "libcurl's words stay out";
}

TEST(CliEndToEndTest, ADownServerIsSaidInCzechWithLangCs)
{
    TempDir dir;
    const QString url = downServerUrl();
    const CliRun run = runCli(againstADownServer(url, dir) + QStringList {"--lang", "cs"});
    EXPECT_EQ(run.exitCode, 2) << run.stderrText.toStdString();
    EXPECT_TRUE(run.stderrText.contains(QStringLiteral("čekám na objednávku od %1: pokus ").arg(url)))
        << run.stderrText.toStdString();
    EXPECT_TRUE(run.stderrText.contains(QStringLiteral("spojení odmítnuto: na %1 nic nepřijímá spojení").arg(url)))
        << run.stderrText.toStdString();
    EXPECT_TRUE(run.stderrText.contains(QStringLiteral("žádná objednávka (gave-up) po ")))
        << run.stderrText.toStdString();
    for (const QString& english : {QStringLiteral("waiting"), QStringLiteral("connection refused"),
                                   QStringLiteral("no order"), QStringLiteral("attempt ")}) {
        EXPECT_FALSE(run.stderrText.contains(english))
            << english.toStdString() << " in " << run.stderrText.toStdString();
    }
}

TEST(CliEndToEndTest, AnAttemptTheServerLeavesUnansweredIsSaidAfterASecond)
{
    // Listening but never accepting: the kernel completes the connection, the request goes out, no answer comes. The
    // attempt is in flight for its 1.5 s timeout (the retry window, 3 s, does not cut it short).
    QTcpServer silent;
    ASSERT_TRUE(silent.listen(QHostAddress::LocalHost, 0));
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(silent.serverPort());
    TempDir dir;
    const CliRun run =
        runCli({"submit", "--product", "kniha", "--server", url, "--state", QString::fromStdString(dir.file("client")),
                "--retry-window", "3", "--timeout-ms", "1500", "--lang", "en"});
    EXPECT_EQ(run.exitCode, 2) << run.stderrText.toStdString();
    EXPECT_TRUE(
        run.stderrText.startsWith(QStringLiteral("onceorder-cli: waiting for %1 to answer attempt 1 (sent ").arg(url)))
        << run.stderrText.toStdString();
    EXPECT_TRUE(run.stderrText.contains(QStringLiteral("no answer from %1 within the time allowed").arg(url)))
        << run.stderrText.toStdString();
}
