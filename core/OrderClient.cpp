#include "OrderClient.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

namespace onceorder::core {

namespace {
constexpr int kTransferTimeoutMs = 10'000;
}

OrderClient::OrderClient(ServerApi* api, QObject* parent)
    : QObject(parent)
    , m_api(api)
{
}

void OrderClient::submit(const Cart& cart)
{
    const QString key = QUuid::createUuid().toString(QUuid::WithoutBraces);
    m_api->postOrder(key, cart.toRequestBody(), kTransferTimeoutMs,
                     [this, key](const HttpReply& reply) { Q_EMIT finished(outcomeFromReply(reply, key, 1)); });
}

OrderOutcome OrderClient::outcomeFromReply(const HttpReply& reply, const QString& key, int attempts)
{
    OrderOutcome outcome;
    outcome.key = key;
    outcome.attempts = attempts;
    outcome.httpStatus = reply.status;
    outcome.replayed = reply.replayed;
    const QJsonObject body = QJsonDocument::fromJson(reply.body).object();
    if (reply.status >= 200 && reply.status < 300) {
        outcome.state = OrderOutcome::State::Placed;
        outcome.orderId = body.value("order_id").toInteger();
    } else if (reply.status >= 400 && reply.status < 500) {
        outcome.state = OrderOutcome::State::Rejected;
        outcome.message = body.value("detail").toString();
    } else {
        outcome.state = OrderOutcome::State::Failed;
        outcome.message = reply.status ? body.value("detail").toString() : reply.errorString;
    }
    return outcome;
}

} // namespace onceorder::core
