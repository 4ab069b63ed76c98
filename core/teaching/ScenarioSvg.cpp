#include "teaching/ScenarioSvg.h"

#include "teaching/Scenario.h"

#include <QImage>
#include <QLocale>
#include <QPainter>
#include <QSaveFile>
#include <QSvgRenderer>
#include <QXmlStreamWriter>

#include <algorithm>
#include <cmath>

namespace onceorder::core {

namespace {

// Colour-blind safe (Okabe–Ito), as in the window's chart: vermilion for the mistake, blue for the fix.
const char* const kSeriesColours[] = {"#d55e00", "#0072b2", "#009e73", "#cc79a7"};
const char* const kCapacityColour = "#555555";
const char* const kInk = "#222222";
const char* const kGrid = "#dddddd";
const char* const kFonts = "DejaVu Sans, Arial, Helvetica, sans-serif";

constexpr double kLeft = 170;
constexpr double kRight = ScenarioSvg::kWidth - 70;
constexpr double kTop = 130;
constexpr double kBottom = 820;
constexpr int kTitlePx = 46;
constexpr int kMinTitlePx = 32;
constexpr int kLabelPx = 28;
constexpr int kAxisTitlePx = 30;
constexpr int kLegendPx = 28;

// A text's width in a sans-serif font, roughly: enough to decide whether it fits, never to place it (placing is
// text-anchor's job).
double estimatedWidth(const QString& text, double px)
{
    return static_cast<double>(text.size()) * px * 0.58;
}

// 1, 2 or 5 times a power of ten, so that about `ticks` steps cover `range`.
double niceStep(double range, int ticks)
{
    const double raw = std::max(range, 1.0) / ticks;
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (factor * power >= raw) {
            return factor * power;
        }
    }
    return 10 * power;
}

QString number(double value)
{
    return QString::number(value, 'f', 1);
}

class Svg
{
public:
    explicit Svg(QString* out)
        : m_xml(out)
    {
        m_xml.setAutoFormatting(true);
    }

    QXmlStreamWriter& xml() { return m_xml; }

    void line(double x1, double y1, double x2, double y2, const char* colour, double width)
    {
        m_xml.writeEmptyElement(QStringLiteral("line"));
        m_xml.writeAttribute(QStringLiteral("x1"), number(x1));
        m_xml.writeAttribute(QStringLiteral("y1"), number(y1));
        m_xml.writeAttribute(QStringLiteral("x2"), number(x2));
        m_xml.writeAttribute(QStringLiteral("y2"), number(y2));
        m_xml.writeAttribute(QStringLiteral("stroke"), QString::fromLatin1(colour));
        m_xml.writeAttribute(QStringLiteral("stroke-width"), number(width));
    }

    void text(const QString& cls, double x, double y, int px, const QString& anchor, const QString& content,
              bool bold = false, const QString& transform = {})
    {
        m_xml.writeStartElement(QStringLiteral("text"));
        m_xml.writeAttribute(QStringLiteral("class"), cls);
        m_xml.writeAttribute(QStringLiteral("x"), number(x));
        m_xml.writeAttribute(QStringLiteral("y"), number(y));
        m_xml.writeAttribute(QStringLiteral("font-size"), QString::number(px));
        m_xml.writeAttribute(QStringLiteral("text-anchor"), anchor);
        if (bold) {
            m_xml.writeAttribute(QStringLiteral("font-weight"), QStringLiteral("bold"));
        }
        if (!transform.isEmpty()) {
            m_xml.writeAttribute(QStringLiteral("transform"), transform);
        }
        m_xml.writeCharacters(content);
        m_xml.writeEndElement();
    }

private:
    QXmlStreamWriter m_xml;
};

struct LegendItem
{
    QString name;
    const char* colour;
};

// Where a time (ms after the cut) and a value fall on the picture.
struct Axes
{
    double xEnd;
    double yEnd;
    double x(double ms) const { return kLeft + (kRight - kLeft) * ms / xEnd; }
    double y(double value) const { return kBottom - (kBottom - kTop) * value / yEnd; }
};

// The document, the <svg> element with its size and font, its title and a white background.
void writeHeader(QXmlStreamWriter& xml, const QString& title)
{
    xml.writeStartDocument();
    xml.writeStartElement(QStringLiteral("svg"));
    xml.writeDefaultNamespace(QStringLiteral("http://www.w3.org/2000/svg"));
    xml.writeAttribute(QStringLiteral("width"), QString::number(ScenarioSvg::kWidth));
    xml.writeAttribute(QStringLiteral("height"), QString::number(ScenarioSvg::kHeight));
    xml.writeAttribute(QStringLiteral("viewBox"),
                       QStringLiteral("0 0 %1 %2").arg(ScenarioSvg::kWidth).arg(ScenarioSvg::kHeight));
    xml.writeAttribute(QStringLiteral("font-family"), QString::fromLatin1(kFonts));
    xml.writeAttribute(QStringLiteral("fill"), QString::fromLatin1(kInk));
    xml.writeTextElement(QStringLiteral("title"), title);

    xml.writeEmptyElement(QStringLiteral("rect"));
    xml.writeAttribute(QStringLiteral("width"), QString::number(ScenarioSvg::kWidth));
    xml.writeAttribute(QStringLiteral("height"), QString::number(ScenarioSvg::kHeight));
    xml.writeAttribute(QStringLiteral("fill"), QStringLiteral("#ffffff"));
}

void writeSeries(QXmlStreamWriter& xml, const ScenarioChart& chart, const QList<LegendItem>& legend, const Axes& axes)
{
    // Each series as steps: a value holds for its bucket, then the line moves to the next one.
    for (qsizetype i = 0; i < chart.series.size(); ++i) {
        const QList<int>& values = chart.series.at(i).values;
        QStringList points;
        for (qsizetype bucket = 0; bucket < values.size(); ++bucket) {
            const double from = static_cast<double>(bucket * chart.bucketMs);
            points << number(axes.x(from)) + u',' + number(axes.y(values.at(bucket)))
                   << number(axes.x(from + chart.bucketMs)) + u',' + number(axes.y(values.at(bucket)));
        }
        xml.writeEmptyElement(QStringLiteral("polyline"));
        xml.writeAttribute(QStringLiteral("class"), QStringLiteral("series"));
        xml.writeAttribute(QStringLiteral("points"), points.join(u' '));
        xml.writeAttribute(QStringLiteral("fill"), QStringLiteral("none"));
        xml.writeAttribute(QStringLiteral("stroke"), QString::fromLatin1(legend.at(i).colour));
        xml.writeAttribute(QStringLiteral("stroke-width"), QStringLiteral("5"));
        xml.writeAttribute(QStringLiteral("stroke-linejoin"), QStringLiteral("round"));
    }
}

void writeLegend(QXmlStreamWriter& xml, const QList<LegendItem>& legend)
{
    // The legend, centred below: one line when it fits, else one item per line.
    double legendWidth = 0;
    for (const LegendItem& item : legend) {
        legendWidth += estimatedWidth(QStringLiteral("■ ") + item.name + QStringLiteral("     "), kLegendPx);
    }
    QList<QList<LegendItem>> rows;
    if (legendWidth <= ScenarioSvg::kWidth - 100) {
        rows.append(legend);
    } else {
        for (const LegendItem& item : legend) {
            rows.append({item});
        }
    }
    double rowY = ScenarioSvg::kHeight - 22 - (rows.size() - 1) * (kLegendPx + 10);
    for (const QList<LegendItem>& row : rows) {
        xml.writeStartElement(QStringLiteral("text"));
        xml.writeAttribute(QStringLiteral("class"), QStringLiteral("legend"));
        xml.writeAttribute(QStringLiteral("x"), number(ScenarioSvg::kWidth / 2.0));
        xml.writeAttribute(QStringLiteral("y"), number(rowY));
        xml.writeAttribute(QStringLiteral("font-size"), QString::number(kLegendPx));
        xml.writeAttribute(QStringLiteral("text-anchor"), QStringLiteral("middle"));
        xml.writeAttribute(QStringLiteral("xml:space"), QStringLiteral("preserve"));
        for (qsizetype i = 0; i < row.size(); ++i) {
            xml.writeStartElement(QStringLiteral("tspan"));
            xml.writeAttribute(QStringLiteral("fill"), QString::fromLatin1(row.at(i).colour));
            xml.writeCharacters(QStringLiteral("■ "));
            xml.writeEndElement();
            xml.writeCharacters(row.at(i).name + (i + 1 < row.size() ? QStringLiteral("     ") : QString()));
        }
        xml.writeEndElement();
        rowY += kLegendPx + 10;
    }
}

} // namespace

QString ScenarioSvg::render(const ScenarioChart& chart)
{
    // The extent of the data: the longest series, the highest value (and the capacity line).
    qsizetype buckets = 1;
    int highest = std::max(1, chart.capacity);
    for (const ChartSeries& series : chart.series) {
        buckets = std::max(buckets, series.values.size());
        for (const int value : series.values) {
            highest = std::max(highest, value);
        }
    }
    const double xStep = niceStep(static_cast<double>(buckets * chart.bucketMs), 8);
    const double xEnd = std::ceil(static_cast<double>(buckets * chart.bucketMs) / xStep) * xStep;
    const double yStep = std::max(1.0, niceStep(highest + 1, 6));
    const double yEnd = std::ceil((highest + 1) / yStep) * yStep;
    const Axes axes {xEnd, yEnd};
    const auto x = [&axes](double ms) {
        return axes.x(ms);
    };
    const auto y = [&axes](double value) {
        return axes.y(value);
    };

    QString out;
    Svg svg(&out);
    QXmlStreamWriter& xml = svg.xml();
    writeHeader(xml, chart.title);

    // The title, centred on the picture; smaller only when it would not fit on one line.
    const int titlePx = std::clamp(static_cast<int>((kWidth - 120) / std::max(1.0, estimatedWidth(chart.title, 1.0))),
                                   kMinTitlePx, kTitlePx);
    svg.text(QStringLiteral("title"), kWidth / 2.0, 78, titlePx, QStringLiteral("middle"), chart.title, true);

    // Grid and tick labels.
    for (double value = 0; value <= yEnd + 1e-9; value += yStep) {
        svg.line(kLeft, y(value), kRight, y(value), kGrid, 1.5);
        svg.text(QStringLiteral("tick"), kLeft - 16, y(value) + kLabelPx * 0.35, kLabelPx, QStringLiteral("end"),
                 QLocale().toString(static_cast<int>(value)));
    }
    for (double ms = 0; ms <= xEnd + 1e-9; ms += xStep) {
        svg.line(x(ms), kTop, x(ms), kBottom, kGrid, 1.5);
        svg.text(QStringLiteral("tick"), x(ms), kBottom + 42, kLabelPx, QStringLiteral("middle"),
                 QLocale().toString(static_cast<int>(ms)));
    }
    svg.line(kLeft, kBottom, kRight, kBottom, kInk, 2);
    svg.line(kLeft, kTop, kLeft, kBottom, kInk, 2);
    svg.text(QStringLiteral("axis-title"), (kLeft + kRight) / 2, kBottom + 96, kAxisTitlePx, QStringLiteral("middle"),
             chart.xTitle, true);
    const double yTitleX = 52;
    const double yTitleY = (kTop + kBottom) / 2;
    svg.text(QStringLiteral("axis-title"), yTitleX, yTitleY, kAxisTitlePx, QStringLiteral("middle"), chart.yTitle, true,
             QStringLiteral("rotate(-90 %1 %2)").arg(number(yTitleX), number(yTitleY)));

    // The capacity line under the series, dashed.
    QList<LegendItem> legend;
    qsizetype colour = 0;
    for (const ChartSeries& series : chart.series) {
        legend.append({series.name, kSeriesColours[colour++ % std::size(kSeriesColours)]});
    }
    if (chart.capacity >= 0) {
        xml.writeEmptyElement(QStringLiteral("line"));
        xml.writeAttribute(QStringLiteral("class"), QStringLiteral("capacity"));
        xml.writeAttribute(QStringLiteral("x1"), number(x(0)));
        xml.writeAttribute(QStringLiteral("y1"), number(y(chart.capacity)));
        xml.writeAttribute(QStringLiteral("x2"), number(x(xEnd)));
        xml.writeAttribute(QStringLiteral("y2"), number(y(chart.capacity)));
        xml.writeAttribute(QStringLiteral("stroke"), QString::fromLatin1(kCapacityColour));
        xml.writeAttribute(QStringLiteral("stroke-width"), QStringLiteral("3"));
        xml.writeAttribute(QStringLiteral("stroke-dasharray"), QStringLiteral("18 10"));
        legend.append({chart.capacityName, kCapacityColour});
    }
    writeSeries(xml, chart, legend, axes);

    writeLegend(xml, legend);
    xml.writeEndElement(); // svg
    xml.writeEndDocument();
    return out;
}

namespace {

bool writeSvgText(const QString& svg, const QString& path, QString* error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(svg.toUtf8()) < 0 || !file.commit()) {
        *error = ScenarioResult::tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}

} // namespace

bool ScenarioSvg::write(const ScenarioChart& chart, const QString& path, QString* error)
{
    return writeSvgText(render(chart), path, error);
}

bool ScenarioSvg::writePng(const QString& svg, QSize size, const QString& path, QString* error)
{
    QSvgRenderer renderer(svg.toUtf8());
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    if (renderer.isValid()) {
        QPainter painter(&image);
        renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size))); // vectors scaled, not pixels
    }
    QSaveFile png(path);
    if (!renderer.isValid() || !png.open(QIODevice::WriteOnly) || !image.save(&png, "PNG") || !png.commit()) {
        *error = ScenarioResult::tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}

bool ScenarioSvg::writeBoth(const ScenarioChart& chart, const QString& pngPath, QSize pngSize, const QString& svgPath,
                            QString* error)
{
    // One text for both files: the PNG is the SVG drawn, so they cannot disagree (title, axes, "1 000").
    const QString svg = render(chart);
    return writeSvgText(svg, svgPath, error) && writePng(svg, pngSize, pngPath, error);
}

} // namespace onceorder::core
