// ScenarioSvg: a scenario's chart as an SVG slide, drawn from the data alone (Qt Core only). Made for a projector at
// 1920 × 1080: every text at least 28 px at that size, the title and the legend centred with text-anchor="middle" (so
// they stay centred whatever font the viewer substitutes), each series a step line that ends on the axis.
#pragma once

#include <QSize>
#include <QString>

namespace onceorder::core {

struct ScenarioChart;

class ScenarioSvg
{
public:
    static constexpr int kWidth = 1920;
    static constexpr int kHeight = 1080;

    static QString render(const ScenarioChart& chart);
    // Writes render() to path (atomically); false with `error` set when it could not.
    static bool write(const ScenarioChart& chart, const QString& path, QString* error);
};

} // namespace onceorder::core
