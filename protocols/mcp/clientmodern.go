package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The modern era, from the client's side: every request names its
// revision, the client and the client's capabilities in params._meta;
// a result says in resultType whether it is final; and a result of type
// input_required asks the client questions that the legacy era sent as
// requests of the server's own. A tools/call, for example:
//
//	-> {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}},"io.modelcontextprotocol/clientInfo":{"name":"wirelab","version":"dev"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{"env":"production"},"name":"deploy"}}
//	<- {"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"ok":{"method":"elicitation/create","params":{...}}},"requestState":"c2lnbmVk..."}}
//	-> {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{...},"arguments":{"env":"production"},"inputResponses":{"ok":{"action":"accept","content":{"confirm":true}}},"name":"deploy","requestState":"c2lnbmVk..."}}
//	<- {"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[...]}}

const (
	// maxInputRounds bounds the input-required loop. A server "MAY
	// choose to return an InputRequiredResult on multiple attempts at the
	// same request if they want to repeatedly prompt the user", so a few
	// rounds are normal; a server that never finishes must not hold the
	// client forever.
	maxInputRounds = 10

	// maxReissues bounds how often a request is sent again after its
	// response stream broke: in 2026-07-28 "a broken response stream
	// loses the in-flight request; clients MUST re-issue it as a new
	// request with a new request ID". A server that breaks every stream
	// is not going to answer the third time either.
	maxReissues = 2

	// probeTimeout is how long a stdio probe waits for any answer before
	// calling the server legacy. Legacy servers answer unknown requests
	// before initialize with an error, or "not at all"; an error arrives
	// in milliseconds and settles the era at once, so this wait is paid
	// only by the silent ones.
	probeTimeout = 5 * time.Second
)

// errStreamLost is a modern response stream that ended before the
// response: the request is lost, and sent again with a new id.
var errStreamLost = errors.New("the response stream ended before the response")

// callModern sends a modern request and decodes its final result into
// result. On the way it may send the request again, each time with a
// new id ("the JSON-RPC id MUST be different between the initial request
// and the retry, as they are independent requests"):
//
//   - with another revision, when the server answers
//     UnsupportedProtocolVersion (-32022) and lists one this client
//     speaks (once);
//   - with the answers to the server's questions, when the result is
//     input_required (up to maxInputRounds);
//   - unchanged, when the response stream broke (up to maxReissues).
func (c *Client) callModern(ctx context.Context, id jsonrpc.ID, method string, params, result any) error {
	p, err := paramsObject(params)
	if err != nil {
		return fmt.Errorf("%s: encoding params: %w", method, err)
	}
	versionRetried := false
	reissues := 0
	for round := 1; ; id = c.newID() {
		p["_meta"], err = c.requestMeta(p["_meta"])
		if err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		body, err := json.Marshal(p)
		if err != nil {
			return fmt.Errorf("%s: encoding params: %w", method, err)
		}
		raw, err := c.exchange(ctx, id, method, body)
		if errors.Is(err, errStreamLost) && reissues < maxReissues && ctx.Err() == nil {
			reissues++
			continue
		}
		if err != nil {
			if !versionRetried && c.adoptVersion(err) {
				versionRetried = true
				continue
			}
			return err
		}

		// "Clients MUST treat results from earlier-protocol servers that
		// omit the field as complete."
		var head struct {
			ResultType    string                  `json:"resultType"`
			InputRequests map[string]InputRequest `json:"inputRequests"`
			// Raw, so that it goes back byte for byte: "the client MUST
			// echo back the exact value of that field".
			RequestState json.RawMessage `json:"requestState"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return fmt.Errorf("%s: the result is not a JSON object: %w", method, err)
		}
		switch head.ResultType {
		case "", ResultComplete:
			if err := json.Unmarshal(raw, result); err != nil {
				return fmt.Errorf("%s: the result is not the JSON expected: %w", method, err)
			}
			return nil
		case ResultInputRequired:
		default:
			return fmt.Errorf("%s: the result has resultType %q; this client knows %q and %q", method, head.ResultType, ResultComplete, ResultInputRequired)
		}

		if round == maxInputRounds {
			return fmt.Errorf("%s: the server still wants input after %d rounds; giving up", method, round)
		}
		round++
		// "If the InputRequiredResult does not contain the inputRequests
		// field, the client MAY retry the original request immediately."
		delete(p, "inputResponses")
		if len(head.InputRequests) > 0 {
			answers, err := c.answerInputs(ctx, head.InputRequests)
			if err != nil {
				return fmt.Errorf("%s: %w", method, err)
			}
			if p["inputResponses"], err = json.Marshal(answers); err != nil {
				return fmt.Errorf("%s: encoding inputResponses: %w", method, err)
			}
		}
		// "If the InputRequiredResult does not contain a requestState
		// field, the client MUST NOT include one in the retry."
		delete(p, "requestState")
		if len(head.RequestState) > 0 && string(head.RequestState) != "null" {
			p["requestState"] = head.RequestState
		}
	}
}

// paramsObject turns params into their members, to add _meta and, on a
// retry, inputResponses and requestState. The retry sends "the original
// params" plus those, so the members are kept as the caller encoded them.
func paramsObject(params any) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	p := make(map[string]json.RawMessage)
	if string(b) == "null" {
		return p, nil
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("params must be a JSON object: %w", err)
	}
	return p, nil
}

// requestMeta adds the three keys every modern request carries to the
// request's own _meta (which may hold a progressToken): "Every client
// request MUST include ... protocolVersion, clientCapabilities", and
// clients SHOULD identify themselves with clientInfo.
func (c *Client) requestMeta(own json.RawMessage) (json.RawMessage, error) {
	meta := make(map[string]any)
	if len(own) > 0 {
		if err := json.Unmarshal(own, &meta); err != nil {
			return nil, fmt.Errorf("_meta must be a JSON object: %w", err)
		}
	}
	c.mu.Lock()
	meta[MetaProtocolVersion] = c.version
	c.mu.Unlock()
	meta[MetaClientInfo] = c.info
	meta[MetaClientCapabilities] = c.capabilities()
	return json.Marshal(meta)
}

// adoptVersion handles UnsupportedProtocolVersion: "The client SHOULD
// select a mutually supported version from the supported list and retry
// the request". It reports whether there is one to retry with.
func (c *Client) adoptVersion(err error) bool {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != CodeUnsupportedVersion {
		return false
	}
	var data UnsupportedVersionData
	if json.Unmarshal(rpcErr.Data, &data) != nil || !slices.Contains(data.Supported, ModernVersion) {
		// Only legacy revisions in common: that is for connect to decide,
		// before any other request.
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version = ModernVersion
	return true
}

// isModernError reports whether err is one of the errors only a modern
// server sends, which settles the era: "a recognized modern JSON-RPC
// error ... identifies a modern server: the client retries with a
// supported version rather than falling back".
func isModernError(err error) bool {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		return false
	}
	switch rpcErr.Code {
	case CodeHeaderMismatch, CodeMissingClientCapability, CodeUnsupportedVersion:
		return true
	}
	return false
}

// discoverAnswer is a DiscoverResult as servers send it. serverInfo
// belongs in _meta; some servers also put it in the body.
type discoverAnswer struct {
	DiscoverResult
	ServerInfo *Implementation `json:"serverInfo,omitempty"`
}

// discover is the modern probe: server/discover, which every modern
// server implements. Its answer settles the era:
//
//   - a DiscoverResult listing ModernVersion: modern, and c.init is
//     filled in from it;
//   - a DiscoverResult listing only legacy revisions, or a result that is
//     no DiscoverResult at all: legacy, at the newest revision listed;
//   - a modern error (UnsupportedProtocolVersion listing no revision this
//     client speaks in the modern era, a header mismatch): the error;
//   - any other error answer, as the transport's legacy says: legacy.
//     "The fallback MUST NOT be keyed to one specific error code";
//   - silence for wait (when wait is not zero): legacy, the last resort.
//
// It returns the legacy revision to open a session with, or "" for
// modern. Failures that say nothing about the era (the process exited,
// the connection was refused) are returned as errors.
func (c *Client) discover(ctx context.Context, wait time.Duration, legacy func(error) bool) (legacyAt string, err error) {
	probeCtx := ctx
	if wait > 0 {
		var cancel context.CancelFunc
		probeCtx, cancel = context.WithTimeout(ctx, wait)
		defer cancel()
	}
	var d discoverAnswer
	err = c.callModern(probeCtx, c.newID(), "server/discover", struct{}{}, &d)
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return "", err
	case probeCtx.Err() != nil:
		return LegacyVersion, nil // no answer in time: legacy
	case errors.As(err, &rpcErr) && rpcErr.Code == CodeUnsupportedVersion:
		// A modern server that speaks none of the modern revisions this
		// client does: "Use one of the versions in its advertised
		// supported list", which may be a legacy one.
		var data UnsupportedVersionData
		_ = json.Unmarshal(rpcErr.Data, &data)
		for _, v := range data.Supported {
			if isLegacy(v) {
				return v, nil
			}
		}
		return "", fmt.Errorf("%w (it speaks %v; this client speaks %v)", err, data.Supported, SupportedVersions())
	case isModernError(err):
		return "", err
	case legacy(err):
		return LegacyVersion, nil
	default:
		return "", err
	}

	if !slices.Contains(d.SupportedVersions, ModernVersion) {
		for _, v := range d.SupportedVersions {
			if isLegacy(v) {
				return v, nil // newest first, by the schema's convention
			}
		}
		return LegacyVersion, nil
	}
	c.mu.Lock()
	c.version = ModernVersion
	c.mu.Unlock()
	info := d.ServerInfo
	var meta map[string]json.RawMessage
	if json.Unmarshal(d.Meta, &meta) == nil && meta[MetaServerInfo] != nil {
		info = new(Implementation)
		if err := json.Unmarshal(meta[MetaServerInfo], info); err != nil {
			return "", fmt.Errorf("server/discover: %s is not an Implementation: %w", MetaServerInfo, err)
		}
	}
	c.init = InitializeResult{ProtocolVersion: ModernVersion, Capabilities: d.Capabilities, Instructions: d.Instructions}
	if info != nil {
		c.init.ServerInfo = *info
	}
	return "", nil
}

// isAnswer reports whether err is an error the server answered with: over
// stdio, what makes a legacy server of one that answered the probe.
func isAnswer(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr)
}
