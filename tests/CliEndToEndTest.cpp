// onceorder-cli against the real server process.
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
    const CliRun unknown = runCli({"submit", "--product", "auto", "--server", url});
    EXPECT_EQ(unknown.exitCode, 1);
    EXPECT_EQ(unknown.line.value("state").toString(), QStringLiteral("rejected"));
    EXPECT_EQ(runCli({"submit", "--server", url}).exitCode, 64) << "no product";
    EXPECT_EQ(runCli({"submit", "--product", "kniha", "--server", "not a url"}).exitCode, 64);
    EXPECT_EQ(runCli({"frobnicate"}).exitCode, 64);
}
