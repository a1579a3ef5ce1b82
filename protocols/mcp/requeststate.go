package mcp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// A modern server that needs answers from the client keeps no state while
// it waits: it hands the state to the client, as requestState, and the
// client echoes it with its answers. The client must not read it, but
// nothing stops a client from changing it, so the server must not trust
// it: this server signs it (a JWS, HMAC-SHA256, with a key made at start
// and never shown) and refuses, with -32602, state that does not verify,
// has expired, or was made for another request.
//
// The payload is not secret (base64url JSON: decode the middle part to
// read it). It binds the state to one request, the method and a digest of
// its params, so that the answer to "deploy to production?" cannot be
// replayed on another deploy, and to the caller (a keyed digest of whom
// the credentials stand for, auth.go), so that one user's answer cannot
// be echoed by another; and it carries the answers of earlier
// rounds, so that a request that asks twice (a form, then another) gets
// both answers on its last round though the client sends only the latest.

// stateTTL is how long a requestState stays good: long enough for a user
// to read a question and answer it.
const stateTTL = 10 * time.Minute

// requestState is the signed payload.
type requestState struct {
	Method  string                     `json:"method"`
	Digest  string                     `json:"digest"`           // sha256 of the request's own params, hex
	Caller  string                     `json:"caller,omitempty"` // HMAC-SHA256 of the caller's id, hex; none without authorization
	Expires int64                      `json:"exp"`              // Unix seconds
	Answers map[string]json.RawMessage `json:"answers,omitempty"`
}

// paramsDigest hashes the params that say what the request is (the tool
// and its arguments, the prompt, the URI): everything but _meta and the
// members a retry adds.
func paramsDigest(raw json.RawMessage) string {
	var p map[string]json.RawMessage
	json.Unmarshal(raw, &p)
	delete(p, "_meta")
	delete(p, "inputResponses")
	delete(p, "requestState")
	b, _ := json.Marshal(p) // keys sorted, values compacted
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// callerDigest stands for a caller's id in a requestState, whose payload
// anyone can read. The id of a static token holds the token, which a
// plain hash would let anyone guess at offline (a short secret is soon
// found); an HMAC under the server's state key cannot be computed without
// the key.
func (s *Server) callerDigest(who caller) string {
	if who.id == "" {
		return ""
	}
	mac := hmac.New(sha256.New, s.stateKey)
	mac.Write([]byte(who.id))
	return hex.EncodeToString(mac.Sum(nil))
}

// signState makes the requestState of an input_required result.
func (s *Server) signState(req *jsonrpc.Request, who caller, answers map[string]json.RawMessage) (string, error) {
	payload, err := json.Marshal(requestState{Method: req.Method, Digest: paramsDigest(req.Params), Caller: s.callerDigest(who),
		Expires: time.Now().Add(stateTTL).Unix(), Answers: answers})
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.HS256, Key: s.stateKey}, nil)
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

// readAnswers gathers what a retry brings: the answers in
// params.inputResponses, and those of earlier rounds in a requestState
// that verifies. A request of a method that never asks is left alone.
func (s *Server) readAnswers(req *jsonrpc.Request, who caller, call *modernCall, p *modernParams) error {
	if !acceptsInput(req.Method) || (p.RequestState == nil && p.InputResponses == nil) {
		return nil // a first round: no answers yet (reading a nil map finds none)
	}
	call.answers = make(map[string]json.RawMessage)
	if p.RequestState != nil {
		st, err := s.verifyState(*p.RequestState)
		if err != nil {
			return err
		}
		if st.Method != req.Method || st.Digest != paramsDigest(req.Params) {
			return jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				"invalid params: requestState was made for another request (%s with other params); echo it only on the retry of the request whose input_required result carried it", st.Method)
		}
		if !hmac.Equal([]byte(st.Caller), []byte(s.callerDigest(who))) {
			return jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				"invalid params: requestState was made for another caller; only the caller it was given to may echo it")
		}
		for k, v := range st.Answers {
			call.answers[k] = v
		}
		call.stateVerified = true
	}
	if p.InputResponses == nil {
		return nil
	}
	var responses map[string]json.RawMessage
	if json.Unmarshal(p.InputResponses, &responses) != nil || !isObject(p.InputResponses) {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
			"invalid params: inputResponses must be an object, the answers by the keys of inputRequests; got %s", compact(p.InputResponses))
	}
	for k, v := range responses {
		if !isObject(v) {
			return jsonrpc.Errorf(jsonrpc.CodeInvalidParams,
				"invalid params: inputResponses[%q] must be an object, the result of the request asked under that key (an ElicitResult, a CreateMessageResult, a ListRootsResult); got %s", k, compact(v))
		}
		call.answers[k] = v
	}
	return nil
}

// verifyState checks a requestState's signature and age, and returns its
// payload.
func (s *Server) verifyState(state string) (*requestState, error) {
	refuse := func(why string) error {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: requestState %s; send the request again without it to start over", why)
	}
	jws, err := jose.ParseSignedCompact(state, []jose.SignatureAlgorithm{jose.HS256})
	if err != nil {
		return nil, refuse("is not a state this server made (not a signed JWS)")
	}
	payload, err := jws.Verify(s.stateKey)
	if err != nil {
		return nil, refuse("failed verification: it was changed, or made by another server or before a restart")
	}
	var st requestState
	if json.Unmarshal(payload, &st) != nil {
		return nil, refuse("has an unreadable payload")
	}
	if time.Now().Unix() > st.Expires {
		return nil, refuse("has expired")
	}
	return &st, nil
}
