// TableCells: how the window's read-only lists are made (whole rows selected, nothing edited in place, columns fitted
// to their text) and how a number sits in one of their cells (right-aligned).
#pragma once

#include <QString>
#include <QStringList>

class QTableView;
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
    // Holds the table at least as wide as its columns' titles and cells need in its current font, so a narrow window
    // scrolls instead of eliding them ("Kniha: Idempotence v pr…"). Call after the rows or the zoom change.
    static void holdContentWidth(QTableView* table);
    // resizeColumnsToContents, the stretched last column included: it stretches over spare room but no longer falls
    // back to a width fitted earlier (another zoom) and elides when there is none; the table scrolls instead.
    static void fitColumns(QTableView* table);
};

} // namespace onceorder::ui
