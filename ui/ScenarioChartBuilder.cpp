#include "ScenarioChartBuilder.h"

#include "teaching/Scenario.h"

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include <algorithm>

namespace onceorder::ui {

namespace {

// Colour-blind safe pairs (Okabe–Ito): vermilion for the first series (the mistake), blue for the second (the fix).
const QList<QColor> kSeriesColours {QColor(0xd5, 0x5e, 0x00), QColor(0x00, 0x72, 0xb2), QColor(0x00, 0x9e, 0x73),
                                    QColor(0xcc, 0x79, 0xa7)};

} // namespace

QChart* ScenarioChartBuilder::build(const core::ScenarioChart& data)
{
    auto* chart = new QChart;
    chart->setTitle(data.title);
    // Read from the back of a classroom: a bigger, bold title.
    QFont titleFont = chart->titleFont();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation); // exported frames must be the final picture

    auto* xAxis = new QValueAxis(chart);
    xAxis->setTitleText(data.xTitle);
    xAxis->setLabelFormat(QStringLiteral("%d"));
    auto* yAxis = new QValueAxis(chart);
    yAxis->setTitleText(data.yTitle);
    yAxis->setLabelFormat(QStringLiteral("%d"));
    chart->addAxis(xAxis, Qt::AlignBottom);
    chart->addAxis(yAxis, Qt::AlignLeft);

    qsizetype buckets = 1;
    int highest = std::max(1, data.capacity);
    for (qsizetype i = 0; i < data.series.size(); ++i) {
        const core::ChartSeries& measured = data.series.at(i);
        auto* series = new QLineSeries(chart);
        series->setName(measured.name);
        for (qsizetype bucket = 0; bucket < measured.values.size(); ++bucket) {
            const double from = static_cast<double>(bucket * data.bucketMs);
            const int value = measured.values.at(bucket);
            series->append(from, value);
            series->append(from + data.bucketMs, value);
            highest = std::max(highest, value);
        }
        QPen pen(kSeriesColours.at(i % kSeriesColours.size()));
        pen.setWidthF(2.5);
        series->setPen(pen);
        chart->addSeries(series);
        series->attachAxis(xAxis);
        series->attachAxis(yAxis);
        buckets = std::max(buckets, measured.values.size());
    }
    const double end = static_cast<double>(buckets * data.bucketMs);
    if (data.capacity >= 0) {
        auto* capacity = new QLineSeries(chart);
        capacity->setName(data.capacityName);
        capacity->append(0, data.capacity);
        capacity->append(end, data.capacity);
        QPen pen(QColor(0x55, 0x55, 0x55));
        pen.setStyle(Qt::DashLine);
        pen.setWidthF(1.5);
        capacity->setPen(pen);
        chart->addSeries(capacity);
        capacity->attachAxis(xAxis);
        capacity->attachAxis(yAxis);
    }
    xAxis->setRange(0, end);
    xAxis->applyNiceNumbers();
    yAxis->setRange(0, highest + 1);
    if (highest + 1 <= 10) {
        yAxis->setTickCount(highest + 2); // one line per call: small counts are read one by one
    } else {
        yAxis->applyNiceNumbers();
    }
    return chart;
}

QChart* ScenarioChartBuilder::build(const core::ScenarioChart& data, const QFont& font)
{
    QChart* chart = build(data);
    QFont title = font;
    title.setPointSizeF(font.pointSizeF() * 1.4);
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setFont(font);
    QFont axisTitle = font;
    axisTitle.setBold(true);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(font);
        axis->setTitleFont(axisTitle);
    }
    return chart;
}

} // namespace onceorder::ui
