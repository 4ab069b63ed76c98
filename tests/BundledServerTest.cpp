// BundledServer with fake server executables: small shell scripts, written by each test, that fail the way a real
// onceorder-server can (not startable, dead before ready, a wrong first line, dying right after every start, its
// port taken at restart). The restart limit counts on an injected clock. The real server's start, kill and
// restart are covered by the GUI tests and the scenarios.
#include "server/BundledServer.h"
#include "retry/Clock.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <memory>

using namespace onceorder::core;

namespace {

class BundledServerTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        QObject::connect(&server, &BundledServer::failed, [this](const QString& reason) { failures.append(reason); });
        QObject::connect(&server, &BundledServer::ready, [this](const QUrl& url) { readyUrls.append(url); });
        QObject::connect(&server, &BundledServer::down, [this](int exitCode) { downCodes.append(exitCode); });
        QObject::connect(&server, &BundledServer::exited, [this](int exitCode) { exitCodes.append(exitCode); });
    }

    // An executable /bin/sh script in the temporary folder. Each run appends its arguments to runs.txt first.
    QString fakeServer(const QByteArray& body)
    {
        const QString path = dir.filePath(QStringLiteral("fake-server"));
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\necho \"$*\" >> \"" + runsPath().toUtf8() + "\"\n" + body + "\n");
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    QString runsPath() const { return dir.filePath(QStringLiteral("runs.txt")); }
    QString dataDir() const { return dir.filePath(QStringLiteral("data")); }

    // The argument lines of every run so far.
    QStringList runs() const
    {
        QFile file(runsPath());
        if (!file.open(QIODevice::ReadOnly)) {
            return {};
        }
        return QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "BundledServerTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    QTemporaryDir dir;
    QStringList failures;
    QList<QUrl> readyUrls;
    QList<int> downCodes;
    QList<int> exitCodes;
    BundledServer server; // last: destroyed first, its stop() may still report into the lists above
};

} // namespace

TEST_F(BundledServerTest, AnExecutableThatCannotStartIsReportedWithItsPath)
{
    const QString missing = dir.filePath(QStringLiteral("no-such-server"));
    server.start(dataDir(), missing);

    ASSERT_TRUE(QTest::qWaitFor([&] { return !failures.isEmpty(); }, 10'000));
    EXPECT_TRUE(failures.first().startsWith(QStringLiteral("cannot start ") + missing + u':'))
        << failures.first().toStdString();
    EXPECT_TRUE(readyUrls.isEmpty());
    EXPECT_FALSE(server.isRunning());
}

TEST_F(BundledServerTest, AServerThatExitsBeforeItIsReadyIsReportedWithWhatItSaid)
{
    // An earlier run's log stays in server.log; only this launch's lines are the reason.
    ASSERT_TRUE(QDir().mkpath(dataDir()));
    QFile oldLog(QDir(dataDir()).filePath(QStringLiteral("server.log")));
    ASSERT_TRUE(oldLog.open(QIODevice::WriteOnly));
    oldLog.write("an old request log line\n");
    oldLog.close();

    server.start(dataDir(), fakeServer("echo 'cannot open the database: disk full' >&2\nexit 3"));

    ASSERT_TRUE(QTest::qWaitFor([&] { return !exitCodes.isEmpty(); }, 10'000));
    ASSERT_EQ(failures.size(), 1);
    EXPECT_EQ(failures.first(),
              QStringLiteral("the server exited before it was ready:\ncannot open the database: disk full"));
    EXPECT_EQ(exitCodes, QList<int> {3});
    EXPECT_TRUE(downCodes.isEmpty()) << "it was never up";
    EXPECT_TRUE(readyUrls.isEmpty());
    // Not started again: a server that cannot come up would fail the same way. (The short wait looks for a start
    // that should not come; everything asserted above was waited for by its signal.)
    QTest::qWait(100);
    EXPECT_EQ(runs().size(), 1);
    // It was asked for any free port on loopback, with its database in the data folder and the debug endpoints.
    EXPECT_EQ(runs().first(),
              QStringLiteral("--listen 127.0.0.1:0 --db %1 --debug-endpoints")
                  .arg(QDir(dataDir()).filePath(QStringLiteral("server.db"))));
}

TEST_F(BundledServerTest, AFirstLineThatIsNotTheAddressFails)
{
    server.start(dataDir(), fakeServer("echo 'Welcome to onceorder-server'\nexec sleep 30"));

    ASSERT_TRUE(QTest::qWaitFor([&] { return !failures.isEmpty(); }, 10'000));
    EXPECT_EQ(failures.first(), QStringLiteral("unexpected first line from the server: Welcome to onceorder-server"));
    EXPECT_TRUE(readyUrls.isEmpty());
    EXPECT_FALSE(server.isRunning());
    server.stop();
}

TEST_F(BundledServerTest, AnAddressLineMakesItReadyAndStopEndsIt)
{
    server.start(dataDir(), fakeServer("echo 'listening on http://127.0.0.1:45678'\nexec sleep 30"));

    ASSERT_TRUE(QTest::qWaitFor([&] { return !readyUrls.isEmpty(); }, 10'000));
    EXPECT_EQ(readyUrls.first(), QUrl(QStringLiteral("http://127.0.0.1:45678")));
    EXPECT_EQ(server.url(), readyUrls.first());
    EXPECT_TRUE(server.isRunning());

    server.stop();
    EXPECT_FALSE(server.isRunning());
    QCoreApplication::processEvents();
    EXPECT_TRUE(downCodes.isEmpty()) << "stop() is not a death";
    EXPECT_TRUE(failures.isEmpty());
    EXPECT_EQ(runs().size(), 1);
}

TEST_F(BundledServerTest, AServerThatDiesAfterEveryStartIsRestartedTenTimesWithinAMinuteThenGivenUp)
{
    ManualClock clock;
    server.setClock(&clock);
    server.setAutoRestart(true, 0);
    // Ready, then dead at once: every start.
    server.start(dataDir(), fakeServer("echo 'listening on http://127.0.0.1:45679'\nexit 7"));

    ASSERT_TRUE(QTest::qWaitFor([&] { return !failures.isEmpty(); }, 30'000));
    EXPECT_EQ(failures,
              QStringList {QStringLiteral("the server died 10 times within a minute; it is not restarted again")});
    EXPECT_EQ(readyUrls.size(), 11) << "the first start and ten restarts";
    EXPECT_EQ(downCodes, QList<int>(11, 7));
    QTest::qWait(100); // room for a twelfth start that must not come
    EXPECT_EQ(runs().size(), 11) << "no twelfth start";
    // Every restart asks for the port the server had, so URLs already handed out stay valid.
    for (qsizetype i = 1; i < runs().size(); ++i) {
        EXPECT_TRUE(runs().at(i).startsWith(QStringLiteral("--listen 127.0.0.1:45679 "))) << runs().at(i).toStdString();
    }
}

TEST_F(BundledServerTest, DeathsSpreadOverMoreThanAMinuteAreRestartedEveryTime)
{
    ManualClock clock;
    server.setClock(&clock);
    server.setAutoRestart(true, 0);
    // Seven seconds between deaths: never ten within one minute.
    QObject::connect(&server, &BundledServer::down, [&] { clock.advanceMs(7'000); });
    QObject::connect(&server, &BundledServer::ready, [&] {
        if (readyUrls.size() == 15) {
            server.setAutoRestart(false);
        }
    });
    server.start(dataDir(), fakeServer("echo 'listening on http://127.0.0.1:45680'\nexit 7"));

    ASSERT_TRUE(QTest::qWaitFor([&] { return downCodes.size() == 15; }, 30'000));
    EXPECT_TRUE(failures.isEmpty()) << failures.join(u'\n').toStdString();
    EXPECT_EQ(readyUrls.size(), 15);
    QTest::qWait(100); // room for a sixteenth start that must not come
    EXPECT_EQ(runs().size(), 15) << "auto-restart off: the 15th death is not restarted";
}

TEST_F(BundledServerTest, ARestartWhoseOldPortIsTakenTakesAnyFreePort)
{
    server.setAutoRestart(true, 0);
    // The first run is ready on 45681 and dies; a run asked for 45681 finds it taken (exits before ready); a run
    // on any port is ready on 45682 and stays.
    server.start(dataDir(),
                 fakeServer("case \"$2\" in\n"
                            "  127.0.0.1:0) if [ -e \"$0.second\" ]; then\n"
                            "      echo 'listening on http://127.0.0.1:45682'; exec sleep 30\n"
                            "    fi\n"
                            "    touch \"$0.second\"; echo 'listening on http://127.0.0.1:45681'; exit 9;;\n"
                            "  *) echo 'address in use' >&2; exit 1;;\n"
                            "esac"));

    ASSERT_TRUE(QTest::qWaitFor([&] { return readyUrls.size() == 2; }, 10'000));
    EXPECT_EQ(
        readyUrls,
        (QList<QUrl> {QUrl(QStringLiteral("http://127.0.0.1:45681")), QUrl(QStringLiteral("http://127.0.0.1:45682"))}));
    EXPECT_EQ(downCodes, QList<int> {9});
    EXPECT_TRUE(failures.isEmpty()) << "a taken port is not a failure: " << failures.join(u'\n').toStdString();
    ASSERT_EQ(runs().size(), 3);
    EXPECT_TRUE(runs().at(1).startsWith(QStringLiteral("--listen 127.0.0.1:45681 ")));
    EXPECT_TRUE(runs().at(2).startsWith(QStringLiteral("--listen 127.0.0.1:0 ")));
    EXPECT_TRUE(server.isRunning());

    server.kill();
    ASSERT_TRUE(QTest::qWaitFor([&] { return downCodes.size() == 2; }, 10'000)) << "kill() is a death";
    server.stop();
}
