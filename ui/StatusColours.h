// StatusColours: the window's good / waiting / bad colours (a placed order, a submission still retrying, a refusal or
// a duplicate row), worked out from the palette in use, so they read on a dark desktop theme as on a light one: dark
// shades on a light window, light shades on a dark one; a table row's tint mixed into the palette's own base colour,
// its text the palette's text colour.
#pragma once

#include <QColor>
#include <QString>

class QPalette;

namespace onceorder::ui {

class StatusColours
{
public:
    enum class Status
    {
        Good,
        Waiting,
        Bad
    };

    static bool isDark(const QPalette& palette);
    // A text in this status on the palette's window background.
    static QColor text(Status status, const QPalette& palette);
    // A table row in this status: the palette's base tinted with the status's hue (its text stays QPalette::Text).
    static QColor rowBackground(Status status, const QPalette& palette);
    // "QLabel { color: …; }", bold if asked: for labels whose colour is set by a style sheet.
    static QString labelSheet(Status status, const QPalette& palette, bool bold);
};

} // namespace onceorder::ui
