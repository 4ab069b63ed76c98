#include "ClientSession.h"

#include <QTimer>

namespace onceorder::core {

ClientSession::ClientSession(ClientOptions options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_api(new ServerApi(m_options.server, m_options.apiKey, this))
    , m_orders(new OrderClient(m_api, this))
{
    if (usesBundledServer()) {
        m_bundled = new BundledServer(this);
        connect(m_bundled, &BundledServer::ready, this, [this](const QUrl& url) {
            m_api->setBaseUrl(url);
            Q_EMIT serverReady(url);
        });
        connect(m_bundled, &BundledServer::failed, this, &ClientSession::serverFailed);
    }
}

void ClientSession::start()
{
    if (m_bundled) {
        m_bundled->start(m_options.stateDir);
    } else {
        // Queued, so a caller that connects after start() still hears it.
        QTimer::singleShot(0, this, [this] { Q_EMIT serverReady(m_options.server); });
    }
}

} // namespace onceorder::core
