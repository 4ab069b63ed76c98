// PendingCounts: the engine's pending counts for the window and the CLI, counted once per turn of the event loop after
// a burst of changes and announced only when they differ from the last ones announced (a thousand submissionChanged
// signals are one outbox count). What is counted is the owner's callback. A child of the engine, on its thread.
#pragma once

#include <QObject>

#include <functional>
#include <utility>

class QTimer;

namespace onceorder::core {

class PendingCounts : public QObject
{
    Q_OBJECT

public:
    // `count` answers (pending here, pending for other servers).
    PendingCounts(std::function<std::pair<int, int>()> count, QObject* parent);

    // Counts again at the next turn of the event loop (once for any number of calls before it).
    void recount();

Q_SIGNALS:
    void counted(int pending, int elsewhere);

private:
    void count();

    std::function<std::pair<int, int>()> m_count;
    QTimer* m_timer;
    int m_pending = -1;
    int m_elsewhere = -1;
};

} // namespace onceorder::core
