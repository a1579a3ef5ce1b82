// The connection doctor: when an exchange with the learner's own server
// fails, it says which step failed and what to change, beside the row
// that shows the failure. It reads what the transcript already holds (a
// refusal's message, an answer's status and headers, a stdio server's
// lines and exit) and the request that was sent, and knows each
// protocol's classic mistakes:
//
//   - connecting: refused, a name that does not resolve, no answer in time;
//   - TLS: an unknown authority, another name, a plain server behind
//     https://, a TLS server behind http://, a server that wants a
//     client certificate (mutual TLS) it did not get;
//   - HTTP: 404 on the path (or, with Mcp-Session-Id, a session the
//     server no longer knows), 405, 406, 415;
//   - MCP revisions: 400 from a server that wants a session, or refuses
//     the MCP-Protocol-Version sent, or does not speak 2026-07-28; an
//     error for server/discover; an unsupported revision;
//   - authorization: 401 with or without resource metadata, 403;
//   - stdio: a line on stdout that is not JSON, a server that exits
//     before it answers, a program that does not start;
//   - A2A: no card at the URL, no endpoint at the path.
//
//   import { diagnose } from "./doctor.js";
//   const d = diagnose(row, request, ctx);  // {key, args: [step args], more: [change args]} or null
//
// The words are the page's (console_text.go, ownText.Doctor), in its
// language; adviceFor() puts the arguments in.

// diagnose says what failed in row, a row of the transcript that comes
// from the learner's own server (or a refusal of an exchange with it).
// request is the row of the request it answers, if any; ctx says what
// the page knows: {slug, version (the revision initialize answered),
// answered (whether the stdio server has answered since it started),
// host (where the exchange went)}.
export function diagnose(row, request, ctx) {
  if (row.old) return null;
  if (row.kind === "refused") return refusal(row.text || "", ctx);
  // row.notJSON, since the summary is in the page's language; "not JSON"
  // for rows made before it.
  if (row.kind === "line" && row.dir === "in" && (row.notJSON || row.summary === "not JSON")) return { key: "noise", args: [], more: [] };
  if (row.kind === "exit" && !ctx.answered && !/was stopped|сервер остановлен/.test(row.text)) return { key: "exitEarly", args: [ctx.host], more: [] };
  if (row.kind === "http" && row.dir === "in") return answer(row, request, ctx);
  if ((row.kind === "line" || row.kind === "sse") && row.dir === "in") return rpcError(row, request, ctx);
  return null;
}

// refusal reads the playground's refusal of an exchange: the Go error
// of the connection, the handshake or the start of a program. The
// playground words it in the page's language (playground/wire,
// notes_text.go), so each step is matched in English and in Russian;
// Go's own errors inside ("connection refused") are English in both.
function refusal(text, ctx) {
  const host = ctx.host;
  if (/could not start|не удалось запустить/.test(text)) return { key: "notStarted", args: [host], more: [] };
  if (/connection refused/.test(text)) return { key: "refused", args: [host], more: [] };
  if (/no such host|server misbehaving/.test(text)) return { key: "dns", args: [host], more: [] };
  if (/sent no client certificate|refused the client certificate|не отправила сертификат клиента|отверг сертификат клиента/.test(text)) return { key: "tlsClientCert", args: [host], more: [] };
  if (/unknown authority|неизвестный удостоверяющий центр/.test(text)) return { key: "tlsUnknown", args: [host], more: [] };
  if (/wrong name|чужое имя/.test(text)) return { key: "tlsName", args: [host], more: [] };
  if (/does not speak TLS|не поддерживает TLS/.test(text)) return { key: "tlsPlain", args: [host], more: [] };
  // A TLS server answers a plaintext request with a TLS alert record:
  // bytes 0x15 0x03, which Go's HTTP reader calls a malformed answer.
  if (/malformed HTTP (response|status)/.test(text) && /\\x15\\x03|\\x16\\x03/.test(text)) return { key: "plainToTLS", args: [host], more: [] };
  if (/i\/o timeout|stopped after|остановлено через/.test(text)) return { key: "timeout", args: [host], more: [] };
  return null;
}

// answer reads an HTTP answer's status line and headers, against the
// request it answers.
function answer(row, request, ctx) {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(row.text);
  if (!m) return null;
  const status = Number(m[1]);
  const req = request ? request.text : "";
  const line = req.split("\n")[0].trim();
  const [method, path] = line.split(/\s+/);
  const asked = method + " " + (path || "");
  const header = (name) => {
    const h = new RegExp("^" + name + ":[ \\t]*(.*)$", "im").exec(req);
    return h ? h[1].trim() : "";
  };
  const body = req.includes("\n\n") ? req.slice(req.indexOf("\n\n") + 2) : "";
  const modern = /io\.modelcontextprotocol\/protocolVersion|^mcp-method:/im.test(req);
  const said = row.text.slice(row.text.indexOf("\n")); // the head after the status line, and the body
  if (ctx.slug === "a2a") {
    if (status === 404 && method === "GET") return { key: "cardMissing", args: [asked], more: [] };
    if (status === 404) return { key: "a2aNotFound", args: [asked], more: [path] };
  }
  switch (status) {
    case 404:
      if (header("mcp-session-id")) return { key: "sessionGone", args: [], more: [] };
      return { key: "notFound", args: [asked], more: [path] };
    case 405:
      return { key: "method", args: [asked], more: [method] };
    case 406:
      return { key: "accept", args: [asked], more: [] };
    case 415:
      return { key: "contentType", args: [asked], more: [] };
    case 401: {
      const meta = /resource_metadata="?([^",\s]+)/i.exec(said);
      return meta ? { key: "authMeta", args: [], more: [meta[1]] } : { key: "auth", args: [], more: [] };
    }
    case 403:
      return { key: "forbidden", args: [asked], more: [] };
    case 400: {
      if (ctx.slug !== "mcp") return null;
      const sent = header("mcp-protocol-version");
      if (modern) return { key: "legacy", args: [], more: [] };
      if (sent && /version/i.test(said) && sent !== ctx.version) return { key: "version", args: [], more: [sent, ctx.version || "?"] };
      if (sent && /protocol.?version/i.test(said)) return { key: "version", args: [], more: [sent, ctx.version || "?"] };
      if (!header("mcp-session-id") && !/"method"\s*:\s*"initialize"/.test(body)) return { key: "noSession", args: [], more: [] };
      return null;
    }
  }
  // A JSON body with a JSON-RPC error is read as one.
  return rpcError(row, request, ctx);
}

// rpcError reads a JSON-RPC error that says the revision is wrong.
function rpcError(row, request, ctx) {
  if (ctx.slug !== "mcp") return null;
  const text = row.kind === "sse" ? row.sseData || "" : row.kind === "http" ? row.text.slice(row.text.indexOf("\n\n") + 2) : row.text;
  let msg;
  try {
    msg = JSON.parse(text);
  } catch (e) {
    return null;
  }
  if (!msg || !msg.error) return null;
  const req = request ? request.text : "";
  if (/"method"\s*:\s*"server\/discover"/.test(req) && msg.error.code !== -32022) return { key: "discoverLegacy", args: [], more: [] };
  const supported = msg.error.data && (msg.error.data.supported || msg.error.data.supportedVersions);
  if (msg.error.code === -32022 || /unsupported protocol version/i.test(msg.error.message || "")) {
    return { key: "unsupported", args: [], more: [Array.isArray(supported) ? supported.join(", ") : "?"] };
  }
  return null;
}

// adviceFor puts a diagnosis in words: {step, change} from the page's text.
export function adviceFor(d, text) {
  const advice = text[d.key];
  if (!advice) return null;
  let i = 0;
  const step = advice.step.replace(/%s/g, () => (d.args[i++] ?? ""));
  i = 0;
  const change = advice.change.replace(/%s/g, () => (d.more[i++] ?? ""));
  return { step: step, change: change };
}
