// ServerWords: the words the server stores in its tables (an order's status, a recovery point, a webhook's effect),
// said to a person in the window's language. The stored value itself is an identifier: it stays as it is wherever
// it is an id (in tooltips, the API, the logs), and an unknown value is shown unchanged.
#pragma once

#include <QCoreApplication>
#include <QString>

namespace onceorder::ui {

class ServerWords
{
    Q_DECLARE_TR_FUNCTIONS(onceorder::ui::ServerWords)

public:
    static QString orderStatus(const QString& status); // placed, pending, paid, payment_failed
    static QString keyStatus(const QString& status); // completed, started
    static QString recoveryPoint(const QString& point); // started, order_created, payment_charged, finished
    static QString paymentMethod(const QString& method); // card
    static QString chargeOutcome(const QString& outcome); // succeeded, declined
    static QString recordedBy(const QString& source); // checkout, webhook
    static QString webhookEffect(const QString& effect); // applied, no-change, duplicate, ignored
};

} // namespace onceorder::ui
