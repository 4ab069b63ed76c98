// OrderClient: places one cart as one order: a fresh Idempotency-Key, one POST, the outcome as a typed signal.
#pragma once

#include "Cart.h"
#include "ServerApi.h"

#include <QObject>

namespace onceorder::core {

struct OrderOutcome
{
    enum class State
    {
        Placed,
        Rejected,
        Failed
    };
    State state = State::Failed;
    qint64 orderId = 0;
    bool replayed = false;
    int attempts = 0;
    QString key;
    int httpStatus = 0;
    QString message; // the problem's detail or the network error, for people
};

class OrderClient : public QObject
{
    Q_OBJECT

public:
    explicit OrderClient(ServerApi* api, QObject* parent = nullptr);

    void submit(const Cart& cart);

    // Turns one HTTP exchange into an outcome. Pure, so it is tested without a network.
    static OrderOutcome outcomeFromReply(const HttpReply& reply, const QString& key, int attempts);

Q_SIGNALS:
    void finished(const onceorder::core::OrderOutcome& outcome);

private:
    ServerApi* m_api;
};

} // namespace onceorder::core
