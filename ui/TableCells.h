// TableCells: how the window's read-only lists are made (whole rows selected, nothing edited in place, columns fitted
// to their text) and how a number sits in one of their cells (right-aligned).
#pragma once

#include <QString>
#include <QStringList>

class QTableWidget;
class QTableWidgetItem;

namespace onceorder::ui {

class TableCells
{
public:
    // Without a parent: the caller puts it in a layout, which gives it one.
    static QTableWidget* makeTable(const QString& objectName, const QStringList& headers);
    static QTableWidgetItem* numberItem(const QString& text);
    static QTableWidgetItem* numberItem(qint64 value);
};

} // namespace onceorder::ui
