// `onceorder --scenario all` end to end, as a teacher or CI would run it: the real GUI binary (headless), the
// bundled server, the conditioner and the CLI. Every scenario must pass and print its table.
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace {

struct ProcessRun
{
    bool finished = false;
    int exitCode = -1;
    QString out;
    QString err;
};

ProcessRun runOnceorder(const QStringList& args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.remove(QStringLiteral("ONCEORDER_CRASH_AT"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(ONCEORDER_GUI_BIN), args);
    ProcessRun run;
    run.finished = process.waitForFinished(120'000);
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

const QStringList kScenarios {
    QStringLiteral("the-article-table"),
    QStringLiteral("double-click"),
    QStringLiteral("lost-response"),
    QStringLiteral("client-crash"),
    QStringLiteral("server-crash"),
    QStringLiteral("transient-error"),
    QStringLiteral("unscoped-keys"),
    QStringLiteral("check-then-insert"),
    QStringLiteral("new-key-per-retry"),
    QStringLiteral("short-ttl"),
    QStringLiteral("retry-after-and-offline"),
    QStringLiteral("thundering-herd"),
    QStringLiteral("payment-gateway"),
    QStringLiteral("webhooks"),
    QStringLiteral("webhook-redelivered"),
    QStringLiteral("declined-cart"),
};

} // namespace

TEST(ScenarioTest, AllScenariosPassHeadlessAndPrintTheirTables)
{
    QTemporaryDir exportDir;
    ASSERT_TRUE(exportDir.isValid());
    const ProcessRun run = runOnceorder(
        {QStringLiteral("--scenario"), QStringLiteral("all"), QStringLiteral("--export-dir"), exportDir.path()});
    ASSERT_TRUE(run.finished) << run.out.toStdString();
    EXPECT_EQ(run.exitCode, 0) << run.out.toStdString() << run.err.toStdString();
    for (const QString& id : kScenarios) {
        EXPECT_TRUE(run.out.contains(QStringLiteral("(`%1`)").arg(id))) << id.toStdString() << " has no table";
        EXPECT_TRUE(QFileInfo::exists(QDir(exportDir.path()).filePath(id + QStringLiteral(".md")))) << id.toStdString();
        EXPECT_TRUE(QFileInfo::exists(QDir(exportDir.path()).filePath(id + QStringLiteral(".csv"))))
            << id.toStdString();
    }
    EXPECT_FALSE(run.out.contains(QStringLiteral("| FAIL |"))) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("Summary: %1/%1 scenarios passed").arg(kScenarios.size())))
        << run.out.toStdString();
}

TEST(ScenarioTest, ListNamesEveryScenario)
{
    const ProcessRun run = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("list")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 0);
    for (const QString& id : kScenarios) {
        EXPECT_TRUE(run.out.contains(id)) << id.toStdString();
    }
}

TEST(ScenarioTest, AnUnknownNameIsAUsageErrorThatListsTheNames)
{
    const ProcessRun run = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("no-such-thing")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 64);
    EXPECT_TRUE(run.err.contains(QStringLiteral("no-such-thing")));
    EXPECT_TRUE(run.err.contains(QStringLiteral("the-article-table")));
}
