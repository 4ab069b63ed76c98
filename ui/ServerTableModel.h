// ServerTableModel: one of the server's tables (idempotency keys, orders, stock, and the checkout flow's key rows,
// gateway charges and webhook events) from a ServerState snapshot,
// for a QTableView. Snapshots arrive every half second, so an unchanged table stays untouched and new rows are
// inserted rather than the whole view reset (the selection and the scroll position survive).
#pragma once

#include "server/ServerState.h"

#include <QAbstractTableModel>
#include <QList>
#include <QStringList>

namespace onceorder::ui {

class ServerTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Table
    {
        Keys,
        Orders,
        Stock,
        CheckoutKeys,
        Charges,
        Webhooks
    };
    // Highlight of a row, exposed for tests and delegates.
    static constexpr int HighlightRole = Qt::UserRole + 1;
    enum class Highlight
    {
        None,
        Pending,
        Warning
    };

    explicit ServerTableModel(Table table, QObject* parent = nullptr);

    // Returns whether the rows changed (an unchanged table emits nothing).
    bool setState(const core::ServerState& state);
    void clear();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QStringList cells;
        QStringList toolTips;
        Highlight highlight = Highlight::None;
        bool operator==(const Row&) const = default;
    };

    QList<Row> rowsOf(const core::ServerState& state) const;
    static QList<Row> orderRows(const core::ServerState& state);
    static QList<Row> checkoutKeyRows(const core::ServerState& state);
    static QList<Row> chargeRows(const core::ServerState& state);
    bool replaceRows(QList<Row> rows);
    bool isNumeric(int column) const;

    Table m_table;
    QList<Row> m_rows;
};

} // namespace onceorder::ui
