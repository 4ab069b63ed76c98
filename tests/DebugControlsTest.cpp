// DebugControls: the JSON bodies of its server commands, and its commands to this client (the network
// conditioner's mode, the after-send crash point), which act in the process itself; then its server commands
// against the real onceorder-server, with and without --debug-endpoints.
#include "server/DebugControls.h"
#include "net/NetworkConditioner.h"
#include "net/ServerApi.h"
#include "submission/CrashPoint.h"
#include "support/ServerProcess.h"

#include <QCoreApplication>
#include <QTest>
#include <gtest/gtest.h>

#include <memory>

using namespace onceorder::core;

namespace {

class DebugControlsTest : public ::testing::Test
{
protected:
    static void SetUpTestSuite() { s_app = std::make_unique<QCoreApplication>(s_argc, s_argv); }
    static void TearDownTestSuite() { s_app.reset(); }

    void TearDown() override { CrashPoint::arm(QString()); }

    // Collects the modes the controls report, in order, in `reported`.
    void watch(DebugControls& controls)
    {
        QObject::connect(&controls, &DebugControls::networkModeChanged,
                         [this](const QString& mode) { reported.append(mode); });
    }

    static inline int s_argc = 1;
    static inline char s_name[] = "DebugControlsTest";
    static inline char* s_argv[] = {s_name, nullptr};
    static inline std::unique_ptr<QCoreApplication> s_app;

    QStringList reported;
};

} // namespace

TEST(DebugControlsBodyTest, AFaultCarriesOnlyItsOwnParameters)
{
    EXPECT_EQ(DebugControls::faultBody({QStringLiteral("crash-after-commit"), 2, 1500, 3, {}}),
              QByteArray(R"({"count":2,"fault":"crash-after-commit"})"));
    EXPECT_EQ(DebugControls::faultBody({QStringLiteral("delay"), 1, 1500, 3, {}}),
              QByteArray(R"({"count":1,"delay_ms":1500,"fault":"delay"})"));
    EXPECT_EQ(DebugControls::faultBody({QStringLiteral("unavailable"), 1, 1500, 3, {}}),
              QByteArray(R"({"count":1,"fault":"unavailable","retry_after":3})"));
    EXPECT_EQ(DebugControls::modeBody(QStringLiteral("check_then_insert"), true),
              QByteArray(R"({"check_then_insert":true})"));
}

TEST_F(DebugControlsTest, ANetworkModeIsAppliedToTheConditionerAndReported)
{
    NetworkConditioner conditioner;
    DebugControls controls(nullptr, nullptr, &conditioner);
    watch(controls);
    ASSERT_TRUE(controls.hasConditioner());

    controls.setNetworkMode(QStringLiteral("flaky"), 250, 0.3);

    EXPECT_EQ(conditioner.mode(), ConditionerMode::Flaky);
    EXPECT_EQ(conditioner.delayMs(), 250);
    EXPECT_DOUBLE_EQ(conditioner.dropProbability(), 0.3);
    EXPECT_EQ(reported, QStringList {QStringLiteral("flaky")});
}

TEST_F(DebugControlsTest, AnUnknownNetworkModeChangesNothing)
{
    NetworkConditioner conditioner;
    DebugControls controls(nullptr, nullptr, &conditioner);
    watch(controls);
    const int delayBefore = conditioner.delayMs();

    controls.setNetworkMode(QStringLiteral("wormhole"), delayBefore + 1000, 0.9);

    EXPECT_EQ(conditioner.mode(), ConditionerMode::Pass);
    EXPECT_EQ(conditioner.delayMs(), delayBefore);
    EXPECT_TRUE(reported.isEmpty());
}

TEST_F(DebugControlsTest, WithoutAConditionerTheNetworkCommandsReportNothing)
{
    DebugControls controls(nullptr, nullptr, nullptr);
    watch(controls);
    EXPECT_FALSE(controls.hasConditioner());
    EXPECT_FALSE(controls.canKillServer());

    controls.setNetworkMode(QStringLiteral("offline"), 0, 0);

    EXPECT_TRUE(reported.isEmpty());
}

TEST_F(DebugControlsTest, CrashAfterSendArmsAndDisarmsTheClientsCrashPoint)
{
    DebugControls controls(nullptr, nullptr, nullptr);
    controls.armCrashAfterSend(true);
    EXPECT_EQ(CrashPoint::armed(), QStringLiteral("after-send"));
    controls.armCrashAfterSend(false);
    EXPECT_TRUE(CrashPoint::armed().isEmpty());
}

namespace {

// What the controls report about their server commands, in order.
struct Reports
{
    explicit Reports(DebugControls& controls)
    {
        QObject::connect(&controls, &DebugControls::succeeded, [this](const QString& what, const ServerState& state) {
            done.append(what);
            states.append(state);
        });
        QObject::connect(&controls, &DebugControls::failed, [this](const QString& what, const QString& reason, int s) {
            failed.append(what + QStringLiteral(" | ") + reason);
            statuses.append(s);
        });
    }
    qsizetype count() const { return done.size() + failed.size(); }

    QStringList done;
    QList<ServerState> states;
    QStringList failed;
    QList<int> statuses;
};

} // namespace

TEST_F(DebugControlsTest, ServerCommandsReportTheServersStateAfterThem)
{
    onceorder::test::TempDir dir;
    onceorder::test::ServerProcess server({"--db", dir.file("server.db"), "--debug-endpoints"});
    ServerApi api(QUrl(QString::fromStdString(server.url())), QStringLiteral("demo-key-A"));
    DebugControls controls(&api, nullptr, nullptr);
    Reports reports(controls);

    // The window's names for them, not their ids, in what the panel reports (issue 40).
    controls.armFault({QStringLiteral("delay"), 2, 150, 0, QStringLiteral("Slow transaction")});
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 1; }, 10'000));
    controls.setMode(QStringLiteral("check_then_insert"), true, QStringLiteral("Check, then insert"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 2; }, 10'000));
    controls.setMode(QStringLiteral("check_then_insert"), false, QStringLiteral("Check, then insert"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 3; }, 10'000));
    controls.armFault({QStringLiteral("none"), 1, 0, 0, {}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 4; }, 10'000));
    controls.resetServer();
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 5; }, 10'000));
    controls.runCompleter();
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 6; }, 10'000));

    EXPECT_TRUE(reports.failed.isEmpty()) << reports.failed.join(u'\n').toStdString();
    EXPECT_EQ(reports.done,
              (QStringList {QStringLiteral("Arm “Slow transaction” × 2"), QStringLiteral("“Check, then insert” on"),
                            QStringLiteral("“Check, then insert” off"), QStringLiteral("Disarm the server's fault"),
                            QStringLiteral("Reset the server"),
                            QStringLiteral("the completer finished 0 abandoned checkout(s)")}));
    ASSERT_EQ(reports.states.size(), 6);
    EXPECT_EQ(reports.states[0].fault.fault, QStringLiteral("delay"));
    EXPECT_EQ(reports.states[0].fault.remaining, 2);
    EXPECT_EQ(reports.states[0].fault.delayMs, 150);
    EXPECT_TRUE(reports.states[1].modes.checkThenInsert);
    EXPECT_FALSE(reports.states[2].modes.checkThenInsert);
    EXPECT_EQ(reports.states[3].fault.fault, QStringLiteral("none"));
    EXPECT_EQ(reports.states[5].database, QStringLiteral("sqlite")) << "the completer's report carries the tables";
}

TEST_F(DebugControlsTest, WithoutDebugEndpointsEveryServerCommandFailsWithTheStatus)
{
    onceorder::test::TempDir dir;
    onceorder::test::ServerProcess server({"--db", dir.file("server.db")});
    ServerApi api(QUrl(QString::fromStdString(server.url())), QStringLiteral("demo-key-A"));
    DebugControls controls(&api, nullptr, nullptr);
    Reports reports(controls);

    // One at a time: their answers would otherwise arrive in any order.
    controls.armFault({QStringLiteral("unavailable"), 1, 0, 2, {}});
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 1; }, 10'000));
    controls.resetServer();
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 2; }, 10'000));
    controls.runCompleter();
    ASSERT_TRUE(QTest::qWaitFor([&] { return reports.count() == 3; }, 10'000));

    EXPECT_TRUE(reports.done.isEmpty());
    EXPECT_EQ(reports.statuses, (QList<int> {404, 404, 404}));
    ASSERT_EQ(reports.failed.size(), 3);
    EXPECT_TRUE(reports.failed[0].startsWith(QStringLiteral("Arm “unavailable” × 1 | HTTP 404")))
        << reports.failed[0].toStdString();
    EXPECT_TRUE(reports.failed[1].startsWith(QStringLiteral("Reset the server | HTTP 404")))
        << reports.failed[1].toStdString();
    EXPECT_TRUE(reports.failed[2].startsWith(QStringLiteral("Run the completer | HTTP 404")));
}

TEST_F(DebugControlsTest, WithAnExternalServerKillIsRefusedWithTheReason)
{
    DebugControls controls(nullptr, nullptr, nullptr);
    Reports reports(controls);

    controls.killBundledServer();

    EXPECT_EQ(
        reports.failed,
        QStringList {QStringLiteral("Kill the server | the server is external; only the bundled one can be killed")});
    EXPECT_EQ(reports.statuses, QList<int> {0});
}
