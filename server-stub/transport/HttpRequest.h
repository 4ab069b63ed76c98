// HttpRequest: one request as the handlers see it, independent of the HTTP library. Header values are kept byte for
// byte as they arrived (no percent-decoding, no cut at a NUL), every occurrence of a repeated header is kept, so a
// handler can refuse an ambiguous one; the path and the query parameters are percent-decoded, as URLs are.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace onceorder::server {

struct HttpRequest
{
    std::string method;
    std::string target; // as sent: path and query, still encoded
    std::string path; // decoded, without the query
    std::vector<std::pair<std::string, std::string>> headers; // in arrival order, names as sent
    std::multimap<std::string, std::string> params; // decoded query parameters
    std::string body;
    std::string remoteAddr;
    std::vector<std::string> matches; // the route pattern's groups; [0] is the whole path

    // The first value of a header (names compare case-insensitively), byte for byte; empty if absent.
    std::string header(std::string_view name) const;
    // The first value, or nullptr if the header is absent (an empty value is present).
    const std::string* findHeader(std::string_view name) const;
    std::size_t headerCount(std::string_view name) const;

    bool hasParam(const std::string& name) const { return params.count(name) > 0; }
    std::string param(const std::string& name) const;
    std::size_t paramCount(const std::string& name) const { return params.count(name); }

    // Splits `target` into the decoded path and parameters.
    void parseTarget();
};

// A Host value or an absolute-form target's authority as RFC 9112 §3.2 has it: uri-host [":" port], where uri-host is a
// bracketed IP literal or a name of letters, digits, "-._~!$&'()*+;=" and %HH (no userinfo, no spaces, no lists);
// empty is allowed (a target with no authority).
bool validHost(std::string_view host);

// An absolute-form request target ("http://authority/path?query", RFC 9112 §3.2.2): its authority and its origin
// form ("/path?query", "/" for none); false for any other form.
bool splitAbsoluteForm(std::string_view target, std::string_view& authority, std::string& originForm);

// Header names compare case-insensitively (RFC 9110).
bool sameHeaderName(std::string_view a, std::string_view b);

// RFC 3986 percent-decoding; `plusIsSpace` for query components (application/x-www-form-urlencoded).
std::string percentDecode(std::string_view text, bool plusIsSpace);

} // namespace onceorder::server
