#include "BundledServer.h"

#include <QCoreApplication>
#include <QDir>

#include <csignal>
#include <sys/prctl.h>

namespace onceorder::core {

BundledServer::BundledServer(QObject* parent)
    : QObject(parent)
    , m_process(this)
{
    m_process.setProcessChannelMode(QProcess::SeparateChannels);
    // If the client dies without stopping us (a crash, kill -9), the server must not linger on as an orphan.
    m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    connect(&m_process, &QProcess::readyReadStandardOutput, this, &BundledServer::readStandardOutput);
    connect(&m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            Q_EMIT failed(tr("cannot start %1: %2").arg(m_process.program(), m_process.errorString()));
        }
    });
    connect(&m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus) {
        const bool wasReady = m_url.isValid();
        m_url = QUrl();
        if (!wasReady) {
            Q_EMIT failed(tr("the server exited before it was ready:\n%1")
                              .arg(QString::fromUtf8(m_process.readAllStandardError()).trimmed().right(2000)));
        }
        Q_EMIT exited(exitCode);
    });
}

BundledServer::~BundledServer()
{
    stop();
}

QString BundledServer::defaultExecutable()
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("onceorder-server"));
}

void BundledServer::start(const QString& dataDir, const QString& executable)
{
    QDir().mkpath(dataDir);
    m_stdout.clear();
    m_url = QUrl();
    // The server's request log goes to a file beside its database, not into the client's terminal.
    m_process.setStandardErrorFile(QDir(dataDir).filePath(QStringLiteral("server.log")), QIODevice::Append);
    m_process.start(executable,
                    {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), QStringLiteral("--db"),
                     QDir(dataDir).filePath(QStringLiteral("server.db")), QStringLiteral("--debug-endpoints")});
}

void BundledServer::stop()
{
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

bool BundledServer::isRunning() const
{
    return m_process.state() == QProcess::Running && m_url.isValid();
}

void BundledServer::readStandardOutput()
{
    m_stdout += m_process.readAllStandardOutput();
    if (m_url.isValid()) {
        return;
    }
    const int newline = m_stdout.indexOf('\n');
    if (newline < 0) {
        return;
    }
    static const QByteArray kPrefix = "listening on ";
    const QByteArray line = m_stdout.left(newline).trimmed();
    if (!line.startsWith(kPrefix)) {
        Q_EMIT failed(tr("unexpected first line from the server: %1").arg(QString::fromUtf8(line)));
        return;
    }
    m_url = QUrl(QString::fromUtf8(line.mid(kPrefix.size())));
    Q_EMIT ready(m_url);
}

} // namespace onceorder::core
