// BundledServer: runs onceorder-server as a child process on a free loopback port and reports its URL.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QUrl>

namespace onceorder::core {

class BundledServer : public QObject
{
    Q_OBJECT

public:
    explicit BundledServer(QObject* parent = nullptr);
    ~BundledServer() override;

    // The onceorder-server binary next to the running executable.
    static QString defaultExecutable();

    // Starts the server with a database in dataDir; ready() or failed() follows.
    void start(const QString& dataDir, const QString& executable = defaultExecutable());
    // Asks the server to finish in-flight requests and exit (SIGTERM), then waits a moment for it.
    void stop();
    // Kills the server abruptly, as a crash would (the debug panel's "kill server").
    void kill();

    bool isRunning() const;
    QUrl url() const { return m_url; }

Q_SIGNALS:
    void ready(const QUrl& url);
    void failed(const QString& reason);
    void exited(int exitCode);

private:
    void readStandardOutput();

    QProcess m_process;
    QByteArray m_stdout;
    QUrl m_url;
};

} // namespace onceorder::core
