// Fuzzes the network conditioner's HTTP framer (core/net): where one request or response ends in a stream of
// bytes (Content-Length, chunked, read-until-close), which decides what the conditioner drops, delays or relays.
//
// Properties, for requests, responses and responses to HEAD: a complete frame lies inside the bytes and a
// response's status is a three-digit code; bytes appended after a complete or malformed message never change the
// verdict (the next message's bytes must not move this one's end); every proper prefix of a complete message is
// incomplete (never malformed, never complete elsewhere); and a message built from the input as a body, with a
// Content-Length or chunked in pieces the input chooses, frames at exactly its end.
#include "net/HttpFramer.h"
#include "support/FuzzCheck.h"

#include <QByteArray>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

using onceorder::fuzz::require;
using namespace onceorder::core;

namespace {

std::string describe(const QByteArray& data, const HttpFrame& frame)
{
    return "state " + std::to_string(static_cast<int>(frame.state)) + ", length " + std::to_string(frame.length) +
        ", status " + std::to_string(frame.status) + " for: " + data.left(300).toStdString();
}

void checkMessage(const QByteArray& data, HttpMessageKind kind)
{
    const HttpFrame frame = HttpFramer::frame(data, kind);
    if (frame.state == HttpFrame::State::Incomplete) {
        return;
    }
    const HttpFrame longer = HttpFramer::frame(data + "GET /next HTTP/1.1\r\n\r\n", kind);
    require(longer.state == frame.state && longer.length == frame.length && longer.status == frame.status,
            "bytes after a message never change its verdict", describe(data, frame) + " / " + describe(data, longer));
    if (frame.state == HttpFrame::State::Malformed) {
        return;
    }
    require(frame.length > 0 && frame.length <= data.size(), "a complete frame lies inside the bytes",
            describe(data, frame));
    require(kind == HttpMessageKind::Request || (frame.status >= 100 && frame.status <= 999),
            "a response's status is a three-digit code", describe(data, frame));
    for (const qsizetype cut : {frame.length - 1, frame.length / 2, frame.length - 2}) {
        if (cut <= 0) {
            continue;
        }
        const HttpFrame prefix = HttpFramer::frame(data.left(cut), kind);
        require(prefix.state == HttpFrame::State::Incomplete, "a proper prefix of a message is incomplete",
                std::to_string(cut) + " bytes of " + describe(data, frame) + ": " + describe(data.left(cut), prefix));
    }
}

// A request carrying `body`, chunked into pieces whose sizes the body's own bytes choose.
QByteArray chunkedRequest(const QByteArray& body)
{
    QByteArray message = "POST /orders HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n";
    qsizetype pos = 0;
    while (pos < body.size()) {
        const qsizetype piece = std::min<qsizetype>(body.size() - pos, 1 + static_cast<unsigned char>(body[pos]) % 17);
        message += QByteArray::number(piece, 16) + "\r\n" + body.mid(pos, piece) + "\r\n";
        pos += piece;
    }
    return message + "0\r\nX-Trailer: 1\r\n\r\n";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    checkMessage(bytes, HttpMessageKind::Request);
    checkMessage(bytes, HttpMessageKind::Response);
    checkMessage(bytes, HttpMessageKind::ResponseToHead);

    const QByteArray sized =
        "POST /orders HTTP/1.1\r\nContent-Length: " + QByteArray::number(bytes.size()) + "\r\n\r\n" + bytes;
    const HttpFrame sizedFrame = HttpFramer::frame(sized + "trailing", HttpMessageKind::Request);
    require(sizedFrame.state == HttpFrame::State::Complete && sizedFrame.length == sized.size(),
            "a request with a Content-Length ends where the length says", describe(sized, sizedFrame));
    const QByteArray answer =
        "HTTP/1.1 201 Created\r\nContent-Length: " + QByteArray::number(bytes.size()) + "\r\n\r\n" + bytes;
    const HttpFrame answerFrame = HttpFramer::frame(answer + "HTTP/1.1 200 OK\r\n", HttpMessageKind::Response);
    require(answerFrame.state == HttpFrame::State::Complete && answerFrame.length == answer.size() &&
                answerFrame.status == 201,
            "a response with a Content-Length ends where the length says", describe(answer, answerFrame));
    // The input's first line as a Content-Length value: RFC 9110 allows only digits (with spaces or tabs around), and
    // anything the relay reads differently from the server lets the two disagree on where a request ends.
    const QByteArray value = bytes.left(bytes.indexOf('\n') < 0 ? bytes.size() : bytes.indexOf('\n'));
    if (!value.contains('\r')) {
        qsizetype first = 0;
        qsizetype last = value.size();
        // Spaces and tabs are RFC 9110's; \v and \f the framer also trims (QByteArray::trimmed), harmlessly.
        const auto space = [](char c) {
            return c == ' ' || c == '\t' || c == '\v' || c == '\f';
        };
        while (first < last && space(value[first])) {
            ++first;
        }
        while (last > first && space(value[last - 1])) {
            --last;
        }
        const QByteArray digits = value.mid(first, last - first);
        const bool plain =
            !digits.isEmpty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
        const QByteArray head = "POST /orders HTTP/1.1\r\nContent-Length:" + value + "\r\n\r\n";
        const HttpFrame lengthFrame = HttpFramer::frame(head + "body", HttpMessageKind::Request);
        require(plain || lengthFrame.state == HttpFrame::State::Malformed,
                "a Content-Length that is not digits is malformed", describe(head, lengthFrame));
    }

    const QByteArray chunked = chunkedRequest(bytes);
    const HttpFrame chunkedFrame = HttpFramer::frame(chunked + "GET / HTTP/1.1\r\n\r\n", HttpMessageKind::Request);
    require(chunkedFrame.state == HttpFrame::State::Complete && chunkedFrame.length == chunked.size(),
            "a chunked request ends after its last chunk and trailers", describe(chunked, chunkedFrame));
    return 0;
}
