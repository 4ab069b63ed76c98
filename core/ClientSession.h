// ClientSession: everything one running client needs, wired together: the server (bundled or external),
// the HTTP API and the order client. The GUI and the CLI each own one.
#pragma once

#include "BundledServer.h"
#include "ClientOptions.h"
#include "OrderClient.h"
#include "ServerApi.h"

#include <QObject>

namespace onceorder::core {

class ClientSession : public QObject
{
    Q_OBJECT

public:
    explicit ClientSession(ClientOptions options, QObject* parent = nullptr);

    // Starts the bundled server if no --server was given; serverReady() follows either way.
    void start();

    const ClientOptions& options() const { return m_options; }
    bool usesBundledServer() const { return m_options.server.isEmpty(); }
    ServerApi* api() const { return m_api; }
    OrderClient* orders() const { return m_orders; }
    BundledServer* bundledServer() const { return m_bundled; }

Q_SIGNALS:
    void serverReady(const QUrl& url);
    void serverFailed(const QString& reason);

private:
    ClientOptions m_options;
    BundledServer* m_bundled = nullptr;
    ServerApi* m_api;
    OrderClient* m_orders;
};

} // namespace onceorder::core
