// HttpExchange: one HTTP request on its own fresh connection, and nothing else: no hidden re-send, no connection
// reuse. QNetworkAccessManager silently re-sends a POST whose connection closed before the first response byte
// (seen in SubmissionEngineTest: two POSTs for one attempt); for the order POST every attempt must be one the
// engine decided, counted and logged, so it goes through this class instead.
//
// The HTTP itself is libcurl's (1xx responses, chunked bodies, IPv6 hosts, TLS, proxies, timeouts), driven from
// the Qt event loop through the multi interface: curl tells which sockets to watch (QSocketNotifier) and when to
// wake it (QTimer). A fresh connection per exchange, never reused, and curl never retries on its own.
#pragma once

#include "net/HttpReply.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <memory>

class QSocketNotifier;

namespace onceorder::core {

class HttpExchange : public QObject
{
    Q_OBJECT

public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    // A response larger than this is not read to its end (the attempt fails as "may have been sent").
    static constexpr qint64 kMaxResponseBytes = 4 * 1024 * 1024;

    // Starts at once. `timeoutMs`: no byte moving for this long ends the exchange; `totalTimeoutMs` (0: none):
    // the exchange ends by then however slowly bytes trickle. `done` is called exactly once, then the exchange
    // deletes itself (later).
    HttpExchange(const QByteArray& method, const QUrl& url, const Headers& headers, const QByteArray& body,
                 int timeoutMs, std::function<void(const HttpReply&)> done, QObject* parent = nullptr,
                 int totalTimeoutMs = 0);
    ~HttpExchange() override;

    // Gives up now; `done` reports OperationCanceledError.
    void abort();

Q_SIGNALS:
    // The whole request has been handed to the kernel: from here on the server may act on it.
    void requestSent();

private:
    struct Curl; // the handles and curl's callbacks (HttpExchange.cpp)

    void watchSocket(int fd, int what);
    void drive(int fd, int events);
    void checkDone();
    void markSent();
    void finish(HttpReply reply);

    std::unique_ptr<Curl> m_curl;
    QByteArray m_body;
    QHash<int, QPair<QSocketNotifier*, QSocketNotifier*>> m_notifiers; // fd -> read, write
    QTimer m_curlTimer; // curl's own timeouts and pacing
    QTimer m_idleTimer; // our transfer timeout: restarted by every socket event
    HttpReply m_reply; // filled as headers and body arrive
    bool m_sent = false;
    bool m_tooLarge = false;
    bool m_badLength = false;
    bool m_finished = false;
    bool m_driving = false;
    std::function<void(const HttpReply&)> m_done;
};

} // namespace onceorder::core
