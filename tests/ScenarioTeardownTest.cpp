// A scenario's stack torn down while something is still under way: no signal may reach an object that is being
// destroyed (issue 40). The runs end early the ways a class sees: a server whose ready line is written but not yet
// read when the run ends (a restart under load), a step that fails, a runner deleted mid-run, and the same
// scenario played again after each. Fake server executables (shell scripts) make the moments exact: the test
// reads a FIFO the script writes to only after its ready line, so no sleep decides the order. Run in the
// ASan/UBSan tree too (scripts/test runs every ctest in both), where today's use-after-free is reported.
#include "net/NetworkConditioner.h"
#include "server/BundledServer.h"
#include "teaching/ScenarioContext.h"
#include "teaching/ScenarioRunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <memory>

#include <sys/stat.h>

using namespace onceorder::core;

namespace {

class ScenarioTeardownTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void SetUp() override
    {
        ASSERT_TRUE(dir.isValid());
        ASSERT_EQ(::mkfifo(fifoPath().toLocal8Bit().constData(), 0600), 0);
    }

    QString fifoPath() const { return dir.filePath(QStringLiteral("written")); }

    // A fake onceorder-server: prints its ready line (on a port where the real bundled server never is), then
    // says so through the FIFO (the open blocks until the test reads), then waits to be stopped.
    QString serverThatIsReadyButUnread()
    {
        return script("echo 'listening on http://127.0.0.1:9'\necho written > '" + fifoPath().toUtf8() +
                      "'\nexec sleep 60");
    }

    // A fake onceorder-server that never becomes ready: the run ends while it is still starting.
    QString serverThatNeverAnswers() { return script("exec sleep 60"); }

    QString script(const QByteArray& body)
    {
        const QString path = dir.filePath(QStringLiteral("fake-server-%1").arg(++m_scripts));
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("#!/bin/sh\n" + body + "\n");
        file.close();
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }

    // Blocks until the fake server has written its ready line into its stdout pipe; the event loop does not run,
    // so nobody has read it yet.
    void waitUntilTheReadyLineIsWritten()
    {
        QFile fifo(fifoPath());
        ASSERT_TRUE(fifo.open(QIODevice::ReadOnly));
        ASSERT_EQ(fifo.readLine().trimmed(), QByteArray("written"));
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "ScenarioTeardownTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    QTemporaryDir dir;
    int m_scripts = 0;
};

} // namespace

TEST_F(ScenarioTeardownTest, AStopWhileTheReadyLineIsUnreadAnnouncesNothing)
{
    BundledServer server;
    QStringList heard;
    QObject::connect(&server, &BundledServer::ready,
                     [&](const QUrl& url) { heard << QStringLiteral("ready ") + url.toString(); });
    QObject::connect(&server, &BundledServer::failed,
                     [&](const QString& why) { heard << QStringLiteral("failed ") + why; });
    server.start(dir.filePath(QStringLiteral("data")), serverThatIsReadyButUnread());
    waitUntilTheReadyLineIsWritten();

    server.stop();

    // A server asked to stop is not ready, nor has it failed: whoever stops it is tearing down.
    EXPECT_TRUE(heard.isEmpty()) << heard.join(u'\n').toStdString();
    EXPECT_FALSE(server.isRunning());
}

TEST_F(ScenarioTeardownTest, ABundledServerBeingDestroyedAnnouncesNothing)
{
    auto server = std::make_unique<BundledServer>();
    QStringList heard;
    QObject::connect(server.get(), &BundledServer::ready, [&](const QUrl&) { heard << QStringLiteral("ready"); });
    QObject::connect(server.get(), &BundledServer::failed, [&](const QString&) { heard << QStringLiteral("failed"); });
    QObject::connect(server.get(), &BundledServer::exited, [&](int) { heard << QStringLiteral("exited"); });
    server->start(dir.filePath(QStringLiteral("data")), serverThatNeverAnswers());

    server.reset();

    EXPECT_TRUE(heard.isEmpty()) << heard.join(u'\n').toStdString();
}

TEST_F(ScenarioTeardownTest, AContextDeletedWhileItsServerHasAnUnreadReadyLineTouchesNothingFreed)
{
    // The step-4 restart under load: the run ends (timeout, failure) while the server's ready line is in the pipe.
    auto context = std::make_unique<ScenarioContext>();
    QStringList heard;
    QObject::connect(context.get(), &ScenarioContext::ready, [&] { heard << QStringLiteral("ready"); });
    QObject::connect(context.get(), &ScenarioContext::failed,
                     [&](const QString& why) { heard << QStringLiteral("failed ") + why; });
    context->start(serverThatIsReadyButUnread());
    waitUntilTheReadyLineIsWritten();

    context.reset(); // ASan: heap-use-after-free in ScenarioContext::onServerReady before issue 40

    EXPECT_TRUE(heard.isEmpty()) << heard.join(u'\n').toStdString();
}

TEST_F(ScenarioTeardownTest, AContextDeletedWhileItsServerIsStillStartingDoesNotFail)
{
    auto context = std::make_unique<ScenarioContext>();
    QStringList heard;
    QObject::connect(context.get(), &ScenarioContext::failed,
                     [&](const QString& why) { heard << QStringLiteral("failed ") + why; });
    context->start(serverThatNeverAnswers());

    context.reset();

    EXPECT_TRUE(heard.isEmpty()) << heard.join(u'\n').toStdString();
}

TEST_F(ScenarioTeardownTest, ARunnerDeletedMidRunReportsNothing)
{
    auto runner = std::make_unique<ScenarioRunner>();
    runner->setServerExecutable(serverThatNeverAnswers());
    QStringList heard;
    QObject::connect(runner.get(), &ScenarioRunner::finished,
                     [&](const ScenarioResult& result) { heard << QStringLiteral("finished ") + result.error; });
    runner->run(Scenario {QStringLiteral("closed-mid-run"), QStringLiteral("Closed mid-run"), {}, {}});

    runner.reset(); // the dialog closed while "Starting a fresh server…"

    EXPECT_TRUE(heard.isEmpty()) << heard.join(u'\n').toStdString();
}

TEST_F(ScenarioTeardownTest, AScenarioMadeToFailMidRunPlaysAgainAndFailsTheSameWay)
{
    ScenarioRunner runner;
    runner.setServerExecutable(serverThatIsReadyButUnread());
    Scenario scenario {QStringLiteral("made-to-fail"), QStringLiteral("Made to fail"), {}, {}};
    scenario.steps << [](ScenarioContext& context, std::function<void()> next) {
        context.narrate(QStringLiteral("step 1"), QStringLiteral("done"));
        next();
    };
    scenario.steps << [](ScenarioContext& context, std::function<void()>) {
        context.fail(QStringLiteral("on purpose"));
    };
    QSignalSpy finished(&runner, &ScenarioRunner::finished);
    for (int play = 1; play <= 2; ++play) {
        runner.run(scenario);
        waitUntilTheReadyLineIsWritten();
        ASSERT_TRUE(finished.wait(20'000)) << "play " << play;
        const auto result = finished.takeFirst().at(0).value<ScenarioResult>();
        EXPECT_EQ(result.error, QStringLiteral("on purpose"));
        EXPECT_EQ(result.rows.size(), 1);
        // The failed run's context goes away once control is back in the loop, its server stopped: nothing from it
        // may reach the runner, which is already playing the next run.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    EXPECT_TRUE(finished.isEmpty());
}
