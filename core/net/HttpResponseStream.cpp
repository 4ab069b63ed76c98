#include "net/HttpResponseStream.h"

#include <algorithm>

namespace onceorder::core {

HttpResponseStream::HttpResponseStream(HttpMessageKind kind)
    : m_kind(kind)
{
}

HttpResponseStream::State HttpResponseStream::end(State state)
{
    m_state = state;
    m_pending.clear();
    return state;
}

qint64 HttpResponseStream::take(qint64 most)
{
    const qint64 taken = std::min<qint64>(most, m_pending.size());
    m_pending.remove(0, taken);
    m_body += taken;
    return taken;
}

HttpResponseStream::State HttpResponseStream::feed(const QByteArray& data)
{
    if (m_state != State::Incomplete) {
        return m_state;
    }
    m_pending += data;
    while (m_state == State::Incomplete && step()) { }
    if (m_state == State::Incomplete && m_body > kMaxBodyBytes) {
        return end(State::TooLarge);
    }
    return m_state;
}

bool HttpResponseStream::step()
{
    switch (m_phase) {
    case Phase::Head:
        return stepHead();
    case Phase::Length:
        m_remaining -= take(m_remaining);
        if (m_remaining == 0) {
            end(State::Complete);
        }
        return false;
    case Phase::UntilClose:
        take(m_pending.size());
        return false;
    case Phase::ChunkLine:
        return stepChunkLine();
    case Phase::ChunkData:
        m_remaining -= take(m_remaining);
        if (m_remaining > 0) {
            return false;
        }
        m_phase = Phase::ChunkEnd;
        return true;
    case Phase::ChunkEnd:
        if (m_pending.size() < 2) {
            return false;
        }
        if (!m_pending.startsWith("\r\n")) {
            end(State::Malformed);
            return false;
        }
        m_pending.remove(0, 2);
        m_phase = Phase::ChunkLine;
        return true;
    case Phase::Trailers:
        return stepTrailer();
    }
    return false;
}

bool HttpResponseStream::stepHead()
{
    qsizetype start = 0;
    while (m_pending.size() >= start + 2 && m_pending[start] == '\r' && m_pending[start + 1] == '\n') {
        start += 2;
    }
    const qsizetype headEnd = m_pending.indexOf("\r\n\r\n", start);
    if (headEnd < 0) {
        if (m_pending.size() - start > kMaxHeadBytes) {
            end(State::TooLarge);
        }
        return false;
    }
    // The head alone, framed by HttpFramer: bodyless, a length, chunked, or until the server closes.
    const QByteArray head = m_pending.left(headEnd + 4);
    const HttpFramer::Body body = HttpFramer::bodyOf(head, m_kind);
    if (body.malformed) {
        end(State::Malformed);
        return false;
    }
    m_pending.remove(0, head.size());
    m_status = body.status;
    if (body.bodyless) {
        if (m_status >= 100 && m_status < 200 && m_status != 101) {
            return true; // an interim response: the real one follows
        }
        end(State::Complete);
        return false;
    }
    if (body.chunked) {
        m_phase = Phase::ChunkLine;
    } else if (body.contentLength >= 0) {
        if (body.contentLength > kMaxBodyBytes) {
            end(State::TooLarge);
            return false;
        }
        m_phase = Phase::Length;
        m_remaining = body.contentLength;
    } else {
        m_phase = Phase::UntilClose;
    }
    return true;
}

bool HttpResponseStream::stepChunkLine()
{
    const qsizetype lineEnd = m_pending.indexOf("\r\n");
    if (lineEnd < 0) {
        if (m_pending.size() > kMaxChunkLineBytes || m_framing + m_pending.size() > kMaxFramingBytes) {
            end(State::TooLarge);
        }
        return false;
    }
    m_framing += lineEnd + 2;
    if (lineEnd > kMaxChunkLineBytes || m_framing > kMaxFramingBytes) {
        end(State::TooLarge);
        return false;
    }
    QByteArray sizeText = m_pending.left(lineEnd);
    if (const qsizetype extension = sizeText.indexOf(';'); extension >= 0) {
        sizeText.truncate(extension);
    }
    bool ok = false;
    const qlonglong size = sizeText.trimmed().toLongLong(&ok, 16);
    if (!ok || size < 0) {
        end(State::Malformed);
        return false;
    }
    m_pending.remove(0, lineEnd + 2);
    if (size == 0) {
        m_phase = Phase::Trailers;
    } else if (size > kMaxBodyBytes - m_body) {
        end(State::TooLarge);
        return false;
    } else {
        m_phase = Phase::ChunkData;
        m_remaining = size;
    }
    return true;
}

bool HttpResponseStream::stepTrailer()
{
    const qsizetype lineEnd = m_pending.indexOf("\r\n");
    if (lineEnd < 0) {
        if (m_trailers + m_pending.size() > kMaxHeadBytes) {
            end(State::TooLarge);
        }
        return false;
    }
    if (lineEnd == 0) {
        end(State::Complete);
        return false;
    }
    m_trailers += lineEnd + 2;
    if (m_trailers > kMaxHeadBytes) {
        end(State::TooLarge);
        return false;
    }
    m_pending.remove(0, lineEnd + 2);
    return true;
}

} // namespace onceorder::core
