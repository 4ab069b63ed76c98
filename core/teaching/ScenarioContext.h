// ScenarioContext: one fresh stack for one scenario, and the small asynchronous verbs its steps are made of. It
// owns a temporary state folder, a bundled onceorder-server with debug endpoints, a NetworkConditioner in front
// of it for the engine's order traffic, the client outbox and every engine, process and HTTP call it starts;
// deleting it stops the server and removes the folder.
#pragma once

#include "net/ServerApi.h"
#include "submission/Cart.h"
#include "submission/KeyStrategy.h"
#include "submission/SubmissionEngine.h"
#include "teaching/Scenario.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>
#include <QUrl>
#include <QVariant>

#include <functional>
#include <memory>
#include <vector>

namespace onceorder::core {

class BundledServer;
class NetworkConditioner;
class Outbox;

// An engine that retries fast, so every scenario runs in seconds: 20 ms base delay, 200 ms cap.
EngineConfig fastEngineConfig();

class ScenarioContext : public QObject
{
    Q_OBJECT

public:
    explicit ScenarioContext(QObject* parent = nullptr);
    ~ScenarioContext() override;

    // Starts the bundled server (`serverExecutable`, default: onceorder-server beside this program; a test gives a
    // fake one); ready() or failed() follows.
    void start(const QString& serverExecutable = {});

    QUrl serverUrl() const { return m_serverUrl; }
    NetworkConditioner& conditioner() const { return *m_conditioner; }
    BundledServer& server() const { return *m_server; }
    QString stateDir() const { return m_dir.path(); }

    // POST /orders straight to `server` (default: the bundled one) as the client behind `apiKey`, with this exact
    // Idempotency-Key (empty: no header) and body. No retry: one request, one answer.
    void post(const QString& apiKey, const QString& key, const QByteArray& body,
              std::function<void(const HttpReply&)> done, const QUrl& server = {});
    // POST /checkout straight to the bundled server, the same way: one request, one answer.
    void checkout(const QString& apiKey, const QString& key, const QByteArray& body,
                  std::function<void(const HttpReply&)> done);
    // GET /_debug/state of `server` (default: the bundled one) as JSON (orders, payments, webhook_events, the
    // gateway's charges, PostgreSQL's waiting backends, …).
    void state(std::function<void(const QJsonObject&)> done, const QUrl& server = {});
    // POST /_debug/<what> with a JSON body; anything but 200 fails the scenario.
    void debug(const QString& what, const QByteArray& json, std::function<void()> done, const QUrl& server = {});
    // The number of orders in the server's database (GET /_debug/state).
    void countOrders(std::function<void(int)> done, const QUrl& server = {});
    // Counts the orders, then adds a row that passes when `ok` holds and the count is expectedOrders.
    void verdict(const QString& step, const QString& response, const QString& expected, bool ok, int expectedOrders,
                 std::function<void()> next, const QUrl& server = {});
    // The same, for a count that may lie in a range (a race shows "more than one").
    void verdictIf(const QString& step, const QString& response, const QString& expected, bool ok,
                   std::function<bool(int orders)> ordersOk, std::function<void()> next, const QUrl& server = {});
    void addRow(const VerdictRow& row);
    // A row for a set-up action (a mode, a fault, the network): narrated, not judged.
    void narrate(const QString& step, const QString& response) { addRow({step, response, -1, {}, true}); }

    // Values one step leaves for a later one in the same run (an order id, a URL).
    void setNote(const QString& name, const QVariant& value) { m_notes.insert(name, value); }
    QVariant note(const QString& name) const { return m_notes.value(name); }
    const QList<VerdictRow>& rows() const { return m_rows; }
    // What the scenario measured for a chart beside its table (empty: no chart).
    ScenarioChart& chart() { return m_chart; }
    const ScenarioChart& chart() const { return m_chart; }

    // Places a cart through a new SubmissionEngine (the real outbox, retry policy and the conditioner) and calls
    // `done` when it settles. `changed` sees every change of the submission (e.g. to heal the network).
    void submit(const Cart& cart, const EngineConfig& config, std::function<void(const Submission&)> changed,
                std::function<void(const Submission&)> done);

    // The PostgreSQL the PostgreSQL scenarios run on: $ONCEORDER_POSTGRES_URI, else "postgresql://" (libpq's
    // PGHOST, PGPORT, … as pg_virtualenv sets them) when PGHOST is set; empty when there is none.
    static QString postgresUri();
    // Starts another onceorder-server on a free port with its own database (unless extraArgs name a --db) and
    // these extra flags.
    void startExtraServer(const QStringList& extraArgs, std::function<void(const QUrl&)> done);
    // Runs a program to its end; `crashed` when it died from a signal.
    void runProcess(const QString& program, const QStringList& args, const QProcessEnvironment& env,
                    std::function<void(bool crashed, int exitCode, const QByteArray& out)> done);
    // Calls `done` after ms of real time (the scenario is about time: Retry-After, a key's TTL).
    void after(int ms, std::function<void()> done);

    // Ends the scenario now as failed, with the reason.
    void fail(const QString& reason);

    // "201 order 3 (replayed)", "422 /problems/idempotency-key-reused", "no response: …"
    static QString describe(const HttpReply& reply);
    static qint64 orderIdOf(const HttpReply& reply);
    static QString problemTypeOf(const HttpReply& reply);

Q_SIGNALS:
    void ready();
    void failed(const QString& reason);
    // A row was added to the table (as the steps run, so a window can show it at once).
    void rowAdded(const onceorder::core::VerdictRow& row);

private:
    ServerApi* apiFor(const QString& apiKey, const QUrl& server, bool throughConditioner);
    void onServerReady(const QUrl& url);

    QTemporaryDir m_dir; // declared first: removed last, after everything that writes into it
    BundledServer* m_server;
    NetworkConditioner* m_conditioner;
    std::unique_ptr<Outbox> m_outbox;
    std::vector<std::unique_ptr<SubmissionEngine>> m_engines; // after the outbox: destroyed before it
    QHash<QString, ServerApi*> m_apis;
    QUrl m_serverUrl;
    QList<VerdictRow> m_rows;
    ScenarioChart m_chart;
    QHash<QString, QVariant> m_notes;
    bool m_failed = false;
    int m_extraServers = 0;
};

} // namespace onceorder::core
