// onceorder-cli killed at each crash point, then resumed: exactly one order per cart on the real server, none
// lost, the stored key reused. Also the server killed and restarted while submissions are pending.
#include "support/ServerProcess.h"
#include "support/SqliteReads.h"
#include "support/TcpRelay.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <gtest/gtest.h>

using namespace onceorder::test;

namespace {

constexpr int kRunsPerPoint = 10;

struct CliResult
{
    int exitCode = -1;
    bool crashed = false;
    QList<QJsonObject> lines;
    QString stderrText;
};

QStringList fastRetries()
{
    return {"--base-delay-ms", "20", "--max-delay-ms", "200", "--timeout-ms", "5000"};
}

CliResult runCli(const QStringList& args, const QString& crashAt = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("ONCEORDER_CRASH_AT"));
    if (!crashAt.isEmpty()) {
        env.insert(QStringLiteral("ONCEORDER_CRASH_AT"), crashAt);
    }
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(ONCEORDER_CLI_BIN), args + fastRetries());
    EXPECT_TRUE(process.waitForFinished(60'000)) << args.join(' ').toStdString();
    CliResult result;
    result.crashed = process.exitStatus() == QProcess::CrashExit;
    result.exitCode = process.exitCode();
    for (const QByteArray& line : process.readAllStandardOutput().split('\n')) {
        if (!line.trimmed().isEmpty()) {
            result.lines.append(QJsonDocument::fromJson(line).object());
        }
    }
    result.stderrText = QString::fromUtf8(process.readAllStandardError());
    return result;
}

class CrashMatrixTest : public ::testing::TestWithParam<const char*>
{
protected:
    TempDir dir;
    std::string dbPath = dir.file("server.db");
    QString state = QString::fromStdString(dir.file("client"));

    long long ordersFor(const QString& cartId) const
    {
        SQLite::Database db(dbPath, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        SQLite::Statement query(db, "SELECT count(*) FROM orders WHERE cart_id = ?");
        query.bind(1, cartId.toStdString());
        query.executeStep();
        return query.getColumn(0).getInt64();
    }
    // The Idempotency-Key under which the server stored the order of this cart.
    QString serverKeyFor(const QString& cartId) const
    {
        SQLite::Database db(dbPath, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        SQLite::Statement query(db, "SELECT idem_key FROM orders WHERE cart_id = ?");
        query.bind(1, cartId.toStdString());
        return query.executeStep() ? QString::fromStdString(query.getColumn(0).getString()) : QString();
    }
    // The Idempotency-Key the client's outbox stored for this cart.
    QString outboxKeyFor(const QString& cartId) const
    {
        SQLite::Database db(state.toStdString() + "/client.db", SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        SQLite::Statement query(db, "SELECT idem_key FROM submissions WHERE cart_id = ?");
        query.bind(1, cartId.toStdString());
        return query.executeStep() ? QString::fromStdString(query.getColumn(0).getString()) : QString();
    }
    long long scalar(const char* sql) const { return sqliteScalar(dbPath, sql); }
};

} // namespace

TEST_P(CrashMatrixTest, KilledAtThePointThenResumedPlacesExactlyOneOrderWithTheStoredKey)
{
    const QString point = QString::fromLatin1(GetParam());
    ServerProcess server({"--db", dbPath});
    const QString url = QString::fromStdString(server.url());
    for (int run = 0; run < kRunsPerPoint; ++run) {
        const QString cartId = QStringLiteral("%1-%2").arg(point).arg(run);
        const CliResult killed =
            runCli({"submit", "--product", "kniha", "--cart-id", cartId, "--server", url, "--state", state}, point);
        ASSERT_TRUE(killed.crashed) << "run " << run << " was not killed at " << point.toStdString() << ": "
                                    << killed.stderrText.toStdString();
        ASSERT_TRUE(killed.lines.isEmpty()) << "nothing is reported by a process that died";
        // The key the outbox holds for this cart now, before anything resumes it: the one that must be reused.
        const QString storedKey = outboxKeyFor(cartId);
        ASSERT_EQ(storedKey.size(), 36) << "the key is written before the crash point";

        const CliResult resumed = runCli({"resume", "--server", url, "--state", state});
        ASSERT_EQ(resumed.exitCode, 0) << resumed.stderrText.toStdString();
        ASSERT_EQ(resumed.lines.size(), 1);
        const QJsonObject outcome = resumed.lines.first();
        EXPECT_EQ(outcome.value("state").toString(), QStringLiteral("placed"));
        EXPECT_EQ(outcome.value("cart_id").toString(), cartId);
        EXPECT_EQ(ordersFor(cartId), 1) << cartId.toStdString();
        EXPECT_EQ(serverKeyFor(cartId), storedKey) << "the key stored before the crash was reused";
        EXPECT_EQ(outcome.value("key").toString(), storedKey);
        if (point == u"after-response") {
            EXPECT_TRUE(outcome.value("replayed").toBool()) << "the order was made before the crash: a replay";
        }
        if (point == u"after-persist") {
            EXPECT_FALSE(outcome.value("replayed").toBool()) << "nothing had been sent before the crash";
        }
    }
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), kRunsPerPoint);
    EXPECT_EQ(scalar("SELECT stock FROM products WHERE id = 'kniha'"), 100 - kRunsPerPoint);
    const CliResult nothing = runCli({"resume", "--server", url, "--state", state});
    EXPECT_EQ(nothing.exitCode, 0);
    EXPECT_TRUE(nothing.lines.isEmpty()) << "nothing is left pending";
}

INSTANTIATE_TEST_SUITE_P(EveryCrashPoint, CrashMatrixTest,
                         ::testing::Values("after-persist", "after-send", "after-response"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                             std::string name = param.param;
                             name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
                             return name;
                         });

TEST(CrashMatrixServerTest, ServerKilledAndRestartedWhileSubmissionsArePending)
{
    TempDir dir;
    const std::string dbPath = dir.file("server.db");
    const QString state = QString::fromStdString(dir.file("client"));
    auto server = std::make_unique<ServerProcess>(std::vector<std::string> {"--db", dbPath});
    // The client talks to a relay whose port stays ours: the restarted server may get any free port (its old one
    // can be taken by a parallel test's server in between).
    TcpRelay relay(server->port());
    const QString url = QString::fromStdString(relay.url());
    for (int i = 0; i < 5; ++i) {
        ASSERT_TRUE(runCli({"submit", "--product", "hrnek", "--cart-id", QStringLiteral("pending-%1").arg(i),
                            "--server", url, "--state", state},
                           QStringLiteral("after-persist"))
                        .crashed);
    }
    server->kill();
    relay.setBackend(0);

    // Resume while the server is down: attempts fail and are retried with backoff until it is back.
    QProcess resume;
    resume.start(QStringLiteral(ONCEORDER_CLI_BIN),
                 QStringList {"resume", "--server", url, "--state", state} + fastRetries());
    ASSERT_TRUE(resume.waitForStarted());
    // Bring the server back once the client has demonstrably failed: a failed attempt recorded in its outbox (a
    // condition polled with a deadline, not a fixed sleep). The relay resets the connection, so the attempt is
    // "maybe sent" rather than refused.
    const std::string clientDb = (dir.path() / "client" / "client.db").string();
    auto failedAttempts = [&] {
        SQLite::Database db(clientDb, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
        return db.execAndGet("SELECT count(*) FROM attempts WHERE outcome IN ('not-sent', 'maybe-sent')").getInt();
    };
    QDeadlineTimer deadline(30'000);
    while (failedAttempts() == 0 && !deadline.hasExpired()) {
        resume.waitForFinished(20); // the event-free way to let 20 ms pass while watching the process
    }
    ASSERT_GT(failedAttempts(), 0) << "the client never tried while the server was down";
    server = std::make_unique<ServerProcess>(std::vector<std::string> {"--db", dbPath});
    relay.setBackend(server->port());
    ASSERT_TRUE(resume.waitForFinished(60'000));
    EXPECT_EQ(resume.exitCode(), 0) << resume.readAllStandardError().toStdString();
    EXPECT_EQ(resume.readAllStandardOutput().count("\"state\":\"placed\""), 5);

    SQLite::Database db(dbPath, SQLite::OPEN_READONLY, kReadBusyTimeoutMs);
    EXPECT_EQ(db.execAndGet("SELECT count(*) FROM orders").getInt(), 5);
    EXPECT_EQ(db.execAndGet("SELECT count(DISTINCT cart_id) FROM orders").getInt(), 5);
}
