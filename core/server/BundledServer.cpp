#include "server/BundledServer.h"

#include "retry/Clock.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace onceorder::core {

BundledServer::BundledServer(QObject* parent)
    : QObject(parent)
    , m_process(this)
    , m_clock(&SteadyClock::instance())
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    setNiceness(0);
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &BundledServer::readStandardOutput);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            Q_EMIT failed(tr("cannot start %1: %2").arg(m_process.program(), m_process.errorString()));
        }
    });
    connect(&m_process, &QProcess::finished, this,
            [this](int exitCode, QProcess::ExitStatus) { onFinished(exitCode); });
    m_restartTimer.setSingleShot(true);
    connect(&m_restartTimer, &QTimer::timeout, this, &BundledServer::launch);
}

void BundledServer::setAutoRestart(bool on, int delayMs)
{
    m_autoRestart = on;
    m_restartDelayMs = delayMs;
}

void BundledServer::onFinished(int exitCode)
{
    const bool wasReady = m_url.isValid();
    m_url = QUrl();
    if (m_stopping) {
        // Asked to stop: neither a failure (even if it was still starting) nor a death to restart from.
        m_restarting = false;
        Q_EMIT exited(exitCode);
        return;
    }
    if (!wasReady && m_restarting && m_port != 0) {
        // The old port was taken meanwhile: any free one will do, the new URL goes out with ready().
        m_port = 0;
        m_restartTimer.start(0);
        return;
    }
    if (!wasReady) {
        m_restarting = false;
        // Its stderr went to server.log (see launch()): what this launch wrote there says why.
        QFile log(logPath());
        QByteArray said;
        if (log.open(QIODevice::ReadOnly) && log.seek(m_logSizeAtLaunch)) {
            said = log.readAll();
        }
        Q_EMIT failed(
            tr("the server exited before it was ready:\n%1").arg(QString::fromUtf8(said).trimmed().right(2000)));
    }
    Q_EMIT exited(exitCode);
    if (!wasReady || m_stopping) {
        return;
    }
    Q_EMIT down(exitCode);
    if (!m_autoRestart) {
        return;
    }
    const qint64 now = m_clock->nowMs();
    m_recentRestartsMs.removeIf([now](qint64 at) { return now - at > 60'000; });
    if (m_recentRestartsMs.size() >= 10) {
        Q_EMIT failed(tr("the server died 10 times within a minute; it is not restarted again"));
        return;
    }
    m_recentRestartsMs.append(now);
    m_restarting = true;
    m_restartTimer.start(m_restartDelayMs);
}

void BundledServer::setNiceness(int niceness)
{
    m_process.setChildProcessModifier([niceness] {
        // If the client dies without stopping us (a crash, kill -9), the server must not linger on as an orphan.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (niceness > 0) {
            // Only ever lowered (an unprivileged process may not raise it); a failure leaves it as it was.
            [[maybe_unused]] const int ignored = ::nice(niceness);
        }
    });
}

BundledServer::~BundledServer()
{
    // Whatever the process says or does from here on (its ready line still in the pipe, its exit) is heard by no
    // one: the objects connected to this one may be half-destroyed themselves (issue 40).
    m_process.disconnect(this);
    m_restartTimer.disconnect(this);
    stop();
}

QString BundledServer::defaultExecutable()
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("onceorder-server"));
}

std::optional<QUrl> BundledServer::urlFromReadyLine(const QByteArray& line)
{
    static const QByteArray kPrefix = "listening on ";
    const QByteArray trimmed = line.trimmed();
    if (!trimmed.startsWith(kPrefix)) {
        return std::nullopt;
    }
    return QUrl(QString::fromUtf8(trimmed.mid(kPrefix.size())));
}

void BundledServer::start(const QString& dataDir, const QString& executable)
{
    m_dataDir = dataDir;
    m_executable = executable;
    m_port = 0;
    m_stopping = false;
    m_restarting = false;
    launch();
}

void BundledServer::launch()
{
    QDir().mkpath(m_dataDir);
    m_stdout.clear();
    m_url = QUrl();
    // The server's request log goes to a file beside its database, not into the client's terminal.
    m_logSizeAtLaunch = QFileInfo(logPath()).size();
    m_process.setStandardErrorFile(logPath(), QIODevice::Append);
    m_process.start(m_executable,
                    {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(m_port), QStringLiteral("--db"),
                     QDir(m_dataDir).filePath(QStringLiteral("server.db")), QStringLiteral("--debug-endpoints")});
}

void BundledServer::stop()
{
    m_stopping = true;
    m_restartTimer.stop();
    if (m_process.state() == QProcess::NotRunning) {
        return;
    }
    m_process.terminate();
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

void BundledServer::kill()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

QString BundledServer::logPath() const
{
    return QDir(m_dataDir).filePath(QStringLiteral("server.log"));
}

bool BundledServer::isRunning() const
{
    return m_process.state() == QProcess::Running && m_url.isValid();
}

void BundledServer::readStandardOutput()
{
    m_stdout += m_process.readAllStandardOutput();
    // A ready line read while stopping (waitForFinished reads the pipe) announces a server that is going away: the
    // one stopping it is tearing down and must not hear "ready" in the middle of it.
    if (m_url.isValid() || m_stopping) {
        return;
    }
    const int newline = m_stdout.indexOf('\n');
    if (newline < 0) {
        return;
    }
    const QByteArray line = m_stdout.left(newline).trimmed();
    const std::optional<QUrl> url = urlFromReadyLine(line);
    if (!url) {
        Q_EMIT failed(tr("unexpected first line from the server: %1").arg(QString::fromUtf8(line)));
        return;
    }
    m_url = *url;
    // A restart keeps this port, so requests already bound to the URL find the server again.
    m_port = static_cast<quint16>(m_url.port(0));
    m_restarting = false;
    Q_EMIT ready(m_url);
}

} // namespace onceorder::core
