// ScenarioChartExporter: writes a scenario's chart as SVG (core::ScenarioSvg, the slide) and as PNG drawn from that
// SVG (core::ScenarioSvg::writeBoth), so both files show the same slide, without showing it (the headless
// `--scenario … --export-dir`, the dialog's Export… and the benchmark). Needs a QGuiApplication; offscreen is enough.
#pragma once

#include "teaching/ScenarioChartWriter.h"

#include <QSize>

namespace onceorder::ui {

class ScenarioChartExporter : public core::ScenarioChartWriter
{
public:
    // The PNG is `layout` drawn `scale` times as large: by default 1920×1080 for a projector, the SVG's own size (a
    // size of another aspect would stretch the slide).
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
