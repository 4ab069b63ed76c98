#include "session/ClientSession.h"

#include <QHostAddress>
#include <QNetworkInformation>
#include <QTimer>

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
    delete m_engine;
    m_engine = nullptr;
}

QString ClientSession::target() const
{
    return usesBundledServer() ? QStringLiteral("bundled") : m_options.server.toString();
}

void ClientSession::enableConditioner()
{
    if (!m_conditioner && (usesBundledServer() || m_options.server.scheme() == u"http")) {
        m_conditioner = new NetworkConditioner(this);
    }
}

void ClientSession::connectTo(const QUrl& serverUrl)
{
    m_api->setBaseUrl(serverUrl);
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
        m_engine->setOffline(reachability == QNetworkInformation::Reachability::Disconnected);
    };
    connect(info, &QNetworkInformation::reachabilityChanged, this, apply);
    apply(info->reachability());
}

} // namespace onceorder::core
