// ScenarioChartExporter: writes a scenario's chart as PNG (Qt Charts) and SVG (core::ScenarioSvg, the slide) without
// showing it (the headless `--scenario … --export-dir`, the dialog's Export… and the benchmark). Needs a
// QApplication; offscreen is enough.
#pragma once

#include "teaching/ScenarioChartWriter.h"

#include <QCoreApplication>
#include <QSize>

namespace onceorder::ui {

class ScenarioChartExporter : public core::ScenarioChartWriter
{
    Q_DECLARE_TR_FUNCTIONS(onceorder::ui::ScenarioChartExporter)

public:
    // The chart is laid out at `layout` (where Qt Charts' fonts read well) and drawn `scale` times as large: by
    // default a 1920×1080 picture for a projector, its text as large in the picture as in the window.
    explicit ScenarioChartExporter(QSize layout = QSize(1200, 675), qreal scale = 1.6);
    // The PNG's size: the layout times the scale.
    QSize pictureSize() const;
    bool write(const core::ScenarioChart& chart, const QString& pngPath, const QString& svgPath,
               QString* error) override;

private:
    QSize m_size;
    qreal m_scale;
};

} // namespace onceorder::ui
