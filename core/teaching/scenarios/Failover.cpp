// Failover: what the key can promise when the database forgets. A server with a standby (POST /_debug/replication)
// acknowledges an order; its process is killed (SIGKILL) and a new server is started on the standby's file, the
// standby promoted. With asynchronous replication the 201 went out before the standby had the order: the order and
// its key are gone, and the client's retry with the same key places a new order. With synchronous replication the 201
// waited for the standby: the order survives, and the retry is a replay. The servers are this scenario's own
// processes, children of the context, which kills what is left of them when it goes.
#include "teaching/scenarios/ScenarioSteps.h"
#include "teaching/scenarios/Scenarios.h"

#include "net/ServerApi.h"
#include "server/BundledServer.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include <memory>
#include <optional>

namespace onceorder::core::scenarios {

namespace {

constexpr int kRequestTimeoutMs = 5000;

// Notes: the acknowledged order's id, and the database file of the running primary.
const QString kAcknowledged = QStringLiteral("acknowledged");
const QString kPrimaryDb = QStringLiteral("primary-db");

// The processes and their URLs are noted under these names.
const QString kPrimary = QStringLiteral("primary");
const QString kPromoted = QStringLiteral("promoted");

QUrl urlOf(ScenarioContext& c, const QString& server)
{
    return c.note(server).toUrl();
}

// A server of this scenario's own on `db`, with debug endpoints; its URL is noted under `name` once it listens.
void startServer(ScenarioContext& c, const QString& db, const QString& name, Next next)
{
    auto* process = new QProcess(&c);
    process->setObjectName(name);
    process->setStandardErrorFile(db + QStringLiteral(".log"), QIODevice::Append);
    auto buffer = std::make_shared<QByteArray>();
    QObject::connect(process, &QProcess::readyReadStandardOutput, &c, [&c, process, buffer, name, next] {
        *buffer += process->readAllStandardOutput();
        const qsizetype newline = buffer->indexOf('\n');
        if (newline < 0 || process->property("ready").toBool()) {
            return;
        }
        process->setProperty("ready", true);
        const QByteArray line = buffer->left(newline).trimmed();
        const std::optional<QUrl> url = BundledServer::urlFromReadyLine(line);
        if (!url) {
            c.fail(ScenarioText::tr("unexpected first line from the server: %1").arg(QString::fromUtf8(line)));
            return;
        }
        c.setNote(name, *url);
        next();
    });
    QObject::connect(process, &QProcess::finished, &c, [&c, process, db] {
        if (!process->property("ready").toBool()) {
            c.fail(ScenarioText::tr("the server on %1 ended before it listened (its log: %1.log)").arg(db));
        }
    });
    QObject::connect(process, &QProcess::errorOccurred, &c, [&c, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            c.fail(ScenarioText::tr("cannot start %1: %2").arg(process->program(), process->errorString()));
        }
    });
    process->start(BundledServer::defaultExecutable(),
                   {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--debug-endpoints"),
                    QStringLiteral("--db"), db});
}

// kill -9 of the server noted under `name`, as abrupt as a machine that loses power: nothing is flushed or closed.
void killServer(ScenarioContext& c, const QString& name, Next next)
{
    auto* process = c.findChild<QProcess*>(name, Qt::FindDirectChildrenOnly);
    if (!process) {
        c.fail(ScenarioText::tr("no server named %1 to kill").arg(name));
        return;
    }
    process->setObjectName(QString());
    process->disconnect(&c);
    QObject::connect(process, &QProcess::finished, &c, [process, next] {
        process->deleteLater();
        next();
    });
    process->kill();
}

// One request, one answer, as `apiKey`, to the server noted under `server`.
ServerApi* apiOf(ScenarioContext& c, const QString& apiKey, const QString& server)
{
    return new ServerApi(urlOf(c, server), apiKey, &c);
}

QJsonObject replicationOf(const QJsonObject& state)
{
    return state.value(QLatin1String("replication")).toObject();
}

// "shipped 0 of 1 commits, 1 behind"
QString replicationText(const QJsonObject& replication)
{
    return ScenarioText::tr("%1: the standby holds %2 of %3 commits, %4 behind")
        .arg(replication.value(QLatin1String("mode")).toString())
        .arg(replication.value(QLatin1String("shipped")).toInteger())
        .arg(replication.value(QLatin1String("commits")).toInteger())
        .arg(replication.value(QLatin1String("behind")).toInteger());
}

// A primary on a database of its own with replication set by `settings`.
ScenarioStep primaryStep(const QString& file, const QByteArray& settings, const QString& narration)
{
    return [=](ScenarioContext& c, Next next) {
        const QString db = QDir(c.stateDir()).filePath(file);
        c.setNote(kPrimaryDb, db);
        startServer(c, db, kPrimary, [&c, settings, narration, next] {
            ServerApi* api = apiOf(c, QStringLiteral("demo-key-admin"), kPrimary);
            api->postJson(QStringLiteral("/_debug/replication"), settings, kRequestTimeoutMs,
                          [&c, api, settings, narration, next](const HttpReply& reply) {
                              api->deleteLater();
                              if (reply.status != 200) {
                                  c.fail(ScenarioText::tr("POST /_debug/replication answered %1")
                                             .arg(ScenarioContext::describe(reply)));
                                  return;
                              }
                              c.narrate(narration,
                                        QStringLiteral("POST /_debug/replication %1").arg(fieldsInWords(settings)));
                              next();
                          });
        });
    };
}

ScenarioStep orderStep(const QString& key)
{
    return [key](ScenarioContext& c, Next next) {
        c.post(
            kClientA, key, kBook,
            [&c, key, next](const HttpReply& r) {
                c.setNote(kAcknowledged, ScenarioContext::orderIdOf(r));
                c.verdict(ScenarioText::tr("primary: A: %1, kniha × 1").arg(key), ScenarioContext::describe(r),
                          ScenarioText::tr("201, a new order: the client stops retrying"), created(r), 1, next,
                          urlOf(c, kPrimary));
            },
            urlOf(c, kPrimary));
    };
}

// What the standby held when the 201 went out, from the primary's debug state.
ScenarioStep standbyStep(const QString& expected, bool (*ok)(const QJsonObject&))
{
    return [expected, ok](ScenarioContext& c, Next next) {
        c.state(
            [&c, expected, ok, next](const QJsonObject& state) {
                const QJsonObject replication = replicationOf(state);
                c.addRow({ScenarioText::tr("the standby, once the 201 was sent"), replicationText(replication), -1,
                          expected, ok(replication)});
                next();
            },
            urlOf(c, kPrimary));
    };
}

ScenarioStep failoverStep()
{
    return [](ScenarioContext& c, Next next) {
        killServer(c, kPrimary, [&c, next] {
            const QString standby = c.note(kPrimaryDb).toString() + QStringLiteral(".standby");
            startServer(c, standby, kPromoted, [&c, standby, next] {
                c.narrate(ScenarioText::tr("failover: the primary is killed (SIGKILL), the standby promoted"),
                          ScenarioText::tr("a new server on %1: %2")
                              .arg(QFileInfo(standby).fileName(), urlOf(c, kPromoted).toString()));
                next();
            });
        });
    };
}

// GET /orders/{id} of the acknowledged order on the promoted standby.
ScenarioStep lookStep(const QString& expected, int expectedOrders, bool found)
{
    return [=](ScenarioContext& c, Next next) {
        const qint64 id = c.note(kAcknowledged).toLongLong();
        ServerApi* api = apiOf(c, kClientA, kPromoted);
        api->get(QStringLiteral("/orders/%1").arg(id), kRequestTimeoutMs,
                 [&c, api, id, expected, expectedOrders, found, next](const HttpReply& r) {
                     api->deleteLater();
                     const bool ok = found ? verdicts::orderFound(r, id) : verdicts::orderGone(r);
                     c.verdict(ScenarioText::tr("promoted: A: GET /orders/%1, the acknowledged order").arg(id),
                               ScenarioContext::describe(r), expected, ok, expectedOrders, next, urlOf(c, kPromoted));
                 });
    };
}

ScenarioStep retryStep(const QString& key, const QString& expected, bool replayed)
{
    return [=](ScenarioContext& c, Next next) {
        c.post(
            kClientA, key, kBook,
            [&c, key, expected, replayed, next](const HttpReply& r) {
                const qint64 acknowledged = c.note(kAcknowledged).toLongLong();
                const bool ok = replayed ? replayOf(r, acknowledged) : created(r);
                c.verdict(ScenarioText::tr("promoted: A retries %1, the same request").arg(key),
                          ScenarioContext::describe(r), expected, ok, 1, next, urlOf(c, kPromoted));
            },
            urlOf(c, kPromoted));
    };
}

ScenarioStep stopPromotedStep()
{
    return [](ScenarioContext& c, Next next) {
        killServer(c, kPromoted, next);
    };
}

} // namespace

Scenario failoverReplication()
{
    const QString asyncKey = QStringLiteral("F-async");
    const QString syncKey = QStringLiteral("F-sync");
    return {
        QStringLiteral("failover-replication"),
        ScenarioText::tr("Failover: asynchronous replication loses an acknowledged order, synchronous does not"),
        ScenarioText::tr(
            "The key lives in the database, so it is exactly as durable as the database. A production database is a "
            "primary and a standby; when the primary dies, the standby is promoted. With asynchronous replication "
            "the primary answers 201 before the standby has the commit: if it dies then, the promoted standby has "
            "neither the order nor its key. The customer was told the order was placed; the client stopped "
            "retrying; and a retry with the same key would not be recognised, it places a new order (here even "
            "under the same order number). With synchronous replication the 201 waits until the standby has the "
            "commit, and nothing acknowledged is lost. Here the standby is a second SQLite file the server copies "
            "each commit into (the online backup API); the asynchronous copy is held back so that the loss is "
            "certain, not luck. PostgreSQL does the same with WAL streaming."),
        {primaryStep(QStringLiteral("async.db"), R"({"mode":"async","paused":true})",
                     ScenarioText::tr("asynchronous: a primary, its standby's copy held back")),
         orderStep(asyncKey),
         standbyStep(ScenarioText::tr("behind: the 201 went out first"), verdicts::acknowledgedBeforeStandby),
         failoverStep(), lookStep(ScenarioText::tr("404: the acknowledged order is gone"), 0, false),
         retryStep(asyncKey, ScenarioText::tr("201 not replayed: the key was lost too, a new order"), false),
         stopPromotedStep(),
         primaryStep(QStringLiteral("sync.db"), R"({"mode":"sync"})",
                     ScenarioText::tr("synchronous: a primary, each commit copied before it answers")),
         orderStep(syncKey),
         standbyStep(ScenarioText::tr("nothing behind: the standby had it first"), verdicts::standbyHoldsAll),
         failoverStep(), lookStep(ScenarioText::tr("200: the order survived"), 1, true),
         retryStep(syncKey, ScenarioText::tr("201 replayed: the key survived with the order"), true)}};
}

} // namespace onceorder::core::scenarios
