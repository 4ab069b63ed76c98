// HttpExchange: one HTTP/1.1 request on its own fresh connection, and nothing else: no hidden re-send, no
// connection reuse. QNetworkAccessManager silently re-sends a POST whose connection closed before the first
// response byte (seen in SubmissionEngineTest: two POSTs for one attempt); for the order POST every attempt must
// be one the engine decided, counted and logged, so it goes through this class instead.
#pragma once

#include "net/ServerApi.h"

#include <QAbstractSocket>
#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTimer>
#include <QUrl>

#include <functional>

namespace onceorder::core {

class HttpExchange : public QObject
{
    Q_OBJECT

public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    // Starts at once. `done` is called exactly once, then the exchange deletes itself (later).
    HttpExchange(const QByteArray& method, const QUrl& url, const Headers& headers, const QByteArray& body,
                 int timeoutMs, std::function<void(const HttpReply&)> done, QObject* parent = nullptr);
    ~HttpExchange() override;

    // Gives up now; `done` reports OperationCanceledError.
    void abort();

    // Parses a complete or partial response buffer; exposed for tests. Returns true when `raw` holds the whole
    // response (with `closed`: the peer has closed, which ends a response without a length).
    static bool parseResponse(const QByteArray& raw, bool closed, HttpReply& reply);

Q_SIGNALS:
    // The whole request has been handed to the kernel: from here on the server may act on it.
    void requestSent();

private:
    void onConnected();
    void onReadyRead();
    void onBytesWritten(qint64 bytes);
    void onSocketError(QAbstractSocket::SocketError error);
    void onDisconnected();
    void finish(HttpReply reply);

    QAbstractSocket* m_socket;
    QByteArray m_request;
    qint64 m_unwritten = 0;
    QByteArray m_response;
    QTimer m_idleTimer; // the transfer timeout: restarted by every byte that moves
    std::function<void(const HttpReply&)> m_done;
    bool m_finished = false;
};

} // namespace onceorder::core
