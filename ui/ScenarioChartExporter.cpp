#include "ScenarioChartExporter.h"

#include "teaching/Scenario.h"
#include "teaching/ScenarioSvg.h"

namespace onceorder::ui {

ScenarioChartExporter::ScenarioChartExporter(QSize layout, qreal scale)
    : m_size(layout)
    , m_scale(scale)
{
}

QSize ScenarioChartExporter::pictureSize() const
{
    return (QSizeF(m_size) * m_scale).toSize();
}

bool ScenarioChartExporter::write(const core::ScenarioChart& data, const QString& pngPath, const QString& svgPath,
                                  QString* error)
{
    // The SVG is the slide (projector-sized, centred text), drawn from the data alone, and the PNG is that SVG drawn at
    // the picture's size: the same slide in both files, in the dialog's Export… and the headless export alike.
    return core::ScenarioSvg::writeBoth(data, pngPath, pictureSize(), svgPath, error);
}

} // namespace onceorder::ui
