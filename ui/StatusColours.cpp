#include "StatusColours.h"

#include <QPalette>

namespace onceorder::ui {

namespace {

QColor mixed(const QColor& base, const QColor& hue, double amount)
{
    const auto channel = [amount](int from, int to) {
        return static_cast<int>(from + (to - from) * amount + 0.5);
    };
    return QColor(channel(base.red(), hue.red()), channel(base.green(), hue.green()), channel(base.blue(), hue.blue()));
}

QColor hue(StatusColours::Status status)
{
    switch (status) {
    case StatusColours::Status::Good:
        return QColor(0x2e, 0xa0, 0x4f);
    case StatusColours::Status::Waiting:
        return QColor(0xf0, 0xa8, 0x00);
    case StatusColours::Status::Bad:
        return QColor(0xd9, 0x30, 0x25);
    }
    return {};
}

} // namespace

bool StatusColours::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

QColor StatusColours::text(Status status, const QPalette& palette)
{
    // Chosen for a contrast of at least 4.5:1 (WCAG AA) on white and on the usual dark greys (#2a2a2e and darker).
    const bool dark = isDark(palette);
    switch (status) {
    case Status::Good:
        return dark ? QColor(0x7e, 0xe2, 0x9a) : QColor(0x1e, 0x7d, 0x3a);
    case Status::Waiting:
        return dark ? QColor(0xff, 0xc8, 0x5c) : QColor(0x8a, 0x4b, 0x00);
    case Status::Bad:
        return dark ? QColor(0xff, 0x9a, 0x8f) : QColor(0xb3, 0x26, 0x1e);
    }
    return palette.color(QPalette::WindowText);
}

QColor StatusColours::rowBackground(Status status, const QPalette& palette)
{
    // Pale on a light base (#fde2e1-like for a bad row), deep on a dark one: the palette's text reads on both.
    return mixed(palette.color(QPalette::Base), hue(status), isDark(palette) ? 0.38 : 0.16);
}

QString StatusColours::labelSheet(Status status, const QPalette& palette, bool bold)
{
    return QStringLiteral("QLabel { color: %1;%2 }")
        .arg(text(status, palette).name(), bold ? QStringLiteral(" font-weight: bold;") : QString());
}

} // namespace onceorder::ui
