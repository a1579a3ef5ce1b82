package a2a

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	v03sdk "github.com/a2aproject/a2a-go/a2a"
	v03card "github.com/a2aproject/a2a-go/a2aclient/agentcard"
	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
)

// These tests hold v03.go to the official 0.3 Go SDK
// (github.com/a2aproject/a2a-go/a2a; the v2 module requires v0.3.15 of
// it), and to the 0.3 bridge inside the v2 SDK (a2acompat/a2av0). The
// sample values are those of wire_test.go.

// v03SampleTask is sampleTask as the 0.3 SDK's types should hold it.
// Note the second artifact: 1.0 data ["sunny","windy"] is not an object,
// so 0.3 carries it wrapped, and marked as wrapped.
func v03SampleTask() v03sdk.Task {
	return v03sdk.Task{
		ID:        "task-1",
		ContextID: "ctx-1",
		Status: v03sdk.TaskStatus{
			State:     v03sdk.TaskStateCompleted,
			Timestamp: ptr(sampleTime),
			Message: &v03sdk.Message{ID: "m-status", ContextID: "ctx-1", TaskID: "task-1",
				Role: v03sdk.MessageRoleAgent, Parts: v03sdk.ContentParts{v03sdk.TextPart{Text: "Done."}}},
		},
		Artifacts: []*v03sdk.Artifact{
			{
				ID:          "a-1",
				Name:        "report",
				Description: "the forecast",
				Parts: v03sdk.ContentParts{
					v03sdk.TextPart{Text: "# Lisbon"},
					v03sdk.DataPart{Data: map[string]any{"city": "Lisbon", "tempC": 21.5}},
					v03sdk.FilePart{File: v03sdk.FileBytes{
						FileMeta: v03sdk.FileMeta{MimeType: "image/png", Name: "chart.png"},
						Bytes:    base64.StdEncoding.EncodeToString([]byte("\x89PNG\x00\x01"))}},
				},
				Metadata: map[string]any{"source": "test"},
			},
			{
				ID: "a-2",
				Parts: v03sdk.ContentParts{
					v03sdk.DataPart{Data: map[string]any{"value": []any{"sunny", "windy"}},
						Metadata: map[string]any{"data_part_compat": true}},
					v03sdk.FilePart{File: v03sdk.FileURI{
						FileMeta: v03sdk.FileMeta{MimeType: "application/pdf"}, URI: "https://example.com/full.pdf"}},
				},
			},
		},
		History: []*v03sdk.Message{
			{ID: "m-1", ContextID: "ctx-1", TaskID: "task-1", Role: v03sdk.MessageRoleUser,
				Parts: v03sdk.ContentParts{v03sdk.TextPart{Text: "Weather in Lisbon?"},
					v03sdk.DataPart{Data: map[string]any{"units": "metric"}}},
				Metadata: map[string]any{"lang": "en"}},
			{ID: "m-2", ContextID: "ctx-1", TaskID: "task-1", Role: v03sdk.MessageRoleAgent,
				Parts: v03sdk.ContentParts{v03sdk.TextPart{Text: "Looking it up."}}, ReferenceTasks: []v03sdk.TaskID{"task-0"}},
		},
		Metadata: map[string]any{"priority": "high"},
	}
}

func v03SampleStatusEvent(final bool) v03sdk.TaskStatusUpdateEvent {
	return v03sdk.TaskStatusUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Final: final,
		Status: v03sdk.TaskStatus{State: v03sdk.TaskStateInputRequired, Timestamp: ptr(sampleTime),
			Message: &v03sdk.Message{ID: "m-ask", Role: v03sdk.MessageRoleAgent,
				Parts: v03sdk.ContentParts{v03sdk.TextPart{Text: "Which city?"}}}}}
}

func v03SampleArtifactEvent() v03sdk.TaskArtifactUpdateEvent {
	return v03sdk.TaskArtifactUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Append: true, LastChunk: true,
		Artifact: &v03sdk.Artifact{ID: "a-1", Parts: v03sdk.ContentParts{v03sdk.TextPart{Text: " and sunny."}}}}
}

func v03SampleSendParams() v03sdk.MessageSendParams {
	return v03sdk.MessageSendParams{
		Message: &v03sdk.Message{ID: "m-1", ContextID: "ctx-1", Role: v03sdk.MessageRoleUser,
			Parts: v03sdk.ContentParts{v03sdk.TextPart{Text: "Weather in Lisbon?"}}, Extensions: []string{"https://example.com/ext/v1"}},
		Config: &v03sdk.MessageSendConfig{AcceptedOutputModes: []string{"text/plain"},
			HistoryLength: ptr(2), Blocking: ptr(false)},
		Metadata: map[string]any{"trace": "abc"},
	}
}

// decodeV03Event decodes one message/send result or stream event the
// way the 0.3 SDK's client does: by its "kind".
func decodeV03Event(t *testing.T, data []byte) v03sdk.Event {
	t.Helper()
	ev, err := v03sdk.UnmarshalEventJSON(data)
	if err != nil {
		t.Fatalf("0.3 SDK rejects our result: %v\njson: %s", err, data)
	}
	return ev
}

func TestV03State(t *testing.T) {
	tests := []struct {
		state TaskState
		v03   string
	}{
		{StateSubmitted, "submitted"},
		{StateWorking, "working"},
		{StateInputRequired, "input-required"},
		{StateAuthRequired, "auth-required"},
		{StateCompleted, "completed"},
		{StateFailed, "failed"},
		{StateCanceled, "canceled"},
		{StateRejected, "rejected"},
	}
	for _, tt := range tests {
		if got := v03State(tt.state); got != tt.v03 {
			t.Errorf("v03State(%s) = %q, want %q", tt.state, got, tt.v03)
		}
		if got, err := fromV03State(tt.v03); err != nil || got != tt.state {
			t.Errorf("fromV03State(%q) = %s, %v; want %s", tt.v03, got, err, tt.state)
		}
	}
	if got := v03State("TASK_STATE_UNSPECIFIED"); got != "unknown" {
		t.Errorf(`v03State of a state 0.3 cannot name = %q, want "unknown"`, got)
	}
	for _, bad := range []string{"unknown", "WORKING", "TASK_STATE_WORKING", "input_required", ""} {
		if got, err := fromV03State(bad); err == nil {
			t.Errorf("fromV03State(%q) = %s, want an error", bad, got)
		}
	}
}

func TestFromV03Method(t *testing.T) {
	tests := map[string]string{
		"message/send":      "SendMessage",
		"message/stream":    "SendStreamingMessage",
		"tasks/get":         "GetTask",
		"tasks/cancel":      "CancelTask",
		"tasks/resubscribe": "SubscribeToTask",
	}
	for v03, want := range tests {
		if got, ok := fromV03Method(v03); !ok || got != want {
			t.Errorf("fromV03Method(%q) = %q, %v; want %q", v03, got, ok, want)
		}
	}
	for _, bad := range []string{"SendMessage", "tasks/send", "tasks/list"} {
		if got, ok := fromV03Method(bad); ok {
			t.Errorf("fromV03Method(%q) = %q, want not found", bad, got)
		}
	}
}

// TestV03SDKReadsOurJSON converts our 1.0 values to 0.3, marshals them,
// and decodes them as the 0.3 SDK does: message/send results and stream
// events by kind, tasks/get results into a2a.Task, and message/send
// params as its server does.
func TestV03SDKReadsOurJSON(t *testing.T) {
	task, msg := sampleTask(), sampleTask().History[1]
	wantTask, wantMsg := v03SampleTask(), v03SampleTask().History[1]
	status, wantStatus := sampleStatusEvent(), v03SampleStatusEvent(true)
	artifact, wantArtifact := sampleArtifactEvent(), v03SampleArtifactEvent()
	tests := []struct {
		name   string
		ours   any
		decode func([]byte) any
		want   any
	}{
		{"tasks/get result", toV03Task(task), func(b []byte) any { return decodeAs[v03sdk.Task](t, b) }, wantTask},
		{"send result task", toV03Result(SendMessageResponse{Task: &task}),
			func(b []byte) any { return decodeV03Event(t, b) }, &wantTask},
		{"send result message", toV03Result(SendMessageResponse{Message: &msg}),
			func(b []byte) any { return decodeV03Event(t, b) }, wantMsg},
		{"stream status", toV03Event(StreamResponse{StatusUpdate: &status}),
			func(b []byte) any { return decodeV03Event(t, b) }, &wantStatus},
		{"stream artifact", toV03Event(StreamResponse{ArtifactUpdate: &artifact}),
			func(b []byte) any { return decodeV03Event(t, b) }, &wantArtifact},
		{"send params", toV03SendParams(sampleSendRequest()),
			func(b []byte) any { return decodeAs[v03sdk.MessageSendParams](t, b) }, v03SampleSendParams()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.decode(mustMarshal(t, tt.ours))
			if diff := cmp.Diff(tt.want, got, cmpWire...); diff != "" {
				t.Errorf("0.3 SDK decoded our JSON differently (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWeReadV03SDKJSON: what the 0.3 SDK marshals, our 0.3 types decode
// and convert to the 1.0 values we expect.
func TestWeReadV03SDKJSON(t *testing.T) {
	task, status, artifact := sampleTask(), sampleStatusEvent(), sampleArtifactEvent()
	tests := []struct {
		name      string
		sdk       any
		want      StreamResponse
		wantFinal bool
	}{
		{"task", v03SampleTask(), StreamResponse{Task: &task}, false},
		{"message", v03SampleTask().History[0], StreamResponse{Message: &task.History[0]}, false},
		{"status", v03SampleStatusEvent(true), StreamResponse{StatusUpdate: &status}, true},
		{"status not final", v03SampleStatusEvent(false), StreamResponse{StatusUpdate: &status}, false},
		{"artifact", v03SampleArtifactEvent(), StreamResponse{ArtifactUpdate: &artifact}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, final, err := fromV03Event(mustMarshal(t, tt.sdk))
			if err != nil {
				t.Fatalf("fromV03Event: %v", err)
			}
			if diff := cmp.Diff(tt.want, got, cmpWire...); diff != "" {
				t.Errorf("we read the 0.3 SDK's JSON differently (-want +got):\n%s", diff)
			}
			if final != tt.wantFinal {
				t.Errorf("final = %v, want %v", final, tt.wantFinal)
			}
		})
	}

	t.Run("send params", func(t *testing.T) {
		p := decodeAs[v03SendParams](t, mustMarshal(t, v03SampleSendParams()))
		got, err := fromV03SendParams(p)
		if err != nil {
			t.Fatalf("fromV03SendParams: %v", err)
		}
		if diff := cmp.Diff(sampleSendRequest(), got, cmpWire...); diff != "" {
			t.Errorf("send params differ (-want +got):\n%s", diff)
		}
	})
	t.Run("tasks/get params", func(t *testing.T) {
		sent := v03sdk.TaskQueryParams{ID: "task-1", HistoryLength: ptr(1), Metadata: map[string]any{"k": "v"}}
		got := fromV03TaskQuery(decodeAs[v03TaskQueryParams](t, mustMarshal(t, sent)))
		if diff := cmp.Diff(GetTaskRequest{ID: "task-1", HistoryLength: ptr(1)}, got); diff != "" {
			t.Errorf("tasks/get params differ (-want +got):\n%s", diff)
		}
	})
	t.Run("tasks/cancel params", func(t *testing.T) {
		sent := v03sdk.TaskIDParams{ID: "task-1", Metadata: map[string]any{"k": "v"}}
		got := decodeAs[TaskIDRequest](t, mustMarshal(t, sent))
		want := TaskIDRequest{ID: "task-1", Metadata: json.RawMessage(`{"k":"v"}`)}
		if diff := cmp.Diff(want, got, cmpWire...); diff != "" {
			t.Errorf("TaskIdParams differ from TaskIDRequest (-want +got):\n%s", diff)
		}
	})
}

// TestBlocking: 0.3's "blocking" and 1.0's "returnImmediately" say
// opposite things, and an absent "blocking" means wait.
func TestBlocking(t *testing.T) {
	tests := []struct {
		config string
		want   bool // ReturnImmediately
	}{
		{`{}`, false},
		{`{"blocking":true}`, false},
		{`{"blocking":false}`, true},
	}
	for _, tt := range tests {
		raw := `{"message":{"kind":"message","messageId":"m","role":"user","parts":[]},"configuration":` + tt.config + `}`
		req, err := fromV03SendParams(decodeAs[v03SendParams](t, []byte(raw)))
		if err != nil {
			t.Fatalf("%s: %v", tt.config, err)
		}
		if got := req.Configuration.ReturnImmediately; got != tt.want {
			t.Errorf("configuration %s: ReturnImmediately = %v, want %v", tt.config, got, tt.want)
		}
	}
}

// TestFinal: a 0.3 status event is final exactly when our 1.0 stream
// would end after it.
func TestFinal(t *testing.T) {
	tests := []struct {
		state TaskState
		final bool
	}{
		{StateSubmitted, false},
		{StateWorking, false},
		{StateInputRequired, true},
		{StateAuthRequired, true},
		{StateCompleted, true},
		{StateFailed, true},
		{StateCanceled, true},
		{StateRejected, true},
	}
	for _, tt := range tests {
		ev := TaskStatusUpdateEvent{TaskID: "t", ContextID: "c", Status: TaskStatus{State: tt.state}}
		got := toV03Event(StreamResponse{StatusUpdate: &ev}).(v03StatusEvent)
		if got.Final != tt.final {
			t.Errorf("state %s: final = %v, want %v", tt.state, got.Final, tt.final)
		}
	}
}

// TestAgreesWithOfficialBridge compares our 1.0-to-0.3 translation with
// the one the v2 SDK ships (a2av0.FromV1Task), as JSON values, and feeds
// each side's wrapped non-object data to the other.
func TestAgreesWithOfficialBridge(t *testing.T) {
	sdkTask := sdkSampleTask()
	theirs := mustMarshal(t, a2av0.FromV1Task(&sdkTask))
	ours := mustMarshal(t, toV03Task(sampleTask()))
	if diff := cmp.Diff(json.RawMessage(theirs), json.RawMessage(ours), sameJSON); diff != "" {
		t.Errorf("our 0.3 task differs from the official bridge's (-theirs +ours):\n%s", diff)
	}

	// Their wrapping, our unwrapping.
	wrapped := a2av0.FromV1Part(&sdk.Part{Content: sdk.Data{Value: []any{1.0, 2.0}}})
	var part v03Part
	if err := json.Unmarshal(mustMarshal(t, wrapped), &part); err != nil {
		t.Fatal(err)
	}
	got, err := fromV03Part(part)
	if err != nil {
		t.Fatalf("fromV03Part: %v", err)
	}
	if diff := cmp.Diff(DataPart(json.RawMessage(`[1,2]`)), got, cmpWire...); diff != "" {
		t.Errorf("their wrapped data, unwrapped by us (-want +got):\n%s", diff)
	}

	// Our wrapping, their unwrapping.
	var v03part v03sdk.ContentParts
	ourPart := toV03Part(Part{Data: json.RawMessage(`"just a string"`), Metadata: json.RawMessage(`{"k":1}`)})
	if err := json.Unmarshal(mustMarshal(t, []v03Part{ourPart}), &v03part); err != nil {
		t.Fatalf("0.3 SDK rejects our wrapped data: %v", err)
	}
	back := a2av0.ToV1Part(v03part[0])
	want := &sdk.Part{Content: sdk.Data{Value: "just a string"}, Metadata: map[string]any{"k": 1.0}}
	if diff := cmp.Diff(want, back); diff != "" {
		t.Errorf("our wrapped data, unwrapped by the bridge (-want +got):\n%s", diff)
	}
}

// TestFromV03Errors: malformed 0.3 input is refused with a reason a
// learner can act on.
func TestFromV03Errors(t *testing.T) {
	tests := []struct {
		name    string
		message string // a 0.3 message
		want    string // part of the error
	}{
		{"part without kind", `{"role":"user","parts":[{"text":"hi"}]}`, `part 0: part has no "kind"`},
		{"unknown part kind", `{"role":"user","parts":[{"kind":"image"}]}`, `part kind "image"`},
		{"text without text", `{"role":"user","parts":[{"kind":"text"}]}`, `needs a "text" field`},
		{"file without file", `{"role":"user","parts":[{"kind":"file"}]}`, `needs a "file" object`},
		{"file with neither", `{"role":"user","parts":[{"kind":"file","file":{"name":"a.txt"}}]}`, `needs "bytes"`},
		{"file with both", `{"role":"user","parts":[{"kind":"file","file":{"bytes":"aGk=","uri":"https://x"}}]}`, `not both`},
		{"bytes not base64", `{"role":"user","parts":[{"kind":"file","file":{"bytes":"h!"}}]}`, `standard base64`},
		{"data not object", `{"role":"user","parts":[{"kind":"data","data":[1]}]}`, `must be a JSON object`},
		{"data missing", `{"role":"user","parts":[{"kind":"data"}]}`, `needs a "data" object`},
		{"1.0 role", `{"role":"ROLE_USER","parts":[]}`, `"user" or "agent"`},
		{"wrong kind", `{"kind":"task","role":"user","parts":[]}`, `expected a message`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fromV03Message(decodeAs[v03Message](t, []byte(tt.message)))
			if err == nil {
				t.Fatalf("fromV03Message(%s) succeeded, want an error", tt.message)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}

	for _, raw := range []string{`{"id":"t"}`, `{"task":{"id":"t"}}`, `{"kind":"tasks"}`} {
		if _, _, err := fromV03Event(json.RawMessage(raw)); err == nil {
			t.Errorf("fromV03Event(%s) succeeded, want an error", raw)
		}
	}
}

// serveCard serves data at /.well-known/agent-card.json, as our server
// will, and returns the base URL.
func serveCard(t *testing.T, data []byte) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(data)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestCardJSONReadableByBoth serves CardJSON's document and resolves it
// with each SDK's card resolver, and with the v2 SDK's 0.3-aware parser.
func TestCardJSONReadableByBoth(t *testing.T) {
	data, err := CardJSON(sampleCard())
	if err != nil {
		t.Fatalf("CardJSON: %v", err)
	}
	base := serveCard(t, data)
	ctx := context.Background()

	t.Run("v2 SDK", func(t *testing.T) {
		got, err := (&agentcard.Resolver{}).Resolve(ctx, base)
		if err != nil {
			t.Fatalf("v2 resolver rejects the card: %v\n%s", err, data)
		}
		if diff := cmp.Diff(sdkSampleCard(), *got, cmpWire...); diff != "" {
			t.Errorf("v2 SDK read the card differently (-want +got):\n%s", diff)
		}
	})

	t.Run("v2 SDK, 0.3-aware parser", func(t *testing.T) {
		got, err := (&agentcard.Resolver{CardParser: a2av0.NewAgentCardParser()}).Resolve(ctx, base)
		if err != nil {
			t.Fatalf("a2av0 parser rejects the card: %v", err)
		}
		if diff := cmp.Diff(sdkSampleCard(), *got, cmpWire...); diff != "" {
			t.Errorf("a2av0 parser read the card differently (-want +got):\n%s", diff)
		}
	})

	t.Run("0.3 SDK", func(t *testing.T) {
		got, err := v03card.NewResolver(nil).Resolve(ctx, base)
		if err != nil {
			t.Fatalf("0.3 resolver rejects the card: %v\n%s", err, data)
		}
		want := v03sdk.AgentCard{
			Name:               "weather",
			Description:        "Answers questions about the weather.",
			URL:                "http://127.0.0.1:8080/a2a",
			ProtocolVersion:    "0.3.0",
			PreferredTransport: v03sdk.TransportProtocolJSONRPC,
			AdditionalInterfaces: []v03sdk.AgentInterface{
				{URL: "http://127.0.0.1:8080/a2a", Transport: v03sdk.TransportProtocolJSONRPC}},
			Provider:           &v03sdk.AgentProvider{URL: "https://example.com", Org: "wirelab"},
			Version:            "0.1.0",
			Capabilities:       v03sdk.AgentCapabilities{Streaming: true},
			SecuritySchemes:    v03sdk.NamedSecuritySchemes{"bearer": v03sdk.HTTPAuthSecurityScheme{Scheme: "Bearer"}},
			DefaultInputModes:  []string{"text/plain"},
			DefaultOutputModes: []string{"text/plain", "application/json"},
			Skills: []v03sdk.AgentSkill{{ID: "forecast", Name: "Forecast", Description: "Tomorrow's weather.",
				Tags: []string{"weather", "forecast"}, Examples: []string{"Will it rain in Lisbon?"}}},
		}
		if diff := cmp.Diff(want, *got, cmpWire...); diff != "" {
			t.Errorf("0.3 SDK read the card differently (-want +got):\n%s", diff)
		}
	})

	// A strict ProtoJSON parser refuses the 0.3 keys; one that discards
	// unknown fields, as ProtoJSON allows, reads the 1.0 card.
	t.Run("ProtoJSON", func(t *testing.T) {
		if err := protojson.Unmarshal(data, &a2apb.AgentCard{}); err == nil {
			t.Error("strict ProtoJSON accepted the 0.3 keys; expected an unknown-field error")
		}
		var pb a2apb.AgentCard
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(data, &pb); err != nil {
			t.Fatalf("ProtoJSON ignoring unknown fields rejects the card: %v", err)
		}
		if got := pb.GetSecuritySchemes()["bearer"].GetHttpAuthSecurityScheme().GetScheme(); got != "Bearer" {
			t.Errorf("bearer scheme = %q, want Bearer", got)
		}
	})
}

// TestCardJSONSecurity: the 0.3 "security" list is derived from 1.0's
// securityRequirements, which the 0.3 SDK reads. (The v2 SDK cannot read
// the 1.0 form: see TestV2SDKRejectsSpecSecurityRequirements.)
func TestCardJSONSecurity(t *testing.T) {
	card := sampleCard()
	card.Capabilities.ExtendedAgentCard = ptr(true)
	card.SecurityRequirements = []SecurityRequirement{
		{Schemes: map[string]StringList{"bearer": {List: []string{"forecast:read"}}}},
		{Schemes: map[string]StringList{"bearer": {}}},
	}
	data, err := CardJSON(card)
	if err != nil {
		t.Fatalf("CardJSON: %v", err)
	}
	got := decodeAs[v03sdk.AgentCard](t, data)
	want := []v03sdk.SecurityRequirements{{"bearer": {"forecast:read"}}, {"bearer": {}}}
	if diff := cmp.Diff(want, got.Security); diff != "" {
		t.Errorf("0.3 security (-want +got):\n%s", diff)
	}
	if !got.SupportsAuthenticatedExtendedCard {
		t.Error("supportsAuthenticatedExtendedCard not set from capabilities.extendedAgentCard")
	}
	if !strings.Contains(string(data), `"bearer": []`) {
		t.Errorf("empty scope list not written as []:\n%s", data)
	}
	// The 1.0 form is left out, so that the v2 SDK can read the card.
	if strings.Contains(string(data), "securityRequirements") {
		t.Errorf("1.0 securityRequirements written; the v2 SDK rejects them:\n%s", data)
	}
	var v2 sdk.AgentCard
	if err := json.Unmarshal(data, &v2); err != nil {
		t.Errorf("the v2 SDK cannot read the card: %v", err)
	}
}

func TestCardJSONPicksInterface(t *testing.T) {
	tests := []struct {
		name    string
		ifaces  []AgentInterface
		wantURL string // "" means an error
	}{
		{"first JSONRPC", []AgentInterface{
			{URL: "grpc://a", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"},
			{URL: "http://b", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"},
			{URL: "http://c", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}}, "http://b"},
		{"0.3 preferred", []AgentInterface{
			{URL: "http://b", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"},
			{URL: "http://c", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"}}, "http://c"},
		{"no JSONRPC", []AgentInterface{{URL: "grpc://a", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}}, ""},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			card := sampleCard()
			card.SupportedInterfaces = tt.ifaces
			data, err := CardJSON(card)
			if tt.wantURL == "" {
				if err == nil {
					t.Fatalf("CardJSON succeeded, want an error: %s", data)
				}
				return
			}
			if err != nil {
				t.Fatalf("CardJSON: %v", err)
			}
			if got := decodeAs[v03sdk.AgentCard](t, data).URL; got != tt.wantURL {
				t.Errorf("url = %q, want %q", got, tt.wantURL)
			}
		})
	}
}

// The card one agent serves to clients of both revisions: the 1.0 card,
// then the 0.3 fields, and security schemes in both spellings at once.
func ExampleCardJSON() {
	card := AgentCard{
		Name:        "echo",
		Description: "Says back what it is told.",
		SupportedInterfaces: []AgentInterface{
			{URL: "http://127.0.0.1:8080/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"}},
		Version:            "1.0.0",
		Capabilities:       AgentCapabilities{Streaming: ptr(true)},
		SecuritySchemes:    map[string]SecurityScheme{"bearer": {HTTPAuthSecurityScheme: &HTTPAuthSecurityScheme{Scheme: "Bearer"}}},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []AgentSkill{{ID: "echo", Name: "Echo", Description: "Echoes text.", Tags: []string{"demo"}}},
	}
	data, err := CardJSON(card)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(data))
	// Output:
	// {
	//   "name": "echo",
	//   "description": "Says back what it is told.",
	//   "supportedInterfaces": [
	//     {
	//       "url": "http://127.0.0.1:8080/a2a",
	//       "protocolBinding": "JSONRPC",
	//       "protocolVersion": "1.0"
	//     }
	//   ],
	//   "version": "1.0.0",
	//   "capabilities": {
	//     "streaming": true
	//   },
	//   "defaultInputModes": [
	//     "text/plain"
	//   ],
	//   "defaultOutputModes": [
	//     "text/plain"
	//   ],
	//   "skills": [
	//     {
	//       "id": "echo",
	//       "name": "Echo",
	//       "description": "Echoes text.",
	//       "tags": [
	//         "demo"
	//       ]
	//     }
	//   ],
	//   "protocolVersion": "0.3.0",
	//   "url": "http://127.0.0.1:8080/a2a",
	//   "preferredTransport": "JSONRPC",
	//   "additionalInterfaces": [
	//     {
	//       "url": "http://127.0.0.1:8080/a2a",
	//       "transport": "JSONRPC"
	//     }
	//   ],
	//   "securitySchemes": {
	//     "bearer": {
	//       "httpAuthSecurityScheme": {
	//         "scheme": "Bearer"
	//       },
	//       "type": "http",
	//       "scheme": "Bearer"
	//     }
	//   }
	// }
}
