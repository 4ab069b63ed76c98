// BundledServer: runs onceorder-server as a child process on a free loopback port and reports its URL. When the
// server dies (the crash faults, "kill server"), it is started again on the same port if possible.
#pragma once

#include <QList>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <optional>

namespace onceorder::core {

class Clock;

class BundledServer : public QObject
{
    Q_OBJECT

public:
    explicit BundledServer(QObject* parent = nullptr);
    ~BundledServer() override;

    // The onceorder-server binary next to the running executable.
    static QString defaultExecutable();
    // The URL in the server's first stdout line, "listening on http://HOST:PORT"; nothing if the line is not that.
    static std::optional<QUrl> urlFromReadyLine(const QByteArray& line);

    // Starts the server with a database in dataDir; ready() or failed() follows.
    void start(const QString& dataDir, const QString& executable = defaultExecutable());
    // Asks the server to finish in-flight requests and exit (SIGTERM), then waits a moment for it.
    void stop();
    // Kills the server abruptly, as a crash would (the debug panel's "kill server").
    void kill();

    bool isRunning() const;
    QUrl url() const { return m_url; }
    // Whether a server that dies after it was ready is started again (on by default), and after how long.
    void setAutoRestart(bool on, int delayMs = 500);
    // Starts the server (from the next start() on) at a lower CPU priority: `niceness` added to its nice value (0: as
    // this process). The window does this so that, when the two cores are busy, its own thread wins them.
    void setNiceness(int niceness);
    // The clock the restart limit (10 deaths within a minute) counts by; a steady clock by default. Not owned.
    void setClock(const Clock* clock) { m_clock = clock; }

Q_SIGNALS:
    void ready(const QUrl& url);
    void failed(const QString& reason);
    void exited(int exitCode);
    // The ready server died without stop(); a restart follows if enabled, then ready() with the URL, which stays
    // the same unless the old port was taken meanwhile.
    void down(int exitCode);

private:
    void readStandardOutput();
    void onFinished(int exitCode);
    void launch();
    QString logPath() const;

    QProcess m_process;
    QByteArray m_stdout;
    QUrl m_url;
    QString m_dataDir;
    QString m_executable;
    quint16 m_port = 0; // 0: any free port
    bool m_stopping = false;
    bool m_restarting = false;
    bool m_autoRestart = true;
    int m_restartDelayMs = 500;
    QTimer m_restartTimer;
    QList<qint64> m_recentRestartsMs; // a server that dies right after every start is not restarted forever
    const Clock* m_clock;
    qint64 m_logSizeAtLaunch = 0; // where this launch's stderr begins in server.log
};

} // namespace onceorder::core
