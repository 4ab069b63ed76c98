// onceorder-cli against the real server process.
#include "support/Http.h"
#include "support/ServerProcess.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <gtest/gtest.h>

using namespace onceorder::test;

namespace {

struct CliRun
{
    int exitCode = -1;
    QJsonObject line;
    QString stderrText;
};

CliRun runCli(const QStringList& args)
{
    QProcess process;
    process.start(QStringLiteral(ONCEORDER_CLI_BIN), args);
    EXPECT_TRUE(process.waitForFinished(60'000));
    CliRun run;
    run.exitCode = process.exitCode();
    run.line = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
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
