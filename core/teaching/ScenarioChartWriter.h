// ScenarioChartWriter: draws a scenario's chart into image files. core/ only knows this interface (it has no Qt
// Charts and no widgets); the ui implements it and app/ hands it to the scenario command.
#pragma once

#include <QString>

namespace onceorder::core {

struct ScenarioChart;

class ScenarioChartWriter
{
public:
    virtual ~ScenarioChartWriter() = default;
    // Writes the chart as a PNG and an SVG; false with `error` set when either could not be written.
    virtual bool write(const ScenarioChart& chart, const QString& pngPath, const QString& svgPath, QString* error) = 0;
};

} // namespace onceorder::core
