// Scenario: one teaching scenario as data (id, title, the paragraph shown beside it) plus the small step
// functions that play it on the real stack, and the verdict it produces.
#pragma once

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace onceorder::core {

class ScenarioContext;

// One row of a verdict table: what was sent, what came back, how many orders the database held afterwards.
struct VerdictRow
{
    QString step; // the request or action, for people
    QString response; // what the server or the client reported
    int orders = -1; // orders in the server's database after the step; -1: not counted
    QString expected;
    bool pass = false;
};

// A series a scenario measured, for a chart beside its table (the thundering herd's retries per 100 ms).
struct ChartSeries
{
    QString name; // the legend, for people
    QList<int> values; // one value per bucket, from the first bucket on
};

// What a chart shows; the chart itself is drawn by the ui (core/ has no Qt Charts). Empty for most scenarios.
struct ScenarioChart
{
    QString title;
    QString xTitle; // the axis below, e.g. "ms after the cut"
    QString yTitle;
    int bucketMs = 100; // the width of one value on the x axis
    QList<ChartSeries> series;
    int capacity = -1; // a horizontal line (what the server can take per bucket); -1: none
    QString capacityName;

    bool isEmpty() const { return series.isEmpty(); }
};

struct ScenarioResult
{
    Q_DECLARE_TR_FUNCTIONS(onceorder::core::ScenarioResult)

public:
    QString id;
    QString title;
    QString explanation;
    QList<VerdictRow> rows;
    QString error; // set when the scenario could not run to its end (a timeout, a server that did not start)
    qint64 elapsedMs = 0;
    ScenarioChart chart;

    bool passed() const;
    // In the language of the installed translators (--lang): the headings, the column names and the verdicts.
    QString toMarkdown() const;
    // For spreadsheets: UTF-8 with a byte order mark, `,` between cells, or `;` where the decimal point is a comma
    // (Czech), so that a Czech Excel or LibreOffice opens it in columns with its letters intact.
    QString toCsv() const;
    static QString verdictName(bool pass);
    static QStringList columnNames(); // step, response, orders, expected, verdict
};

// The translation context of the scenarios' texts (titles, paragraphs, steps, expectations), which live in free
// functions: ScenarioText::tr("…"). They are translated when the scenarios are built and played, so in the language
// installed then (--lang, or the window's).
class ScenarioText
{
    Q_DECLARE_TR_FUNCTIONS(onceorder::core::ScenarioText)
};

// A step does its asynchronous work through the context and calls `next` exactly once when it is done.
using ScenarioStep = std::function<void(ScenarioContext& context, std::function<void()> next)>;

struct Scenario
{
    QString id;
    QString title;
    QString explanation;
    QList<ScenarioStep> steps;
    // Runs on a PostgreSQL database (ScenarioContext::postgresUri()); `--scenario all` leaves it out without one.
    bool needsPostgres = false;
};

// Every scenario, in teaching order (the registry: teaching/scenarios/Scenarios.cpp).
QList<Scenario> allScenarios();

} // namespace onceorder::core
