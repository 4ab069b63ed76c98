// ScenarioChartBuilder: turns the numbers a scenario measured (core::ScenarioChart) into a Qt Charts chart, the same
// one for the scenario dialog, the headless export and the retry-storm benchmark.
#pragma once

#include <QFont>

#include <QString>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace onceorder::core {
struct ScenarioChart;
}

namespace onceorder::ui {

class ScenarioChartBuilder
{
public:
    // A new chart without a parent (a view or a scene takes it). Each series is drawn as steps, one per bucket, so
    // "3 retries between 800 and 900 ms" reads as a flat top over that interval; the capacity is a dashed line.
    static QChart* build(const core::ScenarioChart& data);
    // The same, its texts (title, axes, legend) in `font` and bigger, so the chart follows the window's zoom.
    static QChart* build(const core::ScenarioChart& data, const QFont& font);
};

} // namespace onceorder::ui
