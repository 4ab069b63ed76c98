// `onceorder --scenario all` end to end, as a teacher or CI would run it: the real GUI binary (headless), the
// bundled server, the conditioner and the CLI. Every scenario must pass and print its table.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "support/PostgresDatabase.h"

#include <memory>

namespace {

struct ProcessRun
{
    bool finished = false;
    int exitCode = -1;
    QString out;
    QString err;
};

// withTestScenarios: ONCEORDER_TEST_SCENARIOS=1, which adds the test-only "always-fails" scenario.
// withoutPostgres: as on a machine with no PostgreSQL (no ONCEORDER_POSTGRES_URI, no libpq variables).
ProcessRun runOnceorder(const QStringList& args, bool withTestScenarios = false, bool withoutPostgres = false)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.remove(QStringLiteral("ONCEORDER_CRASH_AT"));
    env.remove(QStringLiteral("ONCEORDER_TEST_SCENARIOS"));
    if (withTestScenarios) {
        env.insert(QStringLiteral("ONCEORDER_TEST_SCENARIOS"), QStringLiteral("1"));
    }
    // The PostgreSQL scenarios reset the database they run on: each run gets a fresh one of its own, or two runs
    // side by side (ctest -j) would truncate each other's tables mid-scenario (seen: a 500 from the reset, a
    // deadlock between one run's TRUNCATE and the other's open order transaction).
    std::unique_ptr<onceorder::test::TestDatabase> database;
    if (withoutPostgres) {
        for (const char* name : {"ONCEORDER_POSTGRES_URI", "PGHOST", "PGPORT", "PGDATABASE", "PGUSER", "PGPASSWORD"}) {
            env.remove(QString::fromLatin1(name));
        }
    } else if (qEnvironmentVariableIsSet("PGHOST") && !qEnvironmentVariableIsSet("ONCEORDER_POSTGRES_URI")) {
        database = std::make_unique<onceorder::test::TestDatabase>();
        env.insert(QStringLiteral("ONCEORDER_POSTGRES_URI"), QString::fromStdString(database->uri()));
    }
    // Without --lang the tables follow the system's language, as the window does: pin it to English here.
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(ONCEORDER_GUI_BIN), args);
    ProcessRun run;
    run.finished = process.waitForFinished(300'000);
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
    QStringLiteral("sqlite-two-instances"),
    QStringLiteral("failover-replication"),
};

// The scenarios that run on PostgreSQL: scripts/test runs every test inside pg_virtualenv, which sets PGHOST.
const QStringList kPostgresScenarios {
    QStringLiteral("postgres-insert-waits"),
    QStringLiteral("postgres-rollback"),
    QStringLiteral("postgres-catch-the-error"),
    QStringLiteral("postgres-conditional-update"),
};

bool havePostgres()
{
    return qEnvironmentVariableIsSet("PGHOST") || qEnvironmentVariableIsSet("ONCEORDER_POSTGRES_URI");
}

// What `--scenario all` runs here: the PostgreSQL ones too when there is a PostgreSQL (required in scripts/test).
QStringList expectedScenarios()
{
    if (!havePostgres()) {
        EXPECT_FALSE(qEnvironmentVariableIsSet("ONCEORDER_REQUIRE_POSTGRES"))
            << "ONCEORDER_REQUIRE_POSTGRES is set but PGHOST is not: the PostgreSQL scenarios would not run";
        return kScenarios;
    }
    return kScenarios + kPostgresScenarios;
}

// The sections ("## title (`id`)" up to the next one) of the scenarios that failed, so that a failure message ends
// with their tables: a long run's log is often read from its last lines only.
std::string failedSections(const QString& out, const QString& failWord = QStringLiteral("FAIL"))
{
    QString failed;
    for (const QString& section : out.split(QStringLiteral("\n## "))) {
        if (section.contains(QStringLiteral("| %1 |").arg(failWord)) ||
            section.contains(QStringLiteral("**%1**").arg(failWord)) || section.contains(u"**Could not finish:**")) {
            failed += QStringLiteral("\n## ") + section;
        }
    }
    return failed.isEmpty() ? std::string() : "\nthe failed scenarios again:" + failed.toStdString();
}

} // namespace

TEST(ScenarioTest, AllScenariosPassHeadlessAndPrintTheirTables)
{
    QTemporaryDir exportDir;
    ASSERT_TRUE(exportDir.isValid());
    const ProcessRun run = runOnceorder(
        {QStringLiteral("--scenario"), QStringLiteral("all"), QStringLiteral("--export-dir"), exportDir.path()});
    ASSERT_TRUE(run.finished) << run.out.toStdString();
    EXPECT_EQ(run.exitCode, 0) << run.out.toStdString() << run.err.toStdString() << failedSections(run.out);
    const QStringList expected = expectedScenarios();
    for (const QString& id : expected) {
        EXPECT_TRUE(run.out.contains(QStringLiteral("(`%1`)").arg(id))) << id.toStdString() << " has no table";
        EXPECT_TRUE(QFileInfo::exists(QDir(exportDir.path()).filePath(id + QStringLiteral(".md")))) << id.toStdString();
        EXPECT_TRUE(QFileInfo::exists(QDir(exportDir.path()).filePath(id + QStringLiteral(".csv"))))
            << id.toStdString();
    }
    EXPECT_FALSE(run.out.contains(QStringLiteral("| FAIL |"))) << run.out.toStdString() << failedSections(run.out);
    EXPECT_TRUE(run.out.contains(QStringLiteral("Summary: %1/%1 scenarios passed").arg(expected.size())))
        << run.out.toStdString() << failedSections(run.out);
}

TEST(ScenarioTest, CzechTablesAndTheHerdChartAreExported)
{
    QTemporaryDir exportDir;
    ASSERT_TRUE(exportDir.isValid());
    const ProcessRun run = runOnceorder({QStringLiteral("--lang"), QStringLiteral("cs"), QStringLiteral("--scenario"),
                                         QStringLiteral("all"), QStringLiteral("--export-dir"), exportDir.path()});
    ASSERT_TRUE(run.finished) << run.out.toStdString();
    EXPECT_EQ(run.exitCode, 0) << run.out.toStdString() << run.err.toStdString();
    EXPECT_TRUE(run.out.startsWith(QStringLiteral("# Výukové scénáře OnceOrder"))) << run.out.left(200).toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("| # | krok | odpověď | objednávky | očekáváno | verdikt |")));
    EXPECT_TRUE(run.out.contains(QStringLiteral("## Tabulka z článku (`the-article-table`)"))); // the id stays
    EXPECT_TRUE(run.out.contains(QStringLiteral("| PROŠLO |")));
    EXPECT_FALSE(run.out.contains(QStringLiteral("| SELHALO |")))
        << run.out.toStdString() << failedSections(run.out, QStringLiteral("SELHALO"));
    EXPECT_FALSE(run.out.contains(QStringLiteral("| PASS |"))) << "an English verdict in the Czech table";
    EXPECT_TRUE(run.out.contains(QStringLiteral("Shrnutí: prošlo %1/%1 scénářů").arg(expectedScenarios().size())))
        << run.out.right(300).toStdString();

    const QDir dir(exportDir.path());
    for (const QString& id : expectedScenarios()) {
        EXPECT_TRUE(QFileInfo::exists(dir.filePath(id + QStringLiteral(".md")))) << id.toStdString();
        EXPECT_TRUE(QFileInfo::exists(dir.filePath(id + QStringLiteral(".csv")))) << id.toStdString();
    }
    QFile csv(dir.filePath(QStringLiteral("the-article-table.csv")));
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    // For a Czech spreadsheet: a byte order mark and `;` between cells (SlideExportTest checks the rest).
    EXPECT_TRUE(csv.readLine().startsWith("\xEF\xBB\xBFkrok;odpověď;objednávky;očekáváno;verdikt"));
    // The herd's chart, and only the herd's: the other scenarios have none.
    QFile png(dir.filePath(QStringLiteral("thundering-herd.png")));
    ASSERT_TRUE(png.open(QIODevice::ReadOnly));
    EXPECT_TRUE(png.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    EXPECT_GT(png.size(), 10'000);
    QFile svg(dir.filePath(QStringLiteral("thundering-herd.svg")));
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    const QString svgText = QString::fromUtf8(svg.readAll());
    EXPECT_TRUE(svgText.contains(QStringLiteral("<svg")));
    EXPECT_TRUE(svgText.contains(QStringLiteral("bez rozptylu"))) << "the legend is Czech";
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("the-article-table.png"))));
}

// Issue 32's lesson in both languages: after a failover, the asynchronous standby has lost the acknowledged order and
// its key (GET 404, the retry a new order); the synchronous one has both (the retry a replay).
TEST(ScenarioTest, FailoverLosesTheAcknowledgedOrderOnlyWithAsynchronousReplication)
{
    struct Language
    {
        QString lang;
        QString pass;
        QString fail;
        QString replayed;
    };
    for (const Language& language :
         {Language {QStringLiteral("en"), QStringLiteral("| PASS |"), QStringLiteral("| FAIL |"),
                    QStringLiteral("201 order 1 (replayed)")},
          Language {QStringLiteral("cs"), QStringLiteral("| PROŠLO |"), QStringLiteral("| SELHALO |"),
                    QStringLiteral("201 objednávka 1 (zopakováno)")}}) {
        const ProcessRun run = runOnceorder({QStringLiteral("--lang"), language.lang, QStringLiteral("--scenario"),
                                             QStringLiteral("failover-replication")});
        ASSERT_TRUE(run.finished) << language.lang.toStdString();
        EXPECT_EQ(run.exitCode, 0) << run.out.toStdString() << run.err.toStdString();
        EXPECT_EQ(run.out.count(language.pass), 8) << run.out.toStdString();
        EXPECT_FALSE(run.out.contains(language.fail)) << run.out.toStdString();
        // The lost order: GET answers 404 on the promoted standby (orders: 0) ...
        EXPECT_TRUE(run.out.contains(QStringLiteral("| 404 /problems/not-found | 0 |"))) << run.out.toStdString();
        // ... and the kept one is replayed to the retry.
        EXPECT_TRUE(run.out.contains(language.replayed)) << run.out.toStdString();
    }
}

TEST(ScenarioTest, FlagsThatCannotApplyAreRefusedWithTheReason)
{
    const ProcessRun state = runOnceorder(
        {QStringLiteral("--scenario"), QStringLiteral("list"), QStringLiteral("--state"), QStringLiteral("/tmp")});
    ASSERT_TRUE(state.finished);
    EXPECT_EQ(state.exitCode, 64);
    EXPECT_TRUE(state.err.contains(QStringLiteral("--state does not apply to --scenario"))) << state.err.toStdString();
    const ProcessRun lang = runOnceorder(
        {QStringLiteral("--scenario"), QStringLiteral("list"), QStringLiteral("--lang"), QStringLiteral("de")});
    ASSERT_TRUE(lang.finished);
    EXPECT_EQ(lang.exitCode, 64);
    EXPECT_TRUE(lang.err.contains(QStringLiteral("en or cs"))) << lang.err.toStdString();
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

// The window's --help is where a teacher looks first: it names the headless scenario options too (issue 40).
TEST(ScenarioTest, TheWindowsHelpNamesTheScenarioOptions)
{
    const ProcessRun run = runOnceorder({QStringLiteral("--help")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_TRUE(run.out.contains(QStringLiteral("--scenario <NAME|all|list>"))) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("--export-dir <DIR>"))) << run.out.toStdString();
}

TEST(ScenarioTest, AnUnknownNameIsAUsageErrorThatListsTheNames)
{
    const ProcessRun run = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("no-such-thing")});
    ASSERT_TRUE(run.finished);
    EXPECT_EQ(run.exitCode, 64);
    EXPECT_TRUE(run.err.contains(QStringLiteral("no-such-thing")));
    EXPECT_TRUE(run.err.contains(QStringLiteral("the-article-table")));
}

// The verdict must be able to say no: a failing row prints FAIL, the summary counts it, and the exit code is 1. The
// real scenarios all pass, so this uses the test-only "always-fails" (ONCEORDER_TEST_SCENARIOS=1), run with a real
// one to show that one failure fails the whole run.
TEST(ScenarioTest, AFailingRowPrintsFailAndMakesTheRunExitNonZero)
{
    QTemporaryDir exportDir;
    ASSERT_TRUE(exportDir.isValid());
    const ProcessRun run = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("double-click,always-fails"),
                                         QStringLiteral("--export-dir"), exportDir.path()},
                                        true);
    ASSERT_TRUE(run.finished) << run.out.toStdString();
    EXPECT_EQ(run.exitCode, 1) << run.out.toStdString() << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("| a row that fails on purpose |"))) << run.out.toStdString();
    EXPECT_EQ(run.out.count(QStringLiteral("| FAIL |")), 1) << "only the failing row: " << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("Summary: 1/2 scenarios passed"))) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("; failed: always-fails"))) << run.out.toStdString();
    QFile csv(QDir(exportDir.path()).filePath(QStringLiteral("always-fails.csv")));
    ASSERT_TRUE(csv.open(QIODevice::ReadOnly));
    EXPECT_TRUE(csv.readAll().contains("FAIL")) << "the export says so too";
}

TEST(ScenarioTest, TheTestOnlyScenarioIsUnknownAndUnlistedWithoutItsVariable)
{
    const ProcessRun plain = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("always-fails")});
    ASSERT_TRUE(plain.finished);
    EXPECT_EQ(plain.exitCode, 64);
    const ProcessRun list = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("list")});
    EXPECT_FALSE(list.out.contains(QStringLiteral("always-fails")));
    const ProcessRun listed = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("list")}, true);
    EXPECT_TRUE(listed.out.contains(QStringLiteral("always-fails")));
}

// Without a PostgreSQL, `all` leaves the PostgreSQL scenarios out and says so; naming one runs it to a clear failure.
TEST(ScenarioTest, WithoutPostgresTheyAreLeftOutOfAllAndANamedOneSaysWhatItNeeds)
{
    const ProcessRun all = runOnceorder({QStringLiteral("--scenario"), QStringLiteral("all")}, false, true);
    ASSERT_TRUE(all.finished);
    EXPECT_EQ(all.exitCode, 0) << all.out.toStdString() << all.err.toStdString();
    EXPECT_TRUE(all.err.contains(QStringLiteral("the PostgreSQL scenarios are left out"))) << all.err.toStdString();
    for (const QString& id : kPostgresScenarios) {
        EXPECT_FALSE(all.out.contains(QStringLiteral("(`%1`)").arg(id))) << id.toStdString();
    }
    EXPECT_TRUE(all.out.contains(QStringLiteral("Summary: %1/%1 scenarios passed").arg(kScenarios.size())));

    const ProcessRun named =
        runOnceorder({QStringLiteral("--scenario"), QStringLiteral("postgres-insert-waits")}, false, true);
    ASSERT_TRUE(named.finished);
    EXPECT_EQ(named.exitCode, 1);
    EXPECT_TRUE(named.out.contains(QStringLiteral("this scenario needs PostgreSQL"))) << named.out.toStdString();
}
