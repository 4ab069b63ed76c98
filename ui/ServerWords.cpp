#include "ServerWords.h"

namespace onceorder::ui {

QString ServerWords::orderStatus(const QString& status)
{
    if (status == u"placed") {
        return tr("placed", "order status");
    }
    if (status == u"pending") {
        return tr("awaiting payment", "order status");
    }
    if (status == u"paid") {
        return tr("paid", "order status");
    }
    if (status == u"payment_failed") {
        return tr("payment failed", "order status");
    }
    return status;
}

QString ServerWords::keyStatus(const QString& status)
{
    // Anything but completed is a key taken whose answer is not stored yet.
    return status == u"completed" ? tr("completed", "idempotency key status")
                                  : tr("in progress", "idempotency key status");
}

QString ServerWords::recoveryPoint(const QString& point)
{
    if (point == u"started") {
        return tr("started", "recovery point");
    }
    if (point == u"order_created") {
        return tr("order created", "recovery point");
    }
    if (point == u"payment_charged") {
        return tr("payment charged", "recovery point");
    }
    if (point == u"finished") {
        return tr("finished", "recovery point");
    }
    return point;
}

QString ServerWords::paymentMethod(const QString& method)
{
    return method == u"card" ? tr("card", "payment method") : method;
}

QString ServerWords::chargeOutcome(const QString& outcome)
{
    if (outcome == u"succeeded") {
        return tr("charged", "gateway charge outcome");
    }
    if (outcome == u"declined") {
        return tr("declined", "gateway charge outcome");
    }
    return outcome;
}

QString ServerWords::recordedBy(const QString& source)
{
    if (source == u"checkout") {
        return tr("checkout", "who recorded the payment");
    }
    if (source == u"webhook") {
        return tr("webhook", "who recorded the payment");
    }
    return source;
}

QString ServerWords::webhookEffect(const QString& effect)
{
    if (effect == u"applied") {
        return tr("applied: order paid", "webhook effect");
    }
    if (effect == u"no-change") {
        return tr("no change", "webhook effect");
    }
    if (effect == u"duplicate") {
        return tr("repeat, ignored", "webhook effect");
    }
    if (effect == u"ignored") {
        return tr("ignored", "webhook effect");
    }
    return effect;
}

} // namespace onceorder::ui
