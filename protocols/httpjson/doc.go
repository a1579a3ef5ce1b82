// Package httpjson serves the tool catalogue over HTTP: a client POSTs a
// JSON request to /execute and reads a JSON response.
//
// HTTP carries the same message as stdio: the body of POST /execute is a
// [stdio.Request] and the answer's body is a [stdio.Response], the very
// JSON a stdio client writes on a line. Only the transport differs. Where
// stdio frames each message with a newline, HTTP frames it with
// Content-Length; where stdio has one client (the process that started
// the server), HTTP serves anyone who can connect, so it adds what that
// needs: a status code on every answer, bearer tokens, a body limit, and
// a description of itself in OpenAPI.
//
// # One exchange
//
// From testdata/execute.txtar. The client sends:
//
//	POST /execute HTTP/1.1
//	Host: 127.0.0.1:8080
//	Content-Type: application/json
//	Content-Length: 53
//
//	{"name":"word_count","args":{"text":"read the wire"}}
//
// and the server answers (lines end in CRLF on the wire):
//
//	HTTP/1.1 200 OK
//	Content-Length: 34
//	Content-Type: application/json
//	Date: Mon, 02 Jan 2006 15:04:05 GMT
//
//	{"result":{"words":3,"chars":13}}
//
// The request had no "id", so the answer has none. An id is still echoed
// when sent, so the same message works on both transports, but HTTP does
// not need it: each answer comes back on the exchange that asked for it.
// The connection stays open for the next call (HTTP/1.1 keep-alive).
//
// # Routes
//
//	POST /execute       call a tool; body and answer as above
//	GET  /tools         {"tools":[...]}: every tool's name, schemas and versions
//	GET  /openapi.json  an OpenAPI 3.1 document generated from the catalogue
//
// # Status codes
//
// Every answer has a JSON body, errors included: {"error":{"code":...,
// "message":...}}, the stdio error with its fields, versions or scope.
// [StatusFor] maps each code to its status:
//
//	200 OK                       a result, or tool_failed
//	400 Bad Request              parse_error, invalid_request, incompatible_version
//	401 Unauthorized             unauthorized: no bearer token, or an unknown one
//	403 Forbidden                forbidden: the token lacks a scope; forbidden_origin
//	404 Not Found                unknown_tool; not_found for any other path
//	405 Method Not Allowed       method_not_allowed, with an Allow header
//	408 Request Timeout          request_timeout: the body did not arrive before the read deadline
//	413 Request Entity Too Large too_large: the body is over the limit, or its Content-Length says so
//	415 Unsupported Media Type   unsupported_media_type: not sent as application/json
//	421 Misdirected Request      misdirected_request: Host is not this machine
//	422 Unprocessable Entity     invalid_arguments: the arguments break the schema
//	500 Internal Server Error    internal: a bug in the server
//	503 Service Unavailable      canceled: the call was stopped before the tool finished
//
// 408 and 413 close the connection (Connection: close): the rest of a
// body the server did not read would be taken for the next request. A
// Content-Length over the limit is refused before any of the body is
// read, so a client that sent "Expect: 100-continue" never gets "100
// Continue" and never sends it. A client that goes away mid-body gets
// nothing: there is no one to answer.
//
// A tool that ran and failed (tool_failed) answers 200 on purpose. The
// status line describes the HTTP exchange, and that worked: the request
// was understood, authorised and carried out. What failed is the tool's
// own job, which the caller reads in the body, just as a stdio client
// does. Keeping 4xx and 5xx for requests that could not be carried out is
// what lets a client, and every proxy and log in between, tell a broken
// call from a tool that had a bad day. invalid_arguments is also a tool
// error for the client ([stdio.Error.ToolError]), but the request was
// refused, so it gets the 4xx that HTTP has for exactly that case.
//
// # Tokens and permissions
//
// A server started with tokens ("--token reader --token ops:deploy:production")
// wants "Authorization: Bearer SECRET" (RFC 6750) on /tools and /execute;
// /openapi.json stays public, since it is where a client learns how to
// authenticate. The token is checked before the body is read:
//
//   - no Authorization header, or another scheme such as Basic: 401 with
//     WWW-Authenticate: Bearer realm="wirelab"
//   - a bearer token the server does not know: 401, and the challenge adds
//     error="invalid_token"
//   - a known token without the scope a call needs (deploy_service with
//     env=production needs deploy:production): 403, and the challenge
//     adds error="insufficient_scope", scope="deploy:production"
//
// A server started without tokens lets every caller do everything; run it
// that way only on 127.0.0.1.
//
// # Loopback guards
//
// On 127.0.0.1 the network cannot reach the server, but web pages in the
// same user's browser can. With [ServerOptions.Loopback] set, requests
// whose Host is not a loopback name are refused with 421 (DNS rebinding),
// and requests carrying another site's Origin with 403 (a cross-site
// page). Package internal/loopback explains both attacks.
//
// # Where to start reading
//
// testdata/*.txtar shows every case above as real bytes. Then wire.go
// (codes and statuses), server.go (route runs every check in order),
// auth.go (bearer tokens), client.go, and openapi.go.
package httpjson
