// ReplyInterpreter: what the server's answers say, read into the client's records with no state and no I/O. An
// attempt's answer becomes its outcome (RetryPolicy::classifyOrderAnswer), status, replay flag and the error the
// timeline shows; two 201s naming different orders become the read-back that proves a duplicated cart; a read-back
// order is compared with the cart's lines. SubmissionEngine decides what each reading does.
#pragma once

#include "net/HttpReply.h"
#include "submission/Submission.h"

#include <QJsonArray>
#include <QString>

namespace onceorder::core {

class ReplyInterpreter
{
public:
    // The attempt's answer, recorded on it (ended at nowMs): a 2xx without an order of this cart, or a 4xx that is not
    // the server's problem answer, is said to leave what the server did unknown.
    static void recordAnswer(const Submission& submission, Attempt& attempt, const HttpReply& reply, qint64 nowMs);
    // A problem+json answer's title, or "HTTP <status>".
    static QString problemTitle(const HttpReply& reply);
    // Two orders of one cart, as a read-back would list them: what two 201s naming different orders prove.
    static HttpReply pairOfOrders(qint64 first, qint64 second, const QString& cartId);
    // The same lines, whatever their order (the server stores them sorted by product); never for an empty cart.
    static bool sameLines(const QJsonArray& ours, const QJsonArray& theirs);
};

} // namespace onceorder::core
