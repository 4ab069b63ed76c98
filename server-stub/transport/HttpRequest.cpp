#include "transport/HttpRequest.h"

#include <algorithm>
#include <cctype>

namespace onceorder::server {

bool sameHeaderName(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

} // namespace

std::string percentDecode(std::string_view text, bool plusIsSpace)
{
    std::string decoded;
    decoded.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 && hexValue(text[i + 2]) >= 0) {
            decoded += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
            i += 2;
        } else if (c == '+' && plusIsSpace) {
            decoded += ' ';
        } else {
            decoded += c;
        }
    }
    return decoded;
}

const std::string* HttpRequest::findHeader(std::string_view name) const
{
    for (const auto& [field, value] : headers) {
        if (sameHeaderName(field, name)) {
            return &value;
        }
    }
    return nullptr;
}

std::string HttpRequest::header(std::string_view name) const
{
    const std::string* value = findHeader(name);
    return value ? *value : std::string();
}

std::size_t HttpRequest::headerCount(std::string_view name) const
{
    std::size_t count = 0;
    for (const auto& header : headers) {
        count += sameHeaderName(header.first, name) ? 1 : 0;
    }
    return count;
}

std::string HttpRequest::param(const std::string& name) const
{
    const auto found = params.find(name);
    return found == params.end() ? std::string() : found->second;
}

bool validHost(std::string_view host)
{
    auto digits = [](std::string_view text) {
        return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    std::string_view name = host;
    if (!host.empty() && host.front() == '[') {
        const auto close = host.find(']');
        if (close == std::string_view::npos) {
            return false;
        }
        const std::string_view literal = host.substr(1, close - 1);
        const bool ok = !literal.empty() && std::all_of(literal.begin(), literal.end(), [](char c) {
            return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
        });
        const std::string_view rest = host.substr(close + 1);
        return ok && (rest.empty() || (rest.front() == ':' && digits(rest.substr(1))));
    }
    if (const auto colon = host.rfind(':'); colon != std::string_view::npos) {
        if (!digits(host.substr(colon + 1))) {
            return false;
        }
        name = host.substr(0, colon);
    }
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (c == '%') {
            if (i + 2 >= name.size() || !std::isxdigit(static_cast<unsigned char>(name[i + 1])) ||
                !std::isxdigit(static_cast<unsigned char>(name[i + 2]))) {
                return false;
            }
            i += 2;
            continue;
        }
        if (!std::isalnum(c) &&
            std::string_view("-._~!$&'()*+;=").find(static_cast<char>(c)) == std::string_view::npos) {
            return false;
        }
    }
    return true;
}

bool splitAbsoluteForm(std::string_view target, std::string_view& authority, std::string& originForm)
{
    std::size_t scheme = 0;
    for (const std::string_view prefix : {std::string_view("http://"), std::string_view("https://")}) {
        if (target.size() >= prefix.size() && sameHeaderName(target.substr(0, prefix.size()), prefix)) {
            scheme = prefix.size();
        }
    }
    if (scheme == 0) {
        return false;
    }
    const std::string_view rest = target.substr(scheme);
    const auto end = rest.find_first_of("/?");
    authority = rest.substr(0, end);
    const std::string_view pathAndQuery = end == std::string_view::npos ? std::string_view() : rest.substr(end);
    originForm.clear();
    if (pathAndQuery.empty() || pathAndQuery.front() == '?') {
        originForm.push_back('/');
    }
    originForm.append(pathAndQuery.data(), pathAndQuery.size());
    return true;
}

void HttpRequest::parseTarget()
{
    const std::string_view whole(target);
    const auto question = whole.find('?');
    path = percentDecode(whole.substr(0, question), false);
    params.clear();
    if (question == std::string_view::npos) {
        return;
    }
    std::string_view query = whole.substr(question + 1);
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        if (!pair.empty()) {
            const auto eq = pair.find('=');
            const std::string_view name = pair.substr(0, eq);
            const std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
            params.emplace(percentDecode(name, true), percentDecode(value, true));
        }
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    }
}

} // namespace onceorder::server
