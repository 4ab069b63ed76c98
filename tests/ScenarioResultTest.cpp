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
              QStringLiteral("\uFEFFstep,response,orders,expected,verdict\n"
                             "reset,ok,–,,–\n"
                             "\"A, then B\",\"say \"\"hi\"\"\",1,\"two\nlines\",PASS\n"
                             "A: K1 again,201,2,replayed,FAIL\n"
                             "\"timed out, after 60 s\",,,,FAIL\n"));
}

// Issue 29: a Czech spreadsheet splits cells at `;` (the decimal point being a comma) and reads UTF-8 only after a
// byte order mark: in Czech the CSV says "0,6 s" without quoting it and keeps "odpověď" readable.
TEST_F(ScenarioResultTest, CzechCsvHasAByteOrderMarkAndSemicolonsSoDecimalCommasStayInTheirCell)
{
    QLocale::setDefault(QLocale(QLocale::Czech, QLocale::CzechRepublic));
    ScenarioResult r =
        result({{QStringLiteral("výpadek 0,6 s"), QStringLiteral("a; b"), 1, QStringLiteral("ok"), true}});
    r.error = QStringLiteral("skončeno po 1,5 s");
    const QString csv = r.toCsv();
    EXPECT_TRUE(csv.startsWith(QChar(0xfeff))) << csv.toStdString();
    EXPECT_EQ(csv.mid(1).section(u'\n', 1),
              QStringLiteral("výpadek 0,6 s;\"a; b\";1;ok;PASS\n"
                             "skončeno po 1,5 s;;;;FAIL\n"));
    EXPECT_TRUE(csv.toUtf8().startsWith("\xEF\xBB\xBF"));
}

TEST_F(ScenarioResultTest, APassingScenarioSaysPass)
{
    EXPECT_TRUE(result({passing}).toMarkdown().endsWith(QStringLiteral("\n**PASS** in 1.2 s\n")));
    EXPECT_EQ(ScenarioResult::verdictName(true), QStringLiteral("PASS"));
    EXPECT_EQ(ScenarioResult::verdictName(false), QStringLiteral("FAIL"));
}
