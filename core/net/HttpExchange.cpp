#include "net/HttpExchange.h"

#include <curl/curl.h>

#include <QSocketNotifier>

#include <algorithm>
#include <mutex>

namespace onceorder::core {

namespace {

void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool isCertificateFailure(CURLcode code)
{
    switch (code) {
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_INVALIDCERTSTATUS:
        return true;
    default:
        return false;
    }
}

// What a failed transfer means for the order. Not a byte of the request left: the server cannot have seen it
// (refused, no such host, a certificate refused, a connect timeout). Otherwise it may have processed it.
QNetworkReply::NetworkError toNetworkError(CURLcode code, bool nothingSent)
{
    if (nothingSent) {
        switch (code) {
        case CURLE_COULDNT_RESOLVE_HOST:
            return QNetworkReply::HostNotFoundError;
        case CURLE_COULDNT_RESOLVE_PROXY:
            return QNetworkReply::ProxyNotFoundError;
        case CURLE_COULDNT_CONNECT:
            return QNetworkReply::ConnectionRefusedError;
        default:
            return isCertificateFailure(code) ? QNetworkReply::SslHandshakeFailedError
                                              : QNetworkReply::NetworkSessionFailedError;
        }
    }
    switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
        return QNetworkReply::TimeoutError;
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
        return QNetworkReply::RemoteHostClosedError;
    default:
        return QNetworkReply::UnknownNetworkError;
    }
}

bool isWholeNumber(const QByteArray& value)
{
    return !value.isEmpty() && value.size() <= 18 &&
        std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

struct HttpExchange::Curl
{
    CURLM* multi = nullptr;
    CURL* easy = nullptr;
    curl_slist* headers = nullptr;
    char error[CURL_ERROR_SIZE] = {};

    ~Curl()
    {
        if (multi && easy) {
            curl_multi_remove_handle(multi, easy);
        }
        if (easy) {
            curl_easy_cleanup(easy);
        }
        if (multi) {
            curl_multi_cleanup(multi);
        }
        curl_slist_free_all(headers);
    }

    static int onSocket(CURL*, curl_socket_t fd, int what, void* self, void*)
    {
        static_cast<HttpExchange*>(self)->watchSocket(fd, what);
        return 0;
    }

    static int onTimer(CURLM*, long timeoutMs, void* self)
    {
        auto* exchange = static_cast<HttpExchange*>(self);
        if (timeoutMs < 0) {
            exchange->m_curlTimer.stop();
        } else {
            // Never drive curl from inside its own callback: the timer calls back from the event loop.
            exchange->m_curlTimer.start(static_cast<int>(std::min<long>(timeoutMs, 1'000'000)));
        }
        return 0;
    }

    static size_t onHeader(char* data, size_t size, size_t count, void* self)
    {
        auto* exchange = static_cast<HttpExchange*>(self);
        const QByteArray line = QByteArray(data, static_cast<qsizetype>(size * count)).trimmed();
        exchange->markSent(); // an answer has begun: the whole request went out
        if (line.startsWith("HTTP/")) {
            // A new response: after a 1xx (100 Continue, 103 Early Hints) only the final one's headers count.
            exchange->m_reply = HttpReply {};
            return size * count;
        }
        const qsizetype colon = line.indexOf(':');
        if (colon > 0) {
            const QByteArray name = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            if (name == "content-length" && !isWholeNumber(value)) {
                // libcurl 7.88 reads the digits in front ("1x4" is 1) and takes the rest of the stream as
                // something else; an answer whose length cannot be read is no answer.
                exchange->m_badLength = true;
                return 0; // ends the transfer (CURLE_WRITE_ERROR)
            }
            if (name == "idempotent-replayed") {
                exchange->m_reply.replayed = value.toLower() == "true";
            } else if (name == "retry-after") {
                exchange->m_reply.retryAfter = value;
            }
        }
        return size * count;
    }

    static size_t onBody(char* data, size_t size, size_t count, void* self)
    {
        auto* exchange = static_cast<HttpExchange*>(self);
        const auto bytes = static_cast<qsizetype>(size * count);
        if (exchange->m_reply.body.size() + bytes > kMaxResponseBytes) {
            exchange->m_tooLarge = true;
            return 0; // curl ends the transfer with CURLE_WRITE_ERROR
        }
        exchange->m_reply.body.append(data, bytes);
        return size * count;
    }

    static int onProgress(void* self, curl_off_t, curl_off_t, curl_off_t uploadTotal, curl_off_t uploadNow)
    {
        if (uploadTotal > 0 && uploadNow >= uploadTotal) {
            static_cast<HttpExchange*>(self)->markSent();
        }
        return 0;
    }
};

HttpExchange::HttpExchange(const QByteArray& method, const QUrl& url, const Headers& headers, const QByteArray& body,
                           int timeoutMs, std::function<void(const HttpReply&)> done, QObject* parent,
                           int totalTimeoutMs)
    : QObject(parent)
    , m_curl(std::make_unique<Curl>())
    , m_body(body)
    , m_done(std::move(done))
{
    initCurlOnce();
    m_curlTimer.setSingleShot(true);
    connect(&m_curlTimer, &QTimer::timeout, this, [this] { drive(CURL_SOCKET_TIMEOUT, 0); });
    m_idleTimer.setSingleShot(true);
    m_idleTimer.setTimerType(Qt::PreciseTimer);
    m_idleTimer.setInterval(timeoutMs);
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        HttpReply reply;
        // Nothing sent and not even connected: the server cannot have seen it.
        reply.error = m_sent ? QNetworkReply::OperationCanceledError : QNetworkReply::NetworkSessionFailedError;
        long requestBytes = 0;
        curl_easy_getinfo(m_curl->easy, CURLINFO_REQUEST_SIZE, &requestBytes);
        if (requestBytes > 0) {
            reply.error = QNetworkReply::OperationCanceledError;
        }
        reply.errorString = tr("no data for %1 ms (transfer timeout)").arg(m_idleTimer.interval());
        reply.timedOut = true;
        finish(reply);
    });

    m_curl->multi = curl_multi_init();
    m_curl->easy = curl_easy_init();
    if (!m_curl->multi || !m_curl->easy) {
        HttpReply reply;
        reply.error = QNetworkReply::NetworkSessionFailedError;
        reply.errorString = tr("libcurl could not be initialised");
        QTimer::singleShot(0, this, [this, reply] { finish(reply); });
        return;
    }
    CURL* easy = m_curl->easy;
    const QByteArray urlText = url.toString(QUrl::FullyEncoded).toUtf8();
    curl_easy_setopt(easy, CURLOPT_URL, urlText.constData());
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, m_curl->error);
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    // One attempt, one request, one connection: nothing kept for a later exchange, nothing taken from an earlier.
    curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(kMaxResponseBytes));
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::max(timeoutMs, 1)));
    if (totalTimeoutMs > 0) {
        curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(totalTimeoutMs));
    }
    if (method == "POST") {
        curl_easy_setopt(easy, CURLOPT_POST, 1L);
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(m_body.size()));
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, m_body.constData());
    } else if (method != "GET") {
        curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, method.constData());
    }
    // No "Expect: 100-continue" wait; the exact bytes, uncompressed (no decoder between us and the answer).
    for (const QByteArray& line :
         {QByteArray("Expect:"), QByteArray("Accept-Encoding: identity"), QByteArray("Connection: close")}) {
        m_curl->headers = curl_slist_append(m_curl->headers, line.constData());
    }
    for (const auto& [name, value] : headers) {
        m_curl->headers = curl_slist_append(m_curl->headers, (name + ": " + value).constData());
    }
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, m_curl->headers);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Curl::onHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Curl::onBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &Curl::onProgress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, this);

    curl_multi_setopt(m_curl->multi, CURLMOPT_SOCKETFUNCTION, &Curl::onSocket);
    curl_multi_setopt(m_curl->multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_curl->multi, CURLMOPT_TIMERFUNCTION, &Curl::onTimer);
    curl_multi_setopt(m_curl->multi, CURLMOPT_TIMERDATA, this);
    m_idleTimer.start();
    curl_multi_add_handle(m_curl->multi, easy); // asks for a timer: the transfer starts from the event loop
}

HttpExchange::~HttpExchange()
{
    m_curlTimer.stop();
    m_idleTimer.stop();
    m_curl.reset(); // may call onSocket(REMOVE) for what is still open
    for (auto& [reader, writer] : m_notifiers) {
        delete reader;
        delete writer;
    }
}

void HttpExchange::abort()
{
    HttpReply reply;
    reply.error = QNetworkReply::OperationCanceledError;
    reply.errorString = tr("aborted");
    finish(reply);
}

void HttpExchange::watchSocket(int fd, int what)
{
    auto& [reader, writer] = m_notifiers[fd];
    if (what == CURL_POLL_REMOVE) {
        for (QSocketNotifier* notifier : {reader, writer}) {
            if (notifier) {
                notifier->setEnabled(false);
                notifier->deleteLater(); // it may be the one whose signal is being delivered now
            }
        }
        m_notifiers.remove(fd);
        return;
    }
    if (!reader) {
        reader = new QSocketNotifier(fd, QSocketNotifier::Read, this);
        connect(reader, &QSocketNotifier::activated, this, [this, fd] { drive(fd, CURL_CSELECT_IN); });
    }
    if (!writer) {
        writer = new QSocketNotifier(fd, QSocketNotifier::Write, this);
        connect(writer, &QSocketNotifier::activated, this, [this, fd] { drive(fd, CURL_CSELECT_OUT); });
    }
    reader->setEnabled(what == CURL_POLL_IN || what == CURL_POLL_INOUT);
    writer->setEnabled(what == CURL_POLL_OUT || what == CURL_POLL_INOUT);
}

void HttpExchange::drive(int fd, int events)
{
    if (m_finished || !m_curl->multi) {
        return;
    }
    if (fd != CURL_SOCKET_TIMEOUT) {
        m_idleTimer.start(); // bytes can move: the transfer is alive
    }
    int running = 0;
    curl_multi_socket_action(m_curl->multi, fd, events, &running);
    checkDone();
}

void HttpExchange::markSent()
{
    if (!m_sent) {
        m_sent = true;
        Q_EMIT requestSent();
    }
}

void HttpExchange::checkDone()
{
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(m_curl->multi, &queued)) {
        if (message->msg != CURLMSG_DONE) {
            continue;
        }
        const CURLcode code = message->data.result;
        HttpReply reply = m_reply;
        long status = 0;
        if (code == CURLE_OK) {
            curl_easy_getinfo(m_curl->easy, CURLINFO_RESPONSE_CODE, &status);
        }
        if (code == CURLE_OK && status >= 200) {
            reply.status = static_cast<int>(status);
        } else if (code == CURLE_OK) {
            // Only an interim answer came. We never ask for an upgrade, yet libcurl (7.88) ends its header parsing
            // at a 101 and hands over what follows as the body of "HTTP 101": after a 101 the connection speaks
            // another protocol, so nothing after it is an HTTP answer. No final status: the request went out, and
            // the server may have acted on it.
            reply = HttpReply {};
            reply.error = QNetworkReply::ProtocolFailure;
            reply.errorString = tr("no final answer: the exchange ended after an interim HTTP %1").arg(status);
        } else {
            long requestBytes = 0;
            curl_easy_getinfo(m_curl->easy, CURLINFO_REQUEST_SIZE, &requestBytes);
            reply = HttpReply {};
            reply.error = toNetworkError(code, !m_sent && requestBytes == 0);
            reply.timedOut = code == CURLE_OPERATION_TIMEDOUT;
            reply.errorString = m_tooLarge || code == CURLE_FILESIZE_EXCEEDED
                ? tr("the answer is larger than %1 bytes").arg(kMaxResponseBytes)
                : m_badLength ? tr("the answer's Content-Length cannot be read")
                              : QString::fromUtf8(m_curl->error[0] ? m_curl->error : curl_easy_strerror(code));
        }
        finish(reply);
        return;
    }
}

void HttpExchange::finish(HttpReply reply)
{
    if (m_finished) {
        return;
    }
    m_finished = true;
    m_curlTimer.stop();
    m_idleTimer.stop();
    if (m_curl->multi && m_curl->easy) {
        curl_multi_remove_handle(m_curl->multi, m_curl->easy); // closes the connection (never reused)
        curl_easy_cleanup(m_curl->easy);
        m_curl->easy = nullptr;
    }
    deleteLater();
    if (m_done) {
        m_done(reply);
    }
}

} // namespace onceorder::core
