// The live tables' models: parsing /_debug/state, QAbstractItemModelTester on every kind of update, the duplicate
// highlight. Most slots use hand-written JSON in the server's format; realServersDebugState parses what the real
// onceorder-server answers, so the parser and the server cannot drift apart unnoticed.
#include "ServerTableModel.h"
#include "ServerTablesDock.h"
#include "net/ServerApi.h"
#include "server/ServerMonitor.h"
#include "server/ServerState.h"
#include "support/Http.h"
#include "support/ServerProcess.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTranslator>

using namespace onceorder;

namespace {

const QByteArray kState = R"({"keys":[
 {"client_id":"A","idem_key":"3f1c9a52-8d7e-4d8e-9a53-0d4b7e3c2f10","fingerprint":"ab12cd34ef56ab12cd34ef56","status":"completed",
  "response_code":201,"order_id":1,"created_at":"2026-12-02T09:00:00.000Z","expires_at":"2026-12-03T09:00:00.000Z"},
 {"client_id":"B","idem_key":"k2","fingerprint":"ff00","status":"started","response_code":null,"order_id":null,
  "created_at":"2026-12-02T09:00:01.000Z","expires_at":"2026-12-03T09:00:01.000Z"}],
 "orders":[
 {"order_id":1,"status":"placed","cart_id":"cart-1","items":[{"product":"kniha","quantity":2},{"product":"hrnek","quantity":1}],
  "created_at":"2026-12-02T09:00:00.000Z","client_id":"A","idem_key":"3f1c9a52-8d7e-4d8e-9a53-0d4b7e3c2f10"}],
 "products":[{"id":"hrnek","name":"Hrnek","stock":49},{"id":"kniha","name":"Kniha","stock":98}],
 "fault":{"fault":"delay","remaining":2,"delay_ms":3000,"retry_after":1},
 "modes":{"check_then_insert":false,"unscoped_keys":true,"store_transient":false,"business_key_off":true}})";

core::ServerOrderRow order(qint64 id, const QString& cart, const QString& client = QStringLiteral("A"))
{
    core::ServerOrderRow row;
    row.orderId = id;
    row.cartId = cart;
    row.clientId = client;
    row.items = QStringLiteral("kniha × 1");
    return row;
}

} // namespace

class ServerTableModelTest : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesTheDebugState();
    void rejectsWhatIsNotADebugState();
    void parsesTheClientsOrders();
    void keysModelShowsStatusCodeAndFingerprintPrefix();
    void updatesPassTheModelTester();
    void anUnchangedSnapshotTouchesNothing();
    void oneCartOrderedTwiceIsHighlighted();
    void theCheckoutTablesShowRecoveryPointsChargesAndWebhooks();
    void parsesTheRealServersDebugState();
    void czechShowsServerValuesInCzechAndIdsAsTheyAre();
    void theDockShowsABackendWaitingOnALock();
    void theDockFitsTheColumnsOfTheTablesThatChangedOnly();
    void aColumnIsFittedToTheNewestRowsNotAllOfThem();
};

void ServerTableModelTest::parsesTheDebugState()
{
    const auto state = core::ServerState::fromJson(kState);
    QVERIFY(state);
    QCOMPARE(state->keys.size(), 2);
    QCOMPARE(state->keys[0].responseCode, 201);
    QCOMPARE(state->keys[0].orderId, 1);
    QCOMPARE(state->keys[1].responseCode, 0);
    QCOMPARE(state->keys[1].status, QStringLiteral("started"));
    QCOMPARE(state->orders.size(), 1);
    QCOMPARE(state->orders[0].items, QStringLiteral("kniha × 2, hrnek × 1"));
    QCOMPARE(state->orders[0].clientId, QStringLiteral("A"));
    QCOMPARE(state->stock.size(), 2);
    QCOMPARE(state->stock[1].stock, 98);
    QCOMPARE(state->fault.fault, QStringLiteral("delay"));
    QCOMPARE(state->fault.remaining, 2);
    QVERIFY(state->modes.unscopedKeys);
    QVERIFY(state->modes.businessKeyOff);
    QVERIFY(!state->modes.checkThenInsert);
    QCOMPARE(state->totalKeys, 2); // no "totals" (an older server): the lists are complete
    QCOMPARE(state->totalOrders, 1);
}

void ServerTableModelTest::rejectsWhatIsNotADebugState()
{
    QVERIFY(!core::ServerState::fromJson("not json"));
    QVERIFY(!core::ServerState::fromJson(R"({"type":"not-found","status":404})"));
}

void ServerTableModelTest::parsesTheClientsOrders()
{
    const auto orders = core::ServerState::ordersFromJson(
        R"([{"order_id":2,"status":"placed","items":[{"product":"propiska","quantity":3}],"created_at":"x"},
            {"order_id":1,"status":"placed","cart_id":"c","items":[],"created_at":"y"}])");
    QCOMPARE(orders.size(), 2);
    QCOMPARE(orders[0].orderId, 2);
    QCOMPARE(orders[0].items, QStringLiteral("propiska × 3"));
    QCOMPARE(orders[1].cartId, QStringLiteral("c"));
}

void ServerTableModelTest::keysModelShowsStatusCodeAndFingerprintPrefix()
{
    ui::ServerTableModel keys(ui::ServerTableModel::Table::Keys);
    QAbstractItemModelTester tester(&keys, QAbstractItemModelTester::FailureReportingMode::QtTest);
    keys.setState(*core::ServerState::fromJson(kState));
    QCOMPARE(keys.rowCount(), 2);
    QCOMPARE(keys.columnCount(), 7);
    QCOMPARE(keys.headerData(2, Qt::Horizontal).toString(), QStringLiteral("Status"));
    QCOMPARE(keys.index(0, 0).data().toString(), QStringLiteral("A"));
    QCOMPARE(keys.index(0, 1).data().toString(), QStringLiteral("3f1c9a52…2f10"));
    QCOMPARE(keys.index(0, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("3f1c9a52-8d7e-4d8e-9a53-0d4b7e3c2f10"));
    QCOMPARE(keys.index(0, 2).data().toString(), QStringLiteral("completed"));
    QCOMPARE(keys.index(0, 3).data().toString(), QStringLiteral("ab12cd34ef56"));
    QCOMPARE(keys.index(0, 4).data().toString(), QStringLiteral("201"));
    QCOMPARE(keys.index(1, 2).data().toString(), QStringLiteral("in progress"));
    QCOMPARE(keys.index(1, 4).data().toString(), QStringLiteral("—"));
    QCOMPARE(keys.index(1, 0).data(ui::ServerTableModel::HighlightRole).toInt(),
             static_cast<int>(ui::ServerTableModel::Highlight::Pending));

    ui::ServerTableModel stock(ui::ServerTableModel::Table::Stock);
    QAbstractItemModelTester stockTester(&stock, QAbstractItemModelTester::FailureReportingMode::QtTest);
    stock.setState(*core::ServerState::fromJson(kState));
    QCOMPARE(stock.rowCount(), 2);
    QCOMPARE(stock.index(1, 0).data().toString(), QStringLiteral("Kniha"));
    QCOMPARE(stock.index(1, stock.columnCount() - 1).data().toString(), QStringLiteral("98"));
}

void ServerTableModelTest::updatesPassTheModelTester()
{
    ui::ServerTableModel orders(ui::ServerTableModel::Table::Orders);
    QAbstractItemModelTester tester(&orders, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&orders, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&orders, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&orders, &QAbstractItemModel::dataChanged);

    core::ServerState state;
    state.orders = {order(1, QStringLiteral("c1"))};
    orders.setState(state); // appended to nothing
    state.orders.append(order(2, QStringLiteral("c2")));
    orders.setState(state); // appended: an insert, the view keeps its place
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(reset.count(), 0);

    state.orders[1].items = QStringLiteral("hrnek × 4");
    orders.setState(state); // same rows, new content
    QCOMPARE(changed.count(), 1);
    QCOMPARE(orders.index(1, 2).data().toString(), QStringLiteral("hrnek × 4"));

    state.orders = {order(9, QStringLiteral("c9"))};
    orders.setState(state); // after a reset of the server: fewer rows
    QCOMPARE(reset.count(), 1);
    QCOMPARE(orders.rowCount(), 1);

    orders.clear();
    QCOMPARE(orders.rowCount(), 0);
    QVERIFY(!orders.index(0, 0).isValid());
}

void ServerTableModelTest::anUnchangedSnapshotTouchesNothing()
{
    ui::ServerTableModel keys(ui::ServerTableModel::Table::Keys);
    keys.setState(*core::ServerState::fromJson(kState));
    QSignalSpy changed(&keys, &QAbstractItemModel::dataChanged);
    QSignalSpy reset(&keys, &QAbstractItemModel::modelReset);
    keys.setState(*core::ServerState::fromJson(kState));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(reset.count(), 0);
}

void ServerTableModelTest::oneCartOrderedTwiceIsHighlighted()
{
    ui::ServerTableModel orders(ui::ServerTableModel::Table::Orders);
    QAbstractItemModelTester tester(&orders, QAbstractItemModelTester::FailureReportingMode::QtTest);
    core::ServerState state;
    // Client B's cart with the same id is another cart: keys and carts are scoped to the client.
    state.orders = {order(1, QStringLiteral("c1")), order(2, QStringLiteral("c1")), order(3, QStringLiteral("c2")),
                    order(4, QStringLiteral("c2"), QStringLiteral("B"))};
    orders.setState(state);
    const auto highlight = [&](int row) {
        return static_cast<ui::ServerTableModel::Highlight>(
            orders.index(row, 0).data(ui::ServerTableModel::HighlightRole).toInt());
    };
    QCOMPARE(highlight(0), ui::ServerTableModel::Highlight::Warning);
    QCOMPARE(highlight(1), ui::ServerTableModel::Highlight::Warning);
    QCOMPARE(highlight(2), ui::ServerTableModel::Highlight::None);
    QCOMPARE(highlight(3), ui::ServerTableModel::Highlight::None);
    QVERIFY(orders.index(0, 0).data(Qt::BackgroundRole).isValid());
    QVERIFY(orders.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("2 times")));
}

void ServerTableModelTest::parsesTheRealServersDebugState()
{
    using namespace onceorder::test;
    TempDir dir;
    ServerProcess server({"--db", dir.file("server.db"), "--debug-endpoints"});
    auto http = server.client();
    // Two orders (one of them with a cart and two lines), an out-of-stock refusal, a paid checkout with its charge
    // and webhook, a fault and a mode left armed.
    QCOMPARE(postOrder(*http, "demo-key-A", "k1", R"({"product":"kniha","quantity":2})").status, 201);
    QCOMPARE(postOrder(*http, "demo-key-B", "k2",
                       R"({"cart_id":"cart-9","items":[{"product":"hrnek","quantity":1},)"
                       R"({"product":"propiska","quantity":3}]})")
                 .status,
             201);
    QCOMPARE(postOrder(*http, "demo-key-A", "k3", R"({"product":"kniha","quantity":1000})").status, 422);
    const auto paid =
        http->Post("/checkout", {{"Authorization", "Bearer demo-key-A"}, {"Idempotency-Key", "\"pay-1\""}},
                   R"({"product":"hrnek","quantity":1,"payment_method":"card"})", "application/json");
    QVERIFY(paid);
    QCOMPARE(paid->status, 201);
    QCOMPARE(postJson(*http, "/_debug/faults", R"({"fault":"delay","count":2,"delay_ms":5})").status, 200);
    QCOMPARE(postJson(*http, "/_debug/mode", R"({"business_key_off":true})").status, 200);
    // The gateway delivers its webhook from an outbox, after the checkout has answered: read the state once the
    // event has arrived.
    Reply reply;
    std::optional<core::ServerState> state;
    QTRY_VERIFY_WITH_TIMEOUT((reply = get(*http, "/_debug/state"),
                              state = core::ServerState::fromJson(QByteArray::fromStdString(reply.body)),
                              state && !state->webhooks.isEmpty()),
                             10'000);
    QCOMPARE(reply.status, 200);
    QCOMPARE(state->database, QStringLiteral("sqlite"));
    QCOMPARE(state->keys.size(), 3);
    QCOMPARE(state->totalKeys, 3);
    QCOMPARE(state->orders.size(), 3); // the two orders and the checkout's
    QCOMPARE(state->totalOrders, 3);
    const auto keyRow = [&](const QString& key) {
        return *std::find_if(state->keys.begin(), state->keys.end(), [&](const auto& row) { return row.key == key; });
    };
    QCOMPARE(keyRow(QStringLiteral("k1")).clientId, QStringLiteral("A"));
    QCOMPARE(keyRow(QStringLiteral("k1")).status, QStringLiteral("completed"));
    QCOMPARE(keyRow(QStringLiteral("k1")).responseCode, 201);
    QVERIFY(keyRow(QStringLiteral("k1")).orderId > 0);
    QVERIFY(keyRow(QStringLiteral("k1")).fingerprint.size() >= 8);
    QVERIFY(keyRow(QStringLiteral("k1")).createdAt.endsWith(u'Z'));
    QVERIFY(keyRow(QStringLiteral("k1")).expiresAt > keyRow(QStringLiteral("k1")).createdAt);
    QCOMPARE(keyRow(QStringLiteral("k3")).responseCode, 422);
    QCOMPARE(keyRow(QStringLiteral("k3")).orderId, 0);
    const auto orderRow = [&](const QString& key) {
        return *std::find_if(state->orders.begin(), state->orders.end(),
                             [&](const auto& row) { return row.idempotencyKey == key; });
    };
    QCOMPARE(orderRow(QStringLiteral("k2")).clientId, QStringLiteral("B"));
    QCOMPARE(orderRow(QStringLiteral("k2")).cartId, QStringLiteral("cart-9"));
    QCOMPARE(orderRow(QStringLiteral("k2")).items, QStringLiteral("hrnek × 1, propiska × 3"));
    QCOMPARE(orderRow(QStringLiteral("k1")).items, QStringLiteral("kniha × 2"));
    QCOMPARE(orderRow(QStringLiteral("k1")).status, QStringLiteral("placed"));
    QCOMPARE(orderRow(QStringLiteral("pay-1")).status, QStringLiteral("paid"));
    QCOMPARE(state->stock.size(), 3);
    for (const auto& product : state->stock) {
        if (product.productId == u"kniha") {
            QCOMPARE(product.stock, 98);
        }
        QVERIFY(!product.name.isEmpty());
    }
    QCOMPARE(state->fault.fault, QStringLiteral("delay"));
    QCOMPARE(state->fault.remaining, 2);
    QCOMPARE(state->fault.delayMs, 5);
    QVERIFY(state->modes.businessKeyOff);
    QVERIFY(!state->modes.checkThenInsert);

    QCOMPARE(state->checkoutKeys.size(), 1);
    QCOMPARE(state->checkoutKeys[0].key, QStringLiteral("pay-1"));
    QCOMPARE(state->checkoutKeys[0].recoveryPoint, QStringLiteral("finished"));
    QCOMPARE(state->checkoutKeys[0].responseCode, 201);
    QVERIFY(!state->checkoutKeys[0].locked);
    QVERIFY(!state->checkoutKeys[0].chargeId.isEmpty());
    QCOMPARE(state->charges.size(), 1);
    QCOMPARE(state->totalCharges, 1);
    QCOMPARE(state->charges[0].chargeId, state->checkoutKeys[0].chargeId);
    QCOMPARE(state->charges[0].outcome, QStringLiteral("succeeded"));
    QCOMPARE(state->charges[0].method, QStringLiteral("card"));
    QVERIFY(state->charges[0].amountCents > 0);
    QVERIFY(state->charges[0].gatewayKey.startsWith(QStringLiteral("onceorder-")));
    QVERIFY(!state->charges[0].recordedBy.isEmpty()); // checkout or webhook, whichever came first
    QCOMPARE(state->checkoutFault.fault, QStringLiteral("none"));
    QCOMPARE(state->gatewayFault.fault, QStringLiteral("none"));

    // And the models take it as they take the hand-written states.
    for (auto table : {ui::ServerTableModel::Table::Keys, ui::ServerTableModel::Table::Orders,
                       ui::ServerTableModel::Table::Stock, ui::ServerTableModel::Table::CheckoutKeys,
                       ui::ServerTableModel::Table::Charges, ui::ServerTableModel::Table::Webhooks}) {
        ui::ServerTableModel model(table);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setState(*state);
        QVERIFY(model.rowCount() > 0);
    }
}

void ServerTableModelTest::theCheckoutTablesShowRecoveryPointsChargesAndWebhooks()
{
    // As OrderQueries::debugStateJson writes it mid-way: one checkout finished, one stopped after the gateway charged
    // (its payment not recorded by us yet), and a webhook delivered twice.
    const QByteArray json = R"({"keys":[],"orders":[],"products":[],
     "checkout_keys":[
      {"id":1,"client_id":"A","idem_key":"pay-1","recovery_point":"finished","order_id":1,"charge_id":"ch_1",
       "response_code":201,"locked":false},
      {"id":2,"client_id":"A","idem_key":"pay-2","recovery_point":"order_created","order_id":2,"charge_id":null,
       "response_code":null,"locked":true}],
     "payments":[{"charge_id":"ch_1","order_id":1,"amount":19900,"source":"webhook"}],
     "webhook_events":[{"event_id":"evt_1","type":"charge.succeeded","effect":"applied"},
                       {"event_id":"evt_2","type":"charge.succeeded","effect":"no-change"}],
     "totals":{"keys":0,"orders":0,"checkout_keys":2,"payments":1,"webhook_events":5,"gateway_charges":2},
     "checkout_fault":{"fault":"crash-after-charge","remaining":1,"delay_ms":0,"retry_after":1},
     "gateway_fault":{"fault":"none","remaining":0,"delay_ms":0,"retry_after":1},
     "gateway":{"charges":[
      {"charge_id":"ch_1","idempotency_key":"onceorder-abc-checkout-1","amount":19900,"method":"card","outcome":"succeeded"},
      {"charge_id":"ch_2","idempotency_key":"onceorder-abc-checkout-2","amount":39805,"method":"card","outcome":"succeeded"}]}})";
    const auto state = core::ServerState::fromJson(json);
    QVERIFY(state);
    QCOMPARE(state->checkoutFault.fault, QStringLiteral("crash-after-charge"));
    QCOMPARE(state->gatewayFault.remaining, 0);
    QCOMPARE(state->totalWebhooks, 5); // a capped list: the totals count every row, not the two listed
    QCOMPARE(state->totalCharges, 2);

    ui::ServerTableModel keys(ui::ServerTableModel::Table::CheckoutKeys);
    QAbstractItemModelTester keysTester(&keys, QAbstractItemModelTester::FailureReportingMode::QtTest);
    keys.setState(*state);
    QCOMPARE(keys.rowCount(), 2);
    QCOMPARE(keys.index(0, 3).data().toString(), QStringLiteral("finished"));
    QCOMPARE(keys.index(0, 5).data().toString(), QStringLiteral("ch_1"));
    QCOMPARE(keys.index(1, 3).data().toString(), QStringLiteral("order created")); // words; the id is in the tip
    QVERIFY(keys.index(1, 3).data(Qt::ToolTipRole).toString().contains(QStringLiteral("order_created")));
    QCOMPARE(keys.index(1, 5).data().toString(), QStringLiteral("—"));
    QCOMPARE(keys.index(1, 7).data().toString(), QStringLiteral("locked"));
    QCOMPARE(keys.index(0, 0).data(ui::ServerTableModel::HighlightRole).toInt(),
             static_cast<int>(ui::ServerTableModel::Highlight::None));
    QCOMPARE(keys.index(1, 0).data(ui::ServerTableModel::HighlightRole).toInt(),
             static_cast<int>(ui::ServerTableModel::Highlight::Pending));

    ui::ServerTableModel charges(ui::ServerTableModel::Table::Charges);
    QAbstractItemModelTester chargesTester(&charges, QAbstractItemModelTester::FailureReportingMode::QtTest);
    charges.setState(*state);
    QCOMPARE(charges.rowCount(), 2);
    QCOMPARE(charges.index(0, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("onceorder-abc-checkout-1"));
    QCOMPARE(charges.index(0, 2).data().toString(), QStringLiteral("199.00"));
    QCOMPARE(charges.index(1, 2).data().toString(), QStringLiteral("398.05"));
    QCOMPARE(charges.index(0, 4).data().toString(), QStringLiteral("charged"));
    QCOMPARE(charges.index(0, 5).data().toString(), QStringLiteral("webhook"));
    QCOMPARE(charges.index(1, 5).data().toString(), QStringLiteral("—"));
    // Charged at the gateway, not yet recorded by us: what the completer or the webhook still has to settle.
    QCOMPARE(charges.index(1, 0).data(ui::ServerTableModel::HighlightRole).toInt(),
             static_cast<int>(ui::ServerTableModel::Highlight::Pending));
    QCOMPARE(charges.index(0, 0).data(ui::ServerTableModel::HighlightRole).toInt(),
             static_cast<int>(ui::ServerTableModel::Highlight::None));

    ui::ServerTableModel webhooks(ui::ServerTableModel::Table::Webhooks);
    QAbstractItemModelTester webhooksTester(&webhooks, QAbstractItemModelTester::FailureReportingMode::QtTest);
    webhooks.setState(*state);
    QCOMPARE(webhooks.rowCount(), 2);
    QCOMPARE(webhooks.index(1, 2).data().toString(), QStringLiteral("no change"));
    QCOMPARE(webhooks.index(1, 2).data(Qt::ToolTipRole).toString(), QStringLiteral("no-change"));
    QCOMPARE(webhooks.index(1, 1).data().toString(), QStringLiteral("charge.succeeded")); // the gateway's id
}

void ServerTableModelTest::czechShowsServerValuesInCzechAndIdsAsTheyAre()
{
    // A translator of our own (not Translations::install), so it goes away with this test.
    QTranslator czech;
    QVERIFY(czech.load(QStringLiteral(":/onceorder/i18n/onceorder_cs.qm")));
    QVERIFY(QCoreApplication::installTranslator(&czech));
    const QByteArray json = R"({"keys":[
     {"client_id":"A","idem_key":"k1","fingerprint":"ab","status":"completed","response_code":201,"order_id":1,
      "created_at":"2026-12-02T09:00:00.000Z","expires_at":"2026-12-03T09:00:00.000Z"}],
     "orders":[{"order_id":1,"status":"placed","cart_id":"cart-1","items":[{"product":"kniha","quantity":1}],
                "created_at":"2026-12-02T09:00:00.000Z","client_id":"A","idem_key":"k1"},
               {"order_id":2,"status":"pending","cart_id":"cart-2","items":[{"product":"kniha","quantity":1}],
                "created_at":"2026-12-02T09:00:01.000Z","client_id":"A","idem_key":"k2"}],
     "products":[],
     "checkout_keys":[{"id":1,"client_id":"A","idem_key":"pay-1","recovery_point":"payment_charged","order_id":2,
                       "charge_id":"ch_1","response_code":null,"locked":false}],
     "payments":[{"charge_id":"ch_1","order_id":2,"amount":19900,"source":"checkout"}],
     "webhook_events":[{"event_id":"evt_1","type":"charge.succeeded","effect":"duplicate"}],
     "gateway":{"charges":[{"charge_id":"ch_1","idempotency_key":"g-1","amount":19900,"method":"card",
                            "outcome":"succeeded"}]}})";
    const auto state = core::ServerState::fromJson(json);
    QVERIFY(state);

    ui::ServerTableModel orders(ui::ServerTableModel::Table::Orders);
    orders.setState(*state);
    QCOMPARE(orders.headerData(3, Qt::Horizontal).toString(), QStringLiteral("Stav"));
    QCOMPARE(orders.index(0, 3).data().toString(), QStringLiteral("vytvořena"));
    QCOMPARE(orders.index(1, 3).data().toString(), QStringLiteral("čeká na platbu"));
    QCOMPARE(orders.index(0, 3).data(Qt::ToolTipRole).toString(), QStringLiteral("placed"));
    QCOMPARE(orders.index(0, 4).data().toString(), QStringLiteral("cart-1")); // ids stay as they are

    ui::ServerTableModel keys(ui::ServerTableModel::Table::Keys);
    keys.setState(*state);
    QCOMPARE(keys.index(0, 2).data().toString(), QStringLiteral("dokončeno"));
    QCOMPARE(keys.index(0, 1).data().toString(), QStringLiteral("k1"));

    ui::ServerTableModel checkout(ui::ServerTableModel::Table::CheckoutKeys);
    checkout.setState(*state);
    QCOMPARE(checkout.index(0, 3).data().toString(), QStringLiteral("platba stržena"));
    QVERIFY(checkout.index(0, 3).data(Qt::ToolTipRole).toString().contains(QStringLiteral("payment_charged")));

    ui::ServerTableModel charges(ui::ServerTableModel::Table::Charges);
    charges.setState(*state);
    QCOMPARE(charges.index(0, 3).data().toString(), QStringLiteral("karta"));
    QCOMPARE(charges.index(0, 4).data().toString(), QStringLiteral("strženo"));
    QCOMPARE(charges.index(0, 5).data().toString(), QStringLiteral("pokladna"));

    ui::ServerTableModel webhooks(ui::ServerTableModel::Table::Webhooks);
    webhooks.setState(*state);
    QCOMPARE(webhooks.index(0, 2).data().toString(), QStringLiteral("opakování, ignorováno"));
    QCOMPARE(webhooks.index(0, 1).data().toString(), QStringLiteral("charge.succeeded"));
    QCOMPARE(webhooks.index(0, 0).data().toString(), QStringLiteral("evt_1"));
}

QTEST_MAIN(ServerTableModelTest)
void ServerTableModelTest::theDockShowsABackendWaitingOnALock()
{
    // A PostgreSQL server's state while a duplicate's INSERT waits on the key's index entry (the shape
    // PgOrderStore::debugState writes; PostgresEndToEndTest checks the real one).
    const QByteArray waiting = R"({"database":"postgresql","keys":[],"orders":[],"products":[],
     "waiting":[{"pid":4242,"lock":"transactionid","query":"INSERT INTO idempotency_keys (client_id, idem_key)\n  VALUES",
                 "waiting_ms":812,"blocked_by":[4241]}]})";
    const auto state = core::ServerState::fromJson(waiting);
    QVERIFY(state);
    QCOMPARE(state->waiting.size(), 1);
    QCOMPARE(state->waiting[0].blockedBy, QList<qint64>({4241}));

    core::ServerApi api(QUrl(QStringLiteral("http://127.0.0.1:1")), QStringLiteral("demo-key-A"));
    core::ServerMonitor monitor(&api);
    ui::ServerTablesDock dock(&monitor);
    QVERIFY(dock.waitingLabel()->isHidden());
    monitor.acceptState(*state);
    QVERIFY(!dock.waitingLabel()->isHidden());
    QCOMPARE(dock.waitingLabel()->text(),
             QStringLiteral("PostgreSQL backend 4242 has waited 812 ms on a lock (transactionid) held by 4241: "
                            "INSERT INTO idempotency_keys (client_id, idem_key) VALUES"));

    // The first copy committed: nothing waits, the line goes.
    auto done = *state;
    done.waiting.clear();
    monitor.acceptState(done);
    QVERIFY(dock.waitingLabel()->isHidden());
}

void ServerTableModelTest::theDockFitsTheColumnsOfTheTablesThatChangedOnly()
{
    // Fitting a table's columns measures every cell: a refresh does it only for the tables whose rows changed, so a
    // column the teacher widened by hand keeps its width while other tables move, and a table on a tab behind
    // another is fitted when it is brought to the front.
    core::ServerApi api(QUrl(QStringLiteral("http://127.0.0.1:1")), QStringLiteral("demo-key-A"));
    core::ServerMonitor monitor(&api);
    ui::ServerTablesDock dock(&monitor);
    dock.resize(1200, 500);
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    auto* keysView = dock.findChild<QTableView*>(QStringLiteral("keysView"));
    auto* chargesView = dock.findChild<QTableView*>(QStringLiteral("chargesView"));
    auto* sideTabs = dock.findChild<QTabWidget*>(QStringLiteral("sideTabs"));
    QVERIFY(keysView && chargesView && sideTabs);

    auto state = *core::ServerState::fromJson(kState);
    monitor.acceptState(state);
    QVERIFY(keysView->isVisible());
    QVERIFY(!chargesView->isVisible()); // the stock tab is in front
    const int fitted = keysView->columnWidth(0);
    keysView->setColumnWidth(0, fitted + 150); // widened by hand
    chargesView->setColumnWidth(0, 400);

    // Only the orders (and a charge, behind its tab) change: the keys table keeps the width it was given.
    state.orders.append(order(2, QStringLiteral("cart-2")));
    core::ServerChargeRow charge;
    charge.chargeId = QStringLiteral("ch_1");
    charge.gatewayKey = QStringLiteral("checkout-1");
    charge.amountCents = 1250;
    charge.outcome = QStringLiteral("succeeded");
    state.charges.append(charge);
    monitor.acceptState(state);
    QCOMPARE(dock.ordersModel()->rowCount(), 2);
    QCOMPARE(keysView->columnWidth(0), fitted + 150);
    QCOMPARE(chargesView->columnWidth(0), 400); // not fitted while hidden

    // Brought to the front, the changed table is fitted to its contents.
    sideTabs->setCurrentIndex(1);
    QVERIFY(chargesView->isVisible());
    QVERIFY(chargesView->columnWidth(0) < 400);

    // The keys change: now their columns are fitted again.
    state.keys[1].status = QStringLiteral("completed");
    monitor.acceptState(state);
    QCOMPARE(keysView->columnWidth(0), fitted);
}

void ServerTableModelTest::aColumnIsFittedToTheNewestRowsNotAllOfThem()
{
    // The live tables hold up to 200 rows, newest first. Fitting a column measures the rows in view and
    // kColumnFitRows after them: a long text far below does not widen the column (nor cost the measurement).
    core::ServerApi api(QUrl(QStringLiteral("http://127.0.0.1:1")), QStringLiteral("demo-key-A"));
    core::ServerMonitor monitor(&api);
    ui::ServerTablesDock dock(&monitor);
    dock.resize(1200, 500);
    dock.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dock));
    auto* ordersView = dock.findChild<QTableView*>(QStringLiteral("ordersView"));
    QVERIFY(ordersView && ordersView->isVisible());
    QCOMPARE(ordersView->horizontalHeader()->resizeContentsPrecision(), ui::kColumnFitRows);

    core::ServerState state;
    for (qint64 id = 200; id >= 1; --id) {
        state.orders.append(order(id, QStringLiteral("cart-%1").arg(id)));
    }
    const QString longItems = QStringLiteral("kniha × 1, ").repeated(12);
    state.orders[150].items = longItems; // far below the rows in view
    monitor.acceptState(state);
    constexpr int kItems = 2;
    const int longWidth = ordersView->fontMetrics().horizontalAdvance(longItems);
    QVERIFY(ordersView->columnWidth(kItems) < longWidth / 2);

    state.orders[1].items = longItems; // in view: the column grows to show it
    monitor.acceptState(state);
    QVERIFY(ordersView->columnWidth(kItems) >= longWidth);
}

#include "ServerTableModelTest.moc"
