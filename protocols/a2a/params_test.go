package a2a_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// TestParamsErrors: params the agent cannot read get -32602 with a
// sentence that names the member (a part by its position) and the JSON
// type it must be, in the wire's terms; never encoding/json's wording
// about Go structs, and never -32001 for a request that names no task.
func TestParamsErrors(t *testing.T) {
	const (
		msg10 = `"messageId":"m1","role":"ROLE_USER"`
		msg03 = `"kind":"message","messageId":"m1","role":"user"`
	)
	tests := []struct {
		version, method, params, want string
	}{
		{a2a.Version10, "GetTask", `{"id":5}`, `"id" must be a string, not a number`},
		{a2a.Version10, "GetTask", `{"id":"t","historyLength":"a"}`, `"historyLength" must be an integer, not a string`},
		{a2a.Version10, "GetTask", `{}`, `"id" is required: the id of the task, as SendMessage returned it`},
		{a2a.Version10, "CancelTask", `{}`, `"id" is required: the id of the task, as SendMessage returned it`},
		{a2a.Version10, "CancelTask", `{"id":true}`, `"id" must be a string, not a boolean`},
		{a2a.Version10, "ListTasks", `{"pageSize":"10"}`, `"pageSize" must be an integer, not a string`},
		{a2a.Version10, "SendMessage", `{"message":"hi"}`, `"message" must be an object, not a string`},
		{a2a.Version10, "SendMessage", `{"message":{` + msg10 + `,"parts":"x"}}`, `"message.parts" must be an array, not a string`},
		{a2a.Version10, "SendMessage", `{"message":{` + msg10 + `,"parts":[{"text":5}]}}`, `"message.parts[0].text" must be a string, not a number`},
		{a2a.Version10, "SendMessage", `{"message":{` + msg10 + `,"parts":[{"text":"a"},"b"]}}`, `"message.parts[1]" must be an object, not a string`},
		{a2a.Version10, "SendMessage", `{"message":{` + msg10 + `,"parts":[{"raw":"!!!!","mediaType":"text/plain"}]}}`,
			`"message.parts[0].raw" must be standard base64, with padding; it breaks at byte 0`},
		{a2a.Version10, "SendMessage", `{"message":{` + msg10 + `,"contextId":5,"parts":[{"text":"a"}]}}`, `"message.contextId" must be a string, not a number`},
		{a2a.Version10, "SendMessage", `{"message":{` + msg10 + `,"parts":[{"text":"a"}]},"configuration":"x"}`, `"configuration" must be an object, not a string`},
		{a2a.Version10, "SendMessage", `{"message":{` + msg10 + `,"parts":[{"video":"x"}]}}`,
			`part 0 holds nothing ("video" is not a member of a part); a part sets exactly one of "text", "raw", "url" and "data"`},
		{a2a.Version10, "SendMessage", `{}`, `"message" is missing or empty: send {"message": {"messageId": "...", "role": "ROLE_USER", "parts": [{"text": "count the words"}]}}`},
		{a2a.Version10, "SendMessage", `{"message":null}`, `"message" is missing or empty: send {"message": {"messageId": "...", "role": "ROLE_USER", "parts": [{"text": "count the words"}]}}`},

		{a2a.Version03, "tasks/get", `{"id":5}`, `"id" must be a string, not a number`},
		{a2a.Version03, "tasks/get", `{}`, `"id" is required: the id of the task, as SendMessage returned it`},
		{a2a.Version03, "message/send", `{"message":{` + msg03 + `,"parts":[{"kind":"file","file":"x"}]}}`, `"message.parts[0].file" must be an object, not a string`},
		{a2a.Version03, "message/send", `{"message":{` + msg03 + `,"parts":[{"kind":5}]}}`, `"message.parts[0].kind" must be a string, not a number`},
		{a2a.Version03, "message/send", `{}`, `"message" is missing or empty: send {"message": {"kind": "message", "messageId": "...", "role": "user", "parts": [{"kind": "text", "text": "count the words"}]}}`},
		{a2a.Version03, "message/send", `{"message":{"messageId":"m1","parts":[{"kind":"text","text":"a"}]}}`, `message has no "role": it is "user" or "agent"`},
	}
	srv := tckStart(t, nil)
	for _, tt := range tests {
		t.Run(tt.version+" "+tt.method+" "+tt.params, func(t *testing.T) {
			c := srv.client(t, tt.version)
			r := c.callRaw(tt.method, json.RawMessage(tt.params))
			if r.Error == nil {
				t.Fatalf("result %s, want error -32602", r.Result)
			}
			tckCheckError(t, tt.version, *r.Error, jsonrpc.CodeInvalidParams)
			if want := "invalid params: " + tt.want; r.Error.Message != want {
				t.Errorf("message %q\nwant    %q", r.Error.Message, want)
			}
		})
	}
}

// TestSubscribeNeedsID: SubscribeToTask without an id is -32602, sent
// as the one event of the stream.
func TestSubscribeNeedsID(t *testing.T) {
	c := tckStart(t, nil).client(t, a2a.Version10)
	h := c.post(c.request("SubscribeToTask", map[string]any{}), nil)
	data, ok := strings.CutPrefix(string(h.body), "data: ")
	if h.status != http.StatusOK || !ok {
		t.Fatalf("HTTP %d: %s", h.status, h.body)
	}
	r := tckDecodeReply(t, []byte(data))
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, `"id" is required`) {
		t.Errorf("answer %s, want -32602 saying the id is required", data)
	}
}
