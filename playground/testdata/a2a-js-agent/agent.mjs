// An A2A agent written with the official A2A JavaScript SDK
// (@a2a-js/sdk, A2A 1.0), for the playground's browser tests: the A2A
// console pointed at an agent wirelab did not write. It has two skills:
//
//   - shout: a task that completes at once, its artifact the text of the
//     message upper-cased;
//   - order coffee: a task that stops in TASK_STATE_INPUT_REQUIRED to ask
//     which size, and completes when a second message on the same task
//     answers.
//
// It serves its card at /.well-known/agent-card.json and JSON-RPC at
// /a2a/jsonrpc (a path of its own, which only the card tells), on
// 127.0.0.1, and prints its base URL on stdout once it listens. It needs
// no network.
//
// Usage: node agent.mjs [port]   (0 or none: any free port)
// The SDK and express are found in a node_modules beside this file
// (.ci/a2a-js-install installs them).
import http from "node:http";
import { randomUUID } from "node:crypto";
import express from "express";
import { A2A_PROTOCOL_VERSION, AGENT_CARD_PATH, Role, TaskState } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";

const rpcPath = "/a2a/jsonrpc";

// card is the agent card, naming the JSON-RPC endpoint at base.
function card(base) {
  const skill = (id, name, description, example) => ({
    id,
    name,
    description,
    tags: ["test"],
    examples: [example],
    inputModes: ["text/plain"],
    outputModes: ["text/plain"],
    securityRequirements: [],
  });
  return {
    name: "Shouting Barista",
    description: "Shouts back what it is told, and takes coffee orders.",
    supportedInterfaces: [{ url: base + rpcPath, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: { organization: "wirelab tests", url: "http://127.0.0.1/" },
    version: "1.0.0",
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [
      skill("shout", "Shout", "Answers with the message upper-cased.", "read the wire"),
      skill("order-coffee", "Order coffee", "Asks which size, then confirms the order.", "order coffee"),
    ],
    documentationUrl: "",
    signatures: [],
  };
}

// textPart is a Part holding text, in the SDK's own shape (a oneof as
// {$case, value}); the SDK writes it on the wire as {"text": ...}.
const textPart = (text) => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" });

// textOf is the text of a message's first text part.
function textOf(message) {
  const p = message.parts.find((p) => p.content?.$case === "text");
  return p ? p.content.value.trim() : "";
}

function agentMessage(taskId, contextId, text) {
  return { role: Role.ROLE_AGENT, messageId: randomUUID(), parts: [textPart(text)], taskId, contextId, extensions: [], metadata: {}, referenceTaskIds: [] };
}

// Barista is the executor: every turn publishes the task first, as the
// SDK requires, then its artifact and its new status.
class Barista {
  async execute(ctx, bus) {
    const { taskId, contextId, userMessage } = ctx;
    const text = textOf(userMessage);
    // A task the message continues is working again: a stream that
    // opened with it still waiting would read as finished, since a
    // stream ends at an interrupted state.
    const now = (state) => ({ state, timestamp: new Date().toISOString(), message: undefined });
    const task = ctx.task
      ? { ...ctx.task, status: now(TaskState.TASK_STATE_WORKING) }
      : { id: taskId, contextId, status: now(TaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [userMessage], metadata: {} };
    bus.publish(AgentEvent.task(task));
    const status = (state, said) => bus.publish(AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: { state, timestamp: new Date().toISOString(), message: said ? agentMessage(taskId, contextId, said) : undefined },
      metadata: {},
    }));
    const result = (text) => bus.publish(AgentEvent.artifactUpdate({
      taskId,
      contextId,
      artifact: { artifactId: randomUUID(), name: "result", description: "", parts: [textPart(text)], metadata: undefined, extensions: [] },
      append: false,
      lastChunk: true,
      metadata: {},
    }));

    // The answer to the size question: a message on a task that waits.
    if (ctx.task && ctx.task.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      const size = text.toLowerCase();
      if (!["small", "medium", "large"].includes(size)) {
        status(TaskState.TASK_STATE_INPUT_REQUIRED, "Small, medium or large?");
        return;
      }
      result("One " + size + " coffee, coming up.");
      status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    if (/coffee/i.test(text)) {
      status(TaskState.TASK_STATE_INPUT_REQUIRED, "Which size: small, medium or large?");
      return;
    }
    result(text.toUpperCase());
    status(TaskState.TASK_STATE_COMPLETED);
  }

  async cancelTask(taskId, bus) {
    bus.publish(AgentEvent.statusUpdate({
      taskId,
      contextId: "",
      status: { state: TaskState.TASK_STATE_CANCELED, timestamp: new Date().toISOString(), message: undefined },
      metadata: {},
    }));
  }
}

const port = Number(process.argv[2] ?? 0);
const server = http.createServer();
server.listen(port, "127.0.0.1", () => {
  // The card names the endpoint by the port actually bound, so the app
  // is made once it is known.
  const base = "http://127.0.0.1:" + server.address().port;
  const handler = new DefaultRequestHandler(card(base), new InMemoryTaskStore(), new Barista());
  const app = express();
  app.use("/" + AGENT_CARD_PATH, agentCardHandler({ agentCardProvider: handler }));
  app.use(rpcPath, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  server.on("request", app);
  console.log(base);
});

// The test that starts the agent stops it with a signal.
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.close(() => process.exit(0)));
