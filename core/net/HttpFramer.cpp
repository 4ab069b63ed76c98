#include "net/HttpFramer.h"

#include <QList>

#include <algorithm>
#include <optional>

namespace onceorder::core::HttpFramer {

namespace {

// A request or response head larger than this is not HTTP we relay; it also bounds what a client can make us buffer.
constexpr qsizetype kMaxHead = 64 * 1024;

HttpFrame complete(qsizetype length, int status)
{
    return HttpFrame {HttpFrame::State::Complete, length, status};
}

HttpFrame malformed()
{
    return HttpFrame {HttpFrame::State::Malformed, 0, 0};
}

} // namespace

Body bodyOf(const QByteArray& head, HttpMessageKind kind)
{
    Body body;
    qsizetype start = 0;
    while (head.size() >= start + 2 && head[start] == '\r' && head[start + 1] == '\n') {
        start += 2;
    }
    const qsizetype headEnd = head.indexOf("\r\n\r\n", start);
    if (headEnd < 0) {
        body.malformed = true;
        return body;
    }
    const qsizetype startLineEnd = head.indexOf("\r\n", start);
    const QByteArray startLine = head.mid(start, startLineEnd - start);

    if (kind != HttpMessageKind::Request) {
        const QList<QByteArray> parts = startLine.split(' ');
        bool ok = false;
        body.status = parts.size() >= 2 ? parts[1].toInt(&ok) : 0;
        if (!startLine.startsWith("HTTP/") || !ok || body.status < 100 || body.status > 999) {
            body.malformed = true;
            return body;
        }
    }

    std::optional<qlonglong> contentLength;
    const QByteArray fields = startLineEnd < headEnd ? head.mid(startLineEnd + 2, headEnd - startLineEnd - 2) : "";
    for (const QByteArray& line : fields.split('\n')) {
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            continue;
        }
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed().toLower();
        if (name == "content-length") {
            // Digits only (RFC 9110 §8.6): toLongLong alone would take "+5", and "7" from "7\0junk" (it stops at a
            // NUL), where the server reads something else, and the two would disagree on where the request ends.
            const bool digits = !value.isEmpty() &&
                std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
            bool ok = false;
            const qlonglong length = digits ? value.toLongLong(&ok) : -1;
            if (!ok || length < 0 || (contentLength && *contentLength != length)) {
                body.malformed = true;
                return body;
            }
            contentLength = length;
        } else if (name == "transfer-encoding") {
            body.chunked = value.split(',').last().trimmed() == "chunked";
        }
    }
    body.contentLength = contentLength.value_or(-1);
    body.bodyless = kind == HttpMessageKind::ResponseToHead || (body.status >= 100 && body.status < 200) ||
        body.status == 204 || body.status == 304;
    return body;
}

HttpFrame frame(const QByteArray& data, HttpMessageKind kind)
{
    // Empty lines before a message are tolerated, as RFC 9112 §2.2 asks.
    qsizetype start = 0;
    while (data.size() >= start + 2 && data[start] == '\r' && data[start + 1] == '\n') {
        start += 2;
    }
    const qsizetype headEnd = data.indexOf("\r\n\r\n", start);
    if (headEnd < 0) {
        return data.size() - start > kMaxHead ? malformed() : HttpFrame {};
    }
    const qsizetype bodyStart = headEnd + 4;
    const Body body = bodyOf(data.left(bodyStart), kind);
    if (body.malformed) {
        return malformed();
    }
    if (body.bodyless) {
        return complete(bodyStart, body.status);
    }
    if (body.chunked) {
        return chunkedFrame(data, bodyStart, body.status);
    }
    if (body.contentLength >= 0) {
        return body.contentLength > data.size() - bodyStart ? HttpFrame {}
                                                            : complete(bodyStart + body.contentLength, body.status);
    }
    // A request without a length has no body; a response without one lasts until the server closes.
    return kind == HttpMessageKind::Request ? complete(bodyStart, body.status) : HttpFrame {};
}

HttpFrame chunkedFrame(const QByteArray& data, qsizetype pos, int status)
{
    for (;;) {
        const qsizetype lineEnd = data.indexOf("\r\n", pos);
        if (lineEnd < 0) {
            return data.size() - pos > kMaxHead ? malformed() : HttpFrame {};
        }
        QByteArray sizeText = data.mid(pos, lineEnd - pos);
        if (const qsizetype extension = sizeText.indexOf(';'); extension >= 0) {
            sizeText.truncate(extension);
        }
        bool ok = false;
        const qlonglong size = sizeText.trimmed().toLongLong(&ok, 16);
        if (!ok || size < 0) {
            return malformed();
        }
        pos = lineEnd + 2;
        if (size == 0) {
            // Trailer lines up to an empty one.
            for (;;) {
                const qsizetype end = data.indexOf("\r\n", pos);
                if (end < 0) {
                    return HttpFrame {};
                }
                if (end == pos) {
                    return complete(end + 2, status);
                }
                pos = end + 2;
            }
        }
        // Compared this way round so a huge announced size cannot overflow.
        if (size > data.size() - pos - 2) {
            return HttpFrame {};
        }
        if (data.mid(pos + size, 2) != "\r\n") {
            return malformed();
        }
        pos += size + 2;
    }
}

} // namespace onceorder::core::HttpFramer
