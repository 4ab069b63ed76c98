// CliProgress: what onceorder-cli tells a person on stderr while it waits. Nothing for the first second; then what it
// is waiting for (the bundled server to start, the server to answer an attempt, the next attempt after a named
// failure), again whenever that changes or every ten seconds; and, when a submission ends without an order, the
// cause in words ("connection refused", not a libcurl message). Time comes in as arguments: the CLI feeds it a
// the session's clock (the one the engine stamps attempts with), tests feed it numbers.
#pragma once

#include "submission/Submission.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>
#include <QUrl>

#include <optional>

namespace onceorder::core {

class CliProgress
{
    Q_DECLARE_TR_FUNCTIONS(onceorder::core::CliProgress)

public:
    static constexpr qint64 kQuietMs = 1000; // a wait shorter than this is not worth a line
    static constexpr qint64 kRepeatMs = 10'000; // an unchanged wait is said again after this long

    explicit CliProgress(int transferTimeoutMs, int attemptTimeoutMs = 60'000);

    // The bundled server is being started (only without --server); serverReady ends that wait.
    void serverStarting(qint64 nowMs);
    void serverReady();
    // A submission this run waits for (its first state, and every change the engine reports).
    void update(const Submission& submission, qint64 nowMs);
    // It settled: no more lines about it. Returns the line naming why it ended without an order (none when placed
    // or rejected: those outcomes speak for themselves in the JSON line).
    std::optional<QString> settled(const Submission& submission, qint64 nowMs);
    // Called often (the CLI: every 200 ms): the lines due now, each without a trailing newline.
    QStringList tick(qint64 nowMs);

    // The failure of one attempt in words, e.g. "connection refused: nothing accepts connections at …".
    static QString cause(const Attempt& attempt, const QUrl& server);

private:
    struct Waiting
    {
        Submission submission;
        qint64 sinceMs = 0; // when this run began to wait for it
        QString lastKey; // what the last line said, in short
        qint64 lastLineMs = -1;
    };
    // What it is waiting for now, and a short key that changes when that does; nullopt: nothing to say yet.
    std::optional<std::pair<QString, QString>> describe(const Waiting& waiting, qint64 nowMs) const;

    int m_transferTimeoutMs;
    int m_attemptTimeoutMs;
    std::optional<qint64> m_serverStartingSinceMs;
    bool m_serverLineSaid = false;
    QHash<qint64, Waiting> m_waiting;
    QList<qint64> m_order; // submissions in the order they came
};

} // namespace onceorder::core
