#include "TableCells.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableWidget>

#include <algorithm>

namespace onceorder::ui {

QTableWidget* TableCells::makeTable(const QString& objectName, const QStringList& headers)
{
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()));
    table->setObjectName(objectName);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

namespace {

// QTableView's measure of a column's cells is protected; a pointer to it taken through a subclass is not.
struct ColumnMeasure : QTableView
{
    using QTableView::sizeHintForColumn;
};
constexpr int (QTableView::*kSizeHintForColumn)(int) const = &ColumnMeasure::sizeHintForColumn;

} // namespace

void TableCells::holdContentWidth(QTableView* table)
{
    const QHeaderView* header = table->horizontalHeader();
    int width = 2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
    for (int column = 0; column < header->count(); ++column) {
        if (!header->isSectionHidden(column)) {
            // The cells measured as the header fits them: the first rows only (resizeContentsPrecision).
            width += std::max(header->sectionSizeHint(column), (table->*kSizeHintForColumn)(column));
        }
    }
    table->setMinimumWidth(width);
}

void TableCells::fitColumns(QTableView* table)
{
    QHeaderView* header = table->horizontalHeader();
    const bool stretch = header->stretchLastSection();
    header->setStretchLastSection(false);
    table->resizeColumnsToContents();
    header->setStretchLastSection(stretch); // remembers the fitted width as the least it falls back to
}

QTableWidgetItem* TableCells::numberItem(const QString& text)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

QTableWidgetItem* TableCells::numberItem(qint64 value)
{
    return numberItem(QString::number(value));
}

} // namespace onceorder::ui
