#include "session/ClientSession.h"

#include <QHostAddress>
#include <QNetworkInformation>
#include <QTimer>

#include <algorithm>
#include <sys/resource.h>
#include <unistd.h>

namespace onceorder::core {

ClientSession::ClientSession(ClientOptions options, EngineConfig engineConfig, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    // Test only (the chaos test's clock steps): the client's wall clock as if set this far ahead or back.
    , m_clock(qEnvironmentVariableIntValue("ONCEORDER_TEST_CLOCK_OFFSET_MS"))
    , m_outbox(std::make_unique<Outbox>(m_options.stateDir))
    , m_api(new ServerApi(m_options.server, m_options.apiKey, this))
    , m_orderApi(new ServerApi(m_options.server, m_options.apiKey, this))
    , m_engine(new SubmissionEngine(*m_outbox, m_orderApi, target(), m_clock, m_random, engineConfig, this))
{
    // Queued once the engine has its own thread (the receiver decides): emitted here on the session's thread.
    connect(m_engine, &SubmissionEngine::submissionChanged, this, &ClientSession::submissionChanged);
    connect(m_engine, &SubmissionEngine::settled, this, &ClientSession::settled);
    if (usesBundledServer()) {
        m_bundled = new BundledServer(this);
        connect(m_bundled, &BundledServer::ready, this, [this](const QUrl& url) {
            connectTo(url);
            Q_EMIT serverReady(url);
        });
        connect(m_bundled, &BundledServer::failed, this, &ClientSession::serverFailed);
    }
}

ClientSession::~ClientSession()
{
    // The engine uses the outbox, which as a member would die before the children: delete it first. Replies
    // aborted afterwards find no engine and leave their attempts in flight for the next run to settle.
    if (m_worker) {
        // Objects with timers and sockets are deleted on their own thread, then the thread ends.
        QMetaObject::invokeMethod(
            m_workerContext,
            [this] {
                delete m_engine;
                delete m_orderApi;
                delete m_conditioner;
            },
            Qt::BlockingQueuedConnection);
        m_engine = nullptr;
        m_orderApi = nullptr;
        m_conditioner = nullptr;
        m_worker->quit();
        m_worker->wait();
        delete m_workerContext; // a plain QObject: deleting it after its thread ended is fine
        m_workerContext = nullptr;
        delete m_worker;
        m_worker = nullptr;
        return;
    }
    delete m_engine;
    m_engine = nullptr;
}

void ClientSession::useWorkerThread()
{
    if (m_worker) {
        return;
    }
    m_worker = new QThread;
    m_worker->setObjectName(QStringLiteral("onceorder-engine"));
    m_workerContext = new QObject;
    // Without parents (a QObject moves with its children only, and a child cannot live on another thread than its
    // parent): the session deletes them on the worker when it goes.
    for (QObject* object : std::initializer_list<QObject*> {m_workerContext, m_engine, m_orderApi, m_conditioner}) {
        if (object) {
            object->setParent(nullptr);
            object->moveToThread(m_worker);
        }
    }
    // The window's thread first: when the two cores are busy (carts going in, the bundled server committing), the
    // engine's thread and the server wait for the CPU rather than the window, whose paints also hand their fills to
    // Qt's thread pool and wait for it. Linux gives every thread its own nice value; only ever lowered.
    const int niceness = backgroundNiceness();
    if (niceness > 0) {
        connect(
            m_worker, &QThread::started, m_worker,
            [niceness] {
                const auto self = static_cast<id_t>(::gettid());
                ::setpriority(PRIO_PROCESS, self, ::getpriority(PRIO_PROCESS, self) + niceness);
            },
            Qt::DirectConnection);
        if (m_bundled) {
            m_bundled->setNiceness(niceness);
        }
    }
    m_worker->start();
}

int ClientSession::backgroundNiceness()
{
    // ONCEORDER_BACKGROUND_NICE: a benchmark's switch (0: everything at the window's priority).
    bool set = false;
    const int value = qEnvironmentVariableIntValue("ONCEORDER_BACKGROUND_NICE", &set);
    return set ? std::clamp(value, 0, 19) : kBackgroundNiceness;
}

void ClientSession::submit(const Cart& cart)
{
    QMetaObject::invokeMethod(
        m_engine, [engine = m_engine, cart] { engine->trySubmit(cart); }, Qt::AutoConnection);
}

void ClientSession::resumePending()
{
    QMetaObject::invokeMethod(
        m_engine, [engine = m_engine] { engine->resumePending(); }, Qt::AutoConnection);
}

void ClientSession::setOffline(bool offline)
{
    QMetaObject::invokeMethod(
        m_engine, [engine = m_engine, offline] { engine->setOffline(offline); }, Qt::AutoConnection);
}

const Outbox& ClientSession::reader() const
{
    if (!m_reader) {
        m_reader = std::make_unique<Outbox>(m_options.stateDir);
    }
    return *m_reader;
}

int ClientSession::pendingCount() const
{
    try {
        return reader().pendingCount(target(), m_options.apiKey);
    } catch (const std::exception&) {
        return 0;
    }
}

int ClientSession::pendingElsewhereCount() const
{
    try {
        return reader().pendingElsewhereCount(target(), m_options.apiKey);
    } catch (const std::exception&) {
        return 0;
    }
}

std::optional<Submission> ClientSession::submission(qint64 id) const
{
    try {
        return reader().find(id);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

QString ClientSession::target() const
{
    return usesBundledServer() ? QStringLiteral("bundled") : m_options.server.toString();
}

void ClientSession::enableConditioner()
{
    Q_ASSERT(!m_worker); // it moves to the worker with the engine
    if (!m_conditioner && (usesBundledServer() || m_options.server.scheme() == u"http")) {
        m_conditioner = new NetworkConditioner(this);
    }
}

void ClientSession::connectTo(const QUrl& serverUrl)
{
    m_api->setBaseUrl(serverUrl);
    if (!m_worker) {
        routeOrders(serverUrl);
        return;
    }
    // The relay listens, and the engine's API learns where to send, on their own thread; anything the window asks
    // of the engine after serverReady() is queued behind this.
    QMetaObject::invokeMethod(
        m_workerContext, [this, serverUrl] { routeOrders(serverUrl); }, Qt::QueuedConnection);
}

void ClientSession::routeOrders(const QUrl& serverUrl)
{
    if (!m_conditioner) {
        m_orderApi->setBaseUrl(serverUrl);
        return;
    }
    // The relay keeps its port when the bundled server comes back on another one: the engine never notices.
    if (m_conditioner->port() == 0) {
        if (!m_conditioner->listen(serverUrl)) {
            Q_EMIT serverFailed(tr("the network conditioner cannot listen on loopback"));
            return;
        }
    } else {
        m_conditioner->setUpstream(serverUrl);
    }
    m_orderApi->setBaseUrl(m_conditioner->url());
}

void ClientSession::start()
{
    watchReachability();
    if (m_bundled) {
        m_bundled->start(m_options.stateDir);
    } else {
        connectTo(m_options.server);
        // Queued, so a caller that connects after start() still hears it.
        QTimer::singleShot(0, this, [this] { Q_EMIT serverReady(m_options.server); });
    }
}

void ClientSession::watchReachability()
{
    // A loopback server is reachable whatever the network does; only a remote one is worth pausing for.
    const QHostAddress host(m_options.server.host());
    if (usesBundledServer() || host.isLoopback() || m_options.server.host() == u"localhost") {
        return;
    }
    // In a container there is often no backend: then backoff alone does the job.
    if (!QNetworkInformation::loadBackendByFeatures(QNetworkInformation::Feature::Reachability)) {
        return;
    }
    auto* info = QNetworkInformation::instance();
    auto apply = [this](QNetworkInformation::Reachability reachability) {
        setOffline(reachability == QNetworkInformation::Reachability::Disconnected);
    };
    connect(info, &QNetworkInformation::reachabilityChanged, this, apply);
    apply(info->reachability());
}

} // namespace onceorder::core
