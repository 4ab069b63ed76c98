#include "teaching/ScenarioContext.h"

#include "net/HttpReplyText.h"
#include "net/NetworkConditioner.h"
#include "server/BundledServer.h"
#include "server/ServerState.h"
#include "submission/Outbox.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTimer>

#include <utility>

namespace onceorder::core {

namespace {

constexpr int kDebugTimeoutMs = 5000;
// Longer than the server's SQLite busy timeout (10 s): a request waiting for another process's write lock answers.
constexpr int kPostTimeoutMs = 15000;

SystemClock& sharedClock()
{
    static SystemClock clock;
    return clock;
}

SystemRandom& sharedRandom()
{
    static SystemRandom random;
    return random;
}

} // namespace

EngineConfig fastEngineConfig()
{
    EngineConfig config;
    config.policy.baseDelayMs = 20;
    config.policy.maxDelayMs = 200;
    config.policy.retryWindowMs = 20'000;
    config.policy.transferTimeoutMs = 5'000;
    config.budget.capacity = 1000;
    config.resumeSpreadMs = 0;
    return config;
}

ScenarioContext::ScenarioContext(QObject* parent)
    : QObject(parent)
    , m_server(new BundledServer(this))
    , m_conditioner(new NetworkConditioner(this))
    , m_outbox(std::make_unique<Outbox>(QDir(m_dir.path()).filePath(QStringLiteral("client"))))
{
    // A crash fault brings the server back on the same port if it can; if not, the relay follows it.
    m_server->setAutoRestart(true, 100);
    connect(m_server, &BundledServer::ready, this, &ScenarioContext::onServerReady);
    connect(m_server, &BundledServer::failed, this, &ScenarioContext::fail);
}

ScenarioContext::~ScenarioContext()
{
    // Nothing that happens while the stack is torn down reaches this half-destroyed context or anyone listening to
    // it (issue 40): the server's ready line still unread when the run ended came in through stop() and reached
    // onServerReady after the conditioner was freed; a server stopped while starting reported a failure up into a
    // runner and a dialog already being destroyed.
    m_failed = true;
    blockSignals(true);
    m_server->disconnect(this);
    for (QProcess* process : findChildren<QProcess*>(Qt::FindDirectChildrenOnly)) {
        process->disconnect(this);
    }
    for (const auto& engine : m_engines) {
        engine->disconnect(this); // a step's callbacks would run on a context being destroyed
    }
    m_engines.clear();
    // Open keep-alive connections would hold the server's worker threads (and its SIGTERM) until they time out:
    // close ours first, the relay's with it.
    qDeleteAll(m_apis);
    m_apis.clear();
    // The server before the conditioner in front of it: nothing the server does can then reach a freed relay.
    m_server->stop();
    for (QProcess* process : findChildren<QProcess*>(Qt::FindDirectChildrenOnly)) {
        process->kill();
        process->waitForFinished(2000);
    }
    delete m_conditioner;
    m_conditioner = nullptr;
}

void ScenarioContext::start(const QString& serverExecutable)
{
    if (!m_dir.isValid()) {
        fail(tr("cannot create a temporary folder: %1").arg(m_dir.errorString()));
        return;
    }
    m_server->start(QDir(m_dir.path()).filePath(QStringLiteral("server")),
                    serverExecutable.isEmpty() ? BundledServer::defaultExecutable() : serverExecutable);
}

void ScenarioContext::onServerReady(const QUrl& url)
{
    const bool first = !m_serverUrl.isValid();
    m_serverUrl = url;
    for (ServerApi* api : std::as_const(m_apis)) {
        if (!api->property("conditioned").toBool() && api->property("bundled").toBool()) {
            api->setBaseUrl(url);
        }
    }
    if (!first) {
        m_conditioner->setUpstream(url);
        return;
    }
    if (!m_conditioner->listen(url)) {
        fail(tr("the network conditioner cannot listen on loopback"));
        return;
    }
    Q_EMIT ready();
}

ServerApi* ScenarioContext::apiFor(const QString& apiKey, const QUrl& server, bool throughConditioner)
{
    const QUrl base = throughConditioner ? m_conditioner->url() : (server.isEmpty() ? m_serverUrl : server);
    const QString id = apiKey + u'|' + base.toString();
    if (ServerApi* api = m_apis.value(id)) {
        return api;
    }
    auto* api = new ServerApi(base, apiKey, this);
    api->setProperty("conditioned", throughConditioner);
    api->setProperty("bundled", server.isEmpty());
    m_apis.insert(id, api);
    return api;
}

void ScenarioContext::post(const QString& apiKey, const QString& key, const QByteArray& body,
                           std::function<void(const HttpReply&)> done, const QUrl& server)
{
    apiFor(apiKey, server, false)
        ->postIdempotent(QStringLiteral("/orders"), key, body, kPostTimeoutMs, std::move(done));
}

void ScenarioContext::checkout(const QString& apiKey, const QString& key, const QByteArray& body,
                               std::function<void(const HttpReply&)> done)
{
    apiFor(apiKey, {}, false)->postIdempotent(QStringLiteral("/checkout"), key, body, kDebugTimeoutMs, std::move(done));
}

void ScenarioContext::state(std::function<void(const QJsonObject&)> done, const QUrl& server)
{
    apiFor(QStringLiteral("demo-key-admin"), server, false)
        ->get(QStringLiteral("/_debug/state"), kDebugTimeoutMs, [this, done = std::move(done)](const HttpReply& reply) {
            const QJsonDocument json = QJsonDocument::fromJson(reply.body);
            if (reply.status != 200 || !json.isObject()) {
                fail(tr("GET /_debug/state answered %1").arg(describe(reply)));
                return;
            }
            done(json.object());
        });
}

void ScenarioContext::debug(const QString& what, const QByteArray& json, std::function<void()> done, const QUrl& server)
{
    apiFor(QStringLiteral("demo-key-admin"), server, false)
        ->postJson(QStringLiteral("/_debug/") + what, json, kDebugTimeoutMs,
                   [this, what, done = std::move(done)](const HttpReply& reply) {
                       if (reply.status != 200) {
                           fail(tr("POST /_debug/%1 answered %2").arg(what, describe(reply)));
                           return;
                       }
                       done();
                   });
}

void ScenarioContext::countOrders(std::function<void(int)> done, const QUrl& server)
{
    apiFor(QStringLiteral("demo-key-admin"), server, false)
        ->get(QStringLiteral("/_debug/state"), kDebugTimeoutMs, [this, done = std::move(done)](const HttpReply& reply) {
            const std::optional<ServerState> state = ServerState::fromJson(reply.body);
            if (reply.status != 200 || !state) {
                fail(tr("GET /_debug/state answered %1").arg(describe(reply)));
                return;
            }
            done(static_cast<int>(state->orders.size()));
        });
}

void ScenarioContext::verdict(const QString& step, const QString& response, const QString& expected, bool ok,
                              int expectedOrders, std::function<void()> next, const QUrl& server)
{
    verdictIf(
        step, response, expected, ok, [expectedOrders](int orders) { return orders == expectedOrders; },
        std::move(next), server);
}

void ScenarioContext::verdictIf(const QString& step, const QString& response, const QString& expected, bool ok,
                                std::function<bool(int orders)> ordersOk, std::function<void()> next,
                                const QUrl& server)
{
    countOrders(
        [this, step, response, expected, ok, ordersOk = std::move(ordersOk), next = std::move(next)](int orders) {
            addRow(VerdictRow {step, response, orders, expected, ok && ordersOk(orders)});
            next();
        },
        server);
}

void ScenarioContext::submit(const Cart& cart, const EngineConfig& config,
                             std::function<void(const Submission&)> changed,
                             std::function<void(const Submission&)> done)
{
    auto engine = std::make_unique<SubmissionEngine>(*m_outbox, apiFor(QStringLiteral("demo-key-A"), {}, true),
                                                     QStringLiteral("scenario"), sharedClock(), sharedRandom(), config);
    SubmissionEngine* raw = engine.get();
    m_engines.push_back(std::move(engine));
    if (changed) {
        connect(raw, &SubmissionEngine::submissionChanged, this, changed);
    }
    // The id is known only once submit() returns, and settling is later (a network answer), except for a cart the
    // outbox knows as placed already: nothing is sent, and its submission is the answer (issue 37).
    auto id = std::make_shared<qint64>(0);
    connect(raw, &SubmissionEngine::settled, this, [id, done](const Submission& submission) {
        if (submission.id == *id) {
            done(submission);
        }
    });
    const SubmitResult result = raw->trySubmit(cart);
    *id = result.id;
    if (result.alreadyPlaced) {
        if (const auto placed = raw->submission(result.id)) {
            done(*placed);
        }
    }
}

void ScenarioContext::startExtraServer(const QStringList& extraArgs, std::function<void(const QUrl&)> done)
{
    auto* process = new QProcess(this);
    const QString db = QDir(m_dir.path()).filePath(QStringLiteral("extra-%1.db").arg(++m_extraServers));
    process->setStandardErrorFile(db + QStringLiteral(".log"));
    // A --db of the caller's (PostgreSQL, or one SQLite file for two instances) replaces the server's own file.
    const QStringList dbArgs =
        extraArgs.contains(QStringLiteral("--db")) ? QStringList {} : QStringList {QStringLiteral("--db"), db};
    auto buffer = std::make_shared<QByteArray>();
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process, buffer, done = std::move(done)] {
        *buffer += process->readAllStandardOutput();
        const qsizetype newline = buffer->indexOf('\n');
        if (newline < 0 || process->property("ready").toBool()) {
            return;
        }
        process->setProperty("ready", true);
        const QByteArray line = buffer->left(newline).trimmed();
        const std::optional<QUrl> url = BundledServer::urlFromReadyLine(line);
        if (!url) {
            fail(tr("unexpected first line from the extra server: %1").arg(QString::fromUtf8(line)));
            return;
        }
        done(*url);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            fail(tr("cannot start %1: %2").arg(process->program(), process->errorString()));
        }
    });
    process->start(
        BundledServer::defaultExecutable(),
        QStringList {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--debug-endpoints")} +
            dbArgs + extraArgs);
}

QString ScenarioContext::postgresUri()
{
    const QString uri = qEnvironmentVariable("ONCEORDER_POSTGRES_URI");
    if (!uri.isEmpty()) {
        return uri;
    }
    // pg_virtualenv (scripts/test) and scripts/demo --postgres set libpq's variables: an empty URI means them.
    return qEnvironmentVariableIsEmpty("PGHOST") ? QString() : QStringLiteral("postgresql://");
}

void ScenarioContext::runProcess(const QString& program, const QStringList& args, const QProcessEnvironment& env,
                                 std::function<void(bool crashed, int exitCode, const QByteArray& out)> done)
{
    auto* process = new QProcess(this);
    process->setProcessEnvironment(env);
    process->setStandardErrorFile(QDir(m_dir.path()).filePath(QStringLiteral("process.log")), QIODevice::Append);
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            fail(tr("cannot start %1: %2").arg(process->program(), process->errorString()));
        }
    });
    connect(process, &QProcess::finished, this,
            [process, done = std::move(done)](int exitCode, QProcess::ExitStatus status) {
                process->deleteLater();
                done(status == QProcess::CrashExit, exitCode, process->readAllStandardOutput());
            });
    process->start(program, args);
}

void ScenarioContext::after(int ms, std::function<void()> done)
{
    QTimer::singleShot(ms, this, std::move(done));
}

void ScenarioContext::addRow(const VerdictRow& row)
{
    m_rows.append(row);
    Q_EMIT rowAdded(row);
}

void ScenarioContext::fail(const QString& reason)
{
    if (m_failed) {
        return;
    }
    m_failed = true;
    Q_EMIT failed(reason);
}

qint64 ScenarioContext::orderIdOf(const HttpReply& reply)
{
    return QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("order_id")).toInteger();
}

QString ScenarioContext::problemTypeOf(const HttpReply& reply)
{
    return QJsonDocument::fromJson(reply.body).object().value(QStringLiteral("type")).toString();
}

QString ScenarioContext::describe(const HttpReply& reply)
{
    if (reply.status == 0) {
        // libcurl's words as a sentence: a slide says what is known, not "Empty reply from server".
        return tr("no response: %1")
            .arg(reply.errorString.isEmpty() ? tr("connection closed") : networkFailureText(reply.errorString));
    }
    QString text = QString::number(reply.status);
    if (reply.status >= 200 && reply.status < 300) {
        text += tr(" order %1").arg(orderIdOf(reply));
    } else if (const QString type = problemTypeOf(reply); !type.isEmpty()) {
        text += u' ' + type;
    }
    if (reply.replayed) {
        text += tr(" (replayed)");
    }
    return text;
}

} // namespace onceorder::core
