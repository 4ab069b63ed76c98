// The pixels of a PNG that differ from an SVG drawn by QSvgRenderer: the check that an exported PNG is its SVG drawn
// (issue 40), shared by the dialog's Export… test and the headless export's.
#pragma once

#include <QImage>
#include <QPainter>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QSvgRenderer>

#include <cstdlib>

namespace onceorder::test {

// The pixels of `png` that differ (by more than a rounding step in any channel) from `svg` drawn onto white at the
// PNG's size.
inline int differingPixels(const QImage& png, QSvgRenderer& svg)
{
    QImage drawn(png.size(), QImage::Format_ARGB32_Premultiplied);
    drawn.fill(Qt::white);
    {
        QPainter painter(&drawn);
        svg.render(&painter, QRectF(QPointF(0, 0), QSizeF(drawn.size())));
    }
    const QImage picture = png.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    int differing = 0;
    for (int y = 0; y < drawn.height(); ++y) {
        const auto* a = reinterpret_cast<const QRgb*>(drawn.constScanLine(y));
        const auto* b = reinterpret_cast<const QRgb*>(picture.constScanLine(y));
        for (int x = 0; x < drawn.width(); ++x) {
            const bool same = std::abs(qRed(a[x]) - qRed(b[x])) <= 2 && std::abs(qGreen(a[x]) - qGreen(b[x])) <= 2 &&
                std::abs(qBlue(a[x]) - qBlue(b[x])) <= 2 && std::abs(qAlpha(a[x]) - qAlpha(b[x])) <= 2;
            differing += same ? 0 : 1;
        }
    }
    return differing;
}

} // namespace onceorder::test
