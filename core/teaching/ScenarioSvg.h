// ScenarioSvg: a scenario's chart as an SVG slide, drawn from the data alone, and its PNG drawn from that SVG's own
// text (Qt Svg's renderer, no widgets), so the two files show the same slide. Made for a projector at 1920 × 1080:
// every text at least 28 px at that size, the title and the legend centred with text-anchor="middle" (so they stay
// centred whatever font the viewer substitutes), each series a step line that ends on the axis.
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
    // Draws `svg` (render()'s text) on white into a PNG of `size` at path (atomically); false with `error` set when it
    // could not. Needs a QGuiApplication (for the fonts); offscreen is enough.
    static bool writePng(const QString& svg, QSize size, const QString& path, QString* error);
    // The slide as both files: the SVG, and the PNG drawn from it at `pngSize`. The dialog's Export… and the headless
    // `--scenario … --export-dir` both write through here.
    static bool writeBoth(const ScenarioChart& chart, const QString& pngPath, QSize pngSize, const QString& svgPath,
                          QString* error);
};

} // namespace onceorder::core
