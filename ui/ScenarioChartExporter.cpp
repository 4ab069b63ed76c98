#include "ScenarioChartExporter.h"

#include "ScenarioChartBuilder.h"
#include "teaching/Scenario.h"

#include <QChart>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace onceorder::ui {

ScenarioChartExporter::ScenarioChartExporter(QSize size)
    : m_size(size)
{
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

    QImage image(m_size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        scene.render(&painter, area, area);
    }
    QSaveFile png(pngPath);
    if (!png.open(QIODevice::WriteOnly) || !image.save(&png, "PNG") || !png.commit()) {
        *error = tr("cannot write %1").arg(pngPath);
        return false;
    }

    QSvgGenerator svg;
    svg.setFileName(svgPath);
    svg.setSize(m_size);
    svg.setViewBox(area);
    svg.setTitle(data.title);
    {
        QPainter painter;
        if (!painter.begin(&svg)) {
            *error = tr("cannot write %1").arg(svgPath);
            return false;
        }
        scene.render(&painter, area, area);
    }
    if (QFileInfo(svgPath).size() == 0) {
        *error = tr("cannot write %1").arg(svgPath);
        return false;
    }
    return true;
}

} // namespace onceorder::ui
