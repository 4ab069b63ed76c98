#include "ScenarioChartExporter.h"

#include "ScenarioChartBuilder.h"
#include "teaching/Scenario.h"
#include "teaching/ScenarioSvg.h"

#include <QChart>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSaveFile>

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
    // A scene, not a view: nothing is shown and the chart has exactly the picture's size.
    QGraphicsScene scene;
    QChart* chart = ScenarioChartBuilder::build(data);
    scene.addItem(chart); // the scene owns it from here
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(m_size)));
    chart->setBackgroundRoundness(0);
    const QRectF area(QPointF(0, 0), QSizeF(m_size));
    scene.setSceneRect(area);

    QImage image(pictureSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(image.size())), area); // scaled: vectors, not pixels
    }
    QSaveFile png(pngPath);
    if (!png.open(QIODevice::WriteOnly) || !image.save(&png, "PNG") || !png.commit()) {
        *error = tr("cannot write %1").arg(pngPath);
        return false;
    }

    // The SVG is the slide (projector-sized, centred text), drawn from the data alone; the same in the dialog's
    // Export… and the headless export.
    return core::ScenarioSvg::write(data, svgPath, error);
}

} // namespace onceorder::ui
