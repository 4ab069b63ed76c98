#include "submission/PendingCounts.h"

#include <QTimer>

namespace onceorder::core {

PendingCounts::PendingCounts(std::function<std::pair<int, int>()> count, QObject* parent)
    : QObject(parent)
    , m_count(std::move(count))
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(0);
    connect(m_timer, &QTimer::timeout, this, &PendingCounts::count);
}

void PendingCounts::recount()
{
    if (!m_timer->isActive()) {
        m_timer->start();
    }
}

void PendingCounts::count()
{
    const auto [pending, elsewhere] = m_count();
    if (pending != m_pending || elsewhere != m_elsewhere) {
        m_pending = pending;
        m_elsewhere = elsewhere;
        Q_EMIT counted(pending, elsewhere);
    }
}

} // namespace onceorder::core
