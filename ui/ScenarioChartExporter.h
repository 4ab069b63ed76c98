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
    // A slide-sized picture by default.
    explicit ScenarioChartExporter(QSize size = QSize(1200, 675));
    bool write(const core::ScenarioChart& chart, const QString& pngPath, const QString& svgPath,
               QString* error) override;

private:
    QSize m_size;
};

} // namespace onceorder::ui
