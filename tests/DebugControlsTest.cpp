// DebugControls without a server: the JSON bodies of its server commands, and its commands to this client (the
// network conditioner's mode, the after-send crash point), which act in the process itself.
#include "server/DebugControls.h"
#include "net/NetworkConditioner.h"
#include "submission/CrashPoint.h"

#include <QCoreApplication>
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
    EXPECT_EQ(DebugControls::faultBody({QStringLiteral("crash-after-commit"), 2, 1500, 3}),
              QByteArray(R"({"count":2,"fault":"crash-after-commit"})"));
    EXPECT_EQ(DebugControls::faultBody({QStringLiteral("delay"), 1, 1500, 3}),
              QByteArray(R"({"count":1,"delay_ms":1500,"fault":"delay"})"));
    EXPECT_EQ(DebugControls::faultBody({QStringLiteral("unavailable"), 1, 1500, 3}),
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
