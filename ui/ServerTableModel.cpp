#include "ServerTableModel.h"

#include "ServerWords.h"
#include "StatusColours.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QGuiApplication>
#include <QHash>
#include <QPalette>

#include <algorithm>

namespace onceorder::ui {

namespace {

// The server writes UTC ISO 8601; a class reads local wall-clock time.
QString localTime(const QString& iso)
{
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) : iso;
}

QString shortKey(const QString& key)
{
    return key.size() > 13 ? key.left(8) + QStringLiteral("…") + key.right(4) : key;
}

QString money(qint64 cents)
{
    return QStringLiteral("%1.%2").arg(cents / 100).arg(cents % 100, 2, 10, QLatin1Char('0'));
}

} // namespace

ServerTableModel::ServerTableModel(Table table, QObject* parent)
    : QAbstractTableModel(parent)
    , m_table(table)
{
}

bool ServerTableModel::setState(const core::ServerState& state)
{
    return replaceRows(rowsOf(state));
}

void ServerTableModel::clear()
{
    replaceRows({});
}

QList<ServerTableModel::Row> ServerTableModel::orderRows(const core::ServerState& state)
{
    QList<Row> rows;
    // The mistake the article is about: one cart, two orders. Make it impossible to miss.
    QHash<QString, int> ordersPerCart;
    for (const auto& order : state.orders) {
        if (!order.cartId.isEmpty()) {
            ++ordersPerCart[order.clientId + u'/' + order.cartId];
        }
    }
    for (const auto& order : state.orders) {
        const int sameCart = order.cartId.isEmpty() ? 1 : ordersPerCart.value(order.clientId + u'/' + order.cartId);
        Row row;
        row.cells = {QString::number(order.orderId),
                     order.clientId,
                     order.items,
                     ServerWords::orderStatus(order.status),
                     shortKey(order.cartId),
                     order.idempotencyKey.isEmpty() ? tr("(none)") : shortKey(order.idempotencyKey),
                     localTime(order.createdAt)};
        const QString duplicate =
            sameCart > 1 ? tr("Duplicate: this cart was ordered %n times", nullptr, sameCart) : QString();
        row.toolTips = {duplicate,      QString(), QString(), order.status, order.cartId, order.idempotencyKey,
                        order.createdAt};
        row.highlight = sameCart > 1 ? Highlight::Warning : Highlight::None;
        rows.append(row);
    }
    return rows;
}

QList<ServerTableModel::Row> ServerTableModel::checkoutKeyRows(const core::ServerState& state)
{
    QList<Row> rows;
    for (const auto& key : state.checkoutKeys) {
        Row row;
        row.cells = {QString::number(key.id),
                     key.clientId,
                     shortKey(key.key),
                     ServerWords::recoveryPoint(key.recoveryPoint),
                     key.orderId ? QString::number(key.orderId) : QStringLiteral("—"),
                     key.chargeId.isEmpty() ? QStringLiteral("—") : key.chargeId,
                     key.responseCode ? QString::number(key.responseCode) : QStringLiteral("—"),
                     key.locked ? tr("locked") : QString()};
        row.toolTips = {
            tr("The gateway's key is derived from this row id"), QString(), key.key,
            tr("The last finished phase (%1): a retry or the completer resumes after it").arg(key.recoveryPoint)};
        row.highlight = key.recoveryPoint == u"finished" ? Highlight::None : Highlight::Pending;
        rows.append(row);
    }
    return rows;
}

QList<ServerTableModel::Row> ServerTableModel::chargeRows(const core::ServerState& state)
{
    QList<Row> rows;
    for (const auto& charge : state.charges) {
        Row row;
        row.cells = {charge.chargeId,
                     shortKey(charge.gatewayKey),
                     money(charge.amountCents),
                     ServerWords::paymentMethod(charge.method),
                     ServerWords::chargeOutcome(charge.outcome),
                     charge.recordedBy.isEmpty() ? QStringLiteral("—") : ServerWords::recordedBy(charge.recordedBy)};
        row.toolTips = {QString(), charge.gatewayKey};
        // Money taken that our side has not recorded yet: what the completer or the webhook must settle.
        const bool unrecorded = charge.outcome == u"succeeded" && charge.recordedBy.isEmpty();
        row.highlight = unrecorded ? Highlight::Pending : Highlight::None;
        rows.append(row);
    }
    return rows;
}

QList<ServerTableModel::Row> ServerTableModel::rowsOf(const core::ServerState& state) const
{
    QList<Row> rows;
    switch (m_table) {
    case Table::Keys:
        for (const auto& key : state.keys) {
            Row row;
            row.cells = {key.clientId,
                         shortKey(key.key),
                         ServerWords::keyStatus(key.status),
                         key.fingerprint.left(12),
                         key.responseCode ? QString::number(key.responseCode) : QStringLiteral("—"),
                         key.orderId ? QString::number(key.orderId) : QStringLiteral("—"),
                         localTime(key.expiresAt)};
            row.toolTips = {QString(), key.key, key.status, key.fingerprint, QString(), QString(), key.expiresAt};
            row.highlight = key.status == u"completed" ? Highlight::None : Highlight::Pending;
            rows.append(row);
        }
        break;
    case Table::Orders:
        return orderRows(state);
    case Table::Stock:
        for (const auto& product : state.stock) {
            Row row;
            row.cells = {product.name, QString::number(product.stock)};
            row.toolTips = {product.productId, QString()};
            row.highlight = product.stock == 0 ? Highlight::Warning : Highlight::None;
            rows.append(row);
        }
        break;
    case Table::CheckoutKeys:
        return checkoutKeyRows(state);
    case Table::Charges:
        return chargeRows(state);
    case Table::Webhooks:
        for (const auto& event : state.webhooks) {
            Row row;
            // The event id and its type are the gateway's identifiers; what the event did is said in words.
            row.cells = {event.eventId, event.type, ServerWords::webhookEffect(event.effect)};
            row.toolTips = {QString(), QString(), event.effect};
            rows.append(row);
        }
        break;
    }
    return rows;
}

bool ServerTableModel::replaceRows(QList<Row> rows)
{
    if (rows == m_rows) {
        return false;
    }
    const qsizetype old = m_rows.size();
    const bool appended = rows.size() > old && std::equal(m_rows.cbegin(), m_rows.cend(), rows.cbegin());
    if (appended) {
        beginInsertRows({}, static_cast<int>(old), static_cast<int>(rows.size() - 1));
        m_rows = std::move(rows);
        endInsertRows();
    } else if (rows.size() == old) {
        m_rows = std::move(rows);
        Q_EMIT dataChanged(index(0, 0), index(static_cast<int>(old - 1), columnCount() - 1));
    } else {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    return true;
}

int ServerTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ServerTableModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid()) {
        return 0;
    }
    switch (m_table) {
    case Table::Keys:
        return 7;
    case Table::Orders:
        return 7;
    case Table::Stock:
        return 2;
    case Table::CheckoutKeys:
        return 8;
    case Table::Charges:
        return 6;
    case Table::Webhooks:
        return 3;
    }
    return 0;
}

bool ServerTableModel::isNumeric(int column) const
{
    switch (m_table) {
    case Table::Keys:
        return column == 4 || column == 5;
    case Table::Orders:
        return column == 0;
    case Table::Stock:
        return column == 1;
    case Table::CheckoutKeys:
        return column == 0 || column == 4 || column == 6;
    case Table::Charges:
        return column == 2;
    case Table::Webhooks:
        return false;
    }
    return false;
}

QVariant ServerTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Row& row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return row.cells.value(index.column());
    case Qt::ToolTipRole: {
        const QString tip = row.toolTips.value(index.column());
        return tip.isEmpty() ? QVariant() : tip;
    }
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(isNumeric(index.column()) ? Qt::AlignRight | Qt::AlignVCenter
                                                                           : Qt::AlignLeft | Qt::AlignVCenter));
    case Qt::BackgroundRole:
        switch (row.highlight) {
        case Highlight::None:
            return {};
        case Highlight::Pending: // amber: the key is taken, the answer not yet stored
            return QBrush(StatusColours::rowBackground(StatusColours::Status::Waiting, QGuiApplication::palette()));
        case Highlight::Warning: // red: a duplicate order or an empty shelf
            return QBrush(StatusColours::rowBackground(StatusColours::Status::Bad, QGuiApplication::palette()));
        }
        return {};
    case Qt::ForegroundRole:
        // The palette's text on the tint made from its base: pale under dark text, deep under light text.
        return row.highlight == Highlight::None ? QVariant() : QBrush(QGuiApplication::palette().color(QPalette::Text));
    case HighlightRole:
        return static_cast<int>(row.highlight);
    default:
        return {};
    }
}

QVariant ServerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (m_table) {
    case Table::Keys: {
        const QStringList headers {tr("Client"),      tr("Key"),         tr("Status"),
                                   tr("Fingerprint"), tr("Stored code"), tr("Order", "a column of order ids"),
                                   tr("Expires")};
        return headers.value(section);
    }
    case Table::Orders: {
        const QStringList headers {tr("Order", "a column of order ids"),
                                   tr("Client"),
                                   tr("Items"),
                                   tr("Status"),
                                   tr("Cart"),
                                   tr("Key"),
                                   tr("Created")};
        return headers.value(section);
    }
    case Table::Stock: {
        const QStringList headers {tr("Product"), tr("Stock")};
        return headers.value(section);
    }
    case Table::CheckoutKeys: {
        const QStringList headers {tr("Row"),   tr("Client"), tr("Key"),         tr("Recovery point"),
                                   tr("Order"), tr("Charge"), tr("Stored code"), tr("Lock")};
        return headers.value(section);
    }
    case Table::Charges: {
        const QStringList headers {
            tr("Charge"), tr("Our key at the gateway"), tr("Amount"), tr("Method"), tr("Outcome"), tr("Recorded by")};
        return headers.value(section);
    }
    case Table::Webhooks: {
        const QStringList headers {tr("Event"), tr("Type"), tr("Effect")};
        return headers.value(section);
    }
    }
    return {};
}

} // namespace onceorder::ui
