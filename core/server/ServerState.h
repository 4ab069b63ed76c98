// ServerState: one snapshot of the server's tables as GET /_debug/state reports them, parsed for display.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace onceorder::core {

struct ServerKeyRow
{
    QString clientId;
    QString key;
    QString fingerprint;
    QString status; // "started" or "completed"
    int responseCode = 0; // 0: none stored yet
    qint64 orderId = 0; // 0: no order
    QString createdAt; // ISO 8601, as the server wrote it
    QString expiresAt;
    bool operator==(const ServerKeyRow&) const = default;
};

struct ServerOrderRow
{
    qint64 orderId = 0;
    QString status;
    QString cartId;
    QString clientId; // only in /_debug/state; GET /orders answers for the caller alone
    QString idempotencyKey;
    QString items; // "kniha × 2, hrnek × 1"
    QString createdAt;
    bool operator==(const ServerOrderRow&) const = default;
};

struct ServerStockRow
{
    QString productId;
    QString name;
    qint64 stock = 0;
    bool operator==(const ServerStockRow&) const = default;
};

struct ServerFault
{
    QString fault = QStringLiteral("none");
    int remaining = 0;
    int delayMs = 0;
    int retryAfter = 0;
    bool operator==(const ServerFault&) const = default;
};

struct ServerModes
{
    bool checkThenInsert = false;
    bool unscopedKeys = false;
    bool storeTransient = false;
    bool businessKeyOff = false;
    bool operator==(const ServerModes&) const = default;
};

// A POST /checkout key row: how far its phases got (Brandur Leach's recovery point) and whether a request holds it.
struct ServerCheckoutKeyRow
{
    qint64 id = 0; // the row id the gateway's key is derived from
    QString clientId;
    QString key;
    QString recoveryPoint; // started, order_created, payment_charged, finished
    qint64 orderId = 0;
    QString chargeId;
    int responseCode = 0;
    bool locked = false;
    bool operator==(const ServerCheckoutKeyRow&) const = default;
};

// One charge in the stub payment gateway's own books, and whether our side recorded it as a payment.
struct ServerChargeRow
{
    QString chargeId;
    QString gatewayKey; // the Idempotency-Key we sent the gateway: derived from our row id, never the client's
    qint64 amountCents = 0;
    QString method;
    QString outcome; // succeeded, declined
    QString recordedBy; // the payments row's source: checkout or webhook; empty: not recorded
    bool operator==(const ServerChargeRow&) const = default;
};

struct ServerWebhookRow
{
    QString eventId;
    QString type;
    QString effect; // applied, no-change, ignored
    bool operator==(const ServerWebhookRow&) const = default;
};

// A PostgreSQL backend waiting on a lock (pg_stat_activity): what "the second INSERT waits on the index" looks like.
struct ServerWaitingRow
{
    qint64 pid = 0;
    QString lock; // pg_stat_activity.wait_event: transactionid, tuple, …
    QString query;
    qint64 waitingMs = 0;
    QList<qint64> blockedBy;
    bool operator==(const ServerWaitingRow&) const = default;
};

// The live tables ask for the newest rows only: a database after a benchmark holds 100,000 orders (46 MB of JSON).
inline constexpr int kLiveRowLimit = 200;
// path ("/orders", "/_debug/state", …) asking for the newest kLiveRowLimit rows.
inline QString withLiveLimit(const QString& path)
{
    return path + QStringLiteral("?limit=%1").arg(kLiveRowLimit);
}

struct ServerState
{
    QString database; // where the server keeps its rows: "sqlite" or "postgresql" (empty: it does not say)
    QList<ServerKeyRow> keys;
    QList<ServerOrderRow> orders;
    QList<ServerStockRow> stock;
    ServerFault fault;
    ServerModes modes;
    // The checkout flow; empty when the server has none.
    QList<ServerCheckoutKeyRow> checkoutKeys;
    QList<ServerChargeRow> charges;
    QList<ServerWebhookRow> webhooks;
    QList<ServerWaitingRow> waiting; // PostgreSQL only
    ServerFault checkoutFault;
    ServerFault gatewayFault;
    // The full counts ("totals"); the lists above may hold only the newest kLiveRowLimit rows.
    qint64 totalKeys = 0;
    qint64 totalOrders = 0;
    qint64 totalCheckoutKeys = 0;
    qint64 totalCharges = 0;
    qint64 totalWebhooks = 0;
    bool operator==(const ServerState&) const = default;

    // Parses GET /_debug/state; nullopt when the body is not the expected JSON object.
    static std::optional<ServerState> fromJson(const QByteArray& json);
    // Parses GET /orders (the same order objects, without client_id and idem_key).
    static QList<ServerOrderRow> ordersFromJson(const QByteArray& json);
};

} // namespace onceorder::core
