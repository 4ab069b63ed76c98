// HttpReplyText: the words people read about an exchange that did not succeed and about the retries that followed,
// in the window's language. What the outbox stores and the wire carries stays technical (libcurl's message, the
// server's English problem title and detail, RetryPolicy's reason); these functions turn it into a sentence a person
// can act on, and the technical text is left for a tooltip or a log.
#pragma once

#include "net/HttpReply.h"
#include "net/ServerApi.h"

#include <QString>

namespace onceorder::core {

// One line about an exchange that did not succeed: the problem's title (and detail) when the server sent one, the
// status otherwise, or a sentence for the network failure.
QString describeReply(const HttpReply& reply);

// libcurl's message (or HttpExchange's own) for a failed exchange, as a sentence that says what is known: nothing was
// sent (refused, not found), or the server may have received the request (empty reply, reset, timeout).
QString networkFailureText(const QString& technical);

// What an attempt's error holds (Attempt::error): the network failure when no HTTP answer came (httpStatus 0), else
// the server's problem title, in the window's language.
QString attemptErrorText(const QString& error, int httpStatus);

// The server's problem title (English, part of its API) in the window's language; an unknown title unchanged.
QString problemTitleText(const QString& title);

// A problem+json answer for people: in English the server's own detail; in another language the detail translated
// for the causes a class meets, else the translated title (the server's English detail stays in its logs).
QString problemText(const QString& type, const QString& title, const QString& detail);

// RetryPolicy's reason for a wait or for giving up ("backoff after attempt 2, full jitter", "retry window of 900 s is
// over; …") in the window's language, numbers through QLocale; a reason it does not know unchanged.
QString retryReasonText(const QString& reason);

} // namespace onceorder::core
