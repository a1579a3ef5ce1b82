package frames

import (
	"encoding/base64"
	"fmt"

	"github.com/wirelab/wirelab/exercises"
)

// frames-grpc-deadline: a deadline travels in the grpc-timeout header.
// When it passes, the call ends DEADLINE_EXCEEDED with no response
// message; usually the client resets the stream (RST_STREAM CANCEL) and
// no grpc-status comes from the server at all, and the playground's
// first line shows the status the client concluded. The same call with
// a longer deadline then succeeds.

// deadline says which deadline a call had, as a learner would read it.
func (c grpcCall) deadline() exercises.Text {
	if c.timeout == "" {
		return text("with no grpc-timeout line (the playground's own one-minute deadline)",
			"без строки grpc-timeout (действовал собственный дедлайн площадки, одна минута)")
	}
	return text("with grpc-timeout %s", "с grpc-timeout %s", c.timeout)
}

func checkGRPCDeadline(events []Event) []Step {
	calls := grpcCalls(events)
	steps := make([]Step, 0, 2)

	// Step 1: deploy_service runs out of time.
	name := text("Call deploy_service with a deadline shorter than the deploy takes: DEADLINE_EXCEEDED",
		"Вызовите deploy_service с дедлайном короче, чем длится деплой: DEADLINE_EXCEEDED")
	var seen notes
	sent := map[int64]bool{}
	for _, c := range calls {
		sent[c.id] = true
	}
	for _, e := range events {
		if e.Op == "error" && !sent[e.ID] {
			seen.add(text("The playground refused a frame: %s", "Площадка отклонила кадр: %s", sentence(e.Message)))
		}
	}
	first := -1
	for i, c := range calls {
		if c.tool == "deploy_service" && c.status == "DEADLINE_EXCEEDED" {
			first = i
			break
		}
		switch {
		case c.tool == "deploy_service" && c.status == "OK":
			seen.add(text("deploy_service %s ended OK: the deploy finished before the deadline. Make the deadline shorter (m means milliseconds).",
				"deploy_service %s завершился OK: деплой успел до дедлайна. Сократите дедлайн (m — это миллисекунды).", c.deadline()))
		case c.status == "DEADLINE_EXCEEDED":
			seen.add(text("%s ran out of time too, but this exercise is about the slow tool: call deploy_service.",
				"%s тоже не уложился в срок, но упражнение про медленный инструмент: вызовите deploy_service.", c.tool))
		case c.answered:
			seen.add(text("%s ended %s (%s). Call deploy_service, with a grpc-timeout line between the method and the JSON.",
				"%s завершился %s (%s). Вызовите deploy_service, со строкой grpc-timeout между методом и JSON.", c.tool, c.status, short(c.message)))
		case c.refused != "":
			seen.add(text("The playground refused the call: %s", "Площадка отклонила вызов: %s", sentence(c.refused)))
		}
	}
	if first < 0 {
		return append(steps, missing(name, seen.or(text(
			"No gRPC call yet. Open the gRPC console (/console/grpc) and call ExecuteTool with deploy_service.",
			"gRPC-вызовов пока не было. Откройте gRPC-консоль (/console/grpc) и вызовите ExecuteTool с deploy_service."))),
			waiting(textLonger()))
	}
	c := calls[first]
	how := text("no grpc-status came from the server: the client gave up at the deadline and reset the stream (RST_STREAM), so DEADLINE_EXCEEDED is the client's own conclusion",
		"grpc-status от сервера не пришёл: клиент сдался по дедлайну и сбросил поток (RST_STREAM), так что DEADLINE_EXCEEDED — вывод самого клиента")
	if c.trailers {
		how = text("the server's trailers carry the status, grpc-status 4", "статус пришёл в трейлерах сервера: grpc-status 4")
	}
	steps = append(steps, done(name, text("deploy_service %s ended DEADLINE_EXCEEDED with no response message; %s.",
		"deploy_service %s завершился DEADLINE_EXCEEDED без ответного сообщения; %s.", c.deadline(), how)))

	// Step 2: the same tool with a deadline long enough.
	name = textLonger()
	detail := text("No deploy_service call since the one that ran out of time. Call it again with a longer grpc-timeout.",
		"После вызова, не уложившегося в срок, deploy_service больше не вызывали. Повторите вызов с grpc-timeout подлиннее.")
	for _, c := range calls[first+1:] {
		if c.tool != "deploy_service" {
			continue
		}
		switch c.status {
		case "OK":
			return append(steps, done(name, text("deploy_service %s ended OK: the response message came, then the trailers with grpc-status 0.",
				"deploy_service %s завершился OK: пришло ответное сообщение, затем трейлеры с grpc-status 0.", c.deadline())))
		case "DEADLINE_EXCEEDED":
			detail = text("deploy_service %s ran out of time again: the deploy takes longer than that.",
				"deploy_service %s снова не уложился в срок: деплой длится дольше.", c.deadline())
		case "":
		default:
			detail = text("deploy_service ended %s (%s).", "deploy_service завершился %s (%s).", c.status, short(c.message))
		}
	}
	return append(steps, missing(name, detail))
}

func textLonger() exercises.Text {
	return text("Call deploy_service again with a deadline long enough: OK",
		"Повторите вызов deploy_service с достаточным дедлайном: OK")
}

// deployFrame is an ExecuteTool call of deploy_service with a deadline.
// arguments is a bytes field, and ProtoJSON writes bytes as base64.
func deployFrame(timeout string) string {
	args := base64.StdEncoding.EncodeToString([]byte(`{"service":"api","env":"staging"}`))
	return fmt.Sprintf("tools.v1.ToolServer/ExecuteTool\ngrpc-timeout: %s\n{\"toolName\":\"deploy_service\",\"arguments\":%q}", timeout, args)
}

func grpcDeadlineSolution() []Frame {
	// 1m is one millisecond, far less than any deploy; 30S is thirty
	// seconds, far more.
	return []Frame{
		{Target: "grpc", Text: deployFrame("1m")},
		{Target: "grpc", Text: deployFrame("30S")},
	}
}
