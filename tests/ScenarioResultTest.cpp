// ScenarioResult on constructed rows: when a scenario passes, and its table as Markdown and CSV (escaping, narrated
// rows, uncounted orders, a scenario that could not finish). The scenarios themselves: ScenarioTest.
#include "teaching/Scenario.h"

#include <QLocale>
#include <gtest/gtest.h>

using namespace onceorder::core;

namespace {

class ScenarioResultTest : public ::testing::Test
{
protected:
    void SetUp() override { QLocale::setDefault(QLocale::c()); }

    static ScenarioResult result(QList<VerdictRow> rows)
    {
        ScenarioResult r;
        r.id = QStringLiteral("demo");
        r.title = QStringLiteral("Demo");
        r.explanation = QStringLiteral("Two requests.");
        r.rows = std::move(rows);
        r.elapsedMs = 1234;
        return r;
    }

    const VerdictRow narrated {QStringLiteral("reset"), QStringLiteral("ok"), -1, {}, true};
    const VerdictRow passing {QStringLiteral("A: K1"), QStringLiteral("201"), 1, QStringLiteral("201"), true};
    const VerdictRow failing {QStringLiteral("A: K1 again"), QStringLiteral("201"), 2, QStringLiteral("replayed"),
                              false};
};

} // namespace

TEST_F(ScenarioResultTest, PassesOnlyWithRowsAllPassingAndNoError)
{
    EXPECT_TRUE(result({narrated, passing}).passed());
    EXPECT_FALSE(result({narrated, passing, failing}).passed()) << "one failing row fails the scenario";
    EXPECT_FALSE(result({}).passed()) << "a scenario that judged nothing did not pass";
    ScenarioResult broken = result({passing});
    broken.error = QStringLiteral("timed out");
    EXPECT_FALSE(broken.passed()) << "passing rows, then a timeout";
}

TEST_F(ScenarioResultTest, MarkdownTableNumbersRowsAndMarksNarratedRowsAndUncountedOrders)
{
    EXPECT_EQ(result({narrated, passing, failing}).toMarkdown(),
              QStringLiteral("## Demo (`demo`)\n\nTwo requests.\n\n"
                             "| # | step | response | orders | expected | verdict |\n"
                             "|---|---|---|---|---|---|\n"
                             "| 1 | reset | ok | – |  | – |\n"
                             "| 2 | A: K1 | 201 | 1 | 201 | PASS |\n"
                             "| 3 | A: K1 again | 201 | 2 | replayed | FAIL |\n"
                             "\n**FAIL** in 1.2 s\n"));
}

TEST_F(ScenarioResultTest, MarkdownEscapesPipesAndLineBreaksAndReportsAnError)
{
    ScenarioResult r =
        result({{QStringLiteral("a|b"), QStringLiteral("line 1\nline 2"), 0, QStringLiteral("x|y"), true}});
    r.error = QStringLiteral("the server did not start");
    const QString text = r.toMarkdown();
    EXPECT_TRUE(text.contains(QStringLiteral("| 1 | a\\|b | line 1 line 2 | 0 | x\\|y | PASS |\n")))
        << text.toStdString();
    EXPECT_TRUE(
        text.endsWith(QStringLiteral("\n**Could not finish:** the server did not start\n\n**FAIL** in 1.2 s\n")))
        << text.toStdString();
}

TEST_F(ScenarioResultTest, CsvQuotesOnlyCellsThatNeedItAndAddsTheErrorAsAFailingRow)
{
    ScenarioResult r =
        result({narrated,
                {QStringLiteral("A, then B"), QStringLiteral("say \"hi\""), 1, QStringLiteral("two\nlines"), true},
                failing});
    r.error = QStringLiteral("timed out, after 60 s");
    EXPECT_EQ(r.toCsv(),
              QStringLiteral("step,response,orders,expected,verdict\n"
                             "reset,ok,–,,–\n"
                             "\"A, then B\",\"say \"\"hi\"\"\",1,\"two\nlines\",PASS\n"
                             "A: K1 again,201,2,replayed,FAIL\n"
                             "\"timed out, after 60 s\",,,,FAIL\n"));
}

TEST_F(ScenarioResultTest, APassingScenarioSaysPass)
{
    EXPECT_TRUE(result({passing}).toMarkdown().endsWith(QStringLiteral("\n**PASS** in 1.2 s\n")));
    EXPECT_EQ(ScenarioResult::verdictName(true), QStringLiteral("PASS"));
    EXPECT_EQ(ScenarioResult::verdictName(false), QStringLiteral("FAIL"));
}
